// FormatValue: one value as text, the way DuckDB casts it to VARCHAR (checked against DuckDB
// 1.4.4; 2.0.0 prints every value alike), or as a JSON value. Every printer goes through here so
// that a value reads the same in the table, CSV, TSV, JSON and Markdown outputs.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>

#include "src/common/civil_time.h"
#include "src/common/decimal.h"
#include "src/io/utf8.h"
#include "laneql/int128.h"
#include "laneql/result.h"

namespace laneql {
namespace {

using civil::kDateInfinity;
using civil::kMicrosPerSecond;
using civil::kTimestampInfinity;

void AppendPadded(int64_t value, int width, std::string* out) {
  char buf[24];
  const auto end = std::to_chars(buf, buf + sizeof(buf), value).ptr;
  for (int pad = width - static_cast<int>(end - buf); pad > 0; --pad) out->push_back('0');
  out->append(buf, end);
}

// "YYYY-MM-DD", with " (BC)" when `bc_suffix` and the year is before 1 (DuckDB prints year 0
// as 0001 (BC), year -1 as 0002 (BC)). Returns whether the date is BC.
bool AppendCivilDate(int64_t days, bool bc_suffix, std::string* out) {
  const civil::Date date = civil::CivilFromDays(days);
  const bool bc = date.year <= 0;
  AppendPadded(bc ? 1 - date.year : date.year, 4, out);
  out->push_back('-');
  AppendPadded(date.month, 2, out);
  out->push_back('-');
  AppendPadded(date.day, 2, out);
  if (bc && bc_suffix) out->append(" (BC)");
  return bc;
}

// "HH:MM:SS[.ffffff]" of a count of microseconds, the hours as many as they are (an
// interval's may pass 24), the fraction without trailing zeros.
void AppendClock(uint64_t micros, std::string* out) {
  const uint64_t seconds = micros / 1000000;
  AppendPadded(static_cast<int64_t>(seconds / 3600), 2, out);
  out->push_back(':');
  AppendPadded(static_cast<int64_t>(seconds / 60 % 60), 2, out);
  out->push_back(':');
  AppendPadded(static_cast<int64_t>(seconds % 60), 2, out);
  int64_t fraction = static_cast<int64_t>(micros % 1000000);
  if (fraction == 0) return;
  int digits = 6;
  while (fraction % 10 == 0) {
    fraction /= 10;
    --digits;
  }
  out->push_back('.');
  AppendPadded(fraction, digits, out);
}

// "YYYY-MM-DD[ (BC)] HH:MM:SS[.ffffff]", the fraction without trailing zeros, as DuckDB.
void AppendTimestamp(int64_t days, int64_t micros_of_day, std::string* out) {
  AppendCivilDate(days, /*bc_suffix=*/true, out);
  out->push_back(' ');
  const civil::TimeOfDay time = civil::TimeOfDayFromMicros(micros_of_day);
  AppendPadded(time.hour, 2, out);
  out->push_back(':');
  AppendPadded(time.minute, 2, out);
  out->push_back(':');
  AppendPadded(time.second, 2, out);
  int64_t fraction = time.micros;
  if (fraction == 0) return;
  int digits = 6;
  while (fraction % 10 == 0) {
    fraction /= 10;
    --digits;
  }
  out->push_back('.');
  AppendPadded(fraction, digits, out);
}

// The shortest scientific digits that read back as `value` ("-1.5134908e+03"): std::to_chars
// where the C++ library has it for floats; Emscripten 3.1's libc++ does not, so there the
// shortest printf precision that round-trips (the same digits for all but rare ties).
template <class Float>
size_t ShortestScientific(Float value, char* buf, size_t size) {
#ifndef __EMSCRIPTEN__
  return static_cast<size_t>(std::to_chars(buf, buf + size, value, std::chars_format::scientific).ptr - buf);
#else
  constexpr int kMaxPrecision = std::is_same_v<Float, float> ? 9 : 17;
  int length = 0;
  for (int precision = 0; precision <= kMaxPrecision; ++precision) {
    length = std::snprintf(buf, size, "%.*e", precision, static_cast<double>(value));
    const Float back = static_cast<Float>(std::is_same_v<Float, float> ? std::strtof(buf, nullptr)
                                                                        : std::strtod(buf, nullptr));
    if (back == value) break;
  }
  return static_cast<size_t>(length);
#endif
}

// Shortest round-trip digits laid out as DuckDB (and Python's repr) do: positional notation
// with at least one fractional digit when the decimal exponent is in [-4, 16), otherwise
// d[.ddd]e+XX with a two-digit minimum exponent.
template <class Float>
void AppendShortestFloat(Float value, std::string* out) {
  if (std::isnan(value)) {
    out->append(std::signbit(value) ? "-nan" : "nan");
    return;
  }
  if (std::isinf(value)) {
    out->append(value < 0 ? "-inf" : "inf");
    return;
  }
  char buf[64];
  std::string_view text(buf, ShortestScientific(value, buf, sizeof(buf)));  // "-1.5134908e+03"
  if (!text.empty() && text[0] == '-') {
    out->push_back('-');
    text.remove_prefix(1);
  }
  const size_t e = text.find('e');
  std::string digits(text.substr(0, e));
  if (digits.size() > 1) digits.erase(1, 1);  // drop the '.'
  int exponent = 0;
  std::from_chars(text.data() + e + 1 + (text[e + 1] == '+'), text.data() + text.size(), exponent);
  const int count = static_cast<int>(digits.size());
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) {
      out->append("0.");
      out->append(static_cast<size_t>(-exponent - 1), '0');
      out->append(digits);
    } else if (count > exponent + 1) {
      out->append(digits, 0, static_cast<size_t>(exponent + 1));
      out->push_back('.');
      out->append(digits, static_cast<size_t>(exponent + 1), std::string::npos);
    } else {
      out->append(digits);
      out->append(static_cast<size_t>(exponent + 1 - count), '0');
      out->append(".0");
    }
    return;
  }
  out->push_back(digits[0]);
  if (count > 1) {
    out->push_back('.');
    out->append(digits, 1, std::string::npos);
  }
  out->push_back('e');
  out->push_back(exponent < 0 ? '-' : '+');
  AppendPadded(exponent < 0 ? -static_cast<int64_t>(exponent) : exponent, 2, out);
}

