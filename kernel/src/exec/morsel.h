// Morsel-driven scheduling: a pipeline's rows are cut into morsels of whole batches, and every
// thread takes the next morsel from one shared atomic cursor until none is left. A thread that
// runs slower (a busy core, a batch full of matches) simply takes fewer morsels.
#ifndef LANEQL_EXEC_MORSEL_H_
#define LANEQL_EXEC_MORSEL_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <string>
#include <vector>

#include "laneql/system_info.h"
#include "src/exec/exec_context.h"
#include "src/exec/executor.h"

namespace laneql {
namespace exec {

// The cursor sits alone on its cache line: every thread writes it once per morsel, and a
// neighbour on the same line would be invalidated on each of those writes.
struct alignas(64) MorselCursor {
  std::atomic<size_t> next{0};
  // The index of the next morsel to run.
  size_t Take() { return next.fetch_add(1, std::memory_order_relaxed); }
};
static_assert(sizeof(MorselCursor) == 64, "the morsel cursor must own a whole cache line");

// The thread count for a pipeline over `rows` rows: 1 below `min_rows` (waking a worker costs
// tens of microseconds, more than scanning a few batches, and lightweight queries must stay
// cheap), never more threads than batches, and 1 for no rows (no batch; with min_rows 0 an
// empty table got 0 threads, and no worker for the state its answer is read from).
inline int ThreadsFor(size_t rows, int threads, size_t min_rows) {
  if (rows == 0 || rows < min_rows || threads <= 1) return 1;
  const size_t batches = (rows + kBatchRows - 1) / kBatchRows;
  return static_cast<int>(std::min<size_t>(static_cast<size_t>(threads), batches));
}

// Batches per morsel: about 8 morsels per thread, so the cursor can even out uneven threads at
// the end, but at most 64 batches (1 M rows) so the last morsel is not a long tail, and at
// least one.
inline size_t MorselBatches(size_t batches, int threads) {
  const size_t per_thread = batches / (static_cast<size_t>(std::max(threads, 1)) * 8);
  return std::clamp<size_t>(per_thread, 1, 64);
}

// A pipeline's morsels over batches [first, end), in row order. While much is left, a morsel
// is MorselBatches' size; then (with more than one thread) each takes 1/(2 x threads) of what
// is left, down to one batch ("guided" scheduling): with equal morsels to the end, the thread
// taking the last one ran up to a whole morsel (4 ms in Q27 on 2 threads) after the others had
// finished; now the threads end within about a batch of each other. The cursor hands out
// indexes into this plan.
// With a `granule`, every morsel but the last is a whole number of granules from `first`
// (grouped batch partials fold units of batches, each by one thread).
class MorselPlan {
 public:
  MorselPlan(size_t first, size_t end, int threads, size_t granule = 1) {
    const size_t units = (end - first + granule - 1) / granule;
    const size_t cap = std::max<size_t>(MorselBatches(end - first, threads) / granule, 1);
    const size_t shares = 2 * static_cast<size_t>(std::max(threads, 1));
    starts_.push_back(first);
    for (size_t at = 0; at < units;) {
      const size_t left = units - at;
      const size_t size = threads <= 1 ? cap : std::clamp<size_t>((left + shares - 1) / shares, 1, cap);
      at += std::min(size, left);
      starts_.push_back(std::min(first + at * granule, end));
    }
  }
  size_t size() const { return starts_.size() - 1; }
  // Morsel m's batches: [Begin(m), End(m)).
  size_t Begin(size_t m) const { return starts_[m]; }
  size_t End(size_t m) const { return starts_[m + 1]; }

 private:
  std::vector<size_t> starts_;  // size() + 1 bounds
};

// Threads worth waking for `tasks` independent tasks: no more than tasks, nor than the
// machine's logical processors. A database may have more threads than cores (--threads 64 on
// 2), which its scans keep as per-thread states; a phase of independent tasks gains nothing
// from threads beyond the processors, and they time-slice each other: the merge spans of the
// 43 queries on 1 M rows added up to 1,053 ms of thread time at 8 threads on 2 cores and
// 2,104 ms at 64; capped, 506 and 540 ms (the same work, no longer stretched).
inline int TaskThreads(int threads, size_t tasks) {
  static const int processors = std::max(LogicalProcessors(), 1);
  return static_cast<int>(std::min<size_t>({static_cast<size_t>(std::max(threads, 1)), tasks == 0 ? 1 : tasks,
                                            static_cast<size_t>(processors)}));
}

// Runs task(index, thread) for index in [0, tasks) on up to `threads` threads (TaskThreads),
// each taking the next index from a shared cursor; `thread` < threads. False (with the first
// error by index) if any task failed, or (with the stop message) if the query was stopped.
template <class Task>
bool RunTasks(const ExecContext& ctx, int threads, size_t tasks, const Task& task, std::string* error) {
  threads = TaskThreads(threads, tasks);
  MorselCursor cursor;
  std::vector<std::string> errors(tasks);
  std::atomic<bool> failed{false};
  auto body = [&](int t) {
    for (size_t i = cursor.Take(); i < tasks && !failed.load(std::memory_order_relaxed) && !ctx.Interrupted();
         i = cursor.Take()) {
      if (!task(i, t, &errors[i])) failed.store(true, std::memory_order_relaxed);
    }
  };
  RunThreads(ctx, threads, body);
  if (FirstError(errors, error) || failed.load()) return false;
  // Tasks skipped for a stop left their outputs unmade: the caller must not read them.
  if (ctx.Interrupted()) {
    *error = ctx.StopMessage();
    return false;
  }
  return true;
}

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_MORSEL_H_
