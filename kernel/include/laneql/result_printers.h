// Result printers: an aligned text table, CSV, TSV, JSON and Markdown. Each formats every value
// through FormatValue (laneql/result.h), so a value reads the same in all of them, and returns
// the whole output as one string.
//
// An error result prints as "Error: <message>\n" in every text format and as
// {"error":"<message>"} in JSON, so a front end can print whatever it got.
#ifndef LANEQL_RESULT_PRINTERS_H_
#define LANEQL_RESULT_PRINTERS_H_

#include <cstddef>
#include <string>

#include "laneql/result.h"

namespace laneql {

struct TableOptions {
  // Values (and names) longer than this many code points are cut to max_width - 1 code
  // points plus "…". 0 = no limit.
  size_t max_width = 80;
  // With more rows than this, prints the first ceil(max_rows / 2) and the last
  // floor(max_rows / 2) rows around a "… N rows …" line (N = rows left out). 0 = all rows.
  size_t max_rows = 40;
};

// A psql-like aligned table:
//    id | name
//   ----+------
//     1 | one
//     2 | NULL
//   (2 rows)
// Numbers are right-aligned, everything else left-aligned, widths counted in UTF-8 code
// points (East Asian wide characters and combining marks are not measured specially).
// Control characters in values print as \t, \r, \n or \xNN (ESC as \x1b), so every row stays
// on one line and no value can drive the terminal.
std::string PrintTable(const Result& result, const TableOptions& options = TableOptions());

struct DelimitedOptions {
  bool header = true;  // a first row with the column names
};

// RFC 4180 CSV, CRLF-free ("\n" line ends, as DuckDB writes): a field is quoted (with " doubled)
// when it contains , " CR or LF, or starts or ends with a space (DuckDB leaves the spaces
// unquoted; quoting keeps readers that trim from losing them). NULL is an empty field and the
// empty string a quoted "" (as DuckDB), so the two stay distinct.
std::string PrintCsv(const Result& result, const DelimitedOptions& options = DelimitedOptions());

// Tab-separated values in PostgreSQL's COPY text format: backslash, tab, LF and CR escaped as
// \\ \t \n \r, NULL as \N.
std::string PrintTsv(const Result& result, const DelimitedOptions& options = DelimitedOptions());

struct JsonOptions {
  // false: one array of objects, "[\n\t{...},\n\t{...}\n]\n" as DuckDB's JSON writer lays it
  // out ("[]\n" for no rows);
  // true: JSON lines, one object per line and nothing for no rows.
  bool lines = false;
};

// Objects keyed by column name, values as FormatValue's kJson style (numbers, int128 included,
// as JSON numbers; NaN and infinities as null; dates and timestamps as strings).
std::string PrintJson(const Result& result, const JsonOptions& options = JsonOptions());

// A GitHub-flavoured Markdown pipe table, numbers right-aligned (---:). In cells "|" becomes
// "\|", "\" becomes "\\" (so a cell's trailing backslash cannot escape the next pipe) and line
// breaks become <br>.
std::string PrintMarkdown(const Result& result);

}  // namespace laneql

#endif  // LANEQL_RESULT_PRINTERS_H_
