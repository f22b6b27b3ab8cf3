// What a second thread gains on this machine by itself, apart from the engine: the ceiling
// against which laneql_thread_scaling_bench's 1-to-2-thread speed-ups are read.
//
// Each probe runs the same work on 1 thread, then on 2 threads at once (each on data of its own,
// so nothing is shared but the hardware), and reports the throughput gain 2 * t(1) / t(2), best
// of 3: 2.0x where the two threads do not slow each other down. The probes span what queries
// do: arithmetic in registers, random updates of a table that stays in a core's caches, of one
// about half the shared L3 per thread, of one in memory, and sequential reads of memory. On the
// 2-vCPU development VM (seven runs) the arithmetic and the in-cache updates gained 1.95-2.0x,
// the updates in L3 1.2-1.8x, in memory 1.7-1.9x, and the sequential reads 1.06-1.78x (25-32
// GB/s on one thread, 29-55 GB/s on two), varying from run to run with the host's other load:
// a query whose time is reading memory, or a table filling the L3, cannot reach 1.8x there
// while the host is busy.
#ifndef LANEQL_BENCH_MACHINE_SCALING_H_
#define LANEQL_BENCH_MACHINE_SCALING_H_

namespace laneql::bench {

// Runs the probes (about 10 s, 1.5 GB of memory) and prints a table of their gains.
void PrintMachineScaling();

}  // namespace laneql::bench

#endif  // LANEQL_BENCH_MACHINE_SCALING_H_
