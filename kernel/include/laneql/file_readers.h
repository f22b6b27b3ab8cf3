// Readers for tables named by a file path, in SQL (`FROM 'hits.csv'`) and on the command line
// (`laneql --table hits=hits.csv`). CSV / TSV and `.laneql` are built in; other formats
// (Parquet, in laneql_parquet) plug in here so that the kernel does not depend on their
// libraries. TableFileFormatOf is the one rule both places use to choose the reader (and
// COPY ... TO 'path' its writer, for the formats it writes).
#ifndef LANEQL_FILE_READERS_H_
#define LANEQL_FILE_READERS_H_

#include <string>
#include <string_view>

#include "laneql/table.h"

namespace laneql {

using TableFileReader = bool (*)(const std::string& path, Table* out, std::string* error);

// Registers `reader` for paths ending in `extension` (".parquet", compared case-insensitively),
// replacing an earlier one. Thread-safe.
void RegisterTableFileReader(std::string_view extension, TableFileReader reader);
// The reader for `path`'s extension, or nullptr.
TableFileReader FindTableFileReader(std::string_view path);

enum class TableFileFormat {
  kCsv,         // .csv, .txt
  kTsv,         // .tsv, .tab: CSV with a tab delimiter
  kLaneql,      // .laneql (OpenTableFile)
  kRegistered,  // an extension with a registered reader (FindTableFileReader)
  kUnknown,     // none of these
};
// Which reader serves `path`, by its extension in any letter case. The built-in formats come
// first: a reader registered for ".csv" does not replace the CSV reader.
TableFileFormat TableFileFormatOf(std::string_view path);

}  // namespace laneql

#endif  // LANEQL_FILE_READERS_H_
