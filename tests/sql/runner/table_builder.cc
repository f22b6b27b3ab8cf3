// Inline table values -> laneql Columns; see table_builder.h.
#include "table_builder.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <utility>

#include "laneql/column.h"
#include "laneql/types.h"
#include "src/common/civil_time.h"

namespace laneql {
namespace corpus {
namespace {

bool ParseDigits(std::string_view text, size_t count, int* out) {
  if (text.size() < count) return false;
  int value = 0;
  for (size_t i = 0; i < count; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    value = value * 10 + (text[i] - '0');
  }
  *out = value;
  return true;
}

template <class T>
bool AppendSigned(std::string_view text, Column* column, std::string* error) {
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const long long value = std::strtoll(copy.c_str(), &end, 10);
  if (errno != 0 || end != copy.c_str() + copy.size() || value < std::numeric_limits<T>::min() ||
      value > std::numeric_limits<T>::max()) {
    *error = "not a value of the type";
    return false;
  }
  return column->Append<T>(static_cast<T>(value), error);
}

template <class T>
bool AppendUnsigned(std::string_view text, Column* column, std::string* error) {
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(copy.c_str(), &end, 10);
  if (copy[0] == '-' || errno != 0 || end != copy.c_str() + copy.size() ||
      value > std::numeric_limits<T>::max()) {
    *error = "not a value of the type";
    return false;
  }
  return column->Append<T>(static_cast<T>(value), error);
}

template <class T>
bool AppendFloating(std::string_view text, Column* column, std::string* error) {
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  // strtof for FLOAT: parsing straight to float rounds once, as DuckDB's cast does.
  const T value = sizeof(T) == 4 ? static_cast<T>(std::strtof(copy.c_str(), &end))
                                 : static_cast<T>(std::strtod(copy.c_str(), &end));
  if (end != copy.c_str() + copy.size() || (errno == ERANGE && std::isinf(value))) {
    *error = "not a value of the type";
    return false;
  }
  return column->Append<T>(value, error);
}

// One non-null value of `type` parsed from `text`, appended to *column.
bool AppendValue(TypeId type, std::string_view text, Column* column, std::string* error) {
  switch (type) {
    case TypeId::kInt8: return AppendSigned<int8_t>(text, column, error);
    case TypeId::kInt16: return AppendSigned<int16_t>(text, column, error);
    case TypeId::kInt32: return AppendSigned<int32_t>(text, column, error);
    case TypeId::kInt64: return AppendSigned<int64_t>(text, column, error);
    case TypeId::kUInt8: return AppendUnsigned<uint8_t>(text, column, error);
    case TypeId::kUInt16: return AppendUnsigned<uint16_t>(text, column, error);
    case TypeId::kUInt32: return AppendUnsigned<uint32_t>(text, column, error);
    case TypeId::kUInt64: return AppendUnsigned<uint64_t>(text, column, error);
    case TypeId::kFloat32: return AppendFloating<float>(text, column, error);
    case TypeId::kFloat64: return AppendFloating<double>(text, column, error);
    case TypeId::kDate32: {
      int32_t days = 0;
      if (!ParseDate(text, &days)) {
        *error = "not a date (YYYY-MM-DD)";
        return false;
      }
      return column->Append<int32_t>(days, error);
    }
    case TypeId::kTimestampMicros: {
      int64_t micros = 0;
      if (!ParseTimestamp(text, &micros)) {
        *error = "not a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])";
        return false;
      }
      return column->Append<int64_t>(micros, error);
    }
    case TypeId::kString: return column->AppendString(text, error);
    case TypeId::kBool:
      if (text != "true" && text != "false") {
        *error = "not a boolean (true or false)";
        return false;
      }
      return column->Append<uint8_t>(text == "true" ? 1 : 0, error);
    default:
      *error = "type not supported in inline tables";
      return false;
  }
}

}  // namespace

bool ParseDate(std::string_view text, int32_t* days) {
  int year = 0, month = 0, day = 0;
  if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !ParseDigits(text, 4, &year) ||
      !ParseDigits(text.substr(5), 2, &month) || !ParseDigits(text.substr(8), 2, &day)) {
    return false;
  }
  if (month < 1 || month > 12 || day < 1 || day > civil::DaysInMonth(year, month)) return false;
  *days = static_cast<int32_t>(civil::DaysFromCivil(year, month, day));
  return true;
}

bool ParseTimestamp(std::string_view text, int64_t* micros) {
  int32_t days = 0;
  if (!ParseDate(text.substr(0, 10), &days)) return false;
  int64_t time_micros = 0;
  if (text.size() > 10) {
    int hour = 0, minute = 0, second = 0;
    const std::string_view time = text.substr(11);
    if (text[10] != ' ' || time.size() < 8 || time[2] != ':' || time[5] != ':' ||
        !ParseDigits(time, 2, &hour) || !ParseDigits(time.substr(3), 2, &minute) ||
        !ParseDigits(time.substr(6), 2, &second) || hour > 23 || minute > 59 || second > 59) {
      return false;
    }
    int64_t fraction = 0;
    if (time.size() > 8) {
      const std::string_view digits = time.substr(9);
      if (time[8] != '.' || digits.empty() || digits.size() > 6) return false;
      for (size_t i = 0; i < 6; ++i) {
        const char c = i < digits.size() ? digits[i] : '0';
        if (c < '0' || c > '9') return false;
        fraction = fraction * 10 + (c - '0');
      }
    }
    time_micros = civil::MicrosOfDay(hour, minute, second, fraction);
  }
  *micros = days * civil::kMicrosPerDay + time_micros;  // four-digit years: no overflow
  return true;
}

bool BuildInlineTable(const std::string& path, const InlineTable& table, Table* out,
                      std::string* error) {
  *out = Table();
  for (size_t c = 0; c < table.columns.size(); ++c) {
    const InlineColumn& spec = table.columns[c];
    TypeId type;
    if (!TypeFromSqlName(spec.type, &type)) {
      *error = path + ":" + std::to_string(table.line) + ": unknown type '" + spec.type + "'";
      return false;
    }
    Column column(type);
    for (size_t r = 0; r < table.rows.size(); ++r) {
      const std::optional<std::string>& value = table.rows[r][c];
      std::string why;
      if (!(value ? AppendValue(type, *value, &column, &why) : column.AppendNull(&why))) {
        *error = path + ":" + std::to_string(table.row_lines[r]) + ": value '" +
                 value.value_or(kNullText) + "' of column " + spec.name + " (" + spec.type +
                 "): " + why;
        return false;
      }
    }
    if (!out->AddColumn(spec.name, std::move(column), error)) {
      *error = path + ":" + std::to_string(table.line) + ": " + *error;
      return false;
    }
  }
  return true;
}

}  // namespace corpus
}  // namespace laneql
