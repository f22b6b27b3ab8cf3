// Sorting row positions by several typed key vectors.
#include "src/exec/sort_rows.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "src/exec/expr_eval.h"

namespace laneql {
namespace exec {
namespace {

// -1 / 0 / 1 comparing rows i and j of one key column, ascending, NULLs last.
int CompareRows(const Vec& v, uint32_t i, uint32_t j) {
  if (IsString(v.type)) {
    const int c = v.Str(i).compare(v.Str(j));
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  int c = 0;
  VisitFixed(v.type, [&](auto tag) {
    using T = decltype(tag);
    const T x = v.Get<T>(i), y = v.Get<T>(j);
    if constexpr (std::is_floating_point_v<T>) {
      const bool xn = std::isnan(x), yn = std::isnan(y);
      if (xn || yn) { c = xn == yn ? 0 : (xn ? 1 : -1); return; }
    }
    c = x < y ? -1 : (y < x ? 1 : 0);
  });
  return c;
}

}  // namespace

std::vector<uint32_t> SortPositions(const std::vector<SortColumn>& columns, size_t n, size_t keep) {
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
      int c = CompareRows(v, a, b);
      if (c == 0) continue;
      return column.descending ? c > 0 : c < 0;
    }
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
