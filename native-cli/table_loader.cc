#include "table_loader.h"

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <system_error>
#include <utility>

#include "laneql/file_readers.h"
#include "laneql/table_file.h"
#include "progress.h"

namespace laneql::cli {

bool HasExtension(const std::string& path, const char* extension) {
  const std::string ext(extension);
  if (path.size() < ext.size()) return false;
  for (size_t i = 0; i < ext.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(path[path.size() - ext.size() + i])) != ext[i]) {
      return false;
    }
  }
  return true;
}

bool ParseTableSpecs(const std::vector<std::string>& specs, std::vector<TableSpec>* out,
                     std::string* error) {
  for (const std::string& spec : specs) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
      *error = "--table takes NAME=PATH (e.g. --table hits=hits.laneql), got '" + spec + "'";
      return false;
    }
    out->push_back({spec.substr(0, eq), spec.substr(eq + 1)});
  }
  return true;
}

bool LoadTable(const std::string& path, int threads, const std::vector<ColumnSpec>& csv_schema,
               char csv_delimiter, std::shared_ptr<const Table>* out, std::string* error) {
  Table table;
  const TableFileFormat format = TableFileFormatOf(path);
  const bool tsv = format == TableFileFormat::kTsv;
  if (tsv || format == TableFileFormat::kCsv) {
    CsvReadOptions options;
    options.delimiter = csv_delimiter != 0 ? csv_delimiter : (tsv ? '\t' : 0);
    options.schema = csv_schema;
    options.threads = threads;
    std::error_code size_error;
    const uint64_t size = std::filesystem::file_size(path, size_error);
    ProgressBar bar("reading " + path, size_error ? 0 : size);
    if (bar.enabled()) {
      options.progress = [&bar](size_t done, size_t, size_t rows) { bar.Update(done, rows, done); };
    }
    if (!ReadCsvFile(path, options, &table, nullptr, error)) return false;
  } else if (format == TableFileFormat::kLaneql) {
    if (!OpenTableFile(path, &table, error)) return false;
  } else if (TableFileReader reader = FindTableFileReader(path)) {
    if (!reader(path, &table, error)) return false;
  } else {
    *error = "'" + path + "': unknown file type (laneql reads .csv, .tsv, .laneql and, in builds "
             "with Parquet, .parquet)";
    return false;
  }
  *out = std::make_shared<const Table>(std::move(table));
  return true;
}

}  // namespace laneql::cli
