// The binder's shared state: the statement-level code (binder.cc) decides scopes, groups and
// aggregates; the expression-level code (bind_expr.cc) types one node from its bound children.
#ifndef LANEQL_PLAN_BINDER_INTERNAL_H_
#define LANEQL_PLAN_BINDER_INTERNAL_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/plan/binder.h"
#include "src/plan/aggregate_functions.h"
#include "src/plan/scalar_functions.h"

namespace laneql {
namespace plan {

enum class Scope {
  kBase,   // table columns; aggregates not allowed
  kGroup,  // group keys and aggregates of an aggregate query
};

class Binder {
 public:
  Binder(const Table* table, std::string table_name) : table_(table), table_name_(table_name) {}
  Binder(const Table* table, const ColumnScope* scope) : table_(table), scope_(scope) {}

  bool BindStatement(const sql::SelectStatement& statement, Plan* plan);
  const BindError& error() const { return error_; }

  // --- used by bind_expr.cc ---
  BoundExprPtr Bind(const sql::Expr& expr, Scope scope);
  // Types a non-aggregate node from its already bound children (operand/left/right/args in
  // AST order, flattened as BindChildren produces them).
  BoundExprPtr BuildNode(const sql::Expr& expr, std::vector<BoundExprPtr> children);
  // `expr` converted to `type` (a cast node, or a folded constant); null + error on failure.
  // An implicit cast of a constant that fails is an error here (a string literal compared
  // with a column); an `explicit_cast` (CAST, ::) fails only if it is evaluated (Fold).
  // `try_cast`: TRY_CAST, NULL where the conversion fails.
  BoundExprPtr CastTo(BoundExprPtr expr, TypeId type, SourcePos pos, bool explicit_cast = false,
                      bool try_cast = false);
  BoundExprPtr CastToAtOwnPos(BoundExprPtr expr, TypeId type);  // errors point at expr itself
  // Evaluates a call whose arguments are all constants; null + error on failure, or, with
  // `defer_errors`, the call itself, left to fail where it is evaluated: as in DuckDB,
  // 5 % 0 or 2147483647 + 1 fails a query that computes it, but not one over no rows or in a
  // CASE branch no row takes.
  BoundExprPtr Fold(BoundExprPtr call, bool defer_errors = false);
  std::nullptr_t Fail(SourcePos pos, const std::string& kind, const std::string& message);
  // Casts two operands to one comparable type (string literals take the other side's type,
  // a bare NULL the other's); false with the error reported when there is none.
  // `comparison`: for =, <, BETWEEN, IN and the like, where the common type decides nothing but
  // how to compare, so that an integer literal a DECIMAL side holds exactly takes its type.
  bool Unify(BoundExprPtr* a, BoundExprPtr* b, SourcePos at, bool comparison = false);
  // Every expression cast to the common type of all of them.
  bool UnifyAll(std::vector<BoundExprPtr>* exprs);
  // A call of a library function (scalar_functions.h) from its bound arguments
  // (bind_functions.cc); null with the error reported.
  BoundExprPtr BindLibraryFunction(const ScalarFunctionInfo& info, std::vector<BoundExprPtr> args, SourcePos pos);
  // The list family of the library (bind_lists.cc).
  BoundExprPtr BindListFunction(const ScalarFunctionInfo& info, std::vector<BoundExprPtr> args, SourcePos pos);
  // False with the error reported when a child of `expr` is a list and `expr` is no operation
  // that takes one (lists are stored as strings are: nothing may read them as text).
  bool CheckListOperands(const sql::Expr& expr, const std::vector<BoundExprPtr>& children);
  // The date and time family of the library (bind_date_functions.cc).
  BoundExprPtr BindDateFunction(const ScalarFunctionInfo& info, std::vector<BoundExprPtr> args, SourcePos pos);
  // extract / date_part(part, t) and date_trunc(part, t): `args` are the part (a constant
  // string) and the value (bind_functions.cc).
  BoundExprPtr BindDatePart(const std::string& function, std::vector<BoundExprPtr> args, SourcePos pos);
  BoundExprPtr BindDateTrunc(const std::string& function, std::vector<BoundExprPtr> args, SourcePos pos);
  bool ConstantDatePart(const std::string& function, const BoundExpr* part_arg, DatePart* part);
  // TIME and INTERVAL (bind_intervals.cc): INTERVAL literals; +, -, *, / with a TIME, TIMESTAMP
  // or INTERVAL operand (null when the operands are none of those shapes, or with the error
  // reported); the interval functions.
  BoundExprPtr BindIntervalLiteral(const sql::Expr& expr, Scope scope);
  BoundExprPtr BindTemporalArithmetic(Fn fn, std::vector<BoundExprPtr>* children, SourcePos pos);
  BoundExprPtr BindIntervalFunction(const ScalarFunctionInfo& info, std::vector<BoundExprPtr> args, SourcePos pos);
  BoundExprPtr BindToInterval(const std::string& name, DatePart part, std::vector<BoundExprPtr> args, SourcePos pos);
  // A DATE or TIMESTAMP argument (a string literal or NULL cast to TIMESTAMP).
  bool TemporalArg(const std::string& function, BoundExprPtr* arg, SourcePos pos);
  // +, -, *, /, % with a DECIMAL operand, typed as DuckDB types them (bind_decimals.cc); null
  // when neither operand is a DECIMAL, or with the error reported.
  BoundExprPtr BindDecimalArithmetic(Fn fn, std::vector<BoundExprPtr>* children, SourcePos pos);
  // The clock (microseconds since 1970, UTC) when this binder first read it: every
  // current_date / now() it binds gives the same instant.
  int64_t StatementStartMicros();
  bool failed() const { return failed_; }

