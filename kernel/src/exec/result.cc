// Result: the columns a query produced, or why it produced none.
#include "laneql/result.h"

#include <utility>

namespace laneql {

Result Result::Error(std::string message, int line, int column) {
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
