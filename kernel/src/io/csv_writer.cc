// WriteCsvFile / AppendCsv (laneql/csv.h). Values are spelled by AppendValue's kText style (as
// DuckDB's CSV writer spells them) so that ReadCsv* with the same types reads back the same
// values. A field is quoted when it holds the delimiter, the quote, CR or LF, or when it would
// otherwise read back as NULL (an empty string, or one equal to the NULL string); a NULL is the
// NULL string, unquoted (by default an empty field).
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include <unistd.h>

#include "laneql/csv.h"
#include "laneql/result.h"

namespace laneql {
namespace {

// Bytes gathered before each write to the file.
constexpr size_t kFlushBytes = 1 << 20;

void AppendField(std::string_view text, const CsvWriteOptions& options, std::string* out) {
  bool quote = text.empty() || (!options.null_string.empty() && text == options.null_string);
  if (!quote) {
    for (char c : text) {
      if (c == options.delimiter || c == options.quote || c == '\n' || c == '\r') {
        quote = true;
        break;
      }
    }
  }
  if (!quote) {
    out->append(text);
    return;
  }
  out->push_back(options.quote);
  for (char c : text) {
    if (c == options.quote) out->push_back(c);
    out->push_back(c);
  }
  out->push_back(options.quote);
}

// Result and Table name their parts differently; these adapters give both one face.
struct ResultColumns {
  const Result& r;
  size_t count() const { return r.num_columns(); }
  size_t rows() const { return r.num_rows(); }
  const std::string& name(size_t c) const { return r.name(c); }
  const Column& column(size_t c) const { return r.column(c); }
};
struct TableColumns {
  const Table& t;
  size_t count() const { return t.num_columns(); }
  size_t rows() const { return t.num_rows(); }
  const std::string& name(size_t c) const { return t.column_name(c); }
  const Column& column(size_t c) const { return t.column(c); }
};

template <class Columns>
void AppendHeader(const Columns& columns, const CsvWriteOptions& options, std::string* out) {
  if (!options.header || columns.count() == 0) return;
  for (size_t c = 0; c < columns.count(); ++c) {
    if (c != 0) out->push_back(options.delimiter);
    AppendField(columns.name(c), options, out);
  }
  out->push_back('\n');
}

template <class Columns>
void AppendRow(const Columns& columns, size_t row, const CsvWriteOptions& options,
               std::string* value, std::string* out) {
  for (size_t c = 0; c < columns.count(); ++c) {
    if (c != 0) out->push_back(options.delimiter);
    const Column& column = columns.column(c);
    if (!column.IsValid(row)) {
      out->append(options.null_string);
      continue;
    }
    if (IsString(column.type()) && !IsList(column.type())) {  // no copy for the common case
      AppendField(column.StringAt(row), options, out);
      continue;
    }
    value->clear();
    AppendValue(column, row, ValueStyle::kText, value);
    AppendField(*value, options, out);
  }
  out->push_back('\n');
}

template <class Columns>
bool WriteFile(const Columns& columns, const std::string& path, const CsvWriteOptions& options,
               std::string* error) {
  const auto fail = [&](const std::string& what, const std::string& temp, std::FILE* file) {
    const std::string why = std::strerror(errno);
    if (file != nullptr) std::fclose(file);
    if (!temp.empty()) std::remove(temp.c_str());
    if (error != nullptr) *error = what + " '" + path + "': " + why;
    return false;
  };
  // Unique per process, so two processes writing the same path never share a temporary file.
  const std::string temp = path + ".tmp-csv-" + std::to_string(static_cast<long>(getpid()));
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (file == nullptr) return fail("cannot write", "", nullptr);
  std::string buffer, value;
  AppendHeader(columns, options, &buffer);
  const auto flush = [&]() {
    const bool ok = std::fwrite(buffer.data(), 1, buffer.size(), file) == buffer.size();
    buffer.clear();
    return ok;
  };
  for (size_t row = 0; row < columns.rows(); ++row) {
    AppendRow(columns, row, options, &value, &buffer);
    if (buffer.size() >= kFlushBytes && !flush()) return fail("cannot write", temp, file);
  }
  if (!flush()) return fail("cannot write", temp, file);
  if (std::fclose(file) != 0) return fail("cannot write", temp, nullptr);
  if (std::rename(temp.c_str(), path.c_str()) != 0) return fail("cannot rename into", temp, nullptr);
  return true;
}

}  // namespace

bool WriteCsvFile(const Result& result, const std::string& path, const CsvWriteOptions& options,
                  std::string* error) {
  if (!result.ok()) {
    if (error != nullptr) *error = "cannot write '" + path + "': the result is an error: " + result.error();
    return false;
  }
  return WriteFile(ResultColumns{result}, path, options, error);
}

bool WriteCsvFile(const Table& table, const std::string& path, const CsvWriteOptions& options,
                  std::string* error) {
  return WriteFile(TableColumns{table}, path, options, error);
}

namespace {

template <class Columns>
void AppendRows(const Columns& columns, size_t first_row, size_t end_row,
                const CsvWriteOptions& options, std::string* out) {
  AppendHeader(columns, options, out);
  std::string value;
  end_row = std::min(end_row, columns.rows());
  for (size_t row = first_row; row < end_row; ++row) AppendRow(columns, row, options, &value, out);
}

}  // namespace

void AppendCsv(const Result& result, const CsvWriteOptions& options, std::string* out) {
  if (result.ok()) AppendRows(ResultColumns{result}, 0, result.num_rows(), options, out);
}

void AppendCsv(const Table& table, const CsvWriteOptions& options, std::string* out,
               size_t first_row, size_t end_row) {
  AppendRows(TableColumns{table}, first_row, end_row, options, out);
}

}  // namespace laneql
