// The list functions: list_value ([a, b, ...]), len and list_extract. A list row is its
// elements' values packed in a string row's bytes (laneql/types.h), so building one is a copy
// of each argument's value and reading one is arithmetic on its byte length.
#include <cstring>
#include <string>
#include <vector>

#include "src/exec/expr_eval.h"
#include "src/exec/vector.h"

namespace laneql {
namespace exec {
namespace {

using plan::BoundExpr;
using plan::ScalarFn;

bool AllConstant(const std::vector<Vec>& args) {
  for (const Vec& arg : args) {
    if (!arg.constant) return false;
  }
  return true;
}

bool ListValue(const BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  const TypeId element = ListElementType(expr.type);
  const size_t width = TypeByteWidth(element);
  const bool constant = AllConstant(args);
  const size_t rows = constant ? 1 : count;
  StringVecBuilder builder;
  if (!builder.Init(count, constant, error)) return false;
  std::string row(width * args.size(), '\0');
  for (size_t i = 0; i < rows; ++i) {
    for (size_t a = 0; a < args.size(); ++a) {
      if (args[a].IsNull(i)) {
        *error = ErrorAt(expr, "invalid input", "a list element is NULL: laneql's lists hold no NULL elements");
        return false;
      }
      std::memcpy(row.data() + a * width, args[a].values + args[a].Row(i) * width, width);
    }
    if (!builder.Append(row, error)) return false;
  }
  if (!builder.Finish(out, error)) return false;
  out->type = expr.type;
  out->count = count;
  return true;
}

bool ListLength(std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  const Vec& list = args[0];
  const size_t width = TypeByteWidth(ListElementType(list.type));
  int64_t* lengths = out->InitFixed<int64_t>(TypeId::kInt64, count, list.constant, error);
  if (lengths == nullptr || !CopyValidity(list, out, error)) return false;
  for (size_t i = 0; i < out->stored(); ++i) {
    lengths[i] = list.IsNull(i) ? 0 : static_cast<int64_t>(list.Str(i).size() / width);
  }
  return true;
}

bool ListExtract(const BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  const Vec& list = args[0];
  const Vec& index = args[1];
  const size_t width = TypeByteWidth(expr.type);
  const bool constant = list.constant && index.constant;
  out->type = expr.type;
  out->count = count;
  out->constant = constant;
  const size_t rows = constant ? 1 : count;
  if (!out->own_values.Resize((rows > 0 ? rows : 1) * width, error)) return false;
  out->values = out->own_values.data();
  out->validity = nullptr;
  uint64_t* valid = out->InitValidity(error);
  if (valid == nullptr) return false;
  for (size_t i = 0; i < rows; ++i) {
    int64_t at = -1;
    if (!list.IsNull(i) && !index.IsNull(i)) {
      const int64_t n = static_cast<int64_t>(list.Str(i).size() / width);
      const int64_t k = index.Get<int64_t>(i);
      // From 1; negative from the end (-1 the last); 0 and past either end: NULL, as DuckDB.
      if (k >= 1 && k <= n) at = k - 1;
      if (k < 0 && k >= -n) at = n + k;  // (not -k: INT64_MIN has no negation)
    }
    if (at < 0) {
      valid[i / 64] &= ~(uint64_t{1} << (i % 64));
    } else {
      std::memcpy(out->own_values.data() + i * width, list.Str(i).data() + static_cast<size_t>(at) * width, width);
    }
  }
  return true;
}

}  // namespace

bool EvalListFunction(const BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  switch (expr.scalar) {
    case ScalarFn::kListValue: return ListValue(expr, args, count, out, error);
    case ScalarFn::kListLength: return ListLength(args, count, out, error);
    case ScalarFn::kListExtract: return ListExtract(expr, args, count, out, error);
    default: break;
  }
  *error = ErrorAt(expr, "internal", "not a list function");
  return false;
}

}  // namespace exec
}  // namespace laneql
