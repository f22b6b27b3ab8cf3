// Lists (laneql/types.h): list_value / [a, b, ...], len, list_extract, and the gate that keeps a
// list away from every operation that would read its bytes as text or as one value (a list's
// column is stored as a string column is, so that the steps that only move rows move lists too).
#include <string>
#include <utility>
#include <vector>

#include "src/common/ascii.h"
#include "src/plan/binder_internal.h"
#include "src/plan/function_arguments.h"

namespace laneql {
namespace plan {
namespace {

using F = ScalarFn;

// The calls that take a list argument (the list functions bind their own checks).
bool TakesList(const std::string& lower_name) {
  return lower_name == "typeof" || lower_name == "len" || lower_name == "array_length" || lower_name == "length" ||
         lower_name == "list_extract" || lower_name == "list_element";
}

}  // namespace

bool Binder::CheckListOperands(const sql::Expr& expr, const std::vector<BoundExprPtr>& children) {
  const BoundExpr* list = nullptr;
  for (const BoundExprPtr& child : children) {
    if (child != nullptr && IsList(child->type)) {
      list = child.get();
      break;
    }
  }
  if (list == nullptr || expr.kind == sql::ExprKind::kIsNull) return true;
  if (expr.kind == sql::ExprKind::kFunctionCall) {
    const std::string name = ascii::Lower(expr.text);
    if (TakesList(name)) return true;
    if (name == "list_value" || name == "list_pack") {
      Fail(list->pos, "binder", "lists of lists are not supported (an element is " +
                                    std::string(DuckDbTypeName(list->type)) + ")");
      return false;
    }
  }
  Fail(list->pos, "binder", ListRefusal(list->type));
  return false;
}

std::string ListRefusal(TypeId list) {
  return std::string("a list (") + DuckDbTypeName(list) +
         ") cannot be used here: lists can be selected, passed to len, list_extract and typeof, "
         "counted, and tested with IS [NOT] NULL";
}

BoundExprPtr Binder::BindListFunction(const ScalarFunctionInfo& info, std::vector<BoundExprPtr> args, SourcePos pos) {
  const std::string name = info.name;
  FunctionArguments check(this, name, &args, pos);
  switch (info.fn) {
    case F::kListValue: {
      if (!check.Arity(1, SIZE_MAX)) return nullptr;  // DuckDB's [] is a list of NULL type: not here
      for (const BoundExprPtr& arg : args) {
        if (IsNullLiteral(*arg)) return Fail(arg->pos, "binder", "a list element cannot be NULL in laneql");
      }
      if (!UnifyAll(&args)) return nullptr;
      TypeId element = args[0]->type;
      if (element == TypeId::kLargeString) element = TypeId::kString;
      if (!IsFixedWidth(element)) {
        return Fail(args[0]->pos, "type",
                    std::string("lists of ") + DuckDbTypeName(element) +
                        " are not supported: elements are numbers, booleans, dates, times, timestamps, intervals or decimals");
      }
      for (BoundExprPtr& arg : args) {
        arg = CastToAtOwnPos(std::move(arg), element);
        if (!arg) return nullptr;
      }
      // Not folded: a Value holds no list. Its elements are constants, which is what
      // quantile_cont(x, [0.25, 0.5]) reads (bind_aggregates.cc).
      return ScalarCall(F::kListValue, ListType(element), pos, std::move(args));
    }
    case F::kListLength: {
      if (!check.Arity(1, 1)) return nullptr;
      if (!IsList(args[0]->type)) {  // len of a string: its characters, as length(s)
        if (!check.String(0)) return nullptr;
        return MakeCall(Fn::kLength, TypeId::kInt64, pos, std::move(args));
      }
      return ScalarCall(F::kListLength, TypeId::kInt64, pos, std::move(args));
    }
    case F::kListExtract: {
      if (!check.Arity(2, 2) || !check.Integer(1, TypeId::kInt64)) return nullptr;
      if (!IsList(args[0]->type)) {  // of a string: substring(s, i, 1), as DuckDB
        if (!check.String(0)) return nullptr;
        args.push_back(MakeConstant(Value::Integer(TypeId::kInt64, 1), pos));
        return check.Finish(MakeCall(Fn::kSubstring, TypeId::kString, pos, std::move(args)));
      }
      const TypeId element = ListElementType(args[0]->type);
      BoundExprPtr node = ScalarCall(F::kListExtract, element, pos, std::move(args));
      node->nullable = true;  // NULL outside the list
      return node;
    }
    default: break;
  }
  return Fail(pos, "binder", "internal error: list function " + name + "() has no binding");
}

}  // namespace plan
}  // namespace laneql
