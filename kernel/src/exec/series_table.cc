#include "src/exec/series_table.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "laneql/int128.h"
#include "laneql/interval.h"
#include "src/common/civil_time.h"
#include "src/storage/integer_values.h"

namespace laneql {
namespace exec {

namespace {

// Row 0 of an integer column as int64; false for other types (dates and timestamps too).
bool IntegerArgument(const Column& column, int64_t* value) {
  return IsInteger(column.type()) &&
         WithIntegerValues(column, [&](const auto* values) { *value = static_cast<int64_t>(values[0]); });
}

// A table's rows are numbered in 32 bits.
constexpr uint64_t kMaxSeriesRows = std::numeric_limits<uint32_t>::max();

// Row 0 of a DATE or TIMESTAMP column as TIMESTAMP microseconds (a DATE its midnight, as DuckDB
// casts it); false for other types.
bool TimestampArgument(const Column& column, int64_t* micros) {
  switch (column.type()) {
    case TypeId::kDate32: *micros = column.Values<int32_t>()[0] * civil::kMicrosPerDay; return true;
    case TypeId::kTimestampMicros: *micros = column.Values<int64_t>()[0]; return true;
    case TypeId::kTimestampSeconds: {
      const Int128 wide = static_cast<Int128>(column.Values<int64_t>()[0]) * civil::kMicrosPerSecond;
      if (wide > INT64_MAX || wide < INT64_MIN) return false;
      *micros = static_cast<int64_t>(wide);
      return true;
    }
    default: return false;
  }
}

bool IsTimeArgument(const Column& column) {
  return IsTemporal(column.type()) || IsInterval(column.type());
}

// range(start, end, step) / generate_series(...) of TIMESTAMPs (DATEs as their midnights) by an
// INTERVAL: start, start + step, (start + step) + step, ... while before end (or at it, for
// generate_series), each step added to the one before as DuckDB does (Jan 31 + 1 month is
// Feb 29, and + 1 month again Mar 29). A TIMESTAMP column named after the function.
bool MakeTimestampSeries(const std::string& function, const Result& args, std::shared_ptr<const Table>* out,
                         std::string* error) {
  const bool inclusive = function == "generate_series";
  const size_t n = args.num_columns();
  bool any_null = false;
  int64_t bounds[2] = {0, 0};
  Interval step;
  for (size_t i = 0; i < n; ++i) {
    const Column& column = args.column(i);
    // A NULL of any type (a bare NULL is an INTEGER) makes no rows, as DuckDB's does.
    const bool fits = n == 3 && (!column.IsValid(0) || (i == 2 ? IsInterval(column.type()) : IsTemporal(column.type())));
    if (!fits) {
      std::string given;
      for (size_t a = 0; a < n; ++a) given += std::string(a == 0 ? "" : ", ") + DuckDbTypeName(args.column(a).type());
      *error = function + "(" + given + ") is not a series: " + function +
               "() takes BIGINT arguments, or (TIMESTAMP or DATE, TIMESTAMP or DATE, INTERVAL)";
      return false;
    }
    if (!column.IsValid(0)) {
      any_null = true;
    } else if (i == 2) {
      step = UnpackInterval(column.Values<Int128>()[0]);
    } else if (!TimestampArgument(column, &bounds[i])) {
      *error = function + "(): a bound is out of the TIMESTAMP range";
      return false;
    }
  }
  std::vector<int64_t> values;
  if (!any_null) {
    const bool up = step.months > 0 || step.days > 0 || step.micros > 0;
    const bool down = step.months < 0 || step.days < 0 || step.micros < 0;
    if (!up && !down) {
      *error = function + "(): interval cannot be 0!";
      return false;
    }
    if (up && down) {
      *error = function + "(): RANGE with composite interval that has mixed signs is not supported";
      return false;
    }
    const int64_t end = bounds[1];
    for (int64_t t = bounds[0]; up ? (t < end || (inclusive && t == end)) : (t > end || (inclusive && t == end));) {
      if (values.size() >= kMaxSeriesRows) {
        *error = function + "() would make more rows than a table holds (" + std::to_string(kMaxSeriesRows) + ")";
        return false;
      }
      values.push_back(t);
      if (!civil::AddInterval(t, step, 1, &t)) break;  // past the last TIMESTAMP: the series ends
    }
  }
  Column column;
  if (!Column::FromFixed(TypeId::kTimestampMicros, values.data(), values.size(), nullptr, &column, error)) return false;
  auto table = std::make_shared<Table>();
  if (!table->AddColumn(function, std::move(column), error)) return false;
  *out = std::move(table);
  return true;
}

}  // namespace

bool MakeSeriesTable(const std::string& function, const Result& args, std::shared_ptr<const Table>* out,
                     std::string* error) {
  const bool inclusive = function == "generate_series";
  const size_t n = args.num_columns();
  if (args.num_rows() != 1) {
    *error = "internal error: " + function + "() arguments are not one row";
    return false;
  }
  for (size_t i = 0; i < n; ++i) {
    if (IsTimeArgument(args.column(i))) return MakeTimestampSeries(function, args, out, error);
  }
  bool any_null = false;
  std::vector<int64_t> values(n);
  for (size_t i = 0; i < n; ++i) {
    const Column& column = args.column(i);
    if (!column.IsValid(0)) {
      any_null = true;
      continue;
    }
    if (!IntegerArgument(column, &values[i])) {
      *error = function + "() takes BIGINT arguments, or (TIMESTAMP or DATE, TIMESTAMP or DATE, INTERVAL), not " +
               DuckDbTypeName(column.type());
      return false;
    }
  }
  int64_t start = 0, end = 0, step = 1;
  if (n == 1) {
    end = values[0];
  } else {
    start = values[0];
    end = values[1];
    if (n == 3) step = values[2];
  }
  if (!any_null && step == 0) {
    *error = function + "(): the step cannot be 0";
    return false;
  }
  // How many values: from start towards end by step, end included or not.
  uint64_t rows = 0;
  if (!any_null) {
    const Int128 distance = step > 0 ? Int128(end) - Int128(start) : Int128(start) - Int128(end);
    const Int128 stride = step > 0 ? Int128(step) : -Int128(step);
    if (distance > 0 || (inclusive && distance == 0)) {
      const Int128 count = inclusive ? distance / stride + 1 : (distance + stride - 1) / stride;
      if (count > Int128(kMaxSeriesRows)) {
        *error = function + "() would make " + Int128ToString(count) + " rows, more than a table holds (" +
                 std::to_string(kMaxSeriesRows) + ")";
        return false;
      }
      rows = static_cast<uint64_t>(count);
    }
  }
  Column column;
  if (!Column::Zeroed(TypeId::kInt64, rows, &column, error)) return false;
  int64_t* out_values = column.MutableValues<int64_t>();
  // start + i * step lies between start and end, so within int64, though i * step alone may
  // not: worked out modulo 2^64.
  for (uint64_t i = 0; i < rows; ++i) {
    out_values[i] = static_cast<int64_t>(static_cast<uint64_t>(start) + i * static_cast<uint64_t>(step));
  }
  auto table = std::make_shared<Table>();
  if (!table->AddColumn(function, std::move(column), error)) return false;
  *out = std::move(table);
  return true;
}

}  // namespace exec
}  // namespace laneql
