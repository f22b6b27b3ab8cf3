// The laneql side of the DuckDB differential test (tests/diff/run_diff.py): generates the hits
// table, writes it as CSV for DuckDB to load, runs every query of a query file through
// laneql::Database::Query and writes one JSON line per query with the result as text.
//
//   hits_diff_tool --rows N --seed S --csv OUT.csv --queries queries.sql --results OUT.jsonl
//
// Each results line: {"index": i, "sql": "...", "columns": [...], "types": [DuckDB type names],
// "rows": [["text", null, ...], ...], "error": null or "message", "ms": milliseconds}.
// Values are spelled as DuckDB casts them to VARCHAR (ValueStyle::kText), NULL as JSON null, so
// the Python side parses both engines' values the same way.
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/result.h"
#include "laneql/table.h"
#include "laneql/types.h"

namespace {

struct Options {
  size_t rows = 100000;
  uint64_t seed = 1;
  std::string csv_path;      // empty: no CSV
  std::string queries_path;  // empty: no queries
  std::string results_path;
  int only_query = -1;  // --query I: run only query I (for debugging one query)
};

void Usage() {
  std::fprintf(stderr,
               "usage: hits_diff_tool --rows N [--seed S] [--csv OUT.csv] "
               "[--queries queries.sql --results OUT.jsonl] [--query I]\n");
}

bool ParseUnsigned(const char* text, uint64_t* out) {
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (*end != '\0' || text[0] == '-') return false;
  *out = value;
  return true;
}

bool ParseArgs(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    uint64_t number = 0;
    if (value == nullptr) {
      std::fprintf(stderr, "error: %s needs a value\n", arg.c_str());
      return false;
    }
    if (arg == "--rows" || arg == "--seed" || arg == "--query") {
      if (!ParseUnsigned(value, &number)) {
        std::fprintf(stderr, "error: %s wants a non-negative integer, got '%s'\n", arg.c_str(),
                     value);
        return false;
      }
      if (arg == "--rows") options->rows = number;
      if (arg == "--seed") options->seed = number;
      if (arg == "--query") options->only_query = static_cast<int>(number);
    } else if (arg == "--csv") {
      options->csv_path = value;
    } else if (arg == "--queries") {
      options->queries_path = value;
    } else if (arg == "--results") {
      options->results_path = value;
    } else {
      std::fprintf(stderr, "error: unknown option '%s'\n", arg.c_str());
      return false;
    }
    ++i;
  }
  if (options->queries_path.empty() != options->results_path.empty()) {
    std::fprintf(stderr, "error: --queries and --results go together\n");
    return false;
  }
  return true;
}

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// RFC 4180: every string is quoted (so the empty string reads back as '' and not as a missing
// value) with '"' doubled; other values are DuckDB's VARCHAR spelling, which never needs quotes.
void AppendCsvField(const laneql::Column& column, size_t row, std::string* out) {
  if (column.type() == laneql::TypeId::kString || column.type() == laneql::TypeId::kLargeString) {
    out->push_back('"');
    for (const char c : column.StringAt(row)) {
      if (c == '"') out->push_back('"');
      out->push_back(c);
    }
    out->push_back('"');
    return;
  }
  laneql::AppendValue(column, row, laneql::ValueStyle::kText, out);
}

bool WriteCsv(const laneql::Table& table, const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    std::fprintf(stderr, "error: cannot write %s: %s\n", path.c_str(), std::strerror(errno));
    return false;
  }
  std::string buffer;
  for (size_t c = 0; c < table.num_columns(); ++c) {
    if (c > 0) buffer.push_back(',');
    buffer += table.column_name(c);  // hits' names are plain identifiers
  }
  buffer.push_back('\n');
  for (size_t row = 0; row < table.num_rows(); ++row) {
    for (size_t c = 0; c < table.num_columns(); ++c) {
      if (c > 0) buffer.push_back(',');
      if (!table.column(c).IsValid(row)) {
        buffer += "\\N";  // run_diff.py loads with NULLSTR '\N'; hits has no NULLs
      } else {
        AppendCsvField(table.column(c), row, &buffer);
      }
    }
    buffer.push_back('\n');
    if (buffer.size() > (1 << 22)) {
      std::fwrite(buffer.data(), 1, buffer.size(), file);
      buffer.clear();
    }
  }
  std::fwrite(buffer.data(), 1, buffer.size(), file);
  const bool ok = std::ferror(file) == 0;
  if (std::fclose(file) != 0 || !ok) {
    std::fprintf(stderr, "error: writing %s failed\n", path.c_str());
    return false;
  }
  return true;
}

