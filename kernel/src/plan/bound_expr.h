// Bound expressions and the logical plan of one SELECT: every name resolved to a column
// position, every node typed (DuckDB's types and implicit casts), aggregates pulled out.
//
// Two scopes. "Base" expressions (WHERE, GROUP BY keys, aggregate arguments, and the outputs of
// a query without aggregates) read the table's columns: kColumn's index is the table column.
// "Group" expressions (HAVING, and the outputs / ORDER BY of an aggregate query) read the
// intermediate relation the aggregation produces: its columns are the group keys in GROUP BY
// order followed by the aggregates in Plan::aggregates order.
#ifndef LANEQL_PLAN_BOUND_EXPR_H_
#define LANEQL_PLAN_BOUND_EXPR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "laneql/table.h"
#include "laneql/types.h"
#include "src/plan/aggregate_functions.h"
#include "src/plan/scalar_functions.h"
#include "src/plan/value.h"
#include "src/sql/token.h"

namespace laneql {
namespace plan {

using sql::SourcePos;

enum class Fn : uint8_t {
  // Arithmetic over the node's type (integers checked for overflow), and integer division.
  kAdd, kSubtract, kMultiply, kDivide, kModulo, kNegate,
  // Comparisons: both arguments have been cast to one comparable type; result BOOLEAN.
  kEquals, kNotEquals, kLess, kLessEquals, kGreater, kGreaterEquals,
  kAnd, kOr, kNot,           // three-valued logic
  kIsNull, kIsNotNull,
  kInList,                   // args[0] IN (args[1..]); negated = NOT IN
  kBetween,                  // args[0] BETWEEN args[1] AND args[2]; negated = NOT BETWEEN
  kLike,                     // args[0] LIKE args[1] (constant); negated, case_insensitive
  kCase,                     // args: when0, then0, when1, then1, ..., else
  kCast,                     // args[0] to the node's type
  kLength,                   // code points (DuckDB length)
  kStrlen,                   // bytes (DuckDB strlen / octet_length)
  kExtract,                  // part of args[0] (date or timestamp)
  kDateTrunc,                // args[0] truncated to part
  kRegexpReplace,            // args[0], constant pattern args[1], constant replacement args[2]
  kConcat,                   // args[0] || args[1]
  kLower, kUpper,
  kSubstring,                // args[0] from code point args[1] (1-based), args[2] of them (BIGINT)
  kDateDiff,                 // args[0] - args[1], both DATE: the days between as BIGINT (DuckDB)
  kScalar,                   // a function of the library (scalar_functions.h): `scalar` says which
};

// Parts of a date or timestamp (date_parts.h names them): extract / date_part read them,
// date_trunc and date_diff use the calendar ones.
enum class DatePart : uint8_t {
  kYear, kMonth, kDay, kHour, kMinute, kSecond, kMillisecond, kMicrosecond,
  kDow, kIsoDow, kDoy, kWeek, kQuarter, kDecade, kCentury, kMillennium, kIsoYear, kYearWeek, kEra,
  kEpoch, kJulian,  // DOUBLE
};

struct BoundExpr;
using BoundExprPtr = std::unique_ptr<BoundExpr>;

enum class BoundKind : uint8_t { kColumn, kConstant, kCall };

struct BoundExpr {
  BoundKind kind = BoundKind::kConstant;
  TypeId type = TypeId::kInt32;
  bool nullable = true;         // false when no row can be NULL (lets grouping skip null flags)
  bool integer_literal = false; // a bare integer literal: narrows to the other operand's type
  bool string_literal = false;  // a bare string literal: casts to the other operand's type
  bool null_literal = false;    // the bare NULL literal: takes the other operand's type (a CAST
                                // NULL AS T, or a NULL folded from an expression, is a T)
  SourcePos pos;
  int column = -1;              // kColumn
  Value constant;               // kConstant
  Fn fn = Fn::kAdd;             // kCall
  bool negated = false;
  bool case_insensitive = false;
  bool try_cast = false;        // kCast: NULL where the conversion fails (TRY_CAST)
  DatePart part = DatePart::kYear;
  ScalarFn scalar = ScalarFn::kBuiltIn;  // kScalar
  std::vector<BoundExprPtr> args;
  std::shared_ptr<const void> compiled;  // kRegexpReplace: the compiled pattern

