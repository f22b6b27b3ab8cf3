// ReadParquetFile / InstallParquetReader (laneql/parquet.h): Arrow's Parquet reader decodes the
// file into an arrow::Table, arrow_column.cc turns each column into a laneql Column.
//
// Arrow reports errors as Status / Result, but parts of the Parquet reader throw
// (ParquetException) and allocation may throw std::bad_alloc: the public functions catch at the
// boundary, so that callers see bool + message like everywhere else in laneql.
#include "laneql/parquet.h"

#include <arrow/api.h>
#include <arrow/io/file.h>
#include <arrow/util/thread_pool.h>
#include <parquet/arrow/reader.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#include "arrow_column.h"
#include "laneql/file_readers.h"

namespace laneql {
namespace {

// Arrow decodes columns in parallel on its global CPU pool, sized by default to every core.
// laneql runs its own worker threads for queries, so Arrow gets a modest share while reading.
constexpr unsigned kMaxArrowThreads = 8;

void LimitArrowThreads() {
  static std::once_flag once;
  std::call_once(once, [] {
    const unsigned threads =
        std::min(std::max(1u, std::thread::hardware_concurrency()), kMaxArrowThreads);
    // A failure only leaves Arrow's default pool size: not worth failing a read for.
    (void)arrow::SetCpuThreadPoolCapacity(static_cast<int>(threads));
  });
}

// The whole read; errors without the path, which ReadParquetFile puts in front.
bool ReadTable(const std::string& path, Table* out, std::string* error) {
  arrow::Result<std::shared_ptr<arrow::io::ReadableFile>> file =
      arrow::io::ReadableFile::Open(path);
  if (!file.ok()) {
    *error = "cannot open: " + file.status().ToString();
    return false;
  }
  arrow::Result<std::unique_ptr<parquet::arrow::FileReader>> reader =
      parquet::arrow::OpenFile(*file, arrow::default_memory_pool());
  if (!reader.ok()) {
    *error = "not a readable Parquet file: " + reader.status().ToString();
    return false;
  }
  LimitArrowThreads();
  (*reader)->set_use_threads(true);
  std::shared_ptr<arrow::Table> arrow_table;
  arrow::Status status = (*reader)->ReadTable(&arrow_table);
  if (!status.ok()) {
    *error = "cannot read: " + status.ToString();
    return false;
  }
  // Each Arrow column is released as soon as it is converted, so that the file's data is held
  // about once, not twice, while converting.
  std::vector<std::shared_ptr<arrow::ChunkedArray>> arrow_columns = arrow_table->columns();
  const std::shared_ptr<arrow::Schema> schema = arrow_table->schema();
  arrow_table.reset();
  Table table;
  for (size_t i = 0; i < arrow_columns.size(); ++i) {
    const std::string& name = schema->field(static_cast<int>(i))->name();
    Column column;
    if (!parquet_internal::ColumnFromArrow(*arrow_columns[i], name, &column, error)) return false;
    arrow_columns[i].reset();
    if (!table.AddColumn(name, std::move(column), error)) return false;
  }
  *out = std::move(table);
  return true;
}

}  // namespace

bool ReadParquetFile(const std::string& path, Table* out, std::string* error) {
  std::string why;
  bool ok = false;
  try {
    ok = ReadTable(path, out, &why);
  } catch (const std::exception& e) {
    why = std::string("Arrow failed: ") + e.what();
  } catch (...) {
    why = "Arrow failed with an unknown exception";
  }
  if (!ok && error != nullptr) *error = path + ": " + why;
  return ok;
}

void InstallParquetReader() { RegisterTableFileReader(".parquet", &ReadParquetFile); }

}  // namespace laneql
