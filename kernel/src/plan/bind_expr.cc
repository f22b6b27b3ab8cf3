// Expression-level binding: names to columns, literals to typed constants, and every operator
// and function typed as DuckDB types it (implicit casts inserted, constants folded).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "src/exec/expr_eval.h"
#include "src/exec/regexp.h"
#include "src/plan/binder_internal.h"
#include "src/plan/function_arguments.h"
#include "src/common/ascii.h"
#include "src/common/decimal.h"

namespace laneql {
namespace plan {

std::string LowerAscii(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

bool IsAggregateName(const std::string& lower_name) { return IsAggregateFunctionName(lower_name); }

bool ContainsAggregate(const sql::Expr& expr) {
  if (expr.kind == sql::ExprKind::kFunctionCall && IsAggregateName(LowerAscii(expr.text))) return true;
  for (const sql::Expr* child : {expr.operand.get(), expr.left.get(), expr.right.get(), expr.else_result.get()}) {
    if (child && ContainsAggregate(*child)) return true;
  }
  for (const auto& arg : expr.args) if (ContainsAggregate(*arg)) return true;
  for (const auto& branch : expr.branches) {
    if (ContainsAggregate(*branch.when) || ContainsAggregate(*branch.then)) return true;
  }
  return false;
}

bool IsNumeric(TypeId type) { return IsInteger(type) || IsFloat(type); }

namespace {

int IntegerWidth(TypeId type) {
  if (type == TypeId::kInt128) return 16;
  return static_cast<int>(TypeByteWidth(type));
}

TypeId SignedOfWidth(int width) {
  switch (width) {
    case 1: return TypeId::kInt8;
    case 2: return TypeId::kInt16;
    case 4: return TypeId::kInt32;
    case 8: return TypeId::kInt64;
    default: return TypeId::kInt128;
  }
}

// A non-NULL decimal constant or integer literal whose value `type`, a DECIMAL, holds exactly.
bool ConstantFitsDecimal(const BoundExpr& e, TypeId type) {
  if (!IsDecimal(type) || !e.IsConstant() || e.constant.is_null) return false;
  if (!e.integer_literal && !IsDecimal(e.type)) return false;
  const int scale = IsDecimal(e.type) ? DecimalScale(e.type) : 0;
  if (scale > DecimalScale(type)) return false;
  Int128 v;
  return decimal::Rescale(e.constant.integer, scale, DecimalScale(type), DecimalPrecision(type), &v);
}

bool Fits(const Value& v, TypeId type) {
  return !v.is_null && v.integer >= TypeMin(type) && v.integer <= TypeMax(type);
}

// The type both operands of an arithmetic operator or comparison are cast to (DuckDB's rules,
// with an integer literal taking the other side's type when it fits).
TypeId CommonNumeric(const BoundExpr& a, const BoundExpr& b) {
  const TypeId x = a.type, y = b.type;
  if (IsDecimal(x) || IsDecimal(y)) return decimal::CommonType(x, y);
  if (IsFloat(x) || IsFloat(y)) {
    if (x == TypeId::kFloat64 || y == TypeId::kFloat64) return TypeId::kFloat64;
    return TypeId::kFloat32;
  }
  if (a.integer_literal && a.IsConstant() && Fits(a.constant, y)) return y;
  if (b.integer_literal && b.IsConstant() && Fits(b.constant, x)) return x;
  if (x == y) return x;
  const bool xs = IsSignedInteger(x) || x == TypeId::kBool, ys = IsSignedInteger(y) || y == TypeId::kBool;
  if (xs == ys) return IntegerWidth(x) >= IntegerWidth(y) ? x : y;
  const TypeId s = xs ? x : y, u = xs ? y : x;
  if (IntegerWidth(s) > IntegerWidth(u)) return s;
  return SignedOfWidth(IntegerWidth(u) * 2);
}


}  // namespace

bool Binder::IsFromColumn(const sql::Expr& ref) const {
  if (scope_ == nullptr) return table_->ColumnIndex(ref.text) >= 0;
  for (const ScopeColumn& column : *scope_) {
    if (!column.hidden && ascii::EqualsIgnoreCase(column.name, ref.text)) return true;
  }
  return false;
}

bool Binder::BindAlias(const sql::Expr& ref, Scope scope, BoundExprPtr* out) {
  if (statement_ == nullptr || !ref.qualifier.empty() || ref.kind != sql::ExprKind::kColumnRef ||
      IsFromColumn(ref)) {
    return false;
  }
  const std::vector<sql::SelectItem>& items = statement_->select_list;
  expanding_alias_.resize(items.size(), false);
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].alias.empty() || !ascii::EqualsIgnoreCase(items[i].alias, ref.text) || expanding_alias_[i]) continue;
    if (scope == Scope::kBase && ContainsAggregate(*items[i].expr)) return false;
    expanding_alias_[i] = true;
    *out = Bind(*items[i].expr, scope);
    expanding_alias_[i] = false;
    return true;
  }
  return false;
}

