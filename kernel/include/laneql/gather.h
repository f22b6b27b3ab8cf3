// Gather and compress: materialise selected rows (projection after a filter, building the key
// and value arrays that feed hash tables). SIMD kernels dispatched at run time, plus the plain
// scalar references they are tested against.
//
// Fixed-width values move as bit patterns of 1, 2, 4 or 8 bytes (uint8/16/32/64), so every
// fixed-width column type reuses them: int32, float32 and date32 through the 4-byte kernels,
// int64, float64 and timestamps through the 8-byte ones (bits are copied, never converted: NaN
// payloads and -0.0 survive). The typed templates Compress / Gather at the end pick the width.
//
// Selections come in two shapes:
//  - a row mask (laneql/bitmask.h: row i = bit i % 64 of word i / 64) over n input rows, as the
//    predicate kernels produce it. Bits at rows >= n are ignored (they are 0 by convention);
//  - a selection vector: `count` uint32 row indices, in any order, repeats allowed.
//
// Buffers: no kernel reads or writes outside [in, in + n) / the rows named by the selection,
// and the outputs get exactly the documented number of elements or bytes: an output buffer of
// exactly that size is enough (no padding needed). Inputs and outputs may be unaligned; outputs
// must not overlap inputs.
#ifndef LANEQL_GATHER_H_
#define LANEQL_GATHER_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace laneql {

// Set bits among the first n rows of `mask`: the number of rows a Compress* call writes.
size_t CompressCount(const uint64_t* mask, size_t n);

// --- Compress by row mask: out[k] = in[i] for the k-th set bit i, in row order ---
// `out` has room for exactly CompressCount(mask, n) elements; returns that count.
size_t CompressU8(const uint8_t* in, size_t n, const uint64_t* mask, uint8_t* out);
size_t CompressU16(const uint16_t* in, size_t n, const uint64_t* mask, uint16_t* out);
size_t CompressU32(const uint32_t* in, size_t n, const uint64_t* mask, uint32_t* out);
size_t CompressU64(const uint64_t* in, size_t n, const uint64_t* mask, uint64_t* out);

// --- Gather by selection vector: out[j] = in[indices[j]] for j < count ---
// Every index must be a valid row of `in`.
void GatherU8(const uint8_t* in, const uint32_t* indices, size_t count, uint8_t* out);
void GatherU16(const uint16_t* in, const uint32_t* indices, size_t count, uint16_t* out);
void GatherU32(const uint32_t* in, const uint32_t* indices, size_t count, uint32_t* out);
void GatherU64(const uint64_t* in, const uint32_t* indices, size_t count, uint64_t* out);

// --- Row bitmasks (validity) through the same selections ---
// out gets BitmaskWords(CompressCount(mask, n)) words, all overwritten (bits past the last
// output row are 0): bit k = bit i of `bits` for the k-th selected row i.
void CompressBitmask(const uint64_t* bits, size_t n, const uint64_t* mask, uint64_t* out);
// out gets BitmaskWords(count) words, all overwritten: bit j = bit indices[j] of `bits`.
void GatherBitmask(const uint64_t* bits, const uint32_t* indices, size_t count, uint64_t* out);

// --- Strings (Arrow utf8: n + 1 int32 offsets, row i = data[offsets[i], offsets[i + 1])) ---
// Two passes, so the caller can size the byte buffer exactly:
//  1. *StringOffsets writes the output offsets (selected rows + 1 entries, starting at 0) and
//     returns the output byte count;
//  2. *StringData copies the selected rows' bytes into `out_data`; `out_bytes` is that count
//     (out_data's size, which is all it needs). The copy moves short rows in whole 32-byte
//     pieces where both buffers have room for them, and exactly near their ends.
// offsets[0] need not be 0 (a slice). Compress reads no byte outside [offsets[0], offsets[n]);
// gather reads none outside [0, data_bytes), where data_bytes covers every selected row (pass
// the byte buffer's size, or an AlignedBuffer's capacity to let more rows take the fast path).
// Returned by GatherStringOffsets when the output would exceed 2^31 - 1 bytes (repeated indices
// can make it larger than the input); out_offsets is then unspecified and the caller needs
// large_string (int64) offsets.
inline constexpr int64_t kStringBytesOverflow = -1;
int64_t CompressStringOffsets(const int32_t* offsets, size_t n, const uint64_t* mask,
                              int32_t* out_offsets);
