// Typed field parsers for the CSV reader (see csv_field_parse.h). Hand-written rather than
// strtoll & co: those skip leading spaces, accept hex and need NUL-terminated text, and the
// reader must reject anything that is not exactly a value of the column's type.
#include "src/io/csv_field_parse.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "src/io/utf8.h"
#include "src/common/ascii.h"
#include "src/common/civil_time.h"

namespace laneql {
namespace csv {
namespace {

using civil::kDateInfinity;
using civil::kMicrosPerSecond;
using civil::kTimestampInfinity;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

using ascii::EqualsIgnoreCase;

// Digits only (at least one) into a magnitude; false on overflow of uint64.
ParseStatus ParseMagnitude(std::string_view digits, uint64_t* out) {
  if (digits.empty()) return ParseStatus::kSyntax;
  uint64_t value = 0;
  bool overflow = false;
  for (char c : digits) {
    if (!IsDigit(c)) return ParseStatus::kSyntax;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (value > (std::numeric_limits<uint64_t>::max() - d) / 10) overflow = true;
    value = value * 10 + d;
  }
  *out = value;
  return overflow ? ParseStatus::kOutOfRange : ParseStatus::kOk;
}

// Fixed-width digits at text[pos, pos + width).
bool Digits(std::string_view text, size_t pos, size_t width, int64_t* out) {
  if (pos + width > text.size()) return false;
  int64_t value = 0;
  for (size_t i = pos; i < pos + width; ++i) {
    if (!IsDigit(text[i])) return false;
    value = value * 10 + (text[i] - '0');
  }
  *out = value;
  return true;
}

// Strips a trailing " (BC)".
bool StripBc(std::string_view* text) {
  constexpr std::string_view kBc = " (BC)";
  if (text->size() > kBc.size() && text->substr(text->size() - kBc.size()) == kBc) {
    text->remove_suffix(kBc.size());
    return true;
  }
  return false;
}

// The date at the start of `text`; *used = its length.
ParseStatus ParseDatePrefix(std::string_view text, bool bc, int64_t* days, size_t* used) {
  size_t year_digits = 0;
  while (year_digits < text.size() && IsDigit(text[year_digits])) ++year_digits;
  if (year_digits < 4 || year_digits > 9) return ParseStatus::kSyntax;
  int64_t year, month, day;
  if (!Digits(text, 0, year_digits, &year)) return ParseStatus::kSyntax;
  const size_t p = year_digits;
  if (p + 6 > text.size() || text[p] != '-' || text[p + 3] != '-') return ParseStatus::kSyntax;
  if (!Digits(text, p + 1, 2, &month) || !Digits(text, p + 4, 2, &day)) {
    return ParseStatus::kSyntax;
  }
  if (bc) {
    if (year == 0) return ParseStatus::kSyntax;
    year = 1 - year;
  }
  if (month < 1 || month > 12 || day < 1 ||
      day > civil::DaysInMonth(year, static_cast<int>(month))) {
    return ParseStatus::kOutOfRange;
  }
  *days = civil::DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  *used = p + 6;
  return ParseStatus::kOk;
}

// An infinity spelling: +1 / -1, or 0 for none.
int Infinity(std::string_view text) {
  if (EqualsIgnoreCase(text, "infinity")) return 1;
  if (EqualsIgnoreCase(text, "-infinity")) return -1;
  return 0;
}

// Timestamp text as whole days plus micros of the day.
ParseStatus ParseTimestampParts(std::string_view text, int64_t* days, int64_t* micros_of_day) {
  const bool bc = StripBc(&text);
  size_t used = 0;
  const ParseStatus date = ParseDatePrefix(text, bc, days, &used);
  if (date != ParseStatus::kOk) return date;
  *micros_of_day = 0;
  if (used == text.size()) return ParseStatus::kOk;
  if (text[used] != ' ' && text[used] != 'T') return ParseStatus::kSyntax;
  const size_t p = used + 1;
  int64_t h, m, s;
  if (p + 8 > text.size() || text[p + 2] != ':' || text[p + 5] != ':' || !Digits(text, p, 2, &h) ||
      !Digits(text, p + 3, 2, &m) || !Digits(text, p + 6, 2, &s)) {
    return ParseStatus::kSyntax;
  }
  if (h > 23 || m > 59 || s > 59) return ParseStatus::kOutOfRange;
  int64_t fraction = 0;
  size_t q = p + 8;
  if (q < text.size()) {
    if (text[q] != '.') return ParseStatus::kSyntax;
    const size_t digits = text.size() - q - 1;
    if (digits == 0 || digits > 6 || !Digits(text, q + 1, digits, &fraction)) {
      return ParseStatus::kSyntax;
    }
    for (size_t i = digits; i < 6; ++i) fraction *= 10;
  }
  *micros_of_day = civil::MicrosOfDay(h, m, s, fraction);
  return ParseStatus::kOk;
}

// The characters strtod may see: digits, sign, point, exponent (no hex, no spaces).
bool LooksDecimal(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  bool digits = false;
  while (i < text.size() && IsDigit(text[i])) { ++i; digits = true; }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) { ++i; digits = true; }
  }
  if (!digits) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    bool exponent = false;
    while (i < text.size() && IsDigit(text[i])) { ++i; exponent = true; }
    if (!exponent) return false;
  }
  return i == text.size();
}

