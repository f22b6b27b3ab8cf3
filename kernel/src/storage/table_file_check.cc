// RunColumnFileCheck: the checks open does not make because they read every byte of a column.
// The checksums catch accidental damage; the structural checks after them (which a file with
// recomputed checksums could still fail) keep kernels from reading out of bounds or meeting
// values their fast paths assume never occur.
#include "src/storage/table_file_check.h"

#include <string>

#include "laneql/bitmask.h"
#include "src/storage/checksum.h"

namespace laneql::internal {
namespace {

// The string offsets start at 0, never decrease and end at the data size.
template <class Offset>
bool CheckStringOffsets(const Offset* offsets, uint64_t length, uint64_t data_size,
                        std::string* why) {
  if (offsets[0] != 0) {
    *why = "string offsets start at " + std::to_string(offsets[0]) + ", not 0";
    return false;
  }
  bool decreasing = false;  // branch-free first pass; the row is found only on failure
  for (uint64_t i = 0; i < length; ++i) decreasing |= offsets[i + 1] < offsets[i];
  if (decreasing) {
    for (uint64_t i = 0; i < length; ++i) {
      if (offsets[i + 1] < offsets[i]) {
        *why = "string offsets decrease at row " + std::to_string(i);
        return false;
      }
    }
  }
  if (static_cast<uint64_t>(offsets[length]) != data_size) {
    *why = "string offsets end at " + std::to_string(offsets[length]) + ", the data has " +
           std::to_string(data_size) + " bytes";
    return false;
  }
  return true;
}

bool CheckBools(const uint8_t* values, uint64_t length, std::string* why) {
  uint8_t high_bits = 0;
  for (uint64_t i = 0; i < length; ++i) high_bits |= values[i];
  if ((high_bits & 0xFE) == 0) return true;
  for (uint64_t i = 0; i < length; ++i) {
    if (values[i] > 1) {
      *why = "bool value " + std::to_string(values[i]) + " at row " + std::to_string(i);
      return false;
    }
  }
  return true;
}

bool CheckValidity(const uint64_t* words, uint64_t length, uint64_t null_count,
                   std::string* why) {
  const uint64_t count = BitmaskWords(length);
  if ((words[count - 1] & ~BitmaskTailMask(length)) != 0) {
    *why = "validity bits past the last row are set";
    return false;
  }
  uint64_t valid = 0;
  for (uint64_t w = 0; w < count; ++w) {
    valid += static_cast<uint64_t>(__builtin_popcountll(words[w]));
  }
  if (length - valid != null_count) {
    *why = "the validity bitmap has " + std::to_string(length - valid) + " nulls, the directory " +
           "says " + std::to_string(null_count);
    return false;
  }
  return true;
}

// Everything about the column's bytes; *why says what is wrong.
bool CheckColumnBytes(const ColumnFileCheck& c, std::string* why) {
  for (int k = 0; k < kNumBufferKinds; ++k) {
    const ColumnFileCheck::Buffer& b = c.buffers[k];
    if (b.size == 0) continue;
    if (Checksum64(b.data, b.size) != b.checksum) {
      *why = std::string(kBufferKindNames[k]) + " checksum mismatch";
      return false;
    }
    uint8_t padding = 0;
    for (uint64_t i = b.size; i < b.capacity; ++i) padding |= b.data[i];
    if (padding != 0) {
      *why = std::string(kBufferKindNames[k]) + " padding is not zero";
      return false;
    }
  }
  const ColumnFileCheck::Buffer& values = c.buffers[kValuesBuffer];
  const ColumnFileCheck::Buffer& offsets = c.buffers[kOffsetsBuffer];
  const ColumnFileCheck::Buffer& validity = c.buffers[kValidityBuffer];
  // The reader has checked every buffer's size against the type and length, so these reads
  // stay inside the buffers.
  if (c.type == TypeId::kString && offsets.size != 0 &&
      !CheckStringOffsets(reinterpret_cast<const int32_t*>(offsets.data), c.length, values.size,
                          why)) {
    return false;
  }
  if (c.type == TypeId::kLargeString && offsets.size != 0 &&
      !CheckStringOffsets(reinterpret_cast<const int64_t*>(offsets.data), c.length, values.size,
                          why)) {
    return false;
  }
  if (c.type == TypeId::kBool && !CheckBools(values.data, c.length, why)) return false;
  if (validity.size != 0 &&
      !CheckValidity(reinterpret_cast<const uint64_t*>(validity.data), c.length, c.null_count,
                     why)) {
    return false;
  }
  return true;
}

}  // namespace

bool RunColumnFileCheck(const ColumnFileCheck& check, std::string* error) {
  std::call_once(check.once, [&check] {
    std::string why;
    check.ok = CheckColumnBytes(check, &why);
    if (!check.ok) {
      check.message = check.file + ": column '" + check.column + "' is corrupt (" + why + ")";
    }
  });
  if (!check.ok && error != nullptr) *error = check.message;
  return check.ok;
}

}  // namespace laneql::internal
