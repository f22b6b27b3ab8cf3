// Internal to the TPC-H generator: each table's columns (create.sql's names and types) and the
// function that writes a range of its rows. A table is generated in units that are rows of it
// or of the table that drives it (parts for partsupp's 4 rows each, orders for lineitem's 1 to
// 7), so that a range of units can be written without looking at any other range.
#ifndef LANEQL_STORAGE_TPCH_TABLES_H_
#define LANEQL_STORAGE_TPCH_TABLES_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "laneql/types.h"
#include "src/storage/tpch_model.h"

namespace laneql::tpch {

// DECIMAL(15,2): money, quantities and rates, as int128 hundredths.
inline constexpr TypeId kMoney = DecimalType(15, 2);

struct ColumnSpec {
  const char* name;
  TypeId type;
};

// One range's values of a string column: its bytes and each row's end in them.
struct StringPiece {
  std::string bytes;
  std::vector<uint32_t> ends;
  void Add(std::string_view value) {
    bytes.append(value);
    ends.push_back(static_cast<uint32_t>(bytes.size()));
  }
};

// Where a fill writes: fixed-width column c at fixed[c] (this range's next row in the whole
// table's buffer, nullptr for string columns), string column c appended to strings[c].
struct RowSink {
  std::vector<uint8_t*> fixed;
  std::vector<StringPiece> strings;
  // Row `row` (of this fill) of fixed-width column `column`. T, the column's C++ type, is
  // always named (Put<Int128>(5, i, cents)): deduced from the value, it could be narrower.
  template <class T>
  void Put(int column, uint64_t row, typename std::decay<T>::type value) const {
    reinterpret_cast<T*>(fixed[column])[row] = value;
  }
};

struct TableDef {
  std::string_view name;
  std::vector<ColumnSpec> columns;
  // How many units the table has at this scale.
  uint64_t (*units)(const Scale& scale);
  // The rows units [first, first + count) make.
  uint64_t (*rows_of)(const Model& model, uint64_t first, uint64_t count);
  // Writes the rows of units [first, first + count) to *sink; returns how many.
  uint64_t (*fill)(const Model& model, uint64_t first, uint64_t count, RowSink* sink);
  // Per row, at about average lengths: the bytes a row takes while the table is built (values,
  // offsets, text, and the copy joining the ranges' text makes), and its text's bytes in the
  // column with the longest values (which must fit int32 offsets).
  uint32_t build_bytes_per_row;
  uint32_t longest_text_bytes_per_row;
  // Rows at SF 1 (lineitem: its expected count, 4 lines per order).
  double rows_at_sf1;
};

// The 8 tables in TpchTableNames' order.
const std::vector<TableDef>& TableDefs();
const TableDef* FindTableDef(std::string_view name);

// The tables of orders and their lines (tpch_order_tables.cc).
TableDef OrdersDef();
TableDef LineitemDef();

// Zero-padded decimal digits: `width` digits of `value` at p; returns p + width.
char* PutDigits(char* p, uint64_t value, int width);

}  // namespace laneql::tpch

#endif  // LANEQL_STORAGE_TPCH_TABLES_H_
