// Runs SQL corpus files (tests/sql/*.test, format in tests/sql/README.md) against
// laneql::Database and compares every record with its expectation.
//
//   sql_corpus_runner FILE.test...          run; exit 1 on any mismatch or malformed file
//   sql_corpus_runner --large-strings FILE.test...
//       the same with every VARCHAR column of the declared tables held as large_string (int64
//       offsets, as a column of over 2 GiB of text is), so every operator's path for such
//       columns answers the whole corpus too.
//   sql_corpus_runner --export-hits FILE.test DIR
//       write the file's generated hits table as DIR/hits.csv plus DIR/hits.schema
//       ("name TYPE" lines), so tests/sql/tools/expect.py can load the same rows into DuckDB.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/result.h"
#include "laneql/table.h"
#include "record_check.h"
#include "table_builder.h"
#include "test_file.h"

namespace laneql {
namespace corpus {
namespace {

bool ReadFile(const std::string& path, std::string* text, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    *error = path + ": cannot open";
    return false;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return true;
}

bool LoadFile(const std::string& path, TestFile* file, std::string* error) {
  std::string text;
  return ReadFile(path, &text, error) && ParseTestFile(path, text, file, error);
}

bool BuildHits(const TestFile& file, Table* out, std::string* error) {
  HitsOptions options;
  options.rows = file.hits->rows;
  options.seed = file.hits->seed;
  if (!GenerateHits(options, out, error)) {
    *error = file.path + ":" + std::to_string(file.hits->line) + ": " + *error;
    return false;
  }
  return true;
}

// The table with each VARCHAR column's offsets widened to int64 (large_string); other columns
// (lists included) are copied buffer by buffer.
bool WidenStringOffsets(Table* table, std::string* error) {
  Table wide;
  for (size_t c = 0; c < table->num_columns(); ++c) {
    const Column& column = table->column(c);
    Column copy;
    if (column.type() == TypeId::kString) {
      std::vector<int64_t> offsets(column.length() + 1);
      for (size_t r = 0; r <= column.length(); ++r) offsets[r] = column.Offsets32()[r];
      if (!Column::FromLargeStrings(offsets.data(), column.StringData(), column.length(), column.validity(),
                                    &copy, error)) {
        return false;
      }
    } else {
      AlignedBuffer values, offsets, validity;
      if (!values.Assign(column.values_buffer().data(), column.values_buffer().size(), error) ||
          !offsets.Assign(column.offsets_buffer().data(), column.offsets_buffer().size(), error) ||
          !validity.Assign(column.validity_buffer().data(), column.validity_buffer().size(), error) ||
          !Column::FromBuffers(column.type(), column.length(), std::move(values), std::move(offsets),
                               std::move(validity), &copy, error)) {
        return false;
      }
    }
    if (!wide.AddColumn(table->column_name(c), std::move(copy), error)) return false;
  }
  *table = std::move(wide);
  return true;
}

bool RegisterTables(const TestFile& file, bool large_strings, Database* db, std::string* error) {
  auto add = [&](const std::string& name, Table table) {
    return (!large_strings || WidenStringOffsets(&table, error)) && db->Register(name, std::move(table), error);
  };
  for (const InlineTable& inline_table : file.tables) {
    Table table;
    if (!BuildInlineTable(file.path, inline_table, &table, error) || !add(inline_table.name, std::move(table))) {
      return false;
    }
  }
  if (file.hits) {
    Table hits;
    if (!BuildHits(file, &hits, error) || !add("hits", std::move(hits))) return false;
  }
  return true;
}

// Runs one file; returns the number of failed records, or -1 for a file that could not run.
int RunFile(const std::string& path, bool large_strings) {
  TestFile file;
  Database db;
  std::string error;
  if (!LoadFile(path, &file, &error) || !RegisterTables(file, large_strings, &db, &error)) {
    std::cerr << error << "\n";
    return -1;
  }
  int failed = 0;
  for (const Record& record : file.records) {
    const Result result = db.Query(record.sql);
    std::string report;
    if (!CheckRecord(record, result, &report)) {
      ++failed;
      std::string sql = record.sql;  // continuation lines indented under the first
      for (size_t at = sql.find('\n'); at != std::string::npos; at = sql.find('\n', at + 1)) {
        sql.insert(at + 1, "       ");
      }
      std::cerr << path << ":" << record.line << ": mismatch\n  SQL: " << sql << "\n" << report
                << "\n";
    }
  }
  std::cout << path << ": " << file.records.size() - failed << " of " << file.records.size()
            << " records passed" << (large_strings ? " (large strings)" : "") << "\n";
  return failed;
}

// Writes one CSV field: strings always quoted (so "" is an empty string, not NULL), quotes
// doubled; NULL as an empty unquoted field.
void WriteCsvField(const Column& column, size_t row, std::string* out) {
  if (!column.IsValid(row)) return;
  if (!IsString(column.type())) {
    AppendValue(column, row, ValueStyle::kText, out);
    return;
  }
  *out += '"';
  for (char c : column.StringAt(row)) {
    if (c == '"') *out += '"';
    *out += c;
  }
  *out += '"';
}

int ExportHits(const std::string& path, const std::string& dir) {
  TestFile file;
  Table hits;
  std::string error;
  if (!LoadFile(path, &file, &error)) {
    std::cerr << error << "\n";
    return 1;
  }
  if (!file.hits) {
    std::cerr << path << ": declares no hits table\n";
    return 1;
  }
  if (!BuildHits(file, &hits, &error)) {
    std::cerr << error << "\n";
    return 1;
  }
  std::ofstream schema(dir + "/hits.schema");
  std::ofstream csv(dir + "/hits.csv", std::ios::binary);
  std::string line;
  for (size_t c = 0; c < hits.num_columns(); ++c) {
    schema << hits.column_name(c) << " " << DuckDbTypeName(hits.column(c).type()) << "\n";
    line += (c > 0 ? "," : "") + hits.column_name(c);
  }
  csv << line << "\n";
  for (size_t r = 0; r < hits.num_rows(); ++r) {
    line.clear();
    for (size_t c = 0; c < hits.num_columns(); ++c) {
      if (c > 0) line += ',';
      WriteCsvField(hits.column(c), r, &line);
    }
    csv << line << "\n";
  }
  if (!schema || !csv) {
    std::cerr << dir << ": cannot write hits.csv / hits.schema\n";
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace corpus
}  // namespace laneql

int main(int argc, char** argv) {
  using namespace laneql::corpus;
  if (argc == 4 && std::string(argv[1]) == "--export-hits") return ExportHits(argv[2], argv[3]);
  const bool large_strings = argc >= 2 && std::string(argv[1]) == "--large-strings";
  const int first = large_strings ? 2 : 1;
  if (argc <= first || argv[first][0] == '-') {
    std::cerr << "usage: sql_corpus_runner [--large-strings] FILE.test...\n"
                 "       sql_corpus_runner --export-hits FILE.test DIR\n";
    return 2;
  }
  bool all_passed = true;
  for (int i = first; i < argc; ++i) {
    if (RunFile(argv[i], large_strings) != 0) all_passed = false;
  }
  return all_passed ? 0 : 1;
}