const sql::Expr* Binder::FirstUnknownColumn(const sql::Expr& expr) {
  if (expr.subquery) return nullptr;
  if (expr.kind == sql::ExprKind::kFunctionCall) {
    // An unknown function is the error, not its grouped or ungrouped arguments.
    const std::string name = LowerAscii(expr.text);
    if (FindScalarFunction(name) == nullptr && !IsAggregateName(name)) return &expr;
  }
  if (expr.kind == sql::ExprKind::kColumnRef) {
    if (!TryBindBaseOnce(expr).ok) {
      BoundExprPtr ignored;
      ++silent_;
      const bool was_failed = failed_;
      const bool alias = BindAlias(expr, Scope::kGroup, &ignored);
      failed_ = was_failed;
      --silent_;
      if (!alias) return &expr;
    }
    return nullptr;
  }
  for (const sql::Expr* child : {expr.operand.get(), expr.left.get(), expr.right.get(), expr.else_result.get()}) {
    if (child == nullptr) continue;
    if (const sql::Expr* unknown = FirstUnknownColumn(*child)) return unknown;
  }
  for (const sql::ExprPtr& arg : expr.args) {
    if (const sql::Expr* unknown = FirstUnknownColumn(*arg)) return unknown;
  }
  for (const sql::CaseBranch& branch : expr.branches) {
    for (const sql::Expr* child : {branch.when.get(), branch.then.get()}) {
      if (const sql::Expr* unknown = FirstUnknownColumn(*child)) return unknown;
    }
  }
  return nullptr;
}

BoundExprPtr Binder::BindColumnRef(const sql::Expr& expr, Scope scope) {
  if (BoundExprPtr alias; BindAlias(expr, scope, &alias)) return alias;
  if (scope_ != nullptr) {
    const int index = ResolveColumn(expr);
    if (index < 0) return nullptr;
    const Column& column = table_->column(static_cast<size_t>(index));
    return MakeColumn(index, column.type() == TypeId::kLargeString ? TypeId::kString : column.type(),
                      column.null_count() != 0, expr.pos);
  }
  if (!expr.qualifier.empty() && LowerAscii(expr.qualifier) != LowerAscii(table_name_)) {
    return Fail(expr.pos, "binder", "table \"" + expr.qualifier + "\" is not in the FROM clause (only \"" +
                                        table_name_ + "\" is)");
  }
  const int index = table_->ColumnIndex(expr.text);
  if (index < 0 && table_name_.empty()) {  // SELECT without FROM
    return Fail(expr.pos, "binder", "column \"" + expr.text + "\" not found (the query has no FROM)");
  }
  if (index < 0) {
    std::vector<std::pair<size_t, std::string>> scored;
    for (size_t c = 0; c < table_->num_columns(); ++c) {
      scored.emplace_back(ascii::DistanceIgnoreCase(expr.text, table_->column_name(c)), table_->column_name(c));
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& l, const auto& r) { return l.first < r.first; });
    std::string message = "column \"" + expr.text + "\" not found in table \"" + table_name_ + "\"";
    std::string suggestions;
    for (size_t i = 0; i < scored.size() && i < 3; ++i) {
      // Close enough to be a typo: a third of the name (at least one edit), never all of it.
      if (scored[i].first > std::max<size_t>(1, expr.text.size() / 3) || scored[i].first >= expr.text.size()) break;
      suggestions += (suggestions.empty() ? "" : ", ") + ("\"" + scored[i].second + "\"");
    }
    if (!suggestions.empty()) message += "; did you mean " + suggestions + "?";
    return Fail(expr.pos, "binder", message);
  }
  const Column& column = table_->column(static_cast<size_t>(index));
  return MakeColumn(index, column.type() == TypeId::kLargeString ? TypeId::kString : column.type(),
                    column.null_count() != 0, expr.pos);
}

std::vector<BoundExprPtr> Binder::BindChildren(const sql::Expr& expr, Scope scope) {
  std::vector<BoundExprPtr> children;
  auto add = [&](const sql::Expr* child) {
    if (failed_) return;
    BoundExprPtr bound = Bind(*child, scope);
    if (bound) children.push_back(std::move(bound));
  };
  if (expr.operand) add(expr.operand.get());
  if (expr.left) add(expr.left.get());
  if (expr.right) add(expr.right.get());
  for (const auto& arg : expr.args) add(arg.get());
  for (const auto& branch : expr.branches) {
    add(branch.when.get());
    add(branch.then.get());
  }
  if (expr.else_result) add(expr.else_result.get());
  return children;
}

