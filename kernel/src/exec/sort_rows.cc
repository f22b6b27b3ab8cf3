// Sorting row positions by several typed key vectors.
#include "src/exec/sort_rows.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "src/exec/expr_eval.h"

namespace laneql {
namespace exec {

std::vector<uint32_t> SortPositions(const std::vector<SortColumn>& columns, size_t n, size_t keep,
                                    const uint64_t* tiebreak) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  auto less = [&](uint32_t a, uint32_t b) {
    for (const SortColumn& column : columns) {
      const Vec& v = *column.keys;
      const bool an = v.IsNull(a), bn = v.IsNull(b);
      if (an || bn) {
        if (an == bn) continue;
        return an == column.nulls_first;
      }
      const int c = CompareRows(v, a, v, b);
      if (c == 0) continue;
      return column.descending ? c > 0 : c < 0;
    }
    if (tiebreak != nullptr && tiebreak[a] != tiebreak[b]) return tiebreak[a] < tiebreak[b];
    return a < b;  // ties: input order, so the result is deterministic
  };
  if (keep < n) {
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(), less);
    order.resize(keep);
  } else {
    std::sort(order.begin(), order.end(), less);
  }
  return order;
}

}  // namespace exec
}  // namespace laneql
