// Parsing one chunk of CSV records into typed column parts, and joining the parts of all
// chunks into Columns (internal to kernel/src/io). A chunk is a run of whole records, so the
// chunks of a file can be parsed by different threads and joined in order.
#ifndef LANEQL_SRC_IO_CSV_CHUNK_PARSER_H_
#define LANEQL_SRC_IO_CSV_CHUNK_PARSER_H_

#include <atomic>
#include <functional>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/column.h"
#include "laneql/csv.h"

namespace laneql {
namespace csv {

// What every chunk needs to know.
struct ParseSettings {
  std::string_view text;  // the whole text (no byte-order mark)
  char delimiter = ',';
  char quote = '"';
  std::string null_string;
  std::vector<ColumnSpec> columns;
  bool types_inferred = false;
  size_t sampled_rows = 0;
  bool skip_bad_rows = false;
  // CsvReadOptions::progress; `parsed` and `parsed_rows` sum what every chunk has got through.
  std::function<void(size_t bytes_done, size_t bytes_total, size_t rows_done)> progress;
  std::atomic<size_t>* parsed = nullptr;
  std::atomic<size_t>* parsed_rows = nullptr;
};

// One column's values from one chunk, in growable vectors (joined by JoinParts).
struct ColumnPart {
  std::vector<uint8_t> fixed;     // fixed-width values, TypeByteWidth bytes each
  std::vector<char> bytes;        // string bytes
  std::vector<int64_t> ends;      // string row ends within `bytes`
  std::vector<uint8_t> valid;     // 1 per row: 1 = value, 0 = NULL
  size_t nulls = 0;
};

struct ChunkResult {
  std::vector<ColumnPart> columns;
  size_t rows = 0;
  size_t bad_rows = 0;
  // The chunk's first bad row: where (a byte offset of the text) and what.
  bool has_bad_row = false;
  size_t bad_offset = 0;
  std::string bad_problem;
};

// Parses the records that start in [begin, end) (begin is a record start). Stops at the first
// bad row unless skip_bad_rows; stops early too when `first_failed_chunk` (shared by all
// chunks) names an earlier chunk, whose error wins anyway.
void ParseChunk(const ParseSettings& settings, size_t begin, size_t end, size_t chunk_index,
                std::atomic<size_t>* first_failed_chunk, ChunkResult* out);

// Column `c` from the parts of all chunks, in order. String columns whose bytes exceed
// INT32_MAX become large_string.
bool JoinParts(const std::vector<ChunkResult>& chunks, size_t c, TypeId type, Column* out,
               std::string* error);

}  // namespace csv
}  // namespace laneql

#endif  // LANEQL_SRC_IO_CSV_CHUNK_PARSER_H_