BoundExprPtr Binder::Bind(const sql::Expr& expr, Scope scope) {
  if (failed_) return nullptr;
  if (scope == Scope::kGroup) return BindGroupScope(expr);
  BoundExprPtr bound = BindScoped(expr, scope);
  // Inside TryBindBase: every subtree's outcome, for the GROUP BY scope's matching.
  if (silent_ > 0) RememberBaseBinding(expr, bound.get());
  return bound;
}

BoundExprPtr Binder::BindScoped(const sql::Expr& expr, Scope scope) {
  switch (expr.kind) {
    case sql::ExprKind::kColumnRef: return BindColumnRef(expr, scope);
    case sql::ExprKind::kStar:
      return Fail(expr.pos, "binder", "* is allowed only as a SELECT item or in count(*)");
    case sql::ExprKind::kIntegerLiteral: {
      Int128 value = 0;
      const bool negative = !expr.text.empty() && expr.text[0] == '-';
      for (size_t i = negative ? 1 : 0; i < expr.text.size(); ++i) {
        const int digit = expr.text[i] - '0';
        if (value > (TypeMax(TypeId::kInt128) - digit) / 10) {
          return Fail(expr.pos, "conversion", "integer literal " + expr.text + " is out of range for HUGEINT");
        }
        value = value * 10 + digit;
      }
      if (negative) value = -value;
      const TypeId type = (value >= INT32_MIN && value <= INT32_MAX) ? TypeId::kInt32
                          : (value >= INT64_MIN && value <= INT64_MAX) ? TypeId::kInt64
                                                                       : TypeId::kInt128;
      BoundExprPtr constant = MakeConstant(Value::Integer(type, value), expr.pos);
      constant->integer_literal = true;
      return constant;
    }
    case sql::ExprKind::kDecimalLiteral: {
      // DuckDB's typing: 12.50 is DECIMAL(4,2), one digit of precision per digit written; with an
      // exponent or more than 38 digits, DOUBLE.
      int digits = 0, scale = 0;
      bool point = false;
      for (char c : expr.text) {
        if (c == '.') point = true;
        if (c >= '0' && c <= '9') { ++digits; scale += point; }
      }
      Int128 value = 0;
      if (expr.text.find_first_of("eE") == std::string::npos && digits <= kMaxDecimalPrecision &&
          decimal::ParseDecimal(expr.text, digits, scale, &value)) {
        return MakeConstant(Value::Integer(DecimalType(digits, scale), value), expr.pos);
      }
      return MakeConstant(Value::Real(TypeId::kFloat64, std::strtod(expr.text.c_str(), nullptr)), expr.pos);
    }
    case sql::ExprKind::kStringLiteral: {
      BoundExprPtr constant = MakeConstant(Value::String(expr.text), expr.pos);
      constant->string_literal = true;
      return constant;
    }
    case sql::ExprKind::kBooleanLiteral:
      return MakeConstant(Value::Integer(TypeId::kBool, expr.bool_value ? 1 : 0), expr.pos);
    case sql::ExprKind::kNullLiteral: {
      BoundExprPtr constant = MakeConstant(Value::Null(TypeId::kInt32), expr.pos);
      constant->null_literal = true;
      return constant;
    }
    case sql::ExprKind::kInterval: return BindIntervalLiteral(expr, scope);
    case sql::ExprKind::kSubquery:
    case sql::ExprKind::kExists:
    case sql::ExprKind::kInSubquery:
    case sql::ExprKind::kQuantified:
      return Fail(expr.pos, "binder", "subqueries are not supported here");
    case sql::ExprKind::kWindowCall:
      // The query runner evaluates window calls of the SELECT list, QUALIFY and ORDER BY
      // before binding (exec/query_windows.cc); anywhere else one is refused.
      return Fail(expr.pos, "binder", "window functions are not allowed here");
    case sql::ExprKind::kFunctionCall:
      if (IsAggregateName(LowerAscii(expr.text))) {
        return Fail(expr.pos, "binder",
                    in_aggregate_ ? "aggregate function calls cannot be nested (" + LowerAscii(expr.text) + ")"
                                  : LowerAscii(expr.text) + "() is an aggregate and is not allowed here");
      }
      break;
    default: break;
  }
  std::vector<BoundExprPtr> children = BindChildren(expr, scope);
  if (failed_ || !CheckListOperands(expr, children)) return nullptr;
  return BuildNode(expr, std::move(children));
}


BoundExprPtr Binder::CastToAtOwnPos(BoundExprPtr expr, TypeId type) {
  // The position is read before the pointer is moved into the call (argument evaluation order
  // is unspecified in C++: GCC and Clang differ).
  const SourcePos pos = expr ? expr->pos : SourcePos{};
  return CastTo(std::move(expr), type, pos);
}

