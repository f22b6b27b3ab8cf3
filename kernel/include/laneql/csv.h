// CSV / TSV in and out.
//
// Reading: RFC 4180 (fields may be quoted; a quoted field may hold delimiters, newlines and
// doubled quotes), LF or CRLF line ends, an optional UTF-8 byte-order mark, a header line
// detected or stated, a delimiter option, NULLs, and column types either inferred from a sample
// (BIGINT, DOUBLE, DATE, TIMESTAMP, BOOLEAN, VARCHAR, as DuckDB's sniffer would choose) or
// given (an explicit list, or a CREATE TABLE statement such as ClickBench's create.sql). A SIMD
// pass finds the structural characters (quotes, delimiters, line ends) in blocks; natively the
// rows are parsed in chunks across threads.
//
// Errors name the file (or "<input>"), the line and column (1-based, in the text as a reader
// sees it in an editor) and the problem. A bad row never crashes: by default it fails the read;
// with skip_bad_rows it is dropped and counted.
#ifndef LANEQL_CSV_H_
#define LANEQL_CSV_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/result.h"
#include "laneql/table.h"
#include "laneql/types.h"

namespace laneql {

struct ColumnSpec {
  std::string name;
  TypeId type = TypeId::kString;
};

struct CsvReadOptions {
  // Field separator; '\t' for TSV. 0 = detect from the first lines (',', '\t', '|', ';').
  char delimiter = 0;
  char quote = '"';
  // The escape inside quotes; '"' means a doubled quote, as RFC 4180 says. Only escape ==
  // quote is supported (another escape fails the read with a message). A quote may only open
  // and close a field: one inside an unquoted field, or text after a closing quote, is a bad
  // row.
  char escape = '"';
  // kDetect: the rules are in kernel/src/io/csv_sniffer.h (in short: a first row that does not
  // fit the types of the rows below it, or distinct non-numeric names above all-VARCHAR data).
  enum class Header { kDetect, kYes, kNo };
  Header header = Header::kDetect;
  // An unquoted field equal to this reads as NULL (for every type). An empty unquoted field is
  // NULL too (DuckDB's default); a quoted empty field ("") is an empty string in a VARCHAR
  // column and NULL in any other. An empty line is skipped when rows have several fields and
  // is a NULL row when they have one.
  std::string null_string;
  // The columns' names and types. Empty = names from the header (or column0, column1, ...)
  // and types inferred from the first sample_rows rows. When given, the file must have exactly
  // this many fields per row; the header, if any, is skipped (its names are not checked).
  std::vector<ColumnSpec> schema;
  size_t sample_rows = 20480;
  // false (default): the first bad row (wrong field count, a value that does not parse as its
  // column's type or is out of its range, an unterminated quote) fails the read.
  // true: such rows are skipped and counted in CsvReadStats.
  bool skip_bad_rows = false;
  // Threads that parse chunks of the file (natively); 0 = laneql::DefaultThreads(). Builds
  // without threads use 1.
  int threads = 0;
  // Called now and then while rows are parsed (every 1024 rows per thread, and once at the
  // end with bytes_done == bytes_total), from the parsing threads: it must be thread-safe and
  // quick. The laneql CLI draws its progress bar with it.
  // rows_done counts the records read so far (bad ones skipped included, until the last call).
  std::function<void(size_t bytes_done, size_t bytes_total, size_t rows_done)> progress;
};

struct CsvReadStats {
  size_t rows = 0;              // rows in the table read
  size_t bad_rows_skipped = 0;  // with skip_bad_rows
  std::string first_bad_row;    // the error the first skipped row would have raised
  size_t bytes = 0;             // input bytes
};

// Reads the file at `path`. Messages start with the path: "hits.csv:12:7: ...".
bool ReadCsvFile(const std::string& path, const CsvReadOptions& options, Table* out,
                 CsvReadStats* stats, std::string* error);
// Reads CSV text held in memory (the wasm bindings, tests). `source_name` stands for the file
// name in messages.
bool ReadCsvText(std::string_view text, const CsvReadOptions& options, Table* out,
                 CsvReadStats* stats, std::string* error, std::string_view source_name = "<input>");

// The columns of a `CREATE [OR REPLACE] TABLE name (col TYPE [NOT NULL] [PRIMARY KEY], ...,
// [PRIMARY KEY (...)])` statement, types as TypeFromSqlName reads them. Errors say line:column.
bool ParseCreateTable(std::string_view sql, std::string* table_name,
                      std::vector<ColumnSpec>* columns, std::string* error);

struct CsvWriteOptions {
  char delimiter = ',';
  char quote = '"';
  bool header = true;
  // How a NULL is written (DuckDB writes an empty field).
  std::string null_string;
};

// Writes columns as CSV (values as DuckDB's CSV writer spells them: FormatValue's kText style;
// a field is quoted when it holds the delimiter, the quote, CR or LF, or would otherwise read
// back as NULL, i.e. an empty string). The file is written to a temporary name and renamed into
// place, so readers never see half a file.
bool WriteCsvFile(const Result& result, const std::string& path, const CsvWriteOptions& options,
                  std::string* error);
bool WriteCsvFile(const Table& table, const std::string& path, const CsvWriteOptions& options,
                  std::string* error);
// The same into a string (the header only with options.header). For a table, only rows
// [first_row, end_row): `laneql gen` formats a big table's CSV in slices, on several threads.
void AppendCsv(const Result& result, const CsvWriteOptions& options, std::string* out);
void AppendCsv(const Table& table, const CsvWriteOptions& options, std::string* out,
               size_t first_row = 0, size_t end_row = SIZE_MAX);

}  // namespace laneql

#endif  // LANEQL_CSV_H_
