// The 64-bit checksum of .laneql files: fast enough (several GB/s) to check a column the first
// time a query reads it, and guaranteed to change when any single 8-byte word of the input
// changes (so any one flipped bit, or several within one word), which is the kind of damage a
// bad disk block, a torn write or a truncated copy does. It is not cryptographic: it detects
// accidents, not forgeries, which is why the reader also checks the structure of what it maps.
#ifndef LANEQL_STORAGE_CHECKSUM_H_
#define LANEQL_STORAGE_CHECKSUM_H_

#include <cstddef>
#include <cstdint>

namespace laneql::internal {

// The checksum of `size` bytes at `data` (data may be null when size is 0). Any alignment.
uint64_t Checksum64(const void* data, size_t size);

}  // namespace laneql::internal

#endif  // LANEQL_STORAGE_CHECKSUM_H_
