// Parquet input through Apache Arrow's C++ Parquet reader (the shared libraries and headers
// that the `pyarrow` wheel from PyPI ships; see README "Parquet"). Native builds only, and only
// when that library was found at configure time: the separate `laneql_parquet` library
// (kernel/parquet/) implements this header; the kernel itself does not depend on Arrow.
#ifndef LANEQL_PARQUET_H_
#define LANEQL_PARQUET_H_

#include <string>

#include "laneql/table.h"

namespace laneql {

// Reads every column of the Parquet file at `path` into `out`. Types map to laneql's:
// integers (signed and unsigned, 8..64 bits), float, double, bool, date32, timestamp (s, ms ->
// us, us, ns -> us), string / binary / large variants (bytes kept as they are) and dictionary-
// encoded strings. Any other type fails with a message naming the column and type.
bool ReadParquetFile(const std::string& path, Table* out, std::string* error);

// Makes `FROM 'x.parquet'` and read_parquet() work in SQL (registers ReadParquetFile with the
// kernel's file readers, laneql/file_readers.h). Front ends that link laneql_parquet call it
// once at start-up.
void InstallParquetReader();

}  // namespace laneql

#endif  // LANEQL_PARQUET_H_