void CompressStringData(const int32_t* offsets, const uint8_t* data, size_t n,
                        const uint64_t* mask, uint8_t* out_data, size_t out_bytes);
int64_t GatherStringOffsets(const int32_t* offsets, const uint32_t* indices, size_t count,
                            int32_t* out_offsets);
void GatherStringData(const int32_t* offsets, const uint8_t* data, size_t data_bytes,
                      const uint32_t* indices, size_t count, uint8_t* out_data,
                      size_t out_bytes);

// --- Width-erased forms (width = 1, 2, 4 or 8 bytes), for code that holds a TypeId ---
size_t CompressFixed(size_t width, const void* in, size_t n, const uint64_t* mask, void* out);
void GatherFixed(size_t width, const void* in, const uint32_t* indices, size_t count, void* out);

// --- Typed forms for any trivially copyable T of 1, 2, 4 or 8 bytes (int64_t, double, ...) ---
template <class T>
size_t Compress(const T* in, size_t n, const uint64_t* mask, T* out) {
  static_assert(std::is_trivially_copyable_v<T>, "values move as bit patterns");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "1, 2, 4 or 8-byte values");
  return CompressFixed(sizeof(T), in, n, mask, out);
}
template <class T>
void Gather(const T* in, const uint32_t* indices, size_t count, T* out) {
  static_assert(std::is_trivially_copyable_v<T>, "values move as bit patterns");
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "1, 2, 4 or 8-byte values");
  GatherFixed(sizeof(T), in, indices, count, out);
}

namespace reference {
// Plain scalar code, no Highway: the definitions the kernels are tested against.
size_t CompressCount(const uint64_t* mask, size_t n);
size_t CompressU8(const uint8_t* in, size_t n, const uint64_t* mask, uint8_t* out);
size_t CompressU16(const uint16_t* in, size_t n, const uint64_t* mask, uint16_t* out);
size_t CompressU32(const uint32_t* in, size_t n, const uint64_t* mask, uint32_t* out);
size_t CompressU64(const uint64_t* in, size_t n, const uint64_t* mask, uint64_t* out);
void GatherU8(const uint8_t* in, const uint32_t* indices, size_t count, uint8_t* out);
void GatherU16(const uint16_t* in, const uint32_t* indices, size_t count, uint16_t* out);
void GatherU32(const uint32_t* in, const uint32_t* indices, size_t count, uint32_t* out);
void GatherU64(const uint64_t* in, const uint32_t* indices, size_t count, uint64_t* out);
void CompressBitmask(const uint64_t* bits, size_t n, const uint64_t* mask, uint64_t* out);
void GatherBitmask(const uint64_t* bits, const uint32_t* indices, size_t count, uint64_t* out);
int64_t CompressStringOffsets(const int32_t* offsets, size_t n, const uint64_t* mask,
                              int32_t* out_offsets);
void CompressStringData(const int32_t* offsets, const uint8_t* data, size_t n,
                        const uint64_t* mask, uint8_t* out_data, size_t out_bytes);
int64_t GatherStringOffsets(const int32_t* offsets, const uint32_t* indices, size_t count,
                            int32_t* out_offsets);
void GatherStringData(const int32_t* offsets, const uint8_t* data, size_t data_bytes,
                      const uint32_t* indices, size_t count, uint8_t* out_data,
                      size_t out_bytes);
}  // namespace reference

}  // namespace laneql

#endif  // LANEQL_GATHER_H_
