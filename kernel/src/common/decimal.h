// DECIMAL(p, s) values: the int128 value · 10^s (laneql/types.h). Text, rescaling and the
// conversions to and from other numbers, each rounding half away from zero as DuckDB does.
#ifndef LANEQL_COMMON_DECIMAL_H_
#define LANEQL_COMMON_DECIMAL_H_

#include <string>
#include <string_view>

#include "laneql/int128.h"
#include "laneql/types.h"

namespace laneql {
namespace decimal {

// 10^0 .. 10^38, the powers a DECIMAL's precision and scale reach.
struct PowersOf10 {
  Int128 values[39];
  constexpr PowersOf10() : values() {
    Int128 p = 1;
    for (int n = 0; n <= 38; ++n) {
      values[n] = p;
      if (n < 38) p *= 10;
    }
  }
};
inline constexpr PowersOf10 kPowersOf10{};
// 10^n for 0 <= n <= 38 (n is clamped to that range), from the table: made by up to 38 int128
// multiplications, the overflow checks of DECIMAL sums against 10^38 (per group and per row)
// were 40 % of the time of GROUP BY l_orderkey with sum(l_quantity) over lineitem.
inline Int128 Pow10(int n) { return kPowersOf10.values[n < 0 ? 0 : n > 38 ? 38 : n]; }
// Whether |v| < 10^precision: the value has at most `precision` digits.
bool FitsPrecision(Int128 v, int precision);

// "-12.50" for -1250 at scale 2; "0.05" for 5; "12" at scale 0.
void AppendDecimal(Int128 v, int scale, std::string* out);
std::string DecimalToString(Int128 v, int scale);
// A value of a DECIMAL type as DuckDB prints it: as AppendDecimal, but without the 0 before the
// point when the type has no integer digits (DECIMAL(1,1) 0.5 is ".5", 0 is ".0").
void AppendDecimalValue(TypeId type, Int128 v, std::string* out);

// Text as DuckDB reads it into DECIMAL(p, s): spaces around, a sign, digits with an optional
// '.', an optional exponent; digits past the scale are rounded. False when it is no number or
// does not fit p digits.
bool ParseDecimal(std::string_view text, int precision, int scale, Int128* out);

// v at scale `from` as a value at scale `to`, rounded; false when it does not fit `precision`.
bool Rescale(Int128 v, int from, int to, int precision, Int128* out);

// The number nearest v · 10^-scale.
double ToDouble(Int128 v, int scale);
// AVG of DECIMAL values at `scale`: their sum as a DOUBLE (ToDouble) over the count, which is
// how DuckDB's answers round (20.83 / 3 = 6.9433333333333325, not 2083 / 300).
double Average(Int128 sum, int64_t count, int scale);
// round(d · 10^scale); false for NaN, infinities and values beyond `precision` digits.
bool FromDouble(double d, int precision, int scale, Int128* out);

// The DECIMAL type that holds every value of an integer type: TINYINT -> DECIMAL(3,0),
// INTEGER -> DECIMAL(10,0), BIGINT -> DECIMAL(19,0), HUGEINT -> DECIMAL(38,0), BOOLEAN ->
// DECIMAL(1,0) (DuckDB's widths).
TypeId DecimalOfInteger(TypeId type);
// An integer or BOOLEAN as DecimalOfInteger; a DECIMAL as itself.
TypeId AsDecimal(TypeId type);
// DECIMAL with DECIMAL, an integer or BOOLEAN: the DECIMAL both are compared or joined as
// (the larger integer part and the larger scale; past 38 digits the scale shrinks); with a
// FLOAT or DOUBLE, DOUBLE.
TypeId CommonType(TypeId a, TypeId b);
// DECIMAL(min(38, p), s) with s capped at the capped precision.
TypeId CappedDecimal(int precision, int scale);

}  // namespace decimal
}  // namespace laneql

#endif  // LANEQL_COMMON_DECIMAL_H_
