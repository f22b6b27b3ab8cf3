// Builds laneql Tables from a corpus file's inline tables, parsing each value as DuckDB's
// CAST(text AS type) would for the simple spellings the corpus uses.
#ifndef LANEQL_TESTS_SQL_TABLE_BUILDER_H_
#define LANEQL_TESTS_SQL_TABLE_BUILDER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "laneql/table.h"
#include "test_file.h"

namespace laneql {
namespace corpus {

// "YYYY-MM-DD" -> days since 1970-01-01. False for anything else or an impossible date.
bool ParseDate(std::string_view text, int32_t* days);
// "YYYY-MM-DD[ HH:MM:SS[.f...]]" (up to 6 fraction digits) -> microseconds since the epoch.
bool ParseTimestamp(std::string_view text, int64_t* micros);

// Builds `table` into *out. On a value that does not parse as its column's type, returns false
// with "path:line: ..." naming the value, column and type.
bool BuildInlineTable(const std::string& path, const InlineTable& table, Table* out,
                      std::string* error);

}  // namespace corpus
}  // namespace laneql

#endif  // LANEQL_TESTS_SQL_TABLE_BUILDER_H_
