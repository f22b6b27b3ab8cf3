// ORDER BY over evaluated key vectors: an index permutation, full (stable) or top-N.
#ifndef LANEQL_EXEC_SORT_ROWS_H_
#define LANEQL_EXEC_SORT_ROWS_H_

#include <cstdint>
#include <vector>

#include "src/exec/exec_context.h"
#include "src/exec/vector.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

struct SortColumn {
  const Vec* keys;
  bool descending;
  bool nulls_first;
};

// Positions 0..n-1 ordered by `columns` (NULLs placed per nulls_first; floats in DuckDB's
// order, NaN largest; strings byte-wise). Ties are ordered by tiebreak[position] when given
// (groups by the row they first appeared in, so any thread count gives the one-thread order),
// then by position. When `keep` < n only the first `keep` positions are sorted and returned
// (top-N). With `ctx`, large inputs are split among its threads: each sorts (or takes the top
// N of) a run, and the runs are merged. Inside a query it throws QueryAbort (query_budget.h)
// when the query is stopped or its memory limit refuses the position lists.
std::vector<uint32_t> SortPositions(const std::vector<SortColumn>& columns, size_t n, size_t keep,
                                    const uint64_t* tiebreak = nullptr,
                                    const ExecContext* ctx = nullptr);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_SORT_ROWS_H_
