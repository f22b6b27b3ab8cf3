// What a query runs with besides its plan: the database's thread pool, the thread count, and
// the profiler recording its timeline (null when not profiling).
#ifndef LANEQL_EXEC_EXEC_CONTEXT_H_
#define LANEQL_EXEC_EXEC_CONTEXT_H_

#include <algorithm>

#include "src/exec/profile.h"
#include "src/exec/thread_pool.h"

namespace laneql {
namespace exec {

struct ExecContext {
  ThreadPool* pool = nullptr;  // null: the calling thread alone
  int threads = 1;
  Profiler* profiler = nullptr;
  size_t min_parallel_rows = 65536;     // DatabaseOptions::min_parallel_rows
  size_t two_level_min_groups = 32768;  // DatabaseOptions::two_level_min_groups
  int ThreadsAvailable() const { return pool != nullptr ? std::min(threads, pool->threads()) : 1; }
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_EXEC_CONTEXT_H_
