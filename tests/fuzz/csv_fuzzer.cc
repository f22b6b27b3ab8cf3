// libFuzzer target: the CSV reader (laneql/csv.h) on any bytes, with schema inference or with a
// given schema. Any input must give a table or a clean error; and a table read with a given
// schema must survive a round trip: written by the CSV writer and read back with the same schema
// and options, it is the same table (every name, type and cell).
//
// Input: byte 0 picks the options (bits 0-1 the delimiter: detect, ',', '\t', '|'; bits 2-3 the
// header: detect, yes, no; bit 4 skip bad rows; bit 5 a NULL string "NA"; bit 6 a given schema);
// with a schema, byte 1 is its column count (1 + byte % 4) and the next bytes its types (one per
// column, byte % the number of types). The rest is the CSV text.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "laneql/csv.h"
#include "laneql/result.h"
#include "laneql/table.h"
#include "laneql/types.h"

namespace {

using laneql::CsvReadOptions;
using laneql::TypeId;

// The types a CSV column can be read as; a byte picks one.
constexpr TypeId kSchemaTypes[] = {
    TypeId::kInt8,    TypeId::kInt16,   TypeId::kInt32,           TypeId::kInt64,
    TypeId::kUInt8,   TypeId::kUInt64,  TypeId::kFloat32,         TypeId::kFloat64,
    TypeId::kDate32,  TypeId::kString,  TypeId::kTimestampSeconds, TypeId::kTimestampMicros,
    TypeId::kBool,    TypeId::kLargeString,
};
constexpr size_t kNumSchemaTypes = sizeof(kSchemaTypes) / sizeof(kSchemaTypes[0]);

// Every name, type and cell, as text.
std::string Fingerprint(const laneql::Table& t) {
  std::string out;
  for (size_t c = 0; c < t.num_columns(); ++c) {
    out += t.column_name(c) + ":" + laneql::TypeName(t.column(c).type()) + ";";
  }
  out += "\n";
  for (size_t r = 0; r < t.num_rows(); ++r) {
    for (size_t c = 0; c < t.num_columns(); ++c) {
      const laneql::Column& column = t.column(c);
      out += !column.IsValid(r) ? "<NULL>"
                              : laneql::FormatValue(column, r, laneql::ValueStyle::kText);
      out += '|';
    }
    out += '\n';
  }
  return out;
}

[[noreturn]] void Fail(const char* what, std::string_view input, const std::string& detail) {
  std::fprintf(stderr, "csv fuzzer: %s\ninput (%zu bytes): %.*s\n%s\n", what, input.size(),
               static_cast<int>(input.size()), input.data(), detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t flags = data[0];
  size_t pos = 1;
  CsvReadOptions options;
  options.threads = 1;
  static constexpr char kDelimiters[] = {0, ',', '\t', '|'};
  options.delimiter = kDelimiters[flags & 3];
  static constexpr CsvReadOptions::Header kHeaders[] = {
      CsvReadOptions::Header::kDetect, CsvReadOptions::Header::kYes, CsvReadOptions::Header::kNo,
      CsvReadOptions::Header::kDetect};
  options.header = kHeaders[(flags >> 2) & 3];
  options.skip_bad_rows = (flags & 16) != 0;
  if ((flags & 32) != 0) options.null_string = "NA";
  const bool given_schema = (flags & 64) != 0;
  if (given_schema) {
    if (size < pos + 1) return 0;
    const size_t columns = 1 + data[pos++] % 4;
    if (size < pos + columns) return 0;
    for (size_t c = 0; c < columns; ++c) {
      options.schema.push_back(
          {"c" + std::to_string(c), kSchemaTypes[data[pos++] % kNumSchemaTypes]});
    }
  }
  const std::string_view text(reinterpret_cast<const char*>(data + pos), size - pos);

  laneql::Table table;
  laneql::CsvReadStats stats;
  std::string error;
  if (!laneql::ReadCsvText(text, options, &table, &stats, &error, "fuzz.csv")) {
    if (error.empty()) Fail("a failed read without a message", text, "");
    return 0;
  }
  if (stats.rows != table.num_rows()) {
    Fail("the stats' row count is not the table's", text,
         std::to_string(stats.rows) + " vs " + std::to_string(table.num_rows()));
  }
  const std::string fingerprint = Fingerprint(table);
  if (!given_schema || table.num_columns() == 0) return 0;

  // The round trip: the writer's text read back with the same schema is the same table.
  laneql::CsvWriteOptions write_options;
  write_options.delimiter = options.delimiter == 0 ? ',' : options.delimiter;
  write_options.null_string = options.null_string;
  std::string written;
  laneql::AppendCsv(table, write_options, &written);
  CsvReadOptions again_options = options;
  again_options.delimiter = write_options.delimiter;
  again_options.header = CsvReadOptions::Header::kYes;
  again_options.skip_bad_rows = false;
  laneql::Table again;
  laneql::CsvReadStats again_stats;
  if (!laneql::ReadCsvText(written, again_options, &again, &again_stats, &error, "again.csv")) {
    Fail("the written CSV does not read back", text, written + "\n" + error);
  }
  const std::string again_fingerprint = Fingerprint(again);
  if (again_fingerprint != fingerprint) {
    Fail("the written CSV reads back differently", text,
         "written:\n" + written + "\nfirst read:\n" + fingerprint + "read back:\n" +
             again_fingerprint);
  }
  return 0;
}
