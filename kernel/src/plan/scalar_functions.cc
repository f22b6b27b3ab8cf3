#include "src/plan/scalar_functions.h"

#include <unordered_map>

#include "src/common/ascii.h"
#include "src/plan/aggregate_functions.h"

namespace laneql {
namespace plan {
namespace {

using F = ScalarFn;
using Fam = FunctionFamily;

}  // namespace

const std::vector<ScalarFunctionInfo>& ScalarFunctionCatalog() {
  static const std::vector<ScalarFunctionInfo> kCatalog = {
      // Numbers.
      {"abs", F::kAbs, Fam::kNumber, "abs(x)", "absolute value; the type of x (an integer's minimum overflows)"},
      {"sign", F::kSign, Fam::kNumber, "sign(x)", "-1, 0 or 1 as TINYINT (0 for -0.0 and NaN)"},
      {"round", F::kRound, Fam::kNumber, "round(x [, digits])",
       "x rounded half away from zero to `digits` decimal places (0 by default; negative rounds to tens, hundreds, ...)"},
      {"floor", F::kFloor, Fam::kNumber, "floor(x)", "the largest integral value not above x"},
      {"ceil", F::kCeil, Fam::kNumber, "ceil(x)", "the smallest integral value not below x"},
      {"ceiling", F::kCeil, Fam::kNumber, "ceiling(x)", "ceil(x)"},
      {"trunc", F::kTrunc, Fam::kNumber, "trunc(x)", "x with its fraction dropped (toward zero)"},
      {"even", F::kEven, Fam::kNumber, "even(x)", "x rounded away from zero to the next even integer, as DOUBLE"},
      {"sqrt", F::kSqrt, Fam::kNumber, "sqrt(x)", "square root, DOUBLE (NaN below zero)"},
      {"cbrt", F::kCbrt, Fam::kNumber, "cbrt(x)", "cube root, DOUBLE"},
      {"pow", F::kPow, Fam::kNumber, "pow(x, y)", "x to the power y, DOUBLE"},
      {"power", F::kPow, Fam::kNumber, "power(x, y)", "pow(x, y)"},
      {"exp", F::kExp, Fam::kNumber, "exp(x)", "e to the power x, DOUBLE"},
      {"ln", F::kLn, Fam::kNumber, "ln(x)", "natural logarithm, DOUBLE (-inf at 0, NaN below)"},
      {"log10", F::kLog10, Fam::kNumber, "log10(x)", "base-10 logarithm, DOUBLE"},
      {"log", F::kLogBase, Fam::kNumber, "log([base,] x)", "logarithm of x to `base` (10 when omitted), DOUBLE"},
      {"log2", F::kLog2, Fam::kNumber, "log2(x)", "base-2 logarithm, DOUBLE"},
      {"sin", F::kSin, Fam::kNumber, "sin(x)", "sine of x radians, DOUBLE"},
      {"cos", F::kCos, Fam::kNumber, "cos(x)", "cosine, DOUBLE"},
      {"tan", F::kTan, Fam::kNumber, "tan(x)", "tangent, DOUBLE"},
      {"cot", F::kCot, Fam::kNumber, "cot(x)", "cotangent (1 / tan(x)), DOUBLE"},
      {"asin", F::kAsin, Fam::kNumber, "asin(x)", "arcsine in radians, DOUBLE (NaN outside [-1, 1])"},
      {"acos", F::kAcos, Fam::kNumber, "acos(x)", "arccosine in radians, DOUBLE (NaN outside [-1, 1])"},
      {"atan", F::kAtan, Fam::kNumber, "atan(x)", "arctangent in radians, DOUBLE"},
      {"atan2", F::kAtan2, Fam::kNumber, "atan2(y, x)", "the angle of the point (x, y) in radians, DOUBLE"},
      {"pi", F::kBuiltIn, Fam::kNumber, "pi()", "π as DOUBLE"},
      {"degrees", F::kDegrees, Fam::kNumber, "degrees(x)", "x radians in degrees, DOUBLE"},
      {"radians", F::kRadians, Fam::kNumber, "radians(x)", "x degrees in radians, DOUBLE"},
      {"gcd", F::kGcd, Fam::kNumber, "gcd(a, b)", "greatest common divisor, BIGINT (HUGEINT for HUGEINT arguments)"},
      {"greatest_common_divisor", F::kGcd, Fam::kNumber, "greatest_common_divisor(a, b)", "gcd(a, b)"},
      {"lcm", F::kLcm, Fam::kNumber, "lcm(a, b)", "least common multiple, BIGINT (HUGEINT for HUGEINT arguments); overflow is an error"},
      {"least_common_multiple", F::kLcm, Fam::kNumber, "least_common_multiple(a, b)", "lcm(a, b)"},
      {"xor", F::kBitXor, Fam::kNumber, "xor(a, b)", "bitwise exclusive or of two integers"},
      {"isnan", F::kIsNan, Fam::kNumber, "isnan(x)", "whether x is NaN"},
      {"isinf", F::kIsInf, Fam::kNumber, "isinf(x)", "whether x is +inf or -inf"},
      {"isfinite", F::kIsFinite, Fam::kNumber, "isfinite(x)", "whether x is neither infinite nor NaN"},
      // Conditionals and comparisons.
      {"coalesce", F::kBuiltIn, Fam::kConditional, "coalesce(a, b, ...)", "the first argument that is not NULL"},
      {"ifnull", F::kBuiltIn, Fam::kConditional, "ifnull(a, b)", "coalesce(a, b)"},
      {"nullif", F::kBuiltIn, Fam::kConditional, "nullif(a, b)", "NULL when a = b, else a"},
      {"if", F::kBuiltIn, Fam::kConditional, "if(condition, a, b)", "CASE WHEN condition THEN a ELSE b END"},
      {"greatest", F::kGreatest, Fam::kConditional, "greatest(a, b, ...)", "the largest argument, NULLs skipped (NULL when all are)"},
      {"least", F::kLeast, Fam::kConditional, "least(a, b, ...)", "the smallest argument, NULLs skipped (NULL when all are)"},
      {"typeof", F::kBuiltIn, Fam::kConditional, "typeof(x)", "the name of x's type, as VARCHAR"},
      // Strings.
      {"length", F::kBuiltIn, Fam::kString, "length(s)", "characters (code points) in s, BIGINT"},
      {"char_length", F::kBuiltIn, Fam::kString, "char_length(s)", "length(s)"},
      {"character_length", F::kBuiltIn, Fam::kString, "character_length(s)", "length(s)"},
      {"strlen", F::kBuiltIn, Fam::kString, "strlen(s)", "bytes in s, BIGINT"},
      {"octet_length", F::kBuiltIn, Fam::kString, "octet_length(s)", "strlen(s)"},
      {"lower", F::kBuiltIn, Fam::kString, "lower(s)", "s in lower case: each code point's one-to-one mapping (Unicode 14; İ → i)"},
      {"lcase", F::kBuiltIn, Fam::kString, "lcase(s)", "lower(s)"},
      {"upper", F::kBuiltIn, Fam::kString, "upper(s)", "s in upper case: each code point's one-to-one mapping (ß → ẞ; ﬃ, whose upper case is three letters, stays)"},
      {"ucase", F::kBuiltIn, Fam::kString, "ucase(s)", "upper(s)"},
      {"substring", F::kBuiltIn, Fam::kString, "substring(s, start [, length])",
       "the characters of s from `start` (1-based), `length` of them; also substring(s FROM start FOR length)"},
      {"substr", F::kBuiltIn, Fam::kString, "substr(s, start [, length])", "substring(s, start, length)"},
      {"concat", F::kConcat, Fam::kString, "concat(a, ...)", "the arguments as text, one after another; NULLs are skipped"},
      {"concat_ws", F::kConcatWs, Fam::kString, "concat_ws(separator, a, ...)",
       "the arguments as text with `separator` between them; NULL arguments are skipped (a NULL separator gives NULL)"},
      {"left", F::kLeft, Fam::kString, "left(s, n)", "the first n characters of s (all but the last -n when n is negative)"},
      {"right", F::kRight, Fam::kString, "right(s, n)", "the last n characters of s (all but the first -n when n is negative)"},
      {"replace", F::kReplace, Fam::kString, "replace(s, from, to)", "s with every occurrence of `from` replaced by `to`"},
      {"split_part", F::kSplitPart, Fam::kString, "split_part(s, separator, index)",
       "the index-th part of s split at `separator` (1-based; negative counts from the end; '' past the parts; an empty separator splits into characters)"},
      {"trim", F::kTrim, Fam::kString, "trim(s [, characters])", "s without leading and trailing spaces (or any of `characters`)"},
      {"ltrim", F::kLtrim, Fam::kString, "ltrim(s [, characters])", "s without leading spaces (or any of `characters`)"},
      {"rtrim", F::kRtrim, Fam::kString, "rtrim(s [, characters])", "s without trailing spaces (or any of `characters`)"},
      {"lpad", F::kLpad, Fam::kString, "lpad(s, length, pad)", "s padded on the left with `pad` (repeated) to `length` characters, or cut to them"},
      {"rpad", F::kRpad, Fam::kString, "rpad(s, length, pad)", "s padded on the right with `pad` to `length` characters, or cut to them"},
      {"reverse", F::kReverse, Fam::kString, "reverse(s)", "the characters of s in reverse order"},
      {"repeat", F::kRepeat, Fam::kString, "repeat(s, n)", "s repeated n times ('' for n below 1)"},
      {"strpos", F::kStrpos, Fam::kString, "strpos(s, needle)",
       "the character position of the first `needle` in s, 1-based; 0 when absent; also position(needle IN s), instr"},
      {"position", F::kStrpos, Fam::kString, "position(needle IN s)", "strpos(s, needle)"},
      {"instr", F::kStrpos, Fam::kString, "instr(s, needle)", "strpos(s, needle)"},
      {"starts_with", F::kStartsWith, Fam::kString, "starts_with(s, prefix)", "whether s begins with `prefix`"},
      {"prefix", F::kStartsWith, Fam::kString, "prefix(s, prefix)", "starts_with(s, prefix)"},
      {"ends_with", F::kEndsWith, Fam::kString, "ends_with(s, suffix)", "whether s ends with `suffix`"},
      {"suffix", F::kEndsWith, Fam::kString, "suffix(s, suffix)", "ends_with(s, suffix)"},
      {"contains", F::kContains, Fam::kString, "contains(s, needle)", "whether `needle` occurs in s"},
      {"ascii", F::kAscii, Fam::kString, "ascii(s)", "the code point of the first character of s, INTEGER (0 for '')"},
      {"chr", F::kChr, Fam::kString, "chr(code_point)", "the character of a Unicode code point"},
      {"md5", F::kMd5, Fam::kString, "md5(s)", "the MD5 digest of s's bytes, as 32 hexadecimal digits"},
      {"sha256", F::kSha256, Fam::kString, "sha256(s)", "the SHA-256 digest of s's bytes, as 64 hexadecimal digits"},
      {"hash", F::kHash, Fam::kString, "hash(x, ...)",
       "a UBIGINT hash of the values (laneql's own hash: the same values give the same hash, but not DuckDB's numbers)"},
      {"format", F::kFormat, Fam::kString, "format(fmt, ...)",
       "fmt with each {} (or {0}, {:spec}: fill, align, sign, #, 0, width, `,`, .precision, type d x X o b f e g s) replaced by the next value"},
      {"printf", F::kPrintf, Fam::kString, "printf(fmt, ...)",
       "fmt with each %[flags][width][.precision]type (d i u x X o f F e E g G s, %%) replaced by the next value"},
      {"regexp_matches", F::kRegexpMatches, Fam::kString, "regexp_matches(s, pattern [, options])",
       "whether `pattern` matches somewhere in s; constant pattern and options ('i', 'c', 's'), RE2"},
      {"regexp_full_match", F::kRegexpFullMatch, Fam::kString, "regexp_full_match(s, pattern [, options])",
       "whether `pattern` matches all of s"},
      {"regexp_extract", F::kRegexpExtract, Fam::kString, "regexp_extract(s, pattern [, group [, options]])",
       "the first match of `pattern` in s, or its group (a constant, 0 by default); '' without a match"},
      {"regexp_replace", F::kBuiltIn, Fam::kString, "regexp_replace(s, pattern, replacement [, options])",
       "s with the first match of `pattern` (or every match, option 'g') replaced; constant pattern (RE2)"},
      // Dates and times.
      {"date_part", F::kBuiltIn, Fam::kDate, "date_part(part, t)",
       "a part of a DATE or TIMESTAMP, BIGINT (DOUBLE for epoch and julian); also extract(part FROM t); the parts are listed below"},
      {"datepart", F::kBuiltIn, Fam::kDate, "datepart(part, t)", "date_part(part, t)"},
      {"year", F::kBuiltIn, Fam::kDate, "year(t)", "the year"},
      {"month", F::kBuiltIn, Fam::kDate, "month(t)", "the month, 1-12"},
      {"day", F::kBuiltIn, Fam::kDate, "day(t)", "the day of the month"},
      {"hour", F::kBuiltIn, Fam::kDate, "hour(t)", "the hour, 0-23"},
      {"minute", F::kBuiltIn, Fam::kDate, "minute(t)", "the minute"},
      {"second", F::kBuiltIn, Fam::kDate, "second(t)", "the second, 0-59"},
      {"millisecond", F::kBuiltIn, Fam::kDate, "millisecond(t)", "the second and its fraction in milliseconds, 0-59999"},
      {"microsecond", F::kBuiltIn, Fam::kDate, "microsecond(t)", "the second and its fraction in microseconds"},
      {"quarter", F::kBuiltIn, Fam::kDate, "quarter(t)", "the quarter, 1-4"},
      {"week", F::kBuiltIn, Fam::kDate, "week(t)", "the ISO week, 1-53"},
      {"weekofyear", F::kBuiltIn, Fam::kDate, "weekofyear(t)", "week(t)"},
      {"yearweek", F::kBuiltIn, Fam::kDate, "yearweek(t)", "the ISO year × 100 + the ISO week"},
      {"isoyear", F::kBuiltIn, Fam::kDate, "isoyear(t)", "the ISO year of the ISO week"},
      {"dayofweek", F::kBuiltIn, Fam::kDate, "dayofweek(t)", "the day of the week, Sunday 0 to Saturday 6"},
      {"weekday", F::kBuiltIn, Fam::kDate, "weekday(t)", "dayofweek(t)"},
      {"isodow", F::kBuiltIn, Fam::kDate, "isodow(t)", "the ISO day of the week, Monday 1 to Sunday 7"},
      {"dayofyear", F::kBuiltIn, Fam::kDate, "dayofyear(t)", "the day of the year, 1-366"},
      {"dayofmonth", F::kBuiltIn, Fam::kDate, "dayofmonth(t)", "day(t)"},
      {"decade", F::kBuiltIn, Fam::kDate, "decade(t)", "year / 10"},
      {"century", F::kBuiltIn, Fam::kDate, "century(t)", "the century (the 21st is 2001-2100)"},
      {"millennium", F::kBuiltIn, Fam::kDate, "millennium(t)", "the millennium"},
      {"era", F::kBuiltIn, Fam::kDate, "era(t)", "1 for years AD, 0 before"},
      {"epoch", F::kBuiltIn, Fam::kDate, "epoch(t)", "seconds since 1970-01-01 00:00:00, DOUBLE"},
      {"julian", F::kBuiltIn, Fam::kDate, "julian(t)", "the Julian day number with its fraction, DOUBLE"},
      {"current_date", F::kBuiltIn, Fam::kDate, "current_date",
       "the date the statement started (UTC), DATE; also current_date(), today()"},
      {"today", F::kBuiltIn, Fam::kDate, "today()", "current_date"},
      {"current_timestamp", F::kBuiltIn, Fam::kDate, "current_timestamp",
       "the time the statement started (UTC), TIMESTAMP (DuckDB: TIMESTAMP WITH TIME ZONE); also now()"},
      {"now", F::kBuiltIn, Fam::kDate, "now()", "current_timestamp"},
      {"date_trunc", F::kBuiltIn, Fam::kDate, "date_trunc(part, t)",
       "t truncated to the start of its year, quarter, month, week (Monday), day, hour, minute, second, millisecond, decade, century, millennium or ISO year, as TIMESTAMP"},
      {"datetrunc", F::kBuiltIn, Fam::kDate, "datetrunc(part, t)", "date_trunc(part, t)"},
      {"date_diff", F::kDateDiffPart, Fam::kDate, "date_diff(part, start, end)",
       "the part boundaries crossed from start to end (weeks: whole 7-day spans), BIGINT"},
      {"datediff", F::kDateDiffPart, Fam::kDate, "datediff(part, start, end)", "date_diff(part, start, end)"},
      {"dayname", F::kDayName, Fam::kDate, "dayname(t)", "the English name of the day of the week"},
      {"monthname", F::kMonthName, Fam::kDate, "monthname(t)", "the English name of the month"},
      {"last_day", F::kLastDay, Fam::kDate, "last_day(t)", "the last day of the month of t, DATE"},
      {"make_date", F::kMakeDate, Fam::kDate, "make_date(year, month, day)", "the DATE of those fields (an invalid one is an error)"},
      {"make_timestamp", F::kMakeTimestamp, Fam::kDate, "make_timestamp(year, month, day, hour, minute, seconds)",
       "the TIMESTAMP of those fields; seconds is a DOUBLE with its fraction"},
      {"epoch_ms", F::kEpochMs, Fam::kDate, "epoch_ms(t)",
       "milliseconds since 1970-01-01 as BIGINT; of a BIGINT, the TIMESTAMP that many milliseconds after 1970-01-01"},
      {"strftime", F::kStrftime, Fam::kDate, "strftime(t, format)",
       "t as text in a constant format: %Y %y %m %d %H %I %p %M %S %f %g %j %a %A %b %B %w %u %U %W %c %x %X %%, %- to drop padding"},
      {"strptime", F::kStrptime, Fam::kDate, "strptime(s, format)",
       "the TIMESTAMP that s spells in a constant format (the specifiers of strftime); an error where it does not"},
      {"try_strptime", F::kTryStrptime, Fam::kDate, "try_strptime(s, format)", "strptime(s, format), NULL where s does not match"},
      {"epoch_us", F::kEpochUs, Fam::kDate, "epoch_us(t)", "microseconds since 1970-01-01, BIGINT"},
      {"age", F::kAge, Fam::kDate, "age(t1 [, t2])",
       "the INTERVAL from t2 (midnight of today without it) to t1 in years, months, days and time, as a calendar counts it"},
      {"date_add", F::kTimestampPlusInterval, Fam::kDate, "date_add(t, interval)", "t + interval, a TIMESTAMP"},
      {"make_time", F::kMakeTime, Fam::kDate, "make_time(hour, minute, seconds)", "the TIME of those fields; seconds a DOUBLE"},
      {"to_years", F::kToInterval, Fam::kDate, "to_years(n)", "an INTERVAL of n years"},
      {"to_months", F::kToInterval, Fam::kDate, "to_months(n)", "an INTERVAL of n months"},
      {"to_weeks", F::kToInterval, Fam::kDate, "to_weeks(n)", "an INTERVAL of 7 · n days"},
      {"to_days", F::kToInterval, Fam::kDate, "to_days(n)", "an INTERVAL of n days"},
      {"to_hours", F::kToInterval, Fam::kDate, "to_hours(n)", "an INTERVAL of n hours"},
      {"to_minutes", F::kToInterval, Fam::kDate, "to_minutes(n)", "an INTERVAL of n minutes"},
      {"to_seconds", F::kToInterval, Fam::kDate, "to_seconds(x)", "an INTERVAL of x seconds (a DOUBLE: fractions kept to the microsecond)"},
      {"to_milliseconds", F::kToInterval, Fam::kDate, "to_milliseconds(x)", "an INTERVAL of x milliseconds"},
      {"to_microseconds", F::kToInterval, Fam::kDate, "to_microseconds(n)", "an INTERVAL of n microseconds"},
      // Lists (plan/bind_lists.cc, exec/functions_list.cc).
      {"list_value", F::kListValue, Fam::kList, "list_value(a, b, ...)",
       "the list [a, b, ...] (also written [a, b, ...]), of the arguments' common type; numbers, dates, times, intervals, booleans or decimals, none NULL"},
      {"list_pack", F::kListValue, Fam::kList, "list_pack(a, b, ...)", "list_value(a, b, ...)"},
      {"len", F::kListLength, Fam::kList, "len(l)", "the elements in the list l, BIGINT (of a string: its characters)"},
      {"array_length", F::kListLength, Fam::kList, "array_length(l)", "len(l)"},
      {"list_extract", F::kListExtract, Fam::kList, "list_extract(l, i)",
       "the i-th element of l (from 1; negative counts from the end; NULL outside the list); of a string, its i-th character"},
      {"list_element", F::kListExtract, Fam::kList, "list_element(l, i)", "list_extract(l, i)"},
  };
  return kCatalog;
}

const ScalarFunctionInfo* FindScalarFunction(const std::string& lower_name) {
  static const std::unordered_map<std::string, const ScalarFunctionInfo*> kByName = [] {
    std::unordered_map<std::string, const ScalarFunctionInfo*> map;
    for (const ScalarFunctionInfo& info : ScalarFunctionCatalog()) map.emplace(info.name, &info);
    return map;
  }();
  const auto it = kByName.find(lower_name);
  return it == kByName.end() ? nullptr : it->second;
}

bool IsAggregateFunctionName(const std::string& lower_name) {
  return FindAggregateFunction(lower_name) != nullptr;
}

const ScalarFunctionInfo* FindOperatorFunction(const std::string& symbol) {
  static const ScalarFunctionInfo kOperators[] = {
      {"//", F::kIntegerDivide, Fam::kNumber, "a // b", "integer division (plain division of floats)"},
      {"&", F::kBitAnd, Fam::kNumber, "a & b", "bitwise and"},
      {"|", F::kBitOr, Fam::kNumber, "a | b", "bitwise or"},
      {"<<", F::kShiftLeft, Fam::kNumber, "a << b", "a shifted left by b bits"},
      {">>", F::kShiftRight, Fam::kNumber, "a >> b", "a shifted right by b bits"},
      {"~", F::kBitNot, Fam::kNumber, "~a", "bitwise not"},
      {"^", F::kPow, Fam::kNumber, "a ^ b", "pow(a, b)"},
  };
  for (const ScalarFunctionInfo& info : kOperators) {
    if (symbol == info.name) return &info;
  }
  return nullptr;
}

std::string NearestFunctionName(const std::string& lower_name) {
  std::string best;
  size_t best_distance = 3;
  auto consider = [&](const std::string& known) {
    const size_t d = ascii::DistanceIgnoreCase(lower_name, known);
    if (d < best_distance) {
      best_distance = d;
      best = known;
    }
  };
  for (const ScalarFunctionInfo& info : ScalarFunctionCatalog()) consider(info.name);
  for (const AggregateFunctionInfo& info : AggregateFunctionCatalog()) consider(info.name);
  return best;
}

}  // namespace plan
}  // namespace laneql
