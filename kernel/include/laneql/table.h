// A table: named columns of equal length, looked up by name case-insensitively (SQL identifiers
// are: `SELECT userid FROM hits` finds the column UserID). Names are compared with ASCII case
// folding, as DuckDB does for unquoted identifiers; they keep their original spelling for output.
#ifndef LANEQL_TABLE_H_
#define LANEQL_TABLE_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "laneql/column.h"

namespace laneql {

class Table {
 public:
  Table() = default;
  Table(Table&&) noexcept = default;
  Table& operator=(Table&&) noexcept = default;
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  // Adds a column at the end. Fails, with a message naming the column and leaving the table
  // unchanged, if the name is empty, already used (in any letter case), or the column's length
  // differs from the table's rows. The first column sets num_rows().
  bool AddColumn(std::string name, Column column, std::string* error);
  // Replaces every column's rows by those of `columns` (one per column, in order, each of its
  // column's type and all of one length, which becomes num_rows()). The Column objects stay
  // where they are, so whoever holds a pointer to one (an evaluator over this table) reads
  // the new rows: a pipeline's sink refills one table per thread, part after part. Fails,
  // leaving the table unchanged, when the columns do not match.
  bool ReplaceRows(std::vector<Column> columns, std::string* error);

  size_t num_rows() const { return num_rows_; }
  size_t num_columns() const { return columns_.size(); }

  const Column& column(size_t i) const { return columns_[i]; }
  const std::string& column_name(size_t i) const { return names_[i]; }

  // The column called `name` in any letter case, or nullptr.
  const Column* FindColumn(std::string_view name) const;
  // Its position, or -1.
  int ColumnIndex(std::string_view name) const;

 private:
  size_t num_rows_ = 0;
  std::vector<std::string> names_;
  std::vector<Column> columns_;
  std::unordered_map<std::string, size_t> index_by_folded_name_;
};

}  // namespace laneql

#endif  // LANEQL_TABLE_H_
