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
// A slot's batch is written into the buffer freed last (a stack of them, under a mutex taken
// twice per batch), not into a buffer of its own: the owners usually run a batch or two apart,
// so a few buffers go round while still in the caches, where 64 slots' own buffers (25 MB for
// GROUP BY WatchID, ClientIP) were each cold again by their turn, written and read back
// through memory.
#ifndef LANEQL_EXEC_OWNED_SCAN_H_
#define LANEQL_EXEC_OWNED_SCAN_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
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
    PreparedBatch* batch = nullptr;   // while ready: one of buffers_
  };
  static_assert(alignof(Slot) == 64, "each slot's atomics on a cache line of their own");

  // The buffer freed last (a new one when none is free), and back once every owner is done.
  PreparedBatch* TakeBuffer();
  void ReturnBuffer(PreparedBatch* buffer);

  size_t batches_;
  int owners_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::mutex buffers_mutex_;
  std::vector<std::unique_ptr<PreparedBatch>> buffers_;  // every buffer made, at most one a slot
  std::vector<PreparedBatch*> free_buffers_;             // a stack: the last freed on top
  alignas(64) std::atomic<size_t> next_prepare_{0};  // the next batch nobody has claimed
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_OWNED_SCAN_H_
