// Columns gathered at row lists on every thread. GatherRows (hash_join.h) is one pass on one
// thread; a join's output or a filtered scan's kept rows gathered column by column kept at most
// one thread per column busy, and a relation of few columns one thread alone: TPC-H Q20's
// filtered lineitem scan spent 40 % of its time in such a serial gather on 2 threads. Here each
// list is cut into slices of whole 64-row words, every (column, slice) is a task, and each
// column's slices are joined in parallel (ConcatColumns).
#ifndef LANEQL_EXEC_GATHER_ON_THREADS_H_
#define LANEQL_EXEC_GATHER_ON_THREADS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "laneql/column.h"
#include "src/exec/exec_context.h"

namespace laneql {
namespace exec {

struct GatherJob {
  const Column* source = nullptr;
  const std::vector<uint32_t>* rows = nullptr;  // row numbers of source, kNoRow for NULL
};

// (*outs)[j] = jobs[j].source gathered at jobs[j].rows, as GatherRows makes it (the same type,
// large_string past 2^31 - 1 string bytes, the same validity).
bool GatherColumnsOnThreads(const ExecContext& ctx, const std::vector<GatherJob>& jobs, std::vector<Column>* outs,
                            std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GATHER_ON_THREADS_H_
