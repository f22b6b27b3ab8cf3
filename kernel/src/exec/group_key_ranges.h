// GROUP BY a key stored in ascending order: threads take segments of batches that share no key.
//
// A table sorted or clustered by a group key (TPC-H's lineitem by l_orderkey, a time series by
// its timestamp) has each group's rows in one place. Split by rows, every thread still builds
// a table of the groups it met, and the merge inserts every group a second time (GROUP BY
// l_orderkey over 6 M rows, 1.5 M groups: 133 ms CPU on one thread, about 100 ms more of
// merging on 16); split by keys, every owner reads every batch. Here the key column's zone maps
// show that each block's values lie at or above those of the block before it, and the table is
// cut into segments where one batch's largest key is below the next one's smallest (lineitem
// at SF 1: 84 segments of 367 batches, as an order's lines straddle most batch boundaries). No
// key is in two segments, so whichever thread takes each segment (from a shared cursor, as
// morsels), no two threads hold a group in common: their groups are laid side by side as after
// a split by keys (MergeOwnedWorkers), and each group's rows are folded by one thread in row
// order (float sums keep their bits).
#ifndef LANEQL_EXEC_GROUP_KEY_RANGES_H_
#define LANEQL_EXEC_GROUP_KEY_RANGES_H_

#include <cstddef>
#include <vector>

#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// Segments per thread at least, so that the threads taking them in turn finish together.
inline constexpr size_t kMinSegmentsPerThread = 4;

// The first batch of each segment and then `batches` (segment i is [starts[i], starts[i + 1])),
// for `threads` threads over `batches` batches of kBatchRows rows; empty when `plan` cannot be
// split so: no GROUP BY key is a column of the table with zone maps, without NULLs, ascending
// block by block, cut into at least kMinSegmentsPerThread segments per thread, none longer
// than a thread's even share of the batches.
std::vector<size_t> KeyDisjointSegments(const plan::Plan& plan, size_t batches, int threads);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUP_KEY_RANGES_H_
