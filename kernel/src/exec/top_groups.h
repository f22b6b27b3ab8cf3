// ORDER BY a count LIMIT n over many groups, read from the aggregation states in place.
//
// GROUP BY WatchID, ClientIP ... ORDER BY c DESC LIMIT 10 ends with 10 M groups. The general
// output copies every group's count into a column (80 MB) and then takes the top N of that
// copy, reading it and the groups' first rows (another 80 MB) for the ties: 14.7 ms on one
// thread after a 294 ms scan, and on two threads a parallel copy of 3.6 ms and a top N of 5.4.
// Here each thread takes the top N of a slice of the states' own count arrays and the slices'
// tops are merged: one pass over the counts alone wherever group ids already follow the
// groups' first rows (one thread; each part of an owned scan), since a later group that ties
// with the worst kept one then loses the tie without a look at its first row.
#ifndef LANEQL_EXEC_TOP_GROUPS_H_
#define LANEQL_EXEC_TOP_GROUPS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "src/exec/aggregate_states.h"
#include "src/exec/exec_context.h"

namespace laneql {
namespace exec {

// Where the counts of each part of the groups are (StateParts::PartCounts): part p holds the
// groups [begin[p], begin[p + 1]); data[p][i] is group begin[p] + i's count for i < stored[p],
// and the groups after those count 0.
struct CountParts {
  std::vector<const int64_t*> data;
  std::vector<size_t> stored;
  std::vector<size_t> begin{0};  // one entry more than parts
  size_t groups() const { return begin.back(); }
};

// The `keep` best groups (all of them when fewer), best first, in the order ORDER BY count
// [DESC], ties by tiebreak[group] ascending (the row each group first appeared in; null: no
// tiebreak), then by group id: the order of SortPositions over the same counts, so every
// thread count gives the one-thread result. `ordered_parts`: within each part the group ids
// follow the tiebreak (or there is none), so a later group never wins a tie. On ctx's
// threads from kParallelTopGroupsMin groups; throws QueryAbort (query_budget.h) when the
// query is stopped.
std::vector<uint32_t> TopGroupsByCount(const CountParts& counts, bool descending, size_t keep,
                                       const uint64_t* tiebreak, bool ordered_parts,
                                       const ExecContext* ctx);

inline constexpr size_t kParallelTopGroupsMin = size_t{1} << 16;

// The same by sorting every group with a plain comparator: the reference the tests compare
// TopGroupsByCount with.
std::vector<uint32_t> TopGroupsByCountReference(const CountParts& counts, bool descending,
                                                size_t keep, const uint64_t* tiebreak);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_TOP_GROUPS_H_
