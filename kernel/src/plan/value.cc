// Values: reading them out of columns, writing them into columns, and date/time text.
#include "src/plan/value.h"

#include <cstdio>
#include <limits>

#include "laneql/result.h"
#include "src/common/civil_time.h"
#include "src/common/decimal.h"

namespace laneql {
namespace plan {

Value ValueAt(const Column& column, size_t row) {
  const TypeId type = column.type();
  if (!column.IsValid(row)) return Value::Null(type);
  if (IsDecimal(type)) return Value::Integer(type, column.Values<Int128>()[row]);
  switch (type) {
    case TypeId::kInt8: return Value::Integer(type, column.Values<int8_t>()[row]);
    case TypeId::kInt16: return Value::Integer(type, column.Values<int16_t>()[row]);
    case TypeId::kInt32:
    case TypeId::kDate32: return Value::Integer(type, column.Values<int32_t>()[row]);
    case TypeId::kInt64:
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros:
    case TypeId::kTime: return Value::Integer(type, column.Values<int64_t>()[row]);
    case TypeId::kInterval: return Value::Integer(type, column.Values<Int128>()[row]);
    case TypeId::kUInt8:
    case TypeId::kBool: return Value::Integer(type, column.Values<uint8_t>()[row]);
    case TypeId::kUInt16: return Value::Integer(type, column.Values<uint16_t>()[row]);
    case TypeId::kUInt32: return Value::Integer(type, column.Values<uint32_t>()[row]);
    case TypeId::kUInt64: return Value::Integer(type, column.Values<uint64_t>()[row]);
    case TypeId::kInt128: return Value::Integer(type, column.Values<Int128>()[row]);
    case TypeId::kFloat32: return Value::Real(type, column.Values<float>()[row]);
    case TypeId::kFloat64: return Value::Real(type, column.Values<double>()[row]);
    case TypeId::kString:
    case TypeId::kLargeString: {
      Value v = Value::String(std::string(column.StringAt(row)));
      v.type = type;
      return v;
    }
  }
  return Value::Null(type);
}

bool AppendValueTo(const Value& value, Column* column, std::string* error) {
  if (value.is_null) return column->AppendNull(error);
  switch (PhysicalType(column->type())) {
    case TypeId::kInt8: return column->Append(static_cast<int8_t>(value.integer), error);
    case TypeId::kInt16: return column->Append(static_cast<int16_t>(value.integer), error);
    case TypeId::kInt32:
    case TypeId::kDate32: return column->Append(static_cast<int32_t>(value.integer), error);
    case TypeId::kInt64:
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros:
    case TypeId::kTime: return column->Append(static_cast<int64_t>(value.integer), error);
    case TypeId::kInterval: return column->Append(value.integer, error);
    case TypeId::kUInt8:
    case TypeId::kBool: return column->Append(static_cast<uint8_t>(value.integer), error);
    case TypeId::kUInt16: return column->Append(static_cast<uint16_t>(value.integer), error);
    case TypeId::kUInt32: return column->Append(static_cast<uint32_t>(value.integer), error);
    case TypeId::kUInt64: return column->Append(static_cast<uint64_t>(value.integer), error);
    case TypeId::kInt128: return column->Append(value.integer, error);
    case TypeId::kFloat32: return column->Append(static_cast<float>(value.real), error);
    case TypeId::kFloat64: return column->Append(value.real, error);
    case TypeId::kString:
    case TypeId::kLargeString: return column->AppendString(value.text, error);
  }
  return false;
}

Int128 TypeMin(TypeId type) {
  if (IsDecimal(type)) return 1 - decimal::Pow10(DecimalPrecision(type));
  switch (type) {
    case TypeId::kInt8: return INT8_MIN;
    case TypeId::kInt16: return INT16_MIN;
    case TypeId::kInt32:
    case TypeId::kDate32: return INT32_MIN;
    case TypeId::kInt64:
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros: return INT64_MIN;
    case TypeId::kInt128: return -static_cast<Int128>((~static_cast<unsigned __int128>(0)) >> 1) - 1;
    default: return 0;
  }
}

Int128 TypeMax(TypeId type) {
  if (IsDecimal(type)) return decimal::Pow10(DecimalPrecision(type)) - 1;
  switch (type) {
    case TypeId::kInt8: return INT8_MAX;
    case TypeId::kInt16: return INT16_MAX;
    case TypeId::kInt32:
    case TypeId::kDate32: return INT32_MAX;
    case TypeId::kInt64:
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros: return INT64_MAX;
    case TypeId::kUInt8: return UINT8_MAX;
    case TypeId::kBool: return 1;
    case TypeId::kUInt16: return UINT16_MAX;
    case TypeId::kUInt32: return UINT32_MAX;
    case TypeId::kUInt64: return UINT64_MAX;
    case TypeId::kInt128: return static_cast<Int128>((~static_cast<unsigned __int128>(0)) >> 1);
    default: return 0;
  }
}

std::string ValueToText(const Value& value) {
  if (value.is_null) return "NULL";
  std::string out;
  if (IsDecimal(value.type)) {
    decimal::AppendDecimalValue(value.type, value.integer, &out);
    return out;
  }
  switch (value.type) {
    case TypeId::kFloat32: AppendFloat(static_cast<float>(value.real), &out); return out;
    case TypeId::kFloat64: AppendDouble(value.real, &out); return out;
    case TypeId::kDate32: AppendDate(static_cast<int32_t>(value.integer), &out); return out;
    case TypeId::kTimestampSeconds:
      AppendTimestampSeconds(static_cast<int64_t>(value.integer), &out);
      return out;
    case TypeId::kTimestampMicros:
      AppendTimestampMicros(static_cast<int64_t>(value.integer), &out);
      return out;
    case TypeId::kBool: return value.integer != 0 ? "true" : "false";
    case TypeId::kTime: AppendTime(static_cast<int64_t>(value.integer), &out); return out;
    case TypeId::kInterval: AppendInterval(UnpackInterval(value.integer), &out); return out;
    case TypeId::kString:
    case TypeId::kLargeString: return value.text;
    default: return Int128ToString(value.integer);
  }
}

namespace {

bool ParseDigits(const std::string& s, size_t* pos, size_t min_digits, size_t max_digits,
                 int64_t* out) {
  size_t start = *pos;
  int64_t v = 0;
  while (*pos < s.size() && *pos - start < max_digits && s[*pos] >= '0' && s[*pos] <= '9') {
    v = v * 10 + (s[*pos] - '0');
    ++*pos;
  }
  *out = v;
  return *pos - start >= min_digits;
}

// YYYY-MM-DD at the start of s (after spaces); *pos is past it.
bool ParseDatePart(const std::string& s, size_t* pos, int64_t* days) {
  while (*pos < s.size() && s[*pos] == ' ') ++*pos;
  int64_t y, m, d;
  if (!ParseDigits(s, pos, 1, 6, &y) || *pos >= s.size() || s[*pos] != '-') return false;
  ++*pos;
  if (!ParseDigits(s, pos, 1, 2, &m) || *pos >= s.size() || s[*pos] != '-') return false;
  ++*pos;
  if (!ParseDigits(s, pos, 1, 2, &d)) return false;
  if (m < 1 || m > 12 || d < 1 || d > civil::DaysInMonth(y, static_cast<int>(m))) return false;
  *days = civil::DaysFromCivil(y, static_cast<int>(m), static_cast<int>(d));
  return true;
}

bool OnlySpacesFrom(const std::string& s, size_t pos) {
  while (pos < s.size() && s[pos] == ' ') ++pos;
  return pos == s.size();
}

}  // namespace

bool ParseDate(const std::string& text, int32_t* days) {
  size_t pos = 0;
  int64_t d;
  if (!ParseDatePart(text, &pos, &d) || !OnlySpacesFrom(text, pos)) return false;
  *days = static_cast<int32_t>(d);
  return true;
}

bool ParseTimestampMicros(const std::string& text, int64_t* micros, bool* out_of_range) {
  size_t pos = 0;
  int64_t days;
  if (!ParseDatePart(text, &pos, &days)) return false;
  int64_t h = 0, mi = 0, sec = 0, frac = 0;
  if (pos < text.size() && (text[pos] == ' ' || text[pos] == 'T') && !OnlySpacesFrom(text, pos)) {
    ++pos;
    if (!ParseDigits(text, &pos, 1, 2, &h) || pos >= text.size() || text[pos] != ':') return false;
    ++pos;
    if (!ParseDigits(text, &pos, 1, 2, &mi)) return false;
    if (pos < text.size() && text[pos] == ':') {
      ++pos;
      if (!ParseDigits(text, &pos, 1, 2, &sec)) return false;
      if (pos < text.size() && text[pos] == '.') {
        ++pos;
        const size_t start = pos;
        if (!ParseDigits(text, &pos, 1, 6, &frac)) return false;
        for (size_t i = pos - start; i < 6; ++i) frac *= 10;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') ++pos;
      }
    }
    if (h > 24 || mi > 59 || sec > 59 || (h == 24 && (mi | sec | frac) != 0)) return false;
  }
  if (!OnlySpacesFrom(text, pos)) return false;
  // Years past about 292,000 overflow int64 microseconds: refused, never wrapped around.
  if (!civil::ComposeTimestamp(days, civil::MicrosOfDay(h, mi, sec, frac), civil::kMicrosPerDay, micros)) {
    if (out_of_range != nullptr) *out_of_range = true;
    return false;
  }
  return true;
}

}  // namespace plan
}  // namespace laneql