BoundExprPtr Binder::CastTo(BoundExprPtr expr, TypeId type, SourcePos pos, bool explicit_cast, bool try_cast) {
  if (!expr) return nullptr;
  if (expr->type == type) return expr;
  // A NULL literal (INTEGER until it meets another type) casts to any type, as in DuckDB.
  if (IsNullLiteral(*expr)) return MakeConstant(Value::Null(type), expr->pos);
  const TypeId from = expr->type;
  const auto number = [](TypeId t) { return IsNumeric(t) || t == TypeId::kBool || IsDecimal(t); };
  const bool timestamp = from == TypeId::kTimestampMicros || from == TypeId::kTimestampSeconds;
  const bool ok = from == type || IsString(type) || IsString(from) || (number(from) && number(type)) ||
                  (IsTemporal(from) && IsTemporal(type)) || (type == TypeId::kTime && timestamp);
  if (!ok) {
    return Fail(pos, "type", std::string("cannot cast ") + DuckDbTypeName(from) + " to " + DuckDbTypeName(type));
  }
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(expr));
  BoundExprPtr cast = MakeCall(Fn::kCast, type, pos, std::move(args));
  cast->try_cast = try_cast;
  cast->nullable = cast->nullable || try_cast;
  // A string cast to a number or date can fail on bad text (-> error, not NULL; TRY_CAST: NULL).
  if (cast->args[0]->IsConstant()) return Fold(std::move(cast), explicit_cast);
  return cast;
}

BoundExprPtr Binder::Fold(BoundExprPtr call, bool defer_errors) {
  Value value;
  std::string message;
  if (!exec::EvaluateConstant(*call, &value, &message)) {
    if (defer_errors) return call;
    if (!failed_) {
      failed_ = true;
      if (silent_ == 0) error_ = BindError{message, call->pos.line, call->pos.column};
    }
    return nullptr;
  }
  value.type = call->type;
  return MakeConstant(std::move(value), call->pos);
}

bool Binder::Unify(BoundExprPtr* a, BoundExprPtr* b, SourcePos at, bool comparison) {
  BoundExpr& x = **a;
  BoundExpr& y = **b;
  TypeId target;
  if (x.type == y.type) return true;
  if (IsNullLiteral(x)) target = y.type;
  else if (IsNullLiteral(y)) target = x.type;
  else if ((IsDecimal(x.type) || IsDecimal(y.type)) && (IsNumeric(x.type) || IsDecimal(x.type) || IsBool(x.type)) &&
           (IsNumeric(y.type) || IsDecimal(y.type) || IsBool(y.type))) {
    // In a comparison, a constant (a decimal one, or an integer literal) that the other side's
    // DECIMAL holds exactly takes its type: the same answer, and the column stays uncast.
    // (Elsewhere the common type is the result's type, so DuckDB's rule holds.)
    if (comparison && ConstantFitsDecimal(y, x.type)) target = x.type;
    else if (comparison && ConstantFitsDecimal(x, y.type)) target = y.type;
    else target = decimal::CommonType(x.type, y.type);
    // A common DECIMAL that lost scale digits (past 38 digits) would round one side: compare
    // such values as DOUBLEs instead.
    const auto scale = [](TypeId t) { return IsDecimal(t) ? DecimalScale(t) : 0; };
    if (comparison && IsDecimal(target) && DecimalScale(target) < std::max(scale(x.type), scale(y.type))) {
      target = TypeId::kFloat64;
    }
  } else if (IsNumeric(x.type) && IsNumeric(y.type)) target = CommonNumeric(x, y);
  else if (x.string_literal && !IsString(y.type)) target = y.type;
  else if (y.string_literal && !IsString(x.type)) target = x.type;
  else if (IsString(x.type) && IsString(y.type)) target = TypeId::kString;
  else if (IsTemporal(x.type) && IsTemporal(y.type)) target = TypeId::kTimestampMicros;
  else if (x.type == TypeId::kBool && y.type == TypeId::kBool) target = TypeId::kBool;
  else {
    Fail(at, "type", std::string("cannot compare ") + DuckDbTypeName(x.type) + " and " + DuckDbTypeName(y.type));
    return false;
  }
  *a = CastToAtOwnPos(std::move(*a), target);
  if (!*a) return false;
  *b = CastToAtOwnPos(std::move(*b), target);
  return *b != nullptr;
}

