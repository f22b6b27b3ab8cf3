// Result: the columns a query produced, or why it produced none.
#include "laneql/result.h"

#include <cstdio>
#include <utility>

namespace laneql {
namespace {

// Reads L and C of "<kind> error at line L, column C: ..." (the only place they are written
// before the message starts); false for any other message.
bool LocatedMessage(const std::string& message, int* line, int* column) {
  const size_t at = message.find(" error at line ");
  const size_t colon = message.find(':');
  if (at == std::string::npos || (colon != std::string::npos && colon < at)) return false;
  int l = 0, c = 0, consumed = 0;
  if (std::sscanf(message.c_str() + at, " error at line %d, column %d:%n", &l, &c, &consumed) != 2 ||
      consumed == 0 || l <= 0 || c <= 0) {
    return false;
  }
  *line = l;
  *column = c;
  return true;
}

}  // namespace

Result Result::Error(std::string message, int line, int column) {
  if (line == 0) LocatedMessage(message, &line, &column);
  Result result;
  result.ok_ = false;
  result.error_ = std::move(message);
  result.error_line_ = line;
  result.error_column_ = column;
  return result;
}

bool Result::AddColumn(std::string name, Column column, std::string* error) {
  if (!ok_) {
    if (error != nullptr) *error = "cannot add column '" + name + "' to an error result";
    return false;
  }
  if (!columns_.empty() && column.length() != num_rows()) {
    if (error != nullptr) {
      *error = "column '" + name + "' has " + std::to_string(column.length()) +
               " rows, the result has " + std::to_string(num_rows());
    }
    return false;
  }
  names_.push_back(std::move(name));
  columns_.push_back(std::move(column));
  return true;
}

std::vector<Column> Result::ReleaseColumns() {
  std::vector<Column> columns = std::move(columns_);
  columns_.clear();
  names_.clear();
  return columns;
}

bool Result::MoveToTable(Table* out, std::string* error) {
  if (!ok_) {
    if (error != nullptr) *error = "an error result has no columns to make a table of";
    return false;
  }
  // Names first, so that a failure leaves the columns where they are.
  Table probe;
  for (size_t i = 0; i < names_.size(); ++i) {
    Column empty(columns_[i].type());
    if (!probe.AddColumn(names_[i], std::move(empty), error)) return false;
  }
  Table table;
  for (size_t i = 0; i < names_.size(); ++i) {
    if (!table.AddColumn(names_[i], std::move(columns_[i]), error)) return false;
  }
  names_.clear();
  columns_.clear();
  *out = std::move(table);
  return true;
}

}  // namespace laneql
