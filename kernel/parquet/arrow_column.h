// Arrow arrays -> laneql columns: the conversion under ReadParquetFile, kept apart from the file
// handling so that tests can feed it arrays Parquet files rarely produce (sliced chunks, every
// timestamp unit). Internal to laneql_parquet and its tests.
//
// Arrow is only forward-declared here: including this header costs nothing; the Arrow headers
// are compiled in arrow_column.cc (and in the tests that build arrays).
#ifndef LANEQL_PARQUET_ARROW_COLUMN_H_
#define LANEQL_PARQUET_ARROW_COLUMN_H_

#include <string>

#include "laneql/column.h"

namespace arrow {
class ChunkedArray;
}  // namespace arrow

namespace laneql {
namespace parquet_internal {

// Concatenates the chunks of `array` (each may have an offset and its own dictionary) into
// `*out`, mapping Arrow's type to laneql's as laneql/parquet.h lists. Null rows get zero values /
// empty strings as laneql's column layout requires, whatever bytes Arrow leaves in their slots.
// On failure returns false with a message that starts "column '<name>': " and leaves *out as it
// was. Never throws.
bool ColumnFromArrow(const arrow::ChunkedArray& array, const std::string& name, Column* out,
                     std::string* error);

}  // namespace parquet_internal
}  // namespace laneql

#endif  // LANEQL_PARQUET_ARROW_COLUMN_H_