template <class Int>
void AppendInteger(Int value, std::string* out) {
  char buf[24];
  out->append(buf, std::to_chars(buf, buf + sizeof(buf), value).ptr);
}

template <class T>
T ValueAt(const Column& column, size_t row) {
  T value;
  std::memcpy(&value, column.values_buffer().data() + row * sizeof(T), sizeof(T));
  return value;
}

bool IsFiniteFloatAt(const Column& column, size_t row) {
  if (column.type() == TypeId::kFloat32) return std::isfinite(ValueAt<float>(column, row));
  if (column.type() == TypeId::kFloat64) return std::isfinite(ValueAt<double>(column, row));
  return true;
}

}  // namespace

void AppendDouble(double value, std::string* out) { AppendShortestFloat(value, out); }
void AppendFloat(float value, std::string* out) { AppendShortestFloat(value, out); }

void AppendDate(int32_t days_since_epoch, std::string* out) {
  if (days_since_epoch == kDateInfinity || days_since_epoch == -kDateInfinity) {
    out->append(days_since_epoch > 0 ? "infinity" : "-infinity");
    return;
  }
  AppendCivilDate(days_since_epoch, /*bc_suffix=*/true, out);
}

void AppendTimestampMicros(int64_t micros, std::string* out) {
  if (micros == kTimestampInfinity || micros == -kTimestampInfinity) {
    out->append(micros > 0 ? "infinity" : "-infinity");
    return;
  }
  int64_t days, micros_of_day;
  civil::SplitTimestamp(micros, civil::kMicrosPerDay, &days, &micros_of_day);
  AppendTimestamp(days, micros_of_day, out);
}

void AppendTimestampSeconds(int64_t seconds, std::string* out) {
  if (seconds == kTimestampInfinity || seconds == -kTimestampInfinity) {
    out->append(seconds > 0 ? "infinity" : "-infinity");
    return;
  }
  int64_t days, seconds_of_day;
  civil::SplitTimestamp(seconds, civil::kSecondsPerDay, &days, &seconds_of_day);
  AppendTimestamp(days, seconds_of_day * kMicrosPerSecond, out);
}

void AppendTime(int64_t micros, std::string* out) {
  if (micros < 0) {  // never a stored TIME; kept readable
    out->push_back('-');
    micros = -micros;
  }
  AppendClock(static_cast<uint64_t>(micros), out);
}

void AppendInterval(const Interval& value, std::string* out) {
  const size_t start = out->size();
  const auto part = [&](int64_t n, const char* unit) {
    if (n == 0) return;
    if (out->size() != start) out->push_back(' ');
    AppendPadded(n, 1, out);
    out->push_back(' ');
    out->append(unit);
    if (n != 1 && n != -1) out->push_back('s');
  };
  part(value.months / 12, "year");
  part(value.months % 12, "month");
  part(value.days, "day");
  if (value.micros != 0 || out->size() == start) {
    if (out->size() != start) out->push_back(' ');
    if (value.micros < 0) out->push_back('-');
    // The magnitude of INT64_MIN does not fit int64: as unsigned.
    AppendClock(value.micros < 0 ? 0 - static_cast<uint64_t>(value.micros) : static_cast<uint64_t>(value.micros), out);
  }
}

