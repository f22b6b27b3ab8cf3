// Tables named on the command line (`--table NAME=PATH`, `laneql import IN ...`): the file's
// extension picks the reader by the kernel's TableFileFormatOf, as `FROM 'path'` does in SQL.
#ifndef LANEQL_NATIVE_CLI_TABLE_LOADER_H_
#define LANEQL_NATIVE_CLI_TABLE_LOADER_H_

#include <memory>
#include <string>
#include <vector>

#include "laneql/csv.h"
#include "laneql/table.h"

namespace laneql::cli {

struct TableSpec {
  std::string name;
  std::string path;
};

// Each `--table NAME=PATH`, split; false with a message on the first one whose name or path is
// empty or that lacks the '='.
bool ParseTableSpecs(const std::vector<std::string>& specs, std::vector<TableSpec>* out,
                     std::string* error);

// Whether `path` ends in `extension` (".csv"; letter case ignored).
bool HasExtension(const std::string& path, const char* extension);

// Reads PATH: .csv/.txt and .tsv/.tab (the delimiter detected, or '\t'), .laneql (mapped, no
// copy), and any extension with a registered reader (.parquet). CSV parsing uses `threads`
// (0 = all cores) and draws a progress bar on a terminal. `csv_schema`, when not empty, gives
// a CSV's column names and types. The reader's message names the file (and line:column).
bool LoadTable(const std::string& path, int threads, const std::vector<ColumnSpec>& csv_schema,
               char csv_delimiter, std::shared_ptr<const Table>* out, std::string* error);

}  // namespace laneql::cli

#endif  // LANEQL_NATIVE_CLI_TABLE_LOADER_H_
