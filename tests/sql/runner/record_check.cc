// Expected-vs-actual comparison of one corpus record; see record_check.h.
#include "record_check.h"

#include <algorithm>

#include "laneql/types.h"

namespace laneql {
namespace corpus {
namespace {

std::string Join(const std::vector<std::string>& parts, const char* separator) {
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) joined += separator;
    joined += parts[i];
  }
  return joined;
}

void AppendBlock(const char* title, const std::vector<std::string>& rows, std::string* out) {
  *out += "  ";
  *out += title;
  *out += " (" + std::to_string(rows.size()) + (rows.size() == 1 ? " row" : " rows") + "):\n";
  for (const std::string& row : rows) *out += "    " + row + "\n";
}

}  // namespace

std::vector<std::string> ResultRows(const Result& result) {
  std::vector<std::string> rows(result.num_rows());
  for (size_t r = 0; r < result.num_rows(); ++r) {
    for (size_t c = 0; c < result.num_columns(); ++c) {
      if (c > 0) rows[r] += '\t';
      const Column& column = result.column(c);
      if (IsString(column.type()) && column.IsValid(r) && column.StringAt(r).empty()) {
        rows[r] += kEmptyText;
      } else {
        AppendValue(column, r, ValueStyle::kText, &rows[r]);
      }
    }
  }
  return rows;
}

std::vector<std::string> ResultTypes(const Result& result) {
  std::vector<std::string> types;
  for (size_t c = 0; c < result.num_columns(); ++c) {
    types.push_back(DuckDbTypeName(result.type(c)));
  }
  return types;
}

bool CheckRecord(const Record& record, const Result& result, std::string* report) {
  report->clear();
  if (record.kind == RecordKind::kError) {
    const std::string expected = Join(record.expected, "\n");
    if (!result.ok() && result.error() == expected) return true;
    *report = "  expected the error:\n    " + expected + "\n";
    if (result.ok()) {
      *report += "  but the query succeeded\n";
      AppendBlock("rows", ResultRows(result), report);
    } else {
      *report += "  got the error:\n    " + result.error() + "\n";
    }
    return false;
  }
  if (!result.ok()) {
    *report = "  query failed: " + result.error() + "\n";
    AppendBlock("expected", record.expected, report);
    return false;
  }
  std::vector<std::string> expected = record.expected;
  std::vector<std::string> actual = ResultRows(result);
  if (!record.ordered) {
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
  }
  const std::vector<std::string> types = ResultTypes(result);
  const bool rows_match = expected == actual;
  const bool types_match = record.types.empty() || record.types == types;
  if (rows_match && types_match) return true;
  if (!types_match) {
    *report += "  expected types: " + Join(record.types, ",") + "\n";
    *report += "  actual types:   " + Join(types, ",") + "\n";
  }
  if (!rows_match) {
    if (!record.ordered) *report += "  (rows sorted before comparing: the record is unordered)\n";
    AppendBlock("expected", expected, report);
    AppendBlock("actual", actual, report);
  }
  return false;
}

}  // namespace corpus
}  // namespace laneql