 private:
  BoundExprPtr BindColumnRef(const sql::Expr& expr, Scope scope);
  // A name that is no column of the FROM but a SELECT item's alias (DuckDB reads those in
  // WHERE, GROUP BY expressions, HAVING and ORDER BY): the item bound in its place, in `scope`
  // (the base scope only takes items without aggregates). False when it is no such alias.
  bool BindAlias(const sql::Expr& ref, Scope scope, BoundExprPtr* out);
  bool IsFromColumn(const sql::Expr& ref) const;
  // The first column reference of `expr` (subqueries aside) that names neither a column of the
  // FROM nor an alias, or call of a function of no known name, or null.
  const sql::Expr* FirstUnknownColumn(const sql::Expr& expr);
  // date_column op TIMESTAMP constant (either way round; DATE '...' + INTERVAL ... is one) as a
  // comparison of DATEs with the constant moved to the day that decides it, so that it stays a
  // column against a constant (SIMD predicates, zone maps) instead of a per-row cast; null when
  // the comparison is not of that shape (an = or <> with a constant past midnight included).
  BoundExprPtr CompareDateWithTimestamp(Fn fn, std::vector<BoundExprPtr>* children, SourcePos pos);
  BoundExprPtr BindGroupScope(const sql::Expr& expr);
  BoundExprPtr BindAggregate(const sql::Expr& expr);
  // A library aggregate (AggKind::kFunction; sum / avg of DISTINCT too) into *out
  // (bind_aggregates.cc); false with the error reported. *always_null: its result is NULL in
  // every group (string_agg with a NULL separator), so no aggregate is needed.
  bool BindFunctionAggregate(const sql::Expr& expr, const AggregateFunctionInfo& info, Aggregate* out,
                             bool* always_null);
  // agg(x ORDER BY k, ...): the keys into out->order_keys where the aggregate's answer depends
  // on the order of its rows (string_agg, first, ...); ignored for the others, as DuckDB does.
  bool BindOrderKeys(const sql::Expr& expr, Aggregate* out);
  int AddAggregate(Aggregate aggregate);
  std::vector<BoundExprPtr> BindChildren(const sql::Expr& expr, Scope scope);
  // Binds `expr` in the base scope without reporting errors (null when it does not bind).
  BoundExprPtr TryBindBase(const sql::Expr& expr);
  // What the GROUP BY scope needs to know of a subtree bound in the base scope. Remembered for
  // every node a TryBindBase binds, so that matching each subtree of a deep expression against
  // the group keys binds it once, not once per level above it (quadratic in the height).
  struct BaseBinding {
    bool ok = false;           // it binds
    TypeId type = TypeId::kInt64;
    bool nullable = false;
    bool constant = false;
    int group_key = -1;        // the group key with the same fingerprint, or -1
  };
  const BaseBinding& TryBindBaseOnce(const sql::Expr& expr);
  void RememberBaseBinding(const sql::Expr& expr, const BoundExpr* bound);
  BoundExprPtr BindScoped(const sql::Expr& expr, Scope scope);  // Bind without the memo
  bool BindOrderBy(const sql::SelectStatement& statement, Plan* plan);

  const Table* table_;
  std::string table_name_;
  const ColumnScope* scope_ = nullptr;  // several sources: names resolve through it
  // The table column `expr` (a column reference) names, or -1 with the error reported.
  int ResolveColumn(const sql::Expr& expr);
  // Whether a column of that name exists (unqualified), for GROUP BY alias resolution.
  bool HasColumnNamed(const std::string& name) const;
  // The columns * (or t.* with EXCLUDE) expands to; false with the error reported.
  bool ExpandStar(const sql::Expr& star, std::vector<size_t>* columns, std::vector<std::string>* names);
  Plan* plan_ = nullptr;
  std::vector<std::string> group_fingerprints_;
  std::unordered_map<const sql::Expr*, BaseBinding> base_bindings_;
  std::vector<std::string> aggregate_fingerprints_;
  const sql::SelectStatement* statement_ = nullptr;
  std::vector<bool> expanding_alias_;  // per SELECT item: its alias is being bound (a cycle)
  bool in_aggregate_ = false;
  int64_t start_micros_ = INT64_MIN;  // StatementStartMicros, once read
  int silent_ = 0;
  bool failed_ = false;
  BindError error_;
};

bool ContainsAggregate(const sql::Expr& expr);
bool IsAggregateName(const std::string& lower_name);
std::string LowerAscii(std::string s);
bool IsNumeric(TypeId type);
// The bare NULL literal (which takes the type of what it meets).
inline bool IsNullLiteral(const BoundExpr& e) { return e.IsConstant() && e.null_literal; }

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_BINDER_INTERNAL_H_
