// The argument checks every library function's binding makes (bind_functions.cc,
// bind_date_functions.cc): counts, kinds and the implicit casts DuckDB makes, with the errors
// pointing at the argument; and the constant folding of a call whose arguments are constants.
#ifndef LANEQL_PLAN_FUNCTION_ARGUMENTS_H_
#define LANEQL_PLAN_FUNCTION_ARGUMENTS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "src/plan/binder_internal.h"

namespace laneql {
namespace plan {

class FunctionArguments {
 public:
  FunctionArguments(Binder* binder, std::string name, std::vector<BoundExprPtr>* args, SourcePos pos)
      : binder_(binder), name_(std::move(name)), args_(*args), pos_(pos) {}

  // Between lo and hi arguments (hi SIZE_MAX: no upper bound).
  bool Arity(size_t lo, size_t hi) {
    if (args_.size() >= lo && args_.size() <= hi) return true;
    const std::string count = lo == hi ? std::to_string(lo)
                              : hi == SIZE_MAX ? "at least " + std::to_string(lo)
                                               : std::to_string(lo) + " to " + std::to_string(hi);
    binder_->Fail(pos_, "binder", name_ + " takes " + count + " argument" + (hi == 1 || lo == 1 ? "" : "s") +
                                      ", got " + std::to_string(args_.size()));
    return false;
  }
  // A number (a bare NULL becomes `null_type`).
  bool Numeric(size_t i, TypeId null_type) {
    BoundExprPtr& a = args_[i];
    if (IsNullLiteral(*a)) {
      a = binder_->CastTo(std::move(a), null_type, pos_);
      return a != nullptr;
    }
    if (IsNumeric(a->type) && a->type != TypeId::kBool) return true;
    if (IsDecimal(a->type)) {  // the functions without a DECIMAL form of their own take its DOUBLE
      a = binder_->CastToAtOwnPos(std::move(a), TypeId::kFloat64);
      return a != nullptr;
    }
    binder_->Fail(a->pos, "type", name_ + " needs a numeric argument, not " + DuckDbTypeName(a->type));
    return false;
  }
  // A number, cast to DOUBLE.
  bool ToDouble(size_t i) {
    if (!Numeric(i, TypeId::kFloat64)) return false;
    args_[i] = binder_->CastToAtOwnPos(std::move(args_[i]), TypeId::kFloat64);
    return args_[i] != nullptr;
  }
  bool String(size_t i) {
    BoundExprPtr& a = args_[i];
    if (IsNullLiteral(*a)) {
      a = binder_->CastTo(std::move(a), TypeId::kString, pos_);
      return a != nullptr;
    }
    if (IsString(a->type)) return true;
    binder_->Fail(a->pos, "type", name_ + " needs a VARCHAR argument, not " + DuckDbTypeName(a->type));
    return false;
  }
  // An integer, cast to `type`.
  bool Integer(size_t i, TypeId type) {
    BoundExprPtr& a = args_[i];
    if (!IsNullLiteral(*a) && !IsInteger(a->type)) {
      binder_->Fail(a->pos, "type", name_ + " needs an integer here, not " + DuckDbTypeName(a->type));
      return false;
    }
    a = binder_->CastToAtOwnPos(std::move(a), type);
    return a != nullptr;
  }
  // Each argument by a letter: 's' a string, 'i' a BIGINT, 'n' an INTEGER.
  bool Shaped(const char* kinds) {
    for (size_t i = 0; i < args_.size(); ++i) {
      const bool ok = kinds[i] == 's' ? String(i) : Integer(i, kinds[i] == 'i' ? TypeId::kInt64 : TypeId::kInt32);
      if (!ok) return false;
    }
    return true;
  }
  // The call, folded when every argument is a constant (an error it raises is deferred to the
  // rows that compute it).
  BoundExprPtr Finish(BoundExprPtr node) {
    if (!node) return nullptr;
    bool constant = node->kind == BoundKind::kCall;
    for (const BoundExprPtr& arg : node->args) constant = constant && arg->IsConstant();
    return constant ? binder_->Fold(std::move(node), /*defer_errors=*/true) : std::move(node);
  }

 private:
  Binder* binder_;
  std::string name_;
  std::vector<BoundExprPtr>& args_;
  SourcePos pos_;
};

// A call node of a library function.
inline BoundExprPtr ScalarCall(ScalarFn fn, TypeId type, SourcePos pos, std::vector<BoundExprPtr> args) {
  BoundExprPtr node = MakeCall(Fn::kScalar, type, pos, std::move(args));
  node->scalar = fn;
  return node;
}

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_FUNCTION_ARGUMENTS_H_
