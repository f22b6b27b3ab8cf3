// The scalar function library's catalog: every function laneql knows by name, with its
// signature and a line saying what it does. docs/sql.md lists the same entries (a test compares
// them, so the two cannot drift), the binder looks names up here, and "did you mean" suggests
// from here.
//
// A library function is bound to a call node Fn::kScalar whose `scalar` member says which
// (exec/functions_*.cc evaluate them). Entries with ScalarFn::kBuiltIn are bound by the binder's
// own code (operators' functions such as substring, or rewrites such as coalesce → CASE).
#ifndef LANEQL_PLAN_SCALAR_FUNCTIONS_H_
#define LANEQL_PLAN_SCALAR_FUNCTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace laneql {
namespace plan {

enum class ScalarFn : uint16_t {
  kBuiltIn,
  // Numbers (exec/functions_math.cc).
  kAbs, kSign, kRound, kFloor, kCeil, kTrunc, kEven,
  kSqrt, kCbrt, kPow, kExp, kLn, kLog10, kLog2, kLogBase,
  kSin, kCos, kTan, kCot, kAsin, kAcos, kAtan, kAtan2, kDegrees, kRadians,
  kGcd, kLcm, kIsNan, kIsInf, kIsFinite,
  // Integer operators (//, &, |, xor(), <<, >>, ~), bound from the operators' syntax.
  kIntegerDivide, kBitAnd, kBitOr, kBitXor, kShiftLeft, kShiftRight, kBitNot,
  // Comparisons of several values (exec/functions_math.cc).
  kGreatest, kLeast,
  // Strings (exec/functions_string.cc); contains / starts_with / ends_with of a constant
  // without wildcards bind to LIKE, whose SIMD kernels and filter paths they then share.
  kConcat, kConcatWs, kLeft, kRight, kReplace, kSplitPart, kTrim, kLtrim, kRtrim, kLpad, kRpad,
  kReverse, kRepeat, kStrpos, kStartsWith, kEndsWith, kContains, kAscii, kChr,
  kRegexpMatches, kRegexpFullMatch, kRegexpExtract,  // RE2
  kMd5, kSha256, kHash,
  kFormat, kPrintf,  // exec/functions_format.cc
  // Dates and times (exec/functions_date.cc); extract, date_part, year() ... and date_trunc
  // bind to the Fn::kExtract / Fn::kDateTrunc nodes.
  kDateDiffPart, kDayName, kMonthName, kLastDay, kMakeDate, kMakeTimestamp, kEpochMs, kEpochUs,
  kStrftime, kStrptime, kTryStrptime,
  // Times and intervals (exec/functions_interval.cc). kToInterval: to_days(n) and the like,
  // BoundExpr::part the unit; the rest the operators' meanings on TIME, TIMESTAMP and INTERVAL.
  kToInterval, kAge, kMakeTime,
  kTimestampPlusInterval, kTimestampMinusInterval, kTimePlusInterval, kTimeMinusInterval,
  kTimestampMinusTimestamp, kIntervalPlus, kIntervalMinus, kIntervalTimes, kIntervalDivide,
  kIntervalNegate,
  kTimePart,  // date_part of a TIME or an INTERVAL, BoundExpr::part the part
  // An INTERVAL's comparison key, as DuckDB compares them: months of 30 days, days of 24 hours
  // (INTERVAL '1 month' = INTERVAL '30 days'): INT128 microseconds. Bound under comparisons.
  kIntervalKey,
  // A short string GROUP BY key as an integer and back (optimize/short_string_keys.cc): the
  // bytes in the low bytes, the length in the top one, in the node's UINT16 / 32 / 64.
  kPackShortString, kUnpackShortString,
  // Lists (exec/functions_list.cc; laneql/types.h has their layout).
  kListValue, kListLength, kListExtract,
};

enum class FunctionFamily : uint8_t { kNumber, kConditional, kString, kDate, kList };

struct ScalarFunctionInfo {
  const char* name;       // lower case
  ScalarFn fn;
  FunctionFamily family;
  const char* signature;  // as docs/sql.md shows it: "round(x [, digits])"
  const char* summary;
};

// Every entry, in docs order (by family, then as the docs group them).
const std::vector<ScalarFunctionInfo>& ScalarFunctionCatalog();
// The entry of a lower-case name, or null.
const ScalarFunctionInfo* FindScalarFunction(const std::string& lower_name);
// The entry of an operator bound as a library function ("//", "&", "|", "<<", ">>", "~"; "^"
// is pow), or null. Operators are not in the catalog (docs/sql.md lists them under Expressions).
const ScalarFunctionInfo* FindOperatorFunction(const std::string& symbol);
// Whether a lower-case name is an aggregate function's (aggregate_functions.h).
bool IsAggregateFunctionName(const std::string& lower_name);
// The known name nearest to `lower_name` (functions and aggregates, edit distance at most 2),
// or "" when none is near.
std::string NearestFunctionName(const std::string& lower_name);

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_SCALAR_FUNCTIONS_H_