bool ReadQueries(const std::string& path, std::vector<std::string>* queries) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "error: cannot read %s\n", path.c_str());
    return false;
  }
  // One query per line, as ClickBench's queries.sql; blank lines are not queries.
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    queries->push_back(line);
  }
  return true;
}

void AppendResultJson(int index, const std::string& sql, const laneql::Result& result,
                      double ms, std::string* out) {
  *out += "{\"index\":" + std::to_string(index) + ",\"sql\":";
  laneql::AppendJsonString(sql, out);
  *out += ",\"columns\":[";
  for (size_t c = 0; c < result.num_columns(); ++c) {
    if (c > 0) out->push_back(',');
    laneql::AppendJsonString(result.name(c), out);
  }
  *out += "],\"types\":[";
  for (size_t c = 0; c < result.num_columns(); ++c) {
    if (c > 0) out->push_back(',');
    laneql::AppendJsonString(laneql::DuckDbTypeName(result.type(c)), out);
  }
  *out += "],\"rows\":[";
  std::string value;
  for (size_t row = 0; row < result.num_rows(); ++row) {
    *out += row > 0 ? ",[" : "[";
    for (size_t c = 0; c < result.num_columns(); ++c) {
      if (c > 0) out->push_back(',');
      if (!result.column(c).IsValid(row)) {
        *out += "null";
        continue;
      }
      value.clear();
      laneql::AppendValue(result.column(c), row, laneql::ValueStyle::kText, &value);
      laneql::AppendJsonString(value, out);
    }
    out->push_back(']');
  }
  *out += "],\"error\":";
  if (result.ok()) {
    *out += "null";
  } else {
    laneql::AppendJsonString(result.error(), out);
  }
  char ms_text[32];
  std::snprintf(ms_text, sizeof ms_text, "%.3f", ms);
  *out += ",\"ms\":";
  *out += ms_text;
  *out += "}\n";
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (argc < 2 || !ParseArgs(argc, argv, &options)) {
    Usage();
    return 2;
  }
  std::vector<std::string> queries;
  if (!options.queries_path.empty() && !ReadQueries(options.queries_path, &queries)) return 1;

  auto start = std::chrono::steady_clock::now();
  laneql::HitsOptions hits_options;
  hits_options.rows = options.rows;
  hits_options.seed = options.seed;
  laneql::Table table;
  std::string error;
  if (!laneql::GenerateHits(hits_options, &table, &error)) {
    std::fprintf(stderr, "error: generating hits failed: %s\n", error.c_str());
    return 1;
  }
  std::fprintf(stderr, "generated %zu rows in %.2f s\n", table.num_rows(), Since(start));

  if (!options.csv_path.empty()) {
    start = std::chrono::steady_clock::now();
    if (!WriteCsv(table, options.csv_path)) return 1;
    std::fprintf(stderr, "wrote %s in %.2f s\n", options.csv_path.c_str(), Since(start));
  }
  if (queries.empty()) return 0;

  laneql::Database db;
  if (!db.Register("hits", std::move(table), &error)) {
    std::fprintf(stderr, "error: registering hits failed: %s\n", error.c_str());
    return 1;
  }
  std::FILE* results = std::fopen(options.results_path.c_str(), "wb");
  if (results == nullptr) {
    std::fprintf(stderr, "error: cannot write %s: %s\n", options.results_path.c_str(),
                 std::strerror(errno));
    return 1;
  }
  start = std::chrono::steady_clock::now();
  std::string line;
  for (size_t i = 0; i < queries.size(); ++i) {
    if (options.only_query >= 0 && static_cast<size_t>(options.only_query) != i) continue;
    const auto query_start = std::chrono::steady_clock::now();
    const laneql::Result result = db.Query(queries[i]);
    const double ms = Since(query_start) * 1e3;
    line.clear();
    AppendResultJson(static_cast<int>(i), queries[i], result, ms, &line);
    std::fwrite(line.data(), 1, line.size(), results);
    // Flushed per query: if a later query crashes the process, random_diff.py finds which.
    std::fflush(results);
  }
  if (std::fclose(results) != 0) {
    std::fprintf(stderr, "error: writing %s failed\n", options.results_path.c_str());
    return 1;
  }
  std::fprintf(stderr, "ran %zu queries in %.2f s\n", queries.size(), Since(start));
  return 0;
}