// inf / nan spellings; true if `text` is one.
template <class Float>
bool ParseSpecialFloat(std::string_view text, Float* out) {
  bool negative = false;
  std::string_view body = text;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (EqualsIgnoreCase(body, "inf") || EqualsIgnoreCase(body, "infinity")) {
    *out = negative ? -std::numeric_limits<Float>::infinity()
                    : std::numeric_limits<Float>::infinity();
    return true;
  }
  if (EqualsIgnoreCase(body, "nan")) {
    *out = negative ? -std::numeric_limits<Float>::quiet_NaN()
                    : std::numeric_limits<Float>::quiet_NaN();
    return true;
  }
  return false;
}

// A plain decimal ([sign] digits [. digits], no exponent) of at most 15 significant digits
// whose value is m / 10^k with k <= 22: m and 10^k are exact doubles, and one IEEE division
// rounds correctly, so the result is strtod's (Clinger's fast path). CSV money and measures
// ("21168.23") nearly always are; strtod went through musl's long-double scanner in wasm
// (soft-float binary128), most of registerCSV's time on TPC-H's lineitem. False: use strtod.
bool FastDecimal(std::string_view text, double* out) {
  static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                      1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  size_t i = 0;
  const size_t n = text.size();
  const bool negative = n != 0 && text[0] == '-';
  if (n != 0 && (text[0] == '-' || text[0] == '+')) ++i;
  uint64_t mantissa = 0;
  int digits = 0;    // significant digits in mantissa
  int fraction = 0;  // digits after the point
  bool any = false, point = false;
  for (; i < n; ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (!IsDigit(c)) return false;
    any = true;
    fraction += point;
    if (mantissa == 0 && c == '0') continue;  // a leading zero is no significant digit
    if (++digits > 15) return false;
    mantissa = mantissa * 10 + static_cast<uint64_t>(c - '0');
  }
  if (!any || fraction > 22) return false;
  const double value = static_cast<double>(mantissa) / kPow10[fraction];
  *out = negative ? -value : value;
  return true;
}

template <class Float>
ParseStatus ParseFloating(std::string_view text, Float* out) {
  if (ParseSpecialFloat(text, out)) return ParseStatus::kOk;
  if (!LooksDecimal(text)) return ParseStatus::kSyntax;
  if constexpr (sizeof(Float) == 8) {
    if (FastDecimal(text, out)) return ParseStatus::kOk;
  }
  char stack[128];
  std::string heap;
  const char* cstr;
  if (text.size() < sizeof(stack)) {
    std::memcpy(stack, text.data(), text.size());
    stack[text.size()] = '\0';
    cstr = stack;
  } else {
    heap.assign(text);
    cstr = heap.c_str();
  }
  errno = 0;
  char* end = nullptr;
  Float value;
  if constexpr (sizeof(Float) == 4) {
    value = std::strtof(cstr, &end);
  } else {
    value = std::strtod(cstr, &end);
  }
  if (end != cstr + text.size()) return ParseStatus::kSyntax;
  // ERANGE also flags underflow to tiny values, which are fine; only overflow is out of range.
  if (errno == ERANGE && std::isinf(value)) return ParseStatus::kOutOfRange;
  *out = value;
  return ParseStatus::kOk;
}

}  // namespace

ParseStatus ParseSigned(std::string_view text, int64_t min, int64_t max, int64_t* out) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  uint64_t magnitude;
  const ParseStatus status = ParseMagnitude(text, &magnitude);
  if (status != ParseStatus::kOk) return status;
  const uint64_t limit = negative ? static_cast<uint64_t>(-(min + 1)) + 1 : static_cast<uint64_t>(max);
  if (magnitude > limit) return ParseStatus::kOutOfRange;
  *out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return ParseStatus::kOk;
}

