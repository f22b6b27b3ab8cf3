// Internal to the table generators (hits_generator.cc, tpch_generator.cc): how many threads a
// table gets, its rows (or units) split into one contiguous range per thread, and the threads
// run. The generators' values depend only on the row, never on the split, so neither the
// thread count nor the split changes a byte they write.
#ifndef LANEQL_STORAGE_ROW_RANGE_THREADS_H_
#define LANEQL_STORAGE_ROW_RANGE_THREADS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

namespace laneql::internal {

// The threads for `total` rows: `wanted` (at least 1), fewer when a thread would get under
// `min_per_thread` rows, as starting it would cost more than it saves.
inline size_t RangeThreads(int wanted, uint64_t total, uint64_t min_per_thread) {
  const uint64_t asked = wanted < 1 ? 1 : static_cast<uint64_t>(wanted);
  return static_cast<size_t>(std::max<uint64_t>(1, std::min(asked, total / min_per_thread)));
}

// Where range `part` of [0, total) split into `parts` contiguous ranges begins; it ends where
// part + 1 begins. The first total % parts ranges are one row longer; no product can overflow.
inline uint64_t RangeBegin(uint64_t total, size_t parts, size_t part) {
  return total / parts * part + std::min<uint64_t>(part, total % parts);
}

// Runs task(t) for t in [0, tasks), task 0 on the calling thread. A thread that cannot be
// started runs its task here instead, so the result never depends on thread creation.
template <class Task>
void RunTasks(size_t tasks, const Task& task) {
  std::vector<std::thread> workers;
  for (size_t t = 1; t < tasks; ++t) {
    try {
      workers.emplace_back([&task, t] { task(t); });
    } catch (const std::system_error&) {
      task(t);
    }
  }
  task(0);
  for (std::thread& worker : workers) worker.join();
}

}  // namespace laneql::internal

#endif  // LANEQL_STORAGE_ROW_RANGE_THREADS_H_
