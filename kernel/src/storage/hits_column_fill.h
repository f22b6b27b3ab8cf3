// Internal to the hits generator: writing one column's values for one chunk of rows, given the
// chunk's shared facts (hits_row_model.h).
#ifndef LANEQL_STORAGE_HITS_COLUMN_FILL_H_
#define LANEQL_STORAGE_HITS_COLUMN_FILL_H_

#include <cstddef>
#include <cstdint>

#include "src/storage/hits_row_model.h"
#include "src/storage/hits_text.h"

namespace laneql::hits {

// A fixed-width column: chunk.count values of the column's type from `out`.
void FillNumericColumn(int column, const RowChunk& chunk, void* out);

// A string column: appends chunk.count values to `bytes` and writes each row's end offset
// (relative to the start of `bytes`) to ends[0 .. chunk.count). False when `bytes` could not
// grow (int32 offset limit or memory).
bool FillTextColumn(int column, const RowChunk& chunk, ByteSink* bytes, int32_t* ends);

}  // namespace laneql::hits

#endif  // LANEQL_STORAGE_HITS_COLUMN_FILL_H_