ParseStatus ParseUnsigned(std::string_view text, uint64_t max, uint64_t* out) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  uint64_t magnitude;
  const ParseStatus status = ParseMagnitude(text, &magnitude);
  if (status != ParseStatus::kOk) return status;
  if (magnitude > max || (negative && magnitude != 0)) return ParseStatus::kOutOfRange;
  *out = magnitude;
  return ParseStatus::kOk;
}

ParseStatus ParseInt128(std::string_view text, Int128* out) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return ParseStatus::kSyntax;
  using U128 = unsigned __int128;
  const U128 limit = (U128{1} << 127) - (negative ? 0 : 1);
  U128 value = 0;
  bool overflow = false;
  for (char c : text) {
    if (!IsDigit(c)) return ParseStatus::kSyntax;
    const U128 d = static_cast<U128>(c - '0');
    if (value > (limit - d) / 10) overflow = true;
    if (!overflow) value = value * 10 + d;
  }
  if (overflow) return ParseStatus::kOutOfRange;
  *out = negative ? static_cast<Int128>(U128{0} - value) : static_cast<Int128>(value);
  return ParseStatus::kOk;
}

ParseStatus ParseDouble(std::string_view text, double* out) { return ParseFloating(text, out); }
ParseStatus ParseFloat(std::string_view text, float* out) { return ParseFloating(text, out); }

ParseStatus ParseBool(std::string_view text, bool strict, bool* out) {
  if (EqualsIgnoreCase(text, "true")) { *out = true; return ParseStatus::kOk; }
  if (EqualsIgnoreCase(text, "false")) { *out = false; return ParseStatus::kOk; }
  if (!strict) {
    if (EqualsIgnoreCase(text, "t") || text == "1") { *out = true; return ParseStatus::kOk; }
    if (EqualsIgnoreCase(text, "f") || text == "0") { *out = false; return ParseStatus::kOk; }
  }
  return ParseStatus::kSyntax;
}

ParseStatus ParseDate(std::string_view text, int32_t* days) {
  if (const int inf = Infinity(text)) {
    *days = inf > 0 ? kDateInfinity : -kDateInfinity;
    return ParseStatus::kOk;
  }
  const bool bc = StripBc(&text);
  int64_t value;
  size_t used = 0;
  const ParseStatus status = ParseDatePrefix(text, bc, &value, &used);
  if (status != ParseStatus::kOk) return status;
  if (used != text.size()) return ParseStatus::kSyntax;
  if (value <= -kDateInfinity || value >= kDateInfinity) return ParseStatus::kOutOfRange;
  *days = static_cast<int32_t>(value);
  return ParseStatus::kOk;
}

ParseStatus ParseTimestampMicros(std::string_view text, int64_t* micros) {
  if (const int inf = Infinity(text)) {
    *micros = inf > 0 ? kTimestampInfinity : -kTimestampInfinity;
    return ParseStatus::kOk;
  }
  int64_t days, micros_of_day;
  const ParseStatus status = ParseTimestampParts(text, &days, &micros_of_day);
  if (status != ParseStatus::kOk) return status;
  int64_t value;
  if (!civil::ComposeTimestamp(days, micros_of_day, civil::kMicrosPerDay, &value) ||
      value == kTimestampInfinity || value == -kTimestampInfinity) {
    return ParseStatus::kOutOfRange;
  }
  *micros = value;
  return ParseStatus::kOk;
}

ParseStatus ParseTimestampSeconds(std::string_view text, int64_t* seconds) {
  if (const int inf = Infinity(text)) {
    *seconds = inf > 0 ? kTimestampInfinity : -kTimestampInfinity;
    return ParseStatus::kOk;
  }
  int64_t days, micros_of_day;
  const ParseStatus status = ParseTimestampParts(text, &days, &micros_of_day);
  if (status != ParseStatus::kOk) return status;
  if (micros_of_day % kMicrosPerSecond != 0) return ParseStatus::kSyntax;
  int64_t value;
  if (!civil::ComposeTimestamp(days, micros_of_day / kMicrosPerSecond, civil::kSecondsPerDay,
                               &value)) {
    return ParseStatus::kOutOfRange;
  }
  *seconds = value;
  return ParseStatus::kOk;
}

bool IsValidUtf8(std::string_view text) {
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    // Eight ASCII bytes at a time: the common case in every text column.
    if (i + 8 <= n) {
      uint64_t word;
      std::memcpy(&word, text.data() + i, 8);
      if ((word & 0x8080808080808080ull) == 0) {
        i += 8;
        continue;
      }
    }
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    const size_t length = utf8::ValidSequenceLength(text.substr(i));
    if (length == 0) return false;
    i += length;
  }
  return true;
}

const char* SqlTypeName(TypeId type) { return DuckDbTypeName(type); }

}  // namespace csv
}  // namespace laneql
