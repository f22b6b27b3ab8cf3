#include <string>
#include <utility>
#include <vector>

#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {
namespace {

using plan::AggKind;
using plan::Aggregate;
using plan::BoundExpr;
using plan::BoundExprPtr;
using plan::BoundKind;
using plan::Fn;

// The new aggregate list, sharing equal aggregates as the binder does.
class AggregateList {
 public:
  int Add(Aggregate aggregate) {
    std::string key = plan::AggregateKey(aggregate);
    for (size_t i = 0; i < keys_.size(); ++i) {
      if (keys_[i] == key) return static_cast<int>(i);
    }
    keys_.push_back(std::move(key));
    aggregates_.push_back(std::move(aggregate));
    return static_cast<int>(aggregates_.size() - 1);
  }
  std::vector<Aggregate> Take() { return std::move(aggregates_); }

 private:
  std::vector<std::string> keys_;
  std::vector<Aggregate> aggregates_;
};

Aggregate MakeAggregate(AggKind kind, TypeId type, BoundExprPtr arg) {
  Aggregate aggregate;
  aggregate.kind = kind;
  aggregate.type = type;
  aggregate.arg = std::move(arg);
  return aggregate;
}

BoundExprPtr Cast(BoundExprPtr expr, TypeId type) {
  const plan::SourcePos pos = expr->pos;
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(expr));
  return plan::MakeCall(Fn::kCast, type, pos, std::move(args));
}

// SUM(x + k), SUM(x - k), SUM(k + x) over integers as SUM(x) +- k * COUNT(x) over the new
// aggregates (group-scope columns from `keys` on); null when `sum` has another shape, or is
// SUM(x - k) and not every group's outputs are evaluated (`every_group_output`).
BoundExprPtr RewriteSum(const Aggregate& sum, size_t keys, bool every_group_output,
                        AggregateList* list) {
  if (sum.kind != AggKind::kSum || !sum.arg) return nullptr;
  const BoundExpr& arg = *sum.arg;
  if (arg.kind != BoundKind::kCall || (arg.fn != Fn::kAdd && arg.fn != Fn::kSubtract) ||
      IsFloat(arg.type)) {
    return nullptr;
  }
  const int constant_side = arg.args[1]->IsConstant()
                                ? 1
                                : (arg.fn == Fn::kAdd && arg.args[0]->IsConstant() ? 0 : -1);
  if (constant_side < 0 || arg.args[constant_side]->constant.is_null ||
      !IsInteger(arg.args[1 - constant_side]->type)) {
    return nullptr;
  }
  const Int128 k = arg.args[constant_side]->constant.integer;
  if (arg.fn == Fn::kSubtract && k != 0 && !every_group_output) return nullptr;
  const BoundExpr& x = *arg.args[1 - constant_side];
  const plan::SourcePos pos = arg.pos;
  const auto column = [keys](int index, TypeId type, bool nullable, plan::SourcePos at) {
    return plan::MakeColumn(static_cast<int>(keys) + index, type, nullable, at);
  };
  const int sum_index = list->Add(MakeAggregate(AggKind::kSum, TypeId::kInt128, plan::Clone(x)));
  const int count_index = list->Add(MakeAggregate(AggKind::kCount, TypeId::kInt64, plan::Clone(x)));
  BoundExprPtr total = plan::MakeCall2(
      arg.fn, TypeId::kInt128, pos, column(sum_index, TypeId::kInt128, true, pos),
      plan::MakeCall2(Fn::kMultiply, TypeId::kInt128, pos,
                      plan::MakeConstant(plan::Value::Integer(TypeId::kInt128, k), pos),
                      Cast(column(count_index, TypeId::kInt64, false, pos), TypeId::kInt128)));
  if (arg.fn != Fn::kSubtract || k == 0) return total;
  // DuckDB computes x - k row by row and fails when a row overflows x's type (arg.type); that
  // happens exactly when MIN(x) - k (k > 0) or MAX(x) - k (k < 0) overflows. So the result adds
  // 0 * (MIN(x) - k), evaluated in that type: the same error, or + 0 (which is why the outputs
  // must be evaluated on every group). (DuckDB rewrites SUM(x + k) itself, without an error.)
  const int extreme_index =
      list->Add(MakeAggregate(k > 0 ? AggKind::kMin : AggKind::kMax, x.type, plan::Clone(x)));
  BoundExprPtr check =
      plan::MakeCall2(Fn::kSubtract, arg.type, pos, column(extreme_index, x.type, true, pos),
                      plan::MakeConstant(plan::Value::Integer(arg.type, k), pos));
  return plan::MakeCall2(Fn::kAdd, TypeId::kInt128, pos, std::move(total),
                         plan::MakeCall2(Fn::kMultiply, TypeId::kInt128, pos,
                                         plan::MakeConstant(plan::Value::Integer(TypeId::kInt128, 0), pos),
                                         Cast(std::move(check), TypeId::kInt128)));
}