  bool IsConstant() const { return kind == BoundKind::kConstant; }
};

BoundExprPtr MakeColumn(int column, TypeId type, bool nullable, SourcePos pos);
BoundExprPtr MakeConstant(Value value, SourcePos pos);
BoundExprPtr Clone(const BoundExpr& expr);  // a deep copy
// A call node; nullable when any argument is.
BoundExprPtr MakeCall(Fn fn, TypeId type, SourcePos pos, std::vector<BoundExprPtr> args);
BoundExprPtr MakeCall2(Fn fn, TypeId type, SourcePos pos, BoundExprPtr a, BoundExprPtr b);
// A structural key: equal for expressions that compute the same thing (used to match SELECT
// expressions with GROUP BY ones and to share equal aggregates).
std::string Fingerprint(const BoundExpr& expr);
// Fingerprint(expr) into *out when it has at most max_bytes bytes; false (and *out unspecified)
// when longer, found after building at most about max_bytes of it: a cheap "can it equal any of
// these?" for deep trees.
bool FingerprintUpTo(const BoundExpr& expr, size_t max_bytes, std::string* out);

struct SortKey {
  int output = 0;  // index into Plan::outputs
  bool descending = false;
  bool nulls_first = false;
};

// kFunction: a library aggregate (aggregate_functions.h), Aggregate::function says which.
enum class AggKind : uint8_t { kCountStar, kCount, kSum, kAvg, kMin, kMax, kCountDistinct, kFunction };

struct Aggregate {
  AggKind kind = AggKind::kCountStar;
  BoundExprPtr arg;  // base scope; null for COUNT(*)
  TypeId type = TypeId::kInt64;  // the result type
  // kFunction: which, its second argument where it takes one (covar_pop(y, x): arg y, arg2 x;
  // arg_min(arg, val): arg2 val), and its constant parameters.
  AggFn function = AggFn::kNone;
  BoundExprPtr arg2;
  double fraction = 0.5;     // quantiles: in [-1, 1], negative from the top
  // quantile_cont(x, [0.25, 0.5]): the fractions, in order (the result is a list of the
  // quantiles, `type` a list type); empty for one fraction.
  std::vector<double> fractions;
  std::string separator;     // string_agg
  bool distinct = false;     // string_agg(DISTINCT s)
  // agg(x ORDER BY k): the keys, for the aggregates whose answer depends on the order of
  // their rows (string_agg, first, ...; the binder drops them elsewhere).
  std::vector<BoundExprPtr> order_keys;
  std::vector<SortKey> order;  // per key: `descending`, `nulls_first` (`output` unused)
};

// The message for a list where lists are not taken (plan/bind_lists.cc): lists are stored as
// strings are, and only the steps that move rows may touch them.
std::string ListRefusal(TypeId list);

// A key equal for aggregates that compute the same thing (the binder shares them).
std::string AggregateKey(const Aggregate& aggregate);
// Whether an aggregate's result can be NULL (a count's cannot).
bool AggregateNullable(const Aggregate& aggregate);


// A GROUP BY key computed per group from the hashed keys (src/optimize/derived_keys.cc).
struct DerivedKey {
  size_t position = 0;  // its column in the group scope
  BoundExprPtr expr;    // reads the hashed keys' relation: column i = Plan::group_keys[i]
};

struct Plan {
  const Table* table = nullptr;
  BoundExprPtr where;  // base scope, BOOLEAN; null = every row
  bool aggregate = false;
  // The keys that are hashed (base scope), in GROUP BY order without the derived ones.
  std::vector<BoundExprPtr> group_keys;
  std::vector<DerivedKey> derived_keys;  // by position
  // The group scope's key columns: every key of the GROUP BY.
  size_t scope_keys() const { return group_keys.size() + derived_keys.size(); }
  std::vector<Aggregate> aggregates;
  BoundExprPtr having;  // group scope
  // The SELECT list (first num_visible) and then hidden ORDER BY keys; base scope for plain
  // queries, group scope for aggregate ones.
  std::vector<BoundExprPtr> outputs;
  std::vector<std::string> names;
  size_t num_visible = 0;
  std::vector<SortKey> order;
  int64_t limit = -1;  // -1 = none
  int64_t offset = 0;
  // Set by the optimizer (optimize/count_from_metadata.cc): every aggregate is a count the
  // table's metadata answers, and no row needs reading.
  bool answer_from_metadata = false;
};

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_BOUND_EXPR_H_
