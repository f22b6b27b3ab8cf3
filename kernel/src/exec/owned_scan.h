// The owned scan's batches, prepared once and shared by the owners.
//
// In an owned scan (group_owned.h) every thread folds in the rows whose GROUP BY key hashes to
// it, from every batch. Evaluating, packing or serialising and hashing the keys of every row on
// every thread made that work grow with the threads: for GROUP BY WatchID, ClientIP behind a
// WHERE it was about a quarter of a one-thread run, so two threads gained 1.1-1.3x. Here each
// batch is prepared by one thread (AggregateWorker::PrepareBatch: its selected rows, key
// Vecs, words and hashes), and each owner then inserts its own rows of it.
//
// The prepared batches live in a ring of slots. Each thread takes the batches in order; when
// its next batch is not ready it prepares the next unprepared one instead (whichever thread is
// free does the shared work), and a slot is reused once every owner has taken its rows. An
// owner ahead of the others waits only when the ring is full, so a thread the system stalls
// for a while does not stop the others at once, and no barrier is needed.
#ifndef LANEQL_EXEC_OWNED_SCAN_H_
#define LANEQL_EXEC_OWNED_SCAN_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/aggregate_worker.h"
#include "src/exec/exec_context.h"

namespace laneql {
namespace exec {

class PreparedBatchRing {
 public:
  // `batches` of the table for `owners` threads, all of which must call Run concurrently
  // (ThreadPool::Run starts each on its own thread).
  PreparedBatchRing(size_t batches, int owners);

  // Thread `thread`'s part, with its worker (an owner: SetOwnership or SetValueOwnership):
  // returns when it has taken every batch, or early once `failed` is set or the query is
  // stopped (the caller reports that). When this thread fails it writes *error and sets
  // `failed`.
  void Run(AggregateWorker* worker, int thread, const ExecContext& ctx, std::atomic<bool>* failed,
           std::string* error);

 private:
  // alignas(64): each slot's state is written by the thread that prepares it and by the owners
  // that finish with it, which would otherwise also touch a neighbouring slot's line.
  struct alignas(64) Slot {
    // 2b: free for batch b; 2b + 1: batch b is ready.
    std::atomic<uint64_t> state{0};
    std::atomic<int> owners_left{0};  // owners still to take their rows of the ready batch
    PreparedBatch batch;
  };
  static_assert(alignof(Slot) == 64, "each slot's atomics on a cache line of their own");

  size_t batches_;
  int owners_;
  std::vector<std::unique_ptr<Slot>> slots_;
  alignas(64) std::atomic<size_t> next_prepare_{0};  // the next batch nobody has claimed
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_OWNED_SCAN_H_
