#include "src/exec/series_table.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "laneql/int128.h"
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

}  // namespace

bool MakeSeriesTable(const std::string& function, const Result& args, std::shared_ptr<const Table>* out,
                     std::string* error) {
  const bool inclusive = function == "generate_series";
  const size_t n = args.num_columns();
  bool any_null = false;
  std::vector<int64_t> values(n);
  for (size_t i = 0; i < n; ++i) {
    const Column& column = args.column(i);
    if (args.num_rows() != 1) {
      *error = "internal error: " + function + "() arguments are not one row";
      return false;
    }
    if (!column.IsValid(0)) {
      any_null = true;
      continue;
    }
    if (!IntegerArgument(column, &values[i])) {
      *error = function + "() takes BIGINT arguments, not " + DuckDbTypeName(column.type()) +
               " (series of dates or timestamps are not supported)";
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
