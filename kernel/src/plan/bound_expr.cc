// Building, copying and fingerprinting bound expressions.
#include "src/plan/bound_expr.h"

#include <cstring>

namespace laneql {
namespace plan {

BoundExprPtr MakeColumn(int column, TypeId type, bool nullable, SourcePos pos) {
  auto node = std::make_unique<BoundExpr>();
  node->kind = BoundKind::kColumn;
  node->column = column;
  node->type = type;
  node->nullable = nullable;
  node->pos = pos;
  return node;
}

BoundExprPtr MakeConstant(Value value, SourcePos pos) {
  auto node = std::make_unique<BoundExpr>();
  node->kind = BoundKind::kConstant;
  node->type = value.type;
  node->nullable = value.is_null;
  node->constant = std::move(value);
  node->pos = pos;
  return node;
}

BoundExprPtr MakeCall(Fn fn, TypeId type, SourcePos pos, std::vector<BoundExprPtr> args) {
  auto node = std::make_unique<BoundExpr>();
  node->kind = BoundKind::kCall;
  node->fn = fn;
  node->type = type;
  node->pos = pos;
  node->nullable = false;
  for (const auto& arg : args) node->nullable |= arg->nullable;
  node->args = std::move(args);
  return node;
}

BoundExprPtr MakeCall2(Fn fn, TypeId type, SourcePos pos, BoundExprPtr a, BoundExprPtr b) {
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(a));
  args.push_back(std::move(b));
  return MakeCall(fn, type, pos, std::move(args));
}

BoundExprPtr Clone(const BoundExpr& expr) {
  auto node = std::make_unique<BoundExpr>();
  node->kind = expr.kind;
  node->type = expr.type;
  node->nullable = expr.nullable;
  node->integer_literal = expr.integer_literal;
  node->string_literal = expr.string_literal;
  node->null_literal = expr.null_literal;
  node->pos = expr.pos;
  node->column = expr.column;
  node->constant = expr.constant;
  node->fn = expr.fn;
  node->negated = expr.negated;
  node->try_cast = expr.try_cast;
  node->case_insensitive = expr.case_insensitive;
  node->part = expr.part;
  node->scalar = expr.scalar;
  node->compiled = expr.compiled;
  for (const auto& arg : expr.args) node->args.push_back(Clone(*arg));
  return node;
}

namespace {

// One node's own part of the fingerprint. Not inlined into the recursion below, so that the
// string building's temporaries do not enlarge every frame of a deep tree's walk (wasm's stacks
// are small).
[[gnu::noinline]] void AppendNodeFingerprint(const BoundExpr& expr, std::string* out) {
  switch (expr.kind) {
    case BoundKind::kColumn:
      *out += "#" + std::to_string(expr.column);
      break;
    case BoundKind::kConstant:
      *out += std::string("'") + TypeName(expr.type) + ":" +
              (expr.constant.is_null ? "NULL" : ValueToText(expr.constant)) + "'";
      break;
    case BoundKind::kCall:
      *out += "f" + std::to_string(static_cast<int>(expr.fn)) + "/" + TypeName(expr.type) + "/" +
              std::to_string(expr.negated) + std::to_string(expr.case_insensitive) + std::to_string(expr.try_cast) +
              std::to_string(static_cast<int>(expr.part)) + "s" + std::to_string(static_cast<int>(expr.scalar)) + "(";
      break;
  }
}

// Appends to one string: returning a string per node and copying it into the parent's would
// cost O(height^2) bytes for a deep tree, and the binder fingerprints every subtree of a GROUP
// BY query's expressions (a chain of 1,000 operators took seconds).
// Stops (false) once *out is longer than max_bytes.
bool AppendFingerprint(const BoundExpr& expr, size_t max_bytes, std::string* out) {
  AppendNodeFingerprint(expr, out);
  if (out->size() > max_bytes) return false;
  if (expr.kind != BoundKind::kCall) return true;
  for (const auto& arg : expr.args) {
    if (!AppendFingerprint(*arg, max_bytes, out)) return false;
    out->push_back(',');
  }
  out->push_back(')');
  return out->size() <= max_bytes;
}

}  // namespace

std::string Fingerprint(const BoundExpr& expr) {
  std::string out;
  AppendFingerprint(expr, std::string::npos, &out);
  return out;
}

bool FingerprintUpTo(const BoundExpr& expr, size_t max_bytes, std::string* out) {
  out->clear();
  return AppendFingerprint(expr, max_bytes, out);
}

std::string AggregateKey(const Aggregate& aggregate) {
  std::string key = std::to_string(static_cast<int>(aggregate.kind)) + "|" +
                    std::to_string(static_cast<int>(aggregate.function)) + "|" +
                    (aggregate.arg ? Fingerprint(*aggregate.arg) : std::string());
  if (aggregate.kind != AggKind::kFunction) return key;
  key += "|" + (aggregate.arg2 ? Fingerprint(*aggregate.arg2) : std::string()) + (aggregate.distinct ? "|D" : "");
  for (size_t k = 0; k < aggregate.order_keys.size(); ++k) {
    key += "|" + Fingerprint(*aggregate.order_keys[k]) + (aggregate.order[k].descending ? " d" : " a") +
           (aggregate.order[k].nulls_first ? "f" : "l");
  }
  uint64_t fraction_bits = 0;
  std::memcpy(&fraction_bits, &aggregate.fraction, sizeof fraction_bits);
  key += "|" + std::to_string(fraction_bits);
  for (double fraction : aggregate.fractions) {
    std::memcpy(&fraction_bits, &fraction, sizeof fraction_bits);
    key += "," + std::to_string(fraction_bits);
  }
  key += "|" + std::to_string(aggregate.separator.size()) + ":" +
         aggregate.separator;
  return key;
}

bool AggregateNullable(const Aggregate& aggregate) {
  switch (aggregate.kind) {
    case AggKind::kCountStar:
    case AggKind::kCount:
    case AggKind::kCountDistinct: return false;
    case AggKind::kFunction:
      return aggregate.function != AggFn::kRegrCount && aggregate.function != AggFn::kApproxCountDistinct;
    default: return true;
  }
}

}  // namespace plan
}  // namespace laneql