bool ReadsAggregates(const BoundExpr& expr, size_t keys) {
  if (expr.kind == BoundKind::kColumn) return expr.column >= static_cast<int>(keys);
  for (const BoundExprPtr& arg : expr.args) {
    if (ReadsAggregates(*arg, keys)) return true;
  }
  return false;
}

// Replaces the group-scope references to old aggregates by their new expressions.
void Substitute(BoundExprPtr* expr, size_t keys, const std::vector<BoundExprPtr>& replacement) {
  BoundExpr& e = **expr;
  if (e.kind == BoundKind::kColumn) {
    if (e.column >= static_cast<int>(keys)) {
      const plan::SourcePos pos = e.pos;
      *expr = plan::Clone(*replacement[static_cast<size_t>(e.column) - keys]);
      (*expr)->pos = pos;
    }
    return;
  }
  for (BoundExprPtr& arg : e.args) Substitute(&arg, keys, replacement);
}

}  // namespace

void RewriteSumsOfOffsets(plan::Plan* plan) {
  if (!plan->aggregate) return;
  bool any_sum_of_call = false;  // most queries have none: nothing to rebuild
  for (const Aggregate& aggregate : plan->aggregates) {
    any_sum_of_call |= aggregate.kind == AggKind::kSum && aggregate.arg->kind == BoundKind::kCall;
  }
  if (!any_sum_of_call) return;
  const size_t keys = plan->scope_keys();
  // A LIMIT evaluates the outputs of the groups it keeps only; a HAVING that reads aggregates
  // those of the groups it passes (DuckDB would have failed on a dropped group's x - k; a HAVING
  // on keys alone DuckDB moves into the WHERE, so those groups were never summed there either).
  const bool every_group_output =
      plan->limit < 0 && (!plan->having || !ReadsAggregates(*plan->having, keys));
  AggregateList list;
  std::vector<BoundExprPtr> replacement;  // per old aggregate
  bool rewritten = false;
  for (Aggregate& aggregate : plan->aggregates) {
    BoundExprPtr sum = RewriteSum(aggregate, keys, every_group_output, &list);
    if (sum) {
      rewritten = true;
      replacement.push_back(std::move(sum));
      continue;
    }
    const TypeId type = aggregate.type;
    const bool nullable = plan::AggregateNullable(aggregate);
    const int index = list.Add(std::move(aggregate));
    replacement.push_back(plan::MakeColumn(static_cast<int>(keys) + index, type, nullable, {}));
  }
  // Without a rewrite the list holds the same aggregates in the same places (the binder shared
  // equal ones already), so no reference changes.
  plan->aggregates = list.Take();
  if (!rewritten) return;
  for (BoundExprPtr& output : plan->outputs) Substitute(&output, keys, replacement);
  if (plan->having) Substitute(&plan->having, keys, replacement);
}

}  // namespace optimize
}  // namespace laneql
