// Table: equal-length named columns with a case-folded name index.
#include "laneql/table.h"

#include <utility>

namespace laneql {
namespace {

std::string FoldCase(std::string_view name) {
  std::string folded(name);
  for (char& c : folded) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');  // ASCII only, on purpose
  }
  return folded;
}

}  // namespace

bool Table::AddColumn(std::string name, Column column, std::string* error) {
  auto fail = [&](std::string message) {
    if (error != nullptr) *error = std::move(message);
    return false;
  };
  if (name.empty()) return fail("a column name cannot be empty");
  std::string folded = FoldCase(name);
  const auto existing = index_by_folded_name_.find(folded);
  if (existing != index_by_folded_name_.end()) {
    return fail("duplicate column name \"" + name + "\" (the table already has \"" +
                names_[existing->second] + "\")");
  }
  if (!columns_.empty() && column.length() != num_rows_) {
    return fail("column \"" + name + "\" has " + std::to_string(column.length()) +
                " rows, the table has " + std::to_string(num_rows_));
  }
  if (columns_.empty()) num_rows_ = column.length();
  index_by_folded_name_.emplace(std::move(folded), columns_.size());
  names_.push_back(std::move(name));
  columns_.push_back(std::move(column));
  return true;
}

bool Table::ReplaceRows(std::vector<Column> columns, std::string* error) {
  auto fail = [&](std::string message) {
    if (error != nullptr) *error = std::move(message);
    return false;
  };
  if (columns.size() != columns_.size()) {
    return fail("internal error: " + std::to_string(columns.size()) + " columns replace a table's " +
                std::to_string(columns_.size()));
  }
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c].type() != columns_[c].type() || columns[c].length() != columns[0].length()) {
      return fail("internal error: the rows replacing column \"" + names_[c] + "\" do not match it");
    }
  }
  for (size_t c = 0; c < columns.size(); ++c) columns_[c] = std::move(columns[c]);
  if (!columns_.empty()) num_rows_ = columns_[0].length();
  return true;
}

const Column* Table::FindColumn(std::string_view name) const {
  const int i = ColumnIndex(name);
  return i < 0 ? nullptr : &columns_[static_cast<size_t>(i)];
}

int Table::ColumnIndex(std::string_view name) const {
  const auto it = index_by_folded_name_.find(FoldCase(name));
  return it == index_by_folded_name_.end() ? -1 : static_cast<int>(it->second);
}

}  // namespace laneql
