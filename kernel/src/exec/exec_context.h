// What a query runs with besides its plan: the database's thread pool, the thread count, the
// profiler recording its timeline (null when not profiling) and its budget (memory, stop).
#ifndef LANEQL_EXEC_EXEC_CONTEXT_H_
#define LANEQL_EXEC_EXEC_CONTEXT_H_

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "src/exec/group_size_hints.h"
#include "src/exec/profile.h"
#include "src/common/query_budget.h"
#include "src/exec/thread_pool.h"

namespace laneql {
namespace exec {

struct ExecContext {
  ThreadPool* pool = nullptr;  // null: the calling thread alone
  int threads = 1;
  Profiler* profiler = nullptr;
  size_t min_parallel_rows = 65536;     // DatabaseOptions::min_parallel_rows
  size_t two_level_min_groups = 65536;  // DatabaseOptions::two_level_min_groups
  int group_split = 0;                  // DatabaseOptions::group_split: 0 auto, 1 rows, 2 keys
  size_t partitioned_distinct_min_values = size_t{1} << 16;  // DatabaseOptions::...
  size_t partitioned_group_min_rows = size_t{1} << 18;       // DatabaseOptions::...
  bool small_key_lookup = true;         // QueryOptions::small_key_lookup
  int64_t max_recursion_rounds = 100000;  // QueryOptions::max_recursion_rounds
  // The query's memory limit and stop conditions (Database::Interrupt, the timeout); null: none.
  // A stopped query stops at its next morsel, merge task, allocation or sort step and fails
  // with budget->StopMessage() ("query interrupted", "query timed out after N ms").
  QueryBudget* budget = nullptr;
  // The database's GROUP BY sizes from earlier runs (group_size_hints.h); null: none kept.
  GroupSizeHints* group_size_hints = nullptr;
  int ThreadsAvailable() const { return pool != nullptr ? std::min(threads, pool->threads()) : 1; }
  bool Interrupted() const { return budget != nullptr && budget->Stopped(); }
  std::string StopMessage() const { return budget != nullptr ? budget->StopMessage() : ""; }
};

// Runs body(t) on `threads` threads (t = 0 on the caller).
template <class Body>
void RunThreads(const ExecContext& ctx, int threads, const Body& body) {
  if (threads <= 1 || ctx.pool == nullptr) {
    body(0);
  } else {
    ctx.pool->Run(threads, body);
  }
}

// The first of the threads' (or tasks') errors, in index order; false when there is none.
inline bool FirstError(const std::vector<std::string>& errors, std::string* error) {
  for (const std::string& e : errors) {
    if (!e.empty()) {
      *error = e;
      return true;
    }
  }
  return false;
}

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_EXEC_CONTEXT_H_
