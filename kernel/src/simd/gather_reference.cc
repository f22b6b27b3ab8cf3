// Scalar references for the gather / compress kernels: one row at a time, straight from the
// definitions in laneql/gather.h. No Highway, no word-level tricks, so a bug in a kernel's fast
// path cannot hide in a shared helper.
#include <cstring>
#include <limits>

#include "laneql/bitmask.h"
#include "laneql/gather.h"

namespace laneql {
namespace reference {
namespace {

template <class T>
size_t CompressRows(const T* in, size_t n, const uint64_t* mask, T* out) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    if (BitmaskGet(mask, i)) out[k++] = in[i];
  }
  return k;
}

template <class T>
void GatherRows(const T* in, const uint32_t* indices, size_t count, T* out) {
  for (size_t j = 0; j < count; ++j) out[j] = in[indices[j]];
}

void SetBit(uint64_t* words, size_t row, bool value) {
  if (value) BitmaskSet(words, row);
}

}  // namespace

size_t CompressCount(const uint64_t* mask, size_t n) {
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) count += BitmaskGet(mask, i);
  return count;
}

size_t CompressU8(const uint8_t* in, size_t n, const uint64_t* mask, uint8_t* out) {
  return CompressRows(in, n, mask, out);
}
size_t CompressU16(const uint16_t* in, size_t n, const uint64_t* mask, uint16_t* out) {
  return CompressRows(in, n, mask, out);
}
size_t CompressU32(const uint32_t* in, size_t n, const uint64_t* mask, uint32_t* out) {
  return CompressRows(in, n, mask, out);
}
size_t CompressU64(const uint64_t* in, size_t n, const uint64_t* mask, uint64_t* out) {
  return CompressRows(in, n, mask, out);
}

void GatherU8(const uint8_t* in, const uint32_t* indices, size_t count, uint8_t* out) {
  GatherRows(in, indices, count, out);
}
void GatherU16(const uint16_t* in, const uint32_t* indices, size_t count, uint16_t* out) {
  GatherRows(in, indices, count, out);
}
void GatherU32(const uint32_t* in, const uint32_t* indices, size_t count, uint32_t* out) {
  GatherRows(in, indices, count, out);
}
void GatherU64(const uint64_t* in, const uint32_t* indices, size_t count, uint64_t* out) {
  GatherRows(in, indices, count, out);
}

void CompressBitmask(const uint64_t* bits, size_t n, const uint64_t* mask, uint64_t* out) {
  const size_t count = CompressCount(mask, n);
  for (size_t w = 0; w < BitmaskWords(count); ++w) out[w] = 0;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i) {
    if (BitmaskGet(mask, i)) SetBit(out, k++, BitmaskGet(bits, i));
  }
}

void GatherBitmask(const uint64_t* bits, const uint32_t* indices, size_t count, uint64_t* out) {
  for (size_t w = 0; w < BitmaskWords(count); ++w) out[w] = 0;
  for (size_t j = 0; j < count; ++j) SetBit(out, j, BitmaskGet(bits, indices[j]));
}

int64_t CompressStringOffsets(const int32_t* offsets, size_t n, const uint64_t* mask,
                              int32_t* out_offsets) {
  int64_t bytes = 0;
  size_t k = 0;
  out_offsets[0] = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!BitmaskGet(mask, i)) continue;
    bytes += offsets[i + 1] - offsets[i];
    out_offsets[++k] = static_cast<int32_t>(bytes);
  }
  return bytes;
}

void CompressStringData(const int32_t* offsets, const uint8_t* data, size_t n,
                        const uint64_t* mask, uint8_t* out_data, size_t /*out_bytes*/) {
  for (size_t i = 0; i < n; ++i) {
    if (!BitmaskGet(mask, i)) continue;
    const size_t length = static_cast<size_t>(offsets[i + 1] - offsets[i]);
    if (length != 0) std::memcpy(out_data, data + offsets[i], length);
    out_data += length;
  }
}

int64_t GatherStringOffsets(const int32_t* offsets, const uint32_t* indices, size_t count,
                            int32_t* out_offsets) {
  int64_t bytes = 0;
  out_offsets[0] = 0;
  for (size_t j = 0; j < count; ++j) {
    bytes += offsets[indices[j] + 1] - offsets[indices[j]];
    if (bytes > std::numeric_limits<int32_t>::max()) return kStringBytesOverflow;
    out_offsets[j + 1] = static_cast<int32_t>(bytes);
  }
  return bytes;
}

void GatherStringData(const int32_t* offsets, const uint8_t* data, size_t /*data_bytes*/,
                      const uint32_t* indices, size_t count, uint8_t* out_data,
                      size_t /*out_bytes*/) {
  for (size_t j = 0; j < count; ++j) {
    const uint32_t row = indices[j];
    const size_t length = static_cast<size_t>(offsets[row + 1] - offsets[row]);
    if (length != 0) std::memcpy(out_data, data + offsets[row], length);
    out_data += length;
  }
}

}  // namespace reference
}  // namespace laneql
