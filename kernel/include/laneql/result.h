// A query result: named columns of equal length in the column model of laneql/column.h, or an
// error message. Results are what every front end prints (laneql/result_printers.h) or hands
// to JavaScript as Arrow arrays, so they hold ordinary Columns and nothing printer-specific.
#ifndef LANEQL_RESULT_H_
#define LANEQL_RESULT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/column.h"
#include "laneql/interval.h"
#include "laneql/table.h"
#include "laneql/types.h"

namespace laneql {

class Result {
 public:
  // An empty, successful result: no columns, no rows.
  Result() = default;
  Result(Result&&) noexcept = default;
  Result& operator=(Result&&) noexcept = default;
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;

  // A failed query. ok() is false and the result has no columns. `line` and `column` (1-based)
  // say where in the SQL text the problem is; 0 when it is not tied to a place in the text.
  // Without them, a message in the engine's located form ("<kind> error at line L, column C:
  // ...", as errors raised while a query runs are passed up as text) gives them.
  static Result Error(std::string message, int line = 0, int column = 0);

  bool ok() const { return ok_; }
  // The message of an error result; empty when ok().
  const std::string& error() const { return error_; }
  int error_line() const { return error_line_; }
  int error_column() const { return error_column_; }

  // Rows of every column; 0 when there are no columns.
  size_t num_rows() const { return columns_.empty() ? 0 : columns_[0].length(); }
  size_t num_columns() const { return columns_.size(); }
  // Index must be below num_columns(). Names need not be unique or non-empty (SQL allows
  // SELECT 1, 1), so the printers print them as they are.
  const std::string& name(size_t index) const { return names_[index]; }
  const Column& column(size_t index) const { return columns_[index]; }
  TypeId type(size_t index) const { return columns_[index].type(); }

  // Appends a column. Fails (returns false, message in *error if not null, result unchanged)
  // on an error result or when the column's length differs from the columns already added.
  bool AddColumn(std::string name, Column column, std::string* error);
  // Moves the columns into `out` (a table needs unique, non-empty names: fails naming the
  // first that is not, and then leaves this result as it was). On success the result is left
  // with no columns.
  bool MoveToTable(Table* out, std::string* error);
  // Moves the columns out, in order (names may repeat here); the result is left with none.
  std::vector<Column> ReleaseColumns();

 private:
  bool ok_ = true;
  std::string error_;
  int error_line_ = 0;
  int error_column_ = 0;
  std::vector<std::string> names_;
  std::vector<Column> columns_;
};

// How FormatValue spells a value.
enum class ValueStyle {
  // As DuckDB casts the value to VARCHAR (what its CLI and CSV writer print): 42,
  // -170141183460469231731687303715884105728, 1513.4908, 2.528953029789716e+18, 1.0, -0.0,
  // nan, -nan, inf, -inf, true, 2000-02-29, 0002-01-01 (BC), infinity,
  // 2013-07-15 12:34:56.12, strings as their raw bytes, NULL.
  // One known difference: for about 0.7% of float32 values (221 of 30,000 random bit patterns)
  // DuckDB (1.4.4, and 2.0.0 alike) prints the digits of the value widened to double
  // (-2830202.25) where laneql prints the shortest float digits that round-trip (-2830202.2);
  // both parse back to the same float. Doubles matched DuckDB in all of 4,600 random and edge
  // cases.
  kText,
  // A complete JSON value: numbers and booleans bare, strings, dates and timestamps quoted and
  // escaped, NULL as null. NaN and the infinities, which JSON cannot spell, become null
  // (DuckDB's JSON writer emits NaN / Infinity, which JSON parsers reject).
  kJson,
};

// Row `row` (below column.length()) of `column` in `style`. The one value formatter every
// printer shares.
std::string FormatValue(const Column& column, size_t row, ValueStyle style);
// The same, appended to *out (the printers format millions of values into one buffer).
void AppendValue(const Column& column, size_t row, ValueStyle style, std::string* out);

// The pieces of FormatValue, for callers that hold a bare value.
void AppendDouble(double value, std::string* out);  // shortest round-trip, DuckDB's layout
void AppendFloat(float value, std::string* out);
// Every int32 / int64 is accepted. DuckDB's +-infinity (INT32_MAX / INT64_MAX and their
// negations) print as infinity / -infinity; other values far outside DuckDB's range print as
// the proleptic Gregorian date they stand for.
void AppendDate(int32_t days_since_epoch, std::string* out);
void AppendTimestampMicros(int64_t micros_since_epoch, std::string* out);
void AppendTimestampSeconds(int64_t seconds_since_epoch, std::string* out);
// TIME: "HH:MM:SS[.ffffff]" (trailing zeros of the fraction dropped), as DuckDB.
void AppendTime(int64_t micros_of_day, std::string* out);
// INTERVAL as DuckDB spells it: "1 year 2 months 3 days 04:05:06.5", parts that are 0 left out
// ("00:00:00" for a zero interval), hours past 24 in the clock as they are ("100:00:00").
void AppendInterval(const Interval& value, std::string* out);
// A JSON string literal with quotes; invalid UTF-8 bytes become U+FFFD so the output stays
// valid JSON.
void AppendJsonString(std::string_view text, std::string* out);

}  // namespace laneql

#endif  // LANEQL_RESULT_H_
