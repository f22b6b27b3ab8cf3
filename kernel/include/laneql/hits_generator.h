// A deterministic generator of ClickBench-like `hits` data: the 105 columns of ClickBench's
// create.sql with distributions shaped after the published facts about the real data (skewed
// users, regions, counters and URLs, mostly empty search phrases, Cyrillic UTF-8 text), so that
// every one of the 43 ClickBench queries selects something on a table of a million rows.
//
// Determinism: every value of row r is a pure function of (seed, rows, r, column). Generation
// splits into any ranges and any thread count and still gives the same bytes.
#ifndef LANEQL_HITS_GENERATOR_H_
#define LANEQL_HITS_GENERATOR_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "laneql/table.h"
#include "laneql/types.h"

namespace laneql {

struct HitsColumnSpec {
  std::string name;
  TypeId type;
};

// The hits schema: 105 columns in create.sql's order. TEXT, VARCHAR(n) and CHAR -> kString,
// BIGINT -> kInt64, INTEGER -> kInt32, SMALLINT -> kInt16, DATE -> kDate32,
// TIMESTAMP -> kTimestampMicros.
const std::vector<HitsColumnSpec>& HitsSchema();

struct HitsOptions {
  uint64_t seed = 1;
  // The size of the whole table. Some distributions scale with it (the number of distinct
  // users is about 18 % of the rows), so it is part of what a row's values depend on.
  size_t rows = 1'000'000;
  // Threads to generate with (values < 1 mean 1). At most one thread per 16,384 rows is used;
  // the bytes are the same for every thread count.
  int threads = 1;
  // Only these columns (names in any letter case; the table keeps the schema's order); empty =
  // all 105. Each column's values are the same as in the whole table: the browser and the wasm
  // benchmarks keep just the columns their queries read, as the whole table of 10 M rows would
  // not fit in wasm32's 4 GiB.
  std::vector<std::string> columns;
  // Called after every few thousand rows (from the generating threads: it must be thread-safe
  // and quick) with the rows this call has generated so far: the CLI's progress bar.
  std::function<void(size_t rows_done)> progress;
};

// About how many bytes a row of GenerateHits' table takes while it is built, for these columns
// (HitsOptions::columns: empty = all 105; names in any letter case; unknown names add nothing).
// GenerateHits refuses a table whose rows times this exceed the machine's memory; callers can
// bound a row count with it (the web demo's slider).
size_t EstimateHitsRowBytes(const std::vector<std::string>& columns);

// Generates options.rows rows into *out (replacing its contents). Returns false with a message
// in *error (if not null) when the table cannot be built: too many rows for the memory. A
// string column whose text passes 2 GiB is a large_string (int64 offsets). *out is left empty
// on failure.
bool GenerateHits(const HitsOptions& options, Table* out, std::string* error);

// Rows [first_row, first_row + count) of the table GenerateHits(options) builds, byte for byte
// (so generation can be split across threads or morsels). first_row + count must not exceed
// options.rows.
bool GenerateHitsRange(const HitsOptions& options, size_t first_row, size_t count, Table* out,
                       std::string* error);

}  // namespace laneql

#endif  // LANEQL_HITS_GENERATOR_H_
