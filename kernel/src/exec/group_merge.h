// Merging the threads' groups and aggregate states after a parallel scan.
//
// Few groups: each thread's groups are folded into thread 0's, one thread after another (the
// cost is a few thousand lookups per thread); a large COUNT(DISTINCT)'s (group, value) pairs are
// then counted on every thread: each later thread's pairs looked up in the earlier threads'
// sets (up to 4 threads; beyond, inserted into thread 0's set). Ungrouped COUNT(DISTINCT) sets
// are counted the same way up to 4 threads, and beyond by partitions (as step 5 below). Many
// groups: a two-level merge, with no serial step whose cost grows with the thread count:
//  1. convert (parallel, one task per thread's table): its groups are split into 256
//     partitions by bits of their hash (counting sort of group ids), and so are the
//     COUNT(DISTINCT) (group, value) pairs, by their group's partition;
//  2. merge keys (parallel, one task per partition): a fresh table per partition takes that
//     partition's groups from every thread, in thread order;
//  3. final ids (parallel, one task per thread's table): a group's final id is its partition's
//     offset + its id in the partition table;
//  4. merge states: one thread's table after another, read in its own group order (streaming
//     reads), in chunks over all threads; a table's groups have distinct final ids, so no two
//     chunks write the same state, and there are no locks;
//  5. COUNT(DISTINCT) (parallel, one task per partition): a partition's (group, value) pairs of
//     every thread go through a set of their own, each new pair counting for its group.
#ifndef LANEQL_EXEC_GROUP_MERGE_H_
#define LANEQL_EXEC_GROUP_MERGE_H_

#include <memory>
#include <string>
#include <vector>

#include "src/exec/aggregate_worker.h"
#include "src/exec/exec_context.h"

namespace laneql {
namespace exec {

inline constexpr size_t kMergePartitions = 256;

// Merges workers[1..] into workers[0], on up to `threads` threads; two-level from
// ctx.two_level_min_groups groups (all threads' together). Grouped, with `targets` (else null):
// (*targets)[w][g] = the merged id of worker w's group g, for COUNT(DISTINCT) pairs counted
// after the merge (distinct_partitions.h).
bool MergeWorkers(const std::vector<std::unique_ptr<AggregateWorker>>& workers,
                  const ExecContext& ctx, int threads, std::string* error,
                  std::vector<std::vector<uint32_t>>* targets = nullptr);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUP_MERGE_H_
