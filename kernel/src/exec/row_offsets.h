// The offsets of rows serialised back to back into one buffer (Arrow's int32 layout), for the
// hash keys built from several values per row (GROUP BY keys, COUNT(DISTINCT) pairs).
#ifndef LANEQL_EXEC_ROW_OFFSETS_H_
#define LANEQL_EXEC_ROW_OFFSETS_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace laneql {
namespace exec {

// offsets[0..count]: 0 and then the running sum of row_bytes(i); *total the last. Sizes come
// first so that the rows are then copied into one buffer resized once. False, with *error =
// `too_big`, when the rows pass 2 GiB (int32 offsets).
template <class RowBytes>
bool RunningOffsets(size_t count, RowBytes&& row_bytes, int32_t* offsets, size_t* total,
                    const char* too_big, std::string* error) {
  size_t sum = 0;
  offsets[0] = 0;
  for (size_t i = 0; i < count; ++i) {
    sum += row_bytes(i);
    if (sum > static_cast<size_t>(INT32_MAX)) {
      *error = too_big;
      return false;
    }
    offsets[i + 1] = static_cast<int32_t>(sum);
  }
  *total = sum;
  return true;
}

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_ROW_OFFSETS_H_
