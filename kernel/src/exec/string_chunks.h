// What keeps a batch's strings within a Vec's int32 offsets, whatever the column's width.
#ifndef LANEQL_EXEC_STRING_CHUNKS_H_
#define LANEQL_EXEC_STRING_CHUNKS_H_

#include <cstddef>
#include <cstdint>

namespace laneql {
namespace exec {

// At most this many rows in one chunk of a projection or a sort: 2^20 rows of 2 KB strings
// would pass a Vec's int32 offsets.
inline constexpr size_t kMaxChunkRows = size_t{1} << 20;

// The error of a batch whose strings would pass int32 offsets; a caller that can retry with
// fewer rows (the chunked sort) looks for it.
inline constexpr char kStringBatchTooLarge[] = "a string result exceeds 2 GiB in one batch of rows";

// A large_string column's offsets from[0..n] rebased to from[0] into out[0..n], for reading
// rows [begin, begin + n) in place as int32 offsets over the bytes from from[0] on. False, with
// out untouched, when those rows hold more than INT32_MAX bytes.
inline bool RebaseLargeOffsets(const int64_t* from, size_t n, int32_t* out) {
  const int64_t base = from[0];
  if (from[n] - base > INT32_MAX) return false;
  for (size_t i = 0; i <= n; ++i) out[i] = static_cast<int32_t>(from[i] - base);
  return true;
}

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_STRING_CHUNKS_H_
