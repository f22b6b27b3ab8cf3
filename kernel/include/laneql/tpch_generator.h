// A deterministic generator of TPC-H data: the 8 tables of the TPC-H specification (region,
// nation, supplier, customer, part, partsupp, orders, lineitem) with the specification's
// cardinalities, key relations and value distributions, typed as TPC-H's create.sql (../shared/tpch)
// (DECIMAL(15,2) money and rates, BIGINT or INTEGER keys, DATE, VARCHAR text), so that the 22
// TPC-H queries select rows at every scale factor from 0.01 up. It is written from the
// specification's rules, not from dbgen: the values differ from dbgen's, their laws do not.
//
// Determinism: every value is a pure function of (seed, scale factor, table, row, column).
// Generation splits into any ranges and any thread count and still gives the same bytes.
#ifndef LANEQL_TPCH_GENERATOR_H_
#define LANEQL_TPCH_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "laneql/table.h"

namespace laneql {

struct TpchOptions {
  // SF 1 is the specification's 6 M lineitem rows (about 1 GB of text); counts scale linearly
  // and are rounded, at least 1 row each. Below SF 0.0004 there are fewer than 4 suppliers, so
  // a part cannot have 4 distinct ones and partsupp repeats (partkey, suppkey) pairs.
  double scale_factor = 0.01;
  uint64_t seed = 1;
  // Threads to generate with (values < 1 mean 1); the bytes are the same for every count.
  int threads = 1;
  // Called every few thousand rows (from the generating threads: it must be thread-safe and
  // quick) with the rows of the table being generated done so far: the CLI's progress bar.
  std::function<void(size_t rows_done)> progress;
};

// The 8 table names in the order GenerateTpch returns them (dimension tables first).
const std::vector<std::string>& TpchTableNames();

// Rows table `name` has at this scale factor (0 for an unknown name). lineitem's count depends
// on the seed (1 to 7 lines per order), so it takes one pass over the orders' line counts.
uint64_t TpchTableRows(const TpchOptions& options, std::string_view name);

// Whether the tables can be built here: a finite scale factor > 0 whose string columns fit
// int32 offsets and whose tables fit in the machine's memory, all 8 at once (all_at_once, as
// GenerateTpch holds them) or one at a time (GenerateTpchTable). False with the reason.
bool CheckTpchScale(double scale_factor, bool all_at_once, std::string* error);

// One table by name (e.g. for a browser that loads tables one at a time). Its values are
// those of the same table in GenerateTpch's answer. False, with *out empty, on an unknown
// name or a scale CheckTpchScale refuses.
bool GenerateTpchTable(const TpchOptions& options, std::string_view name, Table* out,
                       std::string* error);

// All 8 tables, as (name, table) pairs in TpchTableNames' order (replacing *tables' contents).
bool GenerateTpch(const TpchOptions& options, std::vector<std::pair<std::string, Table>>* tables,
                  std::string* error);

}  // namespace laneql

#endif  // LANEQL_TPCH_GENERATOR_H_