void AppendJsonString(std::string_view text, std::string* out) {
  static const char kHex[] = "0123456789abcdef";
  out->push_back('"');
  size_t i = 0;
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x80) {
      const size_t length = utf8::ValidSequenceLength(text.substr(i));
      if (length == 0) {
        out->append("\xEF\xBF\xBD");  // U+FFFD for a byte that is not UTF-8
        ++i;
      } else {
        out->append(text.data() + i, length);
        i += length;
      }
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (c < 0x20) {
          out->append("\\u00");
          out->push_back(kHex[c >> 4]);
          out->push_back(kHex[c & 15]);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out->push_back('"');
}

// A list as DuckDB casts it to VARCHAR ("[1, 2, 3]") or as a JSON array ("[1,2,3]"): its
// elements (laneql/types.h: packed values) as a column of the element type has them. In text,
// an element whose text holds a character of the list syntax (a TIME's or a TIMESTAMP's ':', a
// BC date's parentheses) is quoted, as DuckDB 2.0 quotes it: ['12:00:00'], [1 day].
static void AppendList(const Column& column, size_t row, ValueStyle style, std::string* out) {
  const TypeId element = ListElementType(column.type());
  const std::string_view bytes = column.StringAt(row);
  const size_t n = bytes.size() / TypeByteWidth(element);
  Column elements(element);
  if (n != 0 && !Column::FromFixed(element, bytes.data(), n, nullptr, &elements, nullptr)) {
    out->append("[?]");  // only when out of memory for a copy of one row
    return;
  }
  const bool json = style == ValueStyle::kJson;
  std::string text;
  out->push_back('[');
  for (size_t i = 0; i < n; ++i) {
    if (i != 0) out->append(json ? "," : ", ");
    if (json) {
      AppendValue(elements, i, style, out);
      continue;
    }
    text.clear();
    AppendValue(elements, i, style, &text);
    if (text.find_first_of("[]{}(),:'\"\\") == std::string::npos) {
      out->append(text);
      continue;
    }
    out->push_back('\'');
    for (char c : text) {
      if (c == '\'' || c == '\\') out->push_back('\\');
      out->push_back(c);
    }
    out->push_back('\'');
  }
  out->push_back(']');
}

void AppendValue(const Column& column, size_t row, ValueStyle style, std::string* out) {
  const bool json = style == ValueStyle::kJson;
  if (!column.IsValid(row)) {
    out->append(json ? "null" : "NULL");
    return;
  }
  if (IsList(column.type())) {
    AppendList(column, row, style, out);
    return;
  }
  if (json && !IsFiniteFloatAt(column, row)) {
    out->append("null");
    return;
  }
  // Dates and timestamps are JSON strings; their text never needs escaping.
  const bool quote = json && (IsTemporal(column.type()) || IsTime(column.type()) || IsInterval(column.type()));
  if (quote) out->push_back('"');
  if (IsDecimal(column.type())) {  // a JSON number, which needs its 0 before the point
    if (json) decimal::AppendDecimal(ValueAt<Int128>(column, row), DecimalScale(column.type()), out);
    else decimal::AppendDecimalValue(column.type(), ValueAt<Int128>(column, row), out);
    return;
  }
  switch (column.type()) {
    case TypeId::kInt8: AppendInteger(ValueAt<int8_t>(column, row), out); break;
    case TypeId::kInt16: AppendInteger(ValueAt<int16_t>(column, row), out); break;
    case TypeId::kInt32: AppendInteger(ValueAt<int32_t>(column, row), out); break;
    case TypeId::kInt64: AppendInteger(ValueAt<int64_t>(column, row), out); break;
    case TypeId::kUInt8: AppendInteger(ValueAt<uint8_t>(column, row), out); break;
    case TypeId::kUInt16: AppendInteger(ValueAt<uint16_t>(column, row), out); break;
    case TypeId::kUInt32: AppendInteger(ValueAt<uint32_t>(column, row), out); break;
    case TypeId::kUInt64: AppendInteger(ValueAt<uint64_t>(column, row), out); break;
    case TypeId::kInt128: out->append(Int128ToString(ValueAt<Int128>(column, row))); break;
    case TypeId::kFloat32: AppendFloat(ValueAt<float>(column, row), out); break;
    case TypeId::kFloat64: AppendDouble(ValueAt<double>(column, row), out); break;
    case TypeId::kBool: out->append(ValueAt<uint8_t>(column, row) != 0 ? "true" : "false"); break;
    case TypeId::kDate32: AppendDate(ValueAt<int32_t>(column, row), out); break;
    case TypeId::kTimestampSeconds:
      AppendTimestampSeconds(ValueAt<int64_t>(column, row), out);
      break;
    case TypeId::kTimestampMicros:
      AppendTimestampMicros(ValueAt<int64_t>(column, row), out);
      break;
    case TypeId::kTime: AppendTime(ValueAt<int64_t>(column, row), out); break;
    case TypeId::kInterval: AppendInterval(UnpackInterval(ValueAt<Int128>(column, row)), out); break;
    case TypeId::kString:
    case TypeId::kLargeString:
      if (json) {
        AppendJsonString(column.StringAt(row), out);
      } else {
        out->append(column.StringAt(row));
      }
      break;
  }
  if (quote) out->push_back('"');
}

std::string FormatValue(const Column& column, size_t row, ValueStyle style) {
  std::string text;
  AppendValue(column, row, style, &text);
  return text;
}

}  // namespace laneql
