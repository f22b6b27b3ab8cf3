// DECIMAL values as scaled int128 (decimal.h).
#include "src/common/decimal.h"

#include <cmath>

namespace laneql {
namespace decimal {
namespace {

using U128 = unsigned __int128;

U128 Magnitude(Int128 v) { return v < 0 ? U128{0} - static_cast<U128>(v) : static_cast<U128>(v); }

// q = v / 10^n rounded half away from zero (n >= 1).
Int128 DivideRounded(Int128 v, int n) {
  const Int128 p = Pow10(n);
  Int128 q = v / p;
  const Int128 r = v % p;
  if (r >= p / 2 || -r >= p / 2) q += v < 0 ? -1 : 1;  // p is even: p / 2 is the half
  return q;
}

}  // namespace

bool FitsPrecision(Int128 v, int precision) { return Magnitude(v) < static_cast<U128>(Pow10(precision)); }

void AppendDecimal(Int128 v, int scale, std::string* out) {
  U128 m = Magnitude(v);
  char digits[48];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + static_cast<int>(m % 10));
    m /= 10;
  } while (m != 0);
  while (n <= scale) digits[n++] = '0';  // at least one digit before the point
  if (v < 0) out->push_back('-');
  for (int i = n - 1; i >= 0; --i) {
    out->push_back(digits[i]);
    if (i == scale && scale > 0) out->push_back('.');
  }
}

std::string DecimalToString(Int128 v, int scale) {
  std::string out;
  AppendDecimal(v, scale, &out);
  return out;
}

void AppendDecimalValue(TypeId type, Int128 v, std::string* out) {
  const int scale = DecimalScale(type);
  const size_t start = out->size();
  AppendDecimal(v, scale, out);
  if (scale > 0 && scale == DecimalPrecision(type)) {
    const size_t zero = start + (v < 0 ? 1 : 0);  // "0." or "-0." -> "." or "-."
    out->erase(zero, 1);
  }
}

bool ParseDecimal(std::string_view text, int precision, int scale, Int128* out) {
  size_t i = 0, end = text.size();
  while (i < end && text[i] == ' ') ++i;
  while (end > i && text[end - 1] == ' ') --end;
  bool negative = false;
  if (i < end && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  // Up to 39 significant digits are kept (int128 holds them); the rest only round or count.
  U128 digits = 0;
  int kept = 0, exponent = 0, seen = 0;
  bool point = false, dropped_any = false, dropped_half = false;
  for (; i < end; ++i) {
    const char c = text[i];
    if (c == '.' && !point) { point = true; continue; }
    if (c < '0' || c > '9') break;
    ++seen;
    if (kept < 38 || (kept == 38 && digits == 0)) {
      if (digits != 0 || c != '0') ++kept;
      digits = digits * 10 + static_cast<unsigned>(c - '0');
      if (point) --exponent;
    } else {
      if (!point) ++exponent;
      if (!dropped_any) dropped_half = c >= '5';  // only the first dropped digit rounds
      dropped_any = true;
    }
  }
  if (seen == 0) return false;
  if (i < end && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool negative_exponent = false;
    if (i < end && (text[i] == '+' || text[i] == '-')) negative_exponent = text[i++] == '-';
    int e = 0;
    if (i == end) return false;
    for (; i < end && text[i] >= '0' && text[i] <= '9'; ++i) e = e < 10000 ? e * 10 + (text[i] - '0') : e;
    exponent += negative_exponent ? -e : e;
  }
  if (i != end) return false;
  if (dropped_half) ++digits;  // rounding the dropped digits, half away from zero
  // digits · 10^exponent at scale `scale`: shift by exponent + scale.
  const int shift = exponent + scale;
  Int128 v;
  if (digits == 0) {
    v = 0;
  } else if (shift >= 0) {
    if (shift > 38) return false;
    const U128 p = static_cast<U128>(Pow10(shift));
    if (digits > static_cast<U128>(Pow10(38)) / p) return false;
    v = static_cast<Int128>(digits * p);
  } else if (-shift > 38) {
    v = 0;
  } else {
    const U128 p = static_cast<U128>(Pow10(-shift));
    U128 q = digits / p;
    if (digits % p >= (p + 1) / 2) ++q;
    v = static_cast<Int128>(q);
  }
  if (!FitsPrecision(v, precision)) return false;
  *out = negative ? -v : v;
  return true;
}

bool Rescale(Int128 v, int from, int to, int precision, Int128* out) {
  Int128 r = v;
  if (to > from) {
    const Int128 p = Pow10(to - from);
    if (__builtin_mul_overflow(v, p, &r)) return false;
  } else if (to < from) {
    r = DivideRounded(v, from - to);
  }
  if (!FitsPrecision(r, precision)) return false;
  *out = r;
  return true;
}

double ToDouble(Int128 v, int scale) {
  // 10^scale is exact in a double up to 10^22; beyond, one more rounding, as in DuckDB.
  return Int128ToDouble(v) / static_cast<double>(Pow10(scale));
}

double Average(Int128 sum, int64_t count, int scale) {
  return ToDouble(sum, scale) / static_cast<double>(count);
}

bool FromDouble(double d, int precision, int scale, Int128* out) {
  if (!std::isfinite(d)) return false;
  const double scaled = std::round(d * static_cast<double>(Pow10(scale)));
  const double limit = static_cast<double>(Pow10(precision));
  if (!(std::fabs(scaled) < limit)) return false;
  *out = static_cast<Int128>(scaled);
  return true;
}

TypeId DecimalOfInteger(TypeId type) {
  switch (type) {
    case TypeId::kBool: return DecimalType(1, 0);
    case TypeId::kInt8:
    case TypeId::kUInt8: return DecimalType(3, 0);
    case TypeId::kInt16:
    case TypeId::kUInt16: return DecimalType(5, 0);
    case TypeId::kInt32:
    case TypeId::kUInt32: return DecimalType(10, 0);
    case TypeId::kInt64: return DecimalType(19, 0);
    case TypeId::kUInt64: return DecimalType(20, 0);
    default: return DecimalType(38, 0);
  }
}

TypeId AsDecimal(TypeId type) { return IsDecimal(type) ? type : DecimalOfInteger(type); }

TypeId CommonType(TypeId a, TypeId b) {
  if (IsFloat(a) || IsFloat(b)) return TypeId::kFloat64;
  const TypeId x = AsDecimal(a), y = AsDecimal(b);
  const int scale = DecimalScale(x) > DecimalScale(y) ? DecimalScale(x) : DecimalScale(y);
  const int wx = DecimalPrecision(x) - DecimalScale(x), wy = DecimalPrecision(y) - DecimalScale(y);
  const int whole = wx > wy ? wx : wy;
  // Past 38 digits the integer digits stay and the scale gives way, as in DuckDB.
  if (whole + scale > kMaxDecimalPrecision) return DecimalType(kMaxDecimalPrecision, kMaxDecimalPrecision - whole);
  return DecimalType(whole + scale, scale);
}

TypeId CappedDecimal(int precision, int scale) {
  const int p = precision > kMaxDecimalPrecision ? kMaxDecimalPrecision : precision;
  return DecimalType(p, scale > p ? p : scale);
}

}  // namespace decimal
}  // namespace laneql