bool Binder::UnifyAll(std::vector<BoundExprPtr>* exprs) {
  if (exprs->empty()) return true;
  BoundExprPtr probe = Clone(*(*exprs)[0]);
  for (const BoundExprPtr& e : *exprs) {
    BoundExprPtr other = Clone(*e);
    if (!Unify(&probe, &other, e->pos)) return false;
    probe->integer_literal = probe->integer_literal && other->integer_literal;
    probe->string_literal = probe->string_literal && other->string_literal;
    probe->null_literal = probe->null_literal && other->null_literal;
  }
  for (BoundExprPtr& e : *exprs) {
    e = CastToAtOwnPos(std::move(e), probe->type);
    if (!e) return false;
  }
  return true;
}

BoundExprPtr Binder::BuildNode(const sql::Expr& expr, std::vector<BoundExprPtr> children) {
  const SourcePos pos = expr.pos;
  auto type_name = [](const BoundExpr& e) { return std::string(DuckDbTypeName(e.type)); };
  auto unify = [&](BoundExprPtr* a, BoundExprPtr* b, SourcePos at) { return Unify(a, b, at, /*comparison=*/true); };
  auto require_bool = [&](BoundExprPtr* e, const char* what) -> bool {
    if ((*e)->type == TypeId::kBool) return true;
    if (IsNullLiteral(**e)) { *e = CastTo(std::move(*e), TypeId::kBool, pos); return *e != nullptr; }
    Fail((*e)->pos, "type", std::string(what) + " needs a BOOLEAN operand, not " + type_name(**e));
    return false;
  };
  BoundExprPtr node;
  switch (expr.kind) {
    case sql::ExprKind::kUnary:
      if (expr.unary_op == sql::UnaryOp::kBitNot) return BindLibraryFunction(*FindOperatorFunction("~"), std::move(children), pos);
      if (expr.unary_op == sql::UnaryOp::kNot) {
        if (!require_bool(&children[0], "NOT")) return nullptr;
        node = MakeCall(Fn::kNot, TypeId::kBool, pos, std::move(children));
      } else {
        if (IsInterval(children[0]->type)) {
          const bool constant = children[0]->IsConstant();
          BoundExprPtr negated = ScalarCall(ScalarFn::kIntervalNegate, TypeId::kInterval, pos, std::move(children));
          return constant ? Fold(std::move(negated)) : std::move(negated);
        }
        if (!IsNumeric(children[0]->type) && !IsDecimal(children[0]->type)) {
          return Fail(pos, "type", "cannot negate " + type_name(*children[0]));
        }
        const TypeId type = children[0]->type;
        node = MakeCall(Fn::kNegate, type, pos, std::move(children));
      }
      break;
    case sql::ExprKind::kBinary: {
      const sql::BinaryOp op = expr.binary_op;
      if (op == sql::BinaryOp::kAnd || op == sql::BinaryOp::kOr) {
        if (!require_bool(&children[0], op == sql::BinaryOp::kAnd ? "AND" : "OR") ||
            !require_bool(&children[1], op == sql::BinaryOp::kAnd ? "AND" : "OR")) return nullptr;
        node = MakeCall(op == sql::BinaryOp::kAnd ? Fn::kAnd : Fn::kOr, TypeId::kBool, pos, std::move(children));
        break;
      }
      if (const ScalarFunctionInfo* info = FindOperatorFunction(sql::BinaryOpText(op))) {
        return BindLibraryFunction(*info, std::move(children), pos);  // //, &, |, <<, >>, ^
      }
      if (op == sql::BinaryOp::kConcat) {
        for (auto& child : children) {
          child = CastTo(std::move(child), TypeId::kString, pos);
          if (!child) return nullptr;
        }
        node = MakeCall(Fn::kConcat, TypeId::kString, pos, std::move(children));
        break;
      }
      Fn fn;
      bool compare = true;
      switch (op) {
        case sql::BinaryOp::kEquals: fn = Fn::kEquals; break;
        case sql::BinaryOp::kNotEquals: fn = Fn::kNotEquals; break;
        case sql::BinaryOp::kLess: fn = Fn::kLess; break;
        case sql::BinaryOp::kLessEquals: fn = Fn::kLessEquals; break;
        case sql::BinaryOp::kGreater: fn = Fn::kGreater; break;
        case sql::BinaryOp::kGreaterEquals: fn = Fn::kGreaterEquals; break;
        case sql::BinaryOp::kAdd: fn = Fn::kAdd; compare = false; break;
        case sql::BinaryOp::kSubtract: fn = Fn::kSubtract; compare = false; break;
        case sql::BinaryOp::kMultiply: fn = Fn::kMultiply; compare = false; break;
        case sql::BinaryOp::kDivide: fn = Fn::kDivide; compare = false; break;
        default: fn = Fn::kModulo; compare = false; break;
      }
      if (compare) {
        if (BoundExprPtr dates = CompareDateWithTimestamp(fn, &children, pos)) {
          node = std::move(dates);
          break;
        }
        if (!unify(&children[0], &children[1], pos)) return nullptr;
        if (IsInterval(children[0]->type) && IsInterval(children[1]->type)) {
          // DuckDB's order of intervals: months of 30 days, days of 24 hours.
          for (auto& child : children) {
            const bool constant = child->IsConstant();
            std::vector<BoundExprPtr> one;
            one.push_back(std::move(child));
            child = ScalarCall(ScalarFn::kIntervalKey, TypeId::kInt128, pos, std::move(one));
            if (constant) child = Fold(std::move(child));
            if (!child) return nullptr;
          }
        }
        node = MakeCall(fn, TypeId::kBool, pos, std::move(children));
        break;
      }
      if (BoundExprPtr temporal = BindTemporalArithmetic(fn, &children, pos); temporal || failed()) return temporal;
      BoundExpr& a = *children[0];
      BoundExpr& b = *children[1];
      if (fn == Fn::kSubtract && IsTemporal(b.type) &&
          (IsTemporal(a.type) || a.string_literal || IsNullLiteral(a))) {
        // DATE - DATE is the days between as a BIGINT, as in DuckDB; a string literal on the left
        // is read as a DATE ('1998-12-01' - d) and NULL - d is a BIGINT NULL, as there.
        if (b.type == TypeId::kDate32 && a.type != TypeId::kTimestampSeconds &&
            a.type != TypeId::kTimestampMicros) {
          if (IsNullLiteral(a)) return MakeConstant(Value::Null(TypeId::kInt64), pos);
          children[0] = CastToAtOwnPos(std::move(children[0]), TypeId::kDate32);
          if (!children[0]) return nullptr;
          node = MakeCall(Fn::kDateDiff, TypeId::kInt64, pos, std::move(children));
          break;
        }
        // With a TIMESTAMP on either side DuckDB's answer is an INTERVAL.
        const std::string left = IsNullLiteral(a) ? "NULL" : a.string_literal ? "a string" : type_name(a);
        return Fail(pos, "binder", left + " - " + type_name(b) + " is an INTERVAL; INTERVAL values are not supported yet");
      }
      if (a.type == TypeId::kDate32 && IsInteger(b.type) && (fn == Fn::kAdd || fn == Fn::kSubtract)) {
        children[1] = CastTo(std::move(children[1]), TypeId::kInt32, pos);
        if (!children[1]) return nullptr;
        node = MakeCall(fn, TypeId::kDate32, pos, std::move(children));
        break;
      }
      if (BoundExprPtr dec = BindDecimalArithmetic(fn, &children, pos)) {
        node = std::move(dec);  // folded below when its operands are constants
        break;
      }
      if (failed()) return nullptr;
      if (IsNullLiteral(a) || IsNullLiteral(b)) {
        const TypeId type = IsNullLiteral(a) ? b.type : a.type;
        return MakeConstant(Value::Null(IsNumeric(type) ? type : TypeId::kInt32), pos);
      }
      if (!IsNumeric(a.type) || !IsNumeric(b.type)) {
        return Fail(pos, "type", std::string("cannot apply ") +
                                     (fn == Fn::kAdd ? "+" : fn == Fn::kSubtract ? "-" : fn == Fn::kMultiply ? "*" : fn == Fn::kDivide ? "/" : "%") +
                                     " to " + type_name(a) + " and " + type_name(b));
      }
      const TypeId type = fn == Fn::kDivide ? TypeId::kFloat64 : CommonNumeric(a, b);
      for (auto& child : children) {
        child = CastTo(std::move(child), type, pos);
        if (!child) return nullptr;
      }
      // Nullable only where an operand is: x % 0 is an error (DuckDB 2.0), x / 0 is inf or NaN.
      node = MakeCall(fn, type, pos, std::move(children));
      break;
    }
    case sql::ExprKind::kIsNull: {
      node = MakeCall(expr.negated ? Fn::kIsNotNull : Fn::kIsNull, TypeId::kBool, pos, std::move(children));
      node->nullable = false;
      break;
    }
    case sql::ExprKind::kBetween: {
      BoundExprPtr probe = Clone(*children[0]);
      if (!unify(&children[0], &children[1], pos) || !unify(&probe, &children[2], pos)) return nullptr;
      if (children[0]->type != probe->type) {
        // Bring all three to one type (e.g. SMALLINT BETWEEN 1 AND 100000).
        const TypeId target = CommonNumeric(*children[0], *probe);
        for (auto& child : children) {
          child = CastTo(std::move(child), target, pos);
          if (!child) return nullptr;
        }
      } else {
        children[2] = CastTo(std::move(children[2]), children[0]->type, pos);
        if (!children[2]) return nullptr;
      }
      node = MakeCall(Fn::kBetween, TypeId::kBool, pos, std::move(children));
      node->negated = expr.negated;
      break;
    }
    case sql::ExprKind::kInList: {
      // One type for the operand and every element.
      for (size_t i = 1; i < children.size(); ++i) {
        if (!unify(&children[0], &children[i], children[i]->pos)) return nullptr;
      }
      for (size_t i = 1; i < children.size(); ++i) {
        children[i] = CastToAtOwnPos(std::move(children[i]), children[0]->type);
        if (!children[i]) return nullptr;
      }
      node = MakeCall(Fn::kInList, TypeId::kBool, pos, std::move(children));
      node->negated = expr.negated;
      break;
    }
    case sql::ExprKind::kLike: {
      if (!IsString(children[0]->type)) {
        return Fail(children[0]->pos, "type", "LIKE needs a VARCHAR operand, not " + type_name(*children[0]));
      }
      for (size_t i = 1; i < children.size(); ++i) {
        if (!children[i]->IsConstant() || !IsString(children[i]->type)) {
          return Fail(children[i]->pos, "binder", i == 1 ? "the LIKE pattern must be a constant string"
                                                          : "the ESCAPE character must be a constant string");
        }
      }
      if (children.size() > 2 && children[2]->constant.text.size() != 1) {
        return Fail(children[2]->pos, "binder", "the ESCAPE string must be one character");
      }
      node = MakeCall(Fn::kLike, TypeId::kBool, pos, std::move(children));
      node->negated = expr.negated;
      node->case_insensitive = expr.case_insensitive;
      break;
    }
    case sql::ExprKind::kCase: {
      // children: [operand], when0, then0, ..., [else]
      std::vector<BoundExprPtr> args;
      size_t i = 0;
      BoundExprPtr operand = expr.operand ? std::move(children[i++]) : nullptr;
      for (size_t b = 0; b < expr.branches.size(); ++b) {
        BoundExprPtr when = std::move(children[i++]);
        BoundExprPtr then = std::move(children[i++]);
        if (operand) {
          BoundExprPtr left = Clone(*operand);
          if (!unify(&left, &when, when->pos)) return nullptr;
          std::vector<BoundExprPtr> pair;
          pair.push_back(std::move(left));
          pair.push_back(std::move(when));
          when = MakeCall(Fn::kEquals, TypeId::kBool, pos, std::move(pair));
        } else if (!require_bool(&when, "WHEN")) {
          return nullptr;
        }
        args.push_back(std::move(when));
        args.push_back(std::move(then));
      }
      BoundExprPtr otherwise = expr.else_result ? std::move(children[i++])
                                                : MakeConstant(Value::Null(TypeId::kInt32), pos);
      if (!expr.else_result) otherwise->null_literal = true;  // no ELSE: ELSE NULL
      args.push_back(std::move(otherwise));
      // The result type: the common type of every THEN and the ELSE.
      std::vector<size_t> results;
      for (size_t r = 1; r + 1 < args.size(); r += 2) results.push_back(r);
      results.push_back(args.size() - 1);
      BoundExprPtr type_probe = Clone(*args[results[0]]);
      for (size_t r : results) {
        BoundExprPtr other = Clone(*args[r]);
        if (!Unify(&type_probe, &other, args[r]->pos)) return nullptr;  // a result type, no comparison
        type_probe->integer_literal = type_probe->integer_literal && other->integer_literal;
        type_probe->string_literal = type_probe->string_literal && other->string_literal;
      }
      const TypeId type = type_probe->type;
      for (size_t r = 1; r < args.size(); r += 2) {
        args[r] = CastToAtOwnPos(std::move(args[r]), type);
        if (!args[r]) return nullptr;
      }
      args.back() = CastToAtOwnPos(std::move(args.back()), type);
      if (!args.back()) return nullptr;
      node = MakeCall(Fn::kCase, type, pos, std::move(args));
      node->nullable = true;
      break;
    }
    case sql::ExprKind::kCast: {
      TypeId type;
      if (!TypeFromSqlName(expr.text, &type)) return Fail(pos, "type", "unknown type " + expr.text);
      if (type == TypeId::kLargeString) type = TypeId::kString;
      return CastTo(std::move(children[0]), type, pos, /*explicit_cast=*/true, expr.try_cast);
    }
    case sql::ExprKind::kExtract: {
      std::vector<BoundExprPtr> parts;
      parts.push_back(MakeConstant(Value::String(expr.text), pos));
      parts.push_back(std::move(children[0]));
      return BindDatePart("extract", std::move(parts), pos);
    }
    case sql::ExprKind::kFunctionCall: {
      const std::string name = LowerAscii(expr.text);
      auto arity = [&](size_t lo, size_t hi) -> bool {
        if (children.size() >= lo && children.size() <= hi) return true;
        Fail(pos, "binder", name + " takes " + (lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi)) +
                                " argument" + (hi == 1 ? "" : "s") + ", got " + std::to_string(children.size()));
        return false;
      };
      if (expr.distinct) return Fail(pos, "binder", "DISTINCT is only allowed in aggregates");
      if (expr.filtered) return Fail(pos, "binder", "FILTER is only allowed on aggregates, not on " + name + "()");
      if (expr.order_by_args != 0) {
        return Fail(pos, "binder", "ORDER BY in a call is only allowed on aggregates, not on " + name + "()");
      }
      if (name == "length" || name == "char_length" || name == "character_length" || name == "strlen" ||
          name == "octet_length" || name == "lower" || name == "upper" || name == "lcase" || name == "ucase") {
        if (!arity(1, 1)) return nullptr;
        if (name == "length" && IsList(children[0]->type)) {  // length(list): len(list), as DuckDB
          return BindLibraryFunction(*FindScalarFunction("len"), std::move(children), pos);
        }
        if (IsList(children[0]->type)) return Fail(children[0]->pos, "binder", ListRefusal(children[0]->type));
        if (!IsString(children[0]->type)) {
          if (!IsNullLiteral(*children[0])) {
            return Fail(children[0]->pos, "type", name + " needs a VARCHAR argument, not " + type_name(*children[0]));
          }
          children[0] = CastTo(std::move(children[0]), TypeId::kString, pos);
        }
        const bool bytes = name == "strlen" || name == "octet_length";
        const bool lower = name == "lower" || name == "lcase";
        const bool upper = name == "upper" || name == "ucase";
        node = MakeCall(lower ? Fn::kLower : upper ? Fn::kUpper : bytes ? Fn::kStrlen : Fn::kLength,
                        lower || upper ? TypeId::kString : TypeId::kInt64, pos, std::move(children));
        break;
      }
      if (name == "substring" || name == "substr") {
        if (!arity(2, 3)) return nullptr;
        if (!IsString(children[0]->type)) {
          return Fail(children[0]->pos, "type", name + " needs a VARCHAR argument, not " + type_name(*children[0]));
        }
        for (size_t i = 1; i < children.size(); ++i) {
          if (!IsInteger(children[i]->type)) {
            return Fail(children[i]->pos, "type", name + " needs an integer here, not " + type_name(*children[i]));
          }
          children[i] = CastToAtOwnPos(std::move(children[i]), TypeId::kInt64);
          if (!children[i]) return nullptr;
        }
        BoundExprPtr node = MakeCall(Fn::kSubstring, TypeId::kString, pos, std::move(children));
        bool constant = true;
        for (const BoundExprPtr& arg : node->args) constant = constant && arg->IsConstant();
        if (constant) return Fold(std::move(node));
        return node;
      }
      if (name == "regexp_replace") {
        if (!arity(3, 4)) return nullptr;
        if (!IsString(children[0]->type)) {
          return Fail(children[0]->pos, "type", "regexp_replace needs a VARCHAR argument, not " + type_name(*children[0]));
        }
        for (size_t i = 1; i < children.size(); ++i) {
          if (!children[i]->IsConstant() || !IsString(children[i]->type) || children[i]->constant.is_null) {
            return Fail(children[i]->pos, "binder", "regexp_replace needs a constant string here");
          }
        }
        std::string compile_error;
        const std::string options = children.size() > 3 ? children[3]->constant.text : "";
        std::shared_ptr<const exec::RegexpReplacer> replacer = exec::RegexpReplacer::Compile(
            children[1]->constant.text, children[2]->constant.text, options, &compile_error);
        if (!replacer) return Fail(children[1]->pos, "binder", compile_error);
        // The pattern and replacement stay as constant args: they make equal calls fingerprint equal.
        node = MakeCall(Fn::kRegexpReplace, TypeId::kString, pos, std::move(children));
        node->compiled = replacer;
        break;
      }
      if (const ScalarFunctionInfo* info = FindScalarFunction(name)) {
        return BindLibraryFunction(*info, std::move(children), pos);
      }
      std::string message = "unknown function " + name + "()";
      const std::string best = NearestFunctionName(name);
      if (!best.empty()) message += "; did you mean " + best + "()?";
      return Fail(pos, "binder", message);
    }
    default:
      return Fail(pos, "binder", "unsupported expression " + sql::ToString(expr));
  }
  if (!node) return nullptr;
  bool all_constant = true;
  for (const auto& arg : node->args) all_constant &= arg->IsConstant();
  if (all_constant) return Fold(std::move(node), /*defer_errors=*/true);
  return node;
}

}  // namespace plan
}  // namespace laneql
