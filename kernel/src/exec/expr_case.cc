// CASE evaluated branch by branch, on the rows each branch applies to. The evaluator's usual
// path computes every WHEN and every result over all rows and picks per row (fast, no
// selection vectors); when one of those fails, the failure may come from rows that never take
// that branch (`CASE WHEN x < 1000 THEN x * 1000000 END` overflowing where x is large). DuckDB
// evaluates each WHEN only on the rows no earlier WHEN took and each result only on the rows
// that take it, so such a query has an answer there; this path gives the same one, and fails
// only where a row really takes the failing branch.
#include <cstdint>
#include <string>
#include <vector>

#include "src/exec/expr_eval.h"

namespace laneql {
namespace exec {

using plan::BoundExpr;

bool Evaluator::EvalCaseByBranch(const BoundExpr& expr, const RowSet& rows, Vec* out,
                                 std::string* error) {
  const size_t n = rows.count;
  const size_t branches = (expr.args.size() - 1) / 2;  // args: when0, then0, ..., else
  const size_t else_arg = expr.args.size() - 1;
  std::vector<uint32_t> pick(n, static_cast<uint32_t>(else_arg));  // result arg of each row
  std::vector<uint32_t> slot(n);  // the row's place among the rows of its result
  std::vector<Vec> results(expr.args.size());
  std::vector<uint32_t> open(n);  // rows (positions in `rows`) no WHEN has taken yet
  for (size_t i = 0; i < n; ++i) open[i] = static_cast<uint32_t>(i);
  std::vector<uint32_t> ids;
  auto eval_on = [&](const BoundExpr& e, const std::vector<uint32_t>& positions, Vec* v) {
    ids.resize(positions.size());
    for (size_t k = 0; k < positions.size(); ++k) {
      ids[k] = rows.ids != nullptr ? rows.ids[positions[k]]
                                   : static_cast<uint32_t>(rows.begin + positions[k]);
    }
    RowSet subset;
    subset.count = positions.size();
    subset.ids = ids.data();
    return Eval(e, subset, v, error);
  };
  std::vector<uint32_t> taken, rest;
  for (size_t b = 0; b < branches && !open.empty(); ++b) {
    Vec when;
    if (!eval_on(*expr.args[2 * b], open, &when)) return false;
    taken.clear();
    rest.clear();
    for (size_t k = 0; k < open.size(); ++k) {
      if (!when.IsNull(k) && when.Get<uint8_t>(k) != 0) {
        pick[open[k]] = static_cast<uint32_t>(2 * b + 1);
        slot[open[k]] = static_cast<uint32_t>(taken.size());
        taken.push_back(open[k]);
      } else {
        rest.push_back(open[k]);
      }
    }
      if (!taken.empty() && !eval_on(*expr.args[2 * b + 1], taken, &results[2 * b + 1])) {
      return false;
    }
    open.swap(rest);
  }
  for (size_t k = 0; k < open.size(); ++k) slot[open[k]] = static_cast<uint32_t>(k);
  if (!open.empty() && !eval_on(*expr.args[else_arg], open, &results[else_arg])) return false;

  out->count = n;
  if (IsString(expr.type)) {
    StringVecBuilder builder;
    if (!builder.Init(n, false, error)) return false;
    for (size_t i = 0; i < n; ++i) {
      const Vec& src = results[pick[i]];
      if (src.IsNull(slot[i])) {
        builder.AppendNull();
      } else if (!builder.Append(src.Str(slot[i]), error)) {
        return false;
      }
    }
    if (!builder.Finish(out, error)) return false;
    out->count = n;
    return true;
  }
  bool ok = true;
  VisitFixed(expr.type, [&](auto tag) {
    using T = decltype(tag);
    T* dst = out->InitFixed<T>(expr.type, n, false, error);
    if (dst == nullptr) { ok = false; return; }
    uint64_t* bits = nullptr;
    for (size_t i = 0; i < n; ++i) {
      const Vec& src = results[pick[i]];
      if (src.IsNull(slot[i])) {
        if (bits == nullptr && (bits = out->InitValidity(error)) == nullptr) { ok = false; return; }
        bits[i / 64] &= ~(uint64_t{1} << (i % 64));
        dst[i] = 0;
      } else {
        dst[i] = src.Get<T>(slot[i]);
      }
    }
  });
  return ok;
}

}  // namespace exec
}  // namespace laneql
