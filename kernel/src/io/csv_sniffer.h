// The CSV sniffer: delimiter, header and column types from the first records, before the
// parallel parse (internal to kernel/src/io).
//
// Header rule (options.header == kDetect):
//  - explicit schema: the first record is a header when its field count matches the schema and
//    either every field equals its column's name (ignoring letter case) or some non-empty field
//    does not parse as its column's (non-string) type;
//  - inferred types: the types are first inferred from the records after the first. The first
//    record is a header when some column came out non-VARCHAR and the first record's value
//    there is NULL-free text that does not parse as that type (a name above numbers). When
//    every column came out VARCHAR (or there are no other records), it is a header when its
//    fields are all non-empty, distinct, and none of them parses as a number, date, timestamp
//    or boolean (names, not data). Otherwise it is data and joins the type sample.
// Type inference: per column the first of BOOLEAN (true/false), BIGINT, DOUBLE, DATE,
// TIMESTAMP that every non-NULL sampled value parses as; VARCHAR when none does or the column
// is all NULL.
#ifndef LANEQL_SRC_IO_CSV_SNIFFER_H_
#define LANEQL_SRC_IO_CSV_SNIFFER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/csv.h"

namespace laneql {
namespace csv {

struct SniffResult {
  char delimiter = ',';
  bool has_header = false;
  std::vector<ColumnSpec> columns;
  bool types_inferred = false;  // from a sample (messages suggest an explicit schema)
  size_t sampled_rows = 0;      // data rows the types were inferred from
  size_t data_begin = 0;        // offset of the first data record
};

// `text` has no byte-order mark. Fails only for options it cannot honour.
bool Sniff(std::string_view text, const CsvReadOptions& options, SniffResult* out,
           std::string* error);

}  // namespace csv
}  // namespace laneql

#endif  // LANEQL_SRC_IO_CSV_SNIFFER_H_
