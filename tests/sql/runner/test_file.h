// The SQL corpus file format (tests/sql/README.md): inline tables, a generated hits table, and
// query / error records. This is only the file model and its parser; it knows nothing about the
// engine, so the same rules can be re-implemented by the wasm runner.
#ifndef LANEQL_TESTS_SQL_TEST_FILE_H_
#define LANEQL_TESTS_SQL_TEST_FILE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace laneql {
namespace corpus {

// Spelling of special values in table rows and expected rows.
inline constexpr const char* kNullText = "NULL";
inline constexpr const char* kEmptyText = "(empty)";

struct InlineColumn {
  std::string name;
  std::string type;  // a DuckDB type name as written, e.g. "INTEGER"
};

// `table name(col TYPE, ...)` followed by rows of '|'-separated values.
struct InlineTable {
  int line = 0;
  std::string name;
  std::vector<InlineColumn> columns;
  // Each row has columns.size() values; std::nullopt is NULL, "(empty)" already became "".
  std::vector<std::vector<std::optional<std::string>>> rows;
  std::vector<int> row_lines;  // the file line of each row, for error messages
};

// `hits rows=N seed=S`: laneql::GenerateHits output registered as table "hits".
struct HitsTable {
  int line = 0;
  uint64_t rows = 0;
  uint64_t seed = 1;
};

enum class RecordKind { kQuery, kError };

struct Record {
  int line = 0;  // the line of the `query` / `error` header
  RecordKind kind = RecordKind::kQuery;
  // kQuery: whether the row order is part of the expectation (`query ordered`) or not
  // (`query unordered`: both sides are sorted as strings before comparing).
  bool ordered = false;
  // kQuery: expected DuckDB type names, one per column; empty when the header names none.
  std::vector<std::string> types;
  std::string sql;
  // kQuery: expected rows, values separated by tabs, as written in the file.
  // kError: the expected message, lines joined with '\n'.
  std::vector<std::string> expected;
};

struct TestFile {
  std::string path;
  std::vector<InlineTable> tables;
  std::optional<HitsTable> hits;
  std::vector<Record> records;
};

// Parses the text of a corpus file. Returns false with "path:line: what is wrong" in *error for
// a malformed file (unknown directive, bad table header or row, record without "----", duplicate
// table name, no records at all).
bool ParseTestFile(const std::string& path, const std::string& text, TestFile* out,
                   std::string* error);

}  // namespace corpus
}  // namespace laneql

#endif  // LANEQL_TESTS_SQL_TEST_FILE_H_
