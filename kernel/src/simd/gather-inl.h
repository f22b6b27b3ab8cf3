// Gather / compress kernels, compiled once per SIMD target (Highway's per-target include
// pattern). The contracts are in laneql/gather.h; the scalar references spell them out.
//
// Compress works one 64-row mask word at a time: all-zero words are skipped, runs of all-one
// words become one memcpy, and the other words are compressed either a vector at a time
// (visiting only the vectors that hold a selected row) or one selected row at a time (count
// trailing zeros, clear the lowest bit). Which is faster depends on the target and the element
// width (see UseVectorCompress) and on the word: sparse words always take the row-at-a-time path.
// Output is never written past the last selected element: CompressBitsStore may store a whole
// vector, so it writes straight to `out` only while a whole vector still fits, and goes through a
// stack buffer for the last few elements.

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_GATHER_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_GATHER_INL_H_
#undef LANEQL_SIMD_GATHER_INL_H_
#else
#define LANEQL_SIMD_GATHER_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwy/highway.h"
#include "laneql/bitmask.h"
#include "laneql/gather.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Hardware gathers: x86 from AVX2 on. Elsewhere Highway emulates GatherIndex lane by lane,
// which is no faster than the plain loop.
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2
#define LANEQL_GATHER_HARDWARE 1
#else
#define LANEQL_GATHER_HARDWARE 0
#endif

HWY_INLINE size_t CountSelectedImpl(const uint64_t* HWY_RESTRICT mask, size_t n) {
  const size_t full = n / 64;
  size_t c0 = 0, c1 = 0;  // two chains: popcnt has a latency of 3 on most x86 cores
  size_t w = 0;
  for (; w + 2 <= full; w += 2) {
    c0 += hwy::PopCount(mask[w]);
    c1 += hwy::PopCount(mask[w + 1]);
  }
  if (w < full) c0 += hwy::PopCount(mask[w]);
  if (n % 64 != 0) c1 += hwy::PopCount(mask[full] & BitmaskTailMask(n));
  return c0 + c1;
}

// ------------------------------ fixed-width compress

// Whether the vector path beats the row-at-a-time one for T on this target (bench/gather_bench,
// 50 % selectivity, Sapphire Rapids). AVX-512 has native 32/64-bit compress (and 8/16-bit from
// AVX3_DL on; Highway's emulation on plain AVX3 still wins). On AVX2 only 32-bit lanes gain:
// 64-bit lanes compress four rows per table lookup and permute, and Highway emulates 8/16-bit
// compress with several shuffles per vector, both slower than the scalar loop. With 128-bit
// vectors only 16-bit lanes gain a little. Targets not measured (NEON, SVE, wasm) follow the
// 128-bit choice.
template <typename T>
constexpr bool UseVectorCompress() {
#if HWY_TARGET == HWY_SCALAR
  return false;
#elif HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  return true;
#elif HWY_ARCH_X86 && HWY_TARGET == HWY_AVX2
  return sizeof(T) == 4;
#else
  return sizeof(T) == 2;
#endif
}

// Copies one value. memcpy rather than assignment because the typed wrappers (gather.h) pass
// doubles, int64s, ... as uintN_t arrays: a byte copy is valid whatever the stored type (and
// compiles to the same single move).
template <typename T>
HWY_INLINE void CopyValue(T* HWY_RESTRICT dst, const T* HWY_RESTRICT src) {
  memcpy(dst, src, sizeof(T));
}

// One store per selected row of a mask word.
template <typename T>
HWY_INLINE T* CompressWordRows(const T* HWY_RESTRICT src, uint64_t bits, T* HWY_RESTRICT out) {
  for (; bits != 0; bits &= bits - 1) {
    CopyValue(out++, src + hwy::Num0BitsBelowLS1Bit_Nonzero64(bits));
  }
  return out;
}

// Compresses the rows of one mask word that has some (not all) bits set. `src` holds `rows`
// (<= 64) readable rows; `bits` has no bits at or above `rows`. Returns the new output end.
template <typename T>
HWY_INLINE T* CompressWord(const T* HWY_RESTRICT src, size_t rows, uint64_t bits,
                           T* HWY_RESTRICT out, T* const out_end) {
  if constexpr (!UseVectorCompress<T>()) {
    (void)rows;
    (void)out_end;
    return CompressWordRows(src, bits, out);
  } else {
    // At most 64 lanes, so a vector never spans two mask words (64 u8 lanes on AVX-512).
    const hn::CappedTag<T, 64> d;
    const size_t N = hn::Lanes(d);
    // Fewer selected rows than vectors in the word: row at a time is cheaper.
    if (hwy::PopCount(bits) * N <= 64) return CompressWordRows(src, bits, out);
    const uint64_t lane_bits = N >= 64 ? ~uint64_t{0} : (uint64_t{1} << N) - 1;
    while (bits != 0) {
      // The vector holding the lowest selected row; vectors without one are never loaded.
      const size_t k = hwy::Num0BitsBelowLS1Bit_Nonzero64(bits) / N * N;
      const uint64_t chunk = (bits >> k) & lane_bits;
      bits &= ~(lane_bits << k);
      const size_t avail = rows - k;  // > 0: row k + ctz(chunk) < rows is selected
      const auto v = avail >= N ? hn::LoadU(d, src + k) : hn::LoadN(d, src + k, avail);
      // Highway's mask-bit arrays are little-endian bytes: the word's bytes as stored (x86,
      // Arm, wasm and RISC-V are little-endian).
      uint8_t chunk_bytes[8];
      memcpy(chunk_bytes, &chunk, sizeof(chunk));
      if (static_cast<size_t>(out_end - out) >= N) {
        out += hn::CompressBitsStore(v, chunk_bytes, d, out);
      } else {
        HWY_ALIGN T buf[hn::MaxLanes(d)];
        const size_t count = hn::CompressBitsStore(v, chunk_bytes, d, buf);
        memcpy(out, buf, count * sizeof(T));
        out += count;
      }
    }
    return out;
  }
}

template <typename T>
HWY_INLINE size_t CompressImpl(const T* HWY_RESTRICT in, size_t n,
                               const uint64_t* HWY_RESTRICT mask, T* HWY_RESTRICT out) {
  T* const begin = out;
  T* const end = out + CountSelectedImpl(mask, n);
  const size_t full = n / 64;
  size_t w = 0;
  while (w < full) {
    const uint64_t bits = mask[w];
    if (bits == 0) {
      ++w;
    } else if (bits == ~uint64_t{0}) {
      // A run of whole selected words is one contiguous copy.
      size_t stop = w + 1;
      while (stop < full && mask[stop] == ~uint64_t{0}) ++stop;
      const size_t rows = (stop - w) * 64;
      memcpy(out, in + w * 64, rows * sizeof(T));
      out += rows;
      w = stop;
    } else {
      out = CompressWord(in + w * 64, 64, bits, out, end);
      ++w;
    }
  }
  if (n % 64 != 0) {
    const uint64_t bits = mask[full] & BitmaskTailMask(n);
    if (bits != 0) out = CompressWord(in + full * 64, n % 64, bits, out, end);
  }
  return static_cast<size_t>(out - begin);
}

// ------------------------------ fixed-width gather

template <typename T>
HWY_INLINE void GatherScalar(const T* HWY_RESTRICT in, const uint32_t* HWY_RESTRICT indices,
                             size_t count, T* HWY_RESTRICT out) {
  for (size_t j = 0; j < count; ++j) CopyValue(out + j, in + indices[j]);
}

HWY_INLINE void GatherU32Impl(const uint32_t* HWY_RESTRICT in,
                              const uint32_t* HWY_RESTRICT indices, size_t count,
                              uint32_t* HWY_RESTRICT out) {
  size_t j = 0;
#if LANEQL_GATHER_HARDWARE
  const hn::ScalableTag<uint32_t> d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  for (; j + N <= count; j += N) {
    const auto index = hn::BitCast(di, hn::LoadU(d, indices + j));
    // The instruction takes signed 32-bit indices: rows from 2^31 on go the scalar way.
    if (HWY_UNLIKELY(!hn::AllFalse(di, hn::Lt(index, hn::Zero(di))))) {
      GatherScalar(in, indices + j, N, out + j);
      continue;
    }
    hn::StoreU(hn::GatherIndex(d, in, index), d, out + j);
  }
#endif
  GatherScalar(in, indices + j, count - j, out + j);
}

HWY_INLINE void GatherU64Impl(const uint64_t* HWY_RESTRICT in,
                              const uint32_t* HWY_RESTRICT indices, size_t count,
                              uint64_t* HWY_RESTRICT out) {
  size_t j = 0;
#if LANEQL_GATHER_HARDWARE
  const hn::ScalableTag<uint64_t> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<uint32_t, decltype(d)> d32;  // half-width: one u32 index per u64 lane
  const size_t N = hn::Lanes(d);
  for (; j + N <= count; j += N) {
    // Zero-extended to 64 bits, so every uint32 index is a valid (non-negative) one.
    const auto index = hn::BitCast(di, hn::PromoteTo(d, hn::LoadU(d32, indices + j)));
    hn::StoreU(hn::GatherIndex(d, in, index), d, out + j);
  }
#endif
  GatherScalar(in, indices + j, count - j, out + j);
}

// 1- and 2-byte values: x86 has no 8/16-bit gather, so each lane gathers the 4 bytes that END
// with its value (offset idx * W + W - 4) and keeps the top W bytes (little-endian). Those bytes
// lie inside the column whenever idx * W >= 4 - W, i.e. idx >= 3 for bytes and >= 1 for 16-bit
// values; a vector with a smaller index (or an offset beyond int32) goes the scalar way. Unlike
// gathering the 4 bytes that START at the value, this never reads past the last row, whose
// position the kernel does not know. Only AVX-512 gains (16 lanes: ~1.7x the scalar loop on
// cache-resident data); with AVX2's 8 lanes it merely ties with the scalar loop.
template <typename T>
HWY_INLINE void GatherNarrowImpl(const T* HWY_RESTRICT in, const uint32_t* HWY_RESTRICT indices,
                                 size_t count, T* HWY_RESTRICT out) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2, "narrow values only");
  size_t j = 0;
#if LANEQL_GATHER_HARDWARE && HWY_TARGET <= HWY_AVX3
  constexpr uint32_t kW = sizeof(T);
  constexpr uint32_t kMinIndex = (4 - kW + kW - 1) / kW;  // 3 for bytes, 1 for 16-bit
  const hn::ScalableTag<uint32_t> d;
  const hn::RebindToSigned<decltype(d)> di;
  const hn::Rebind<T, decltype(d)> dt;  // one narrow value per 32-bit lane
  const size_t N = hn::Lanes(d);
  const auto min_index = hn::Set(d, kMinIndex);
  const auto max_index = hn::Set(d, uint32_t{0x7FFFFFFF} / kW);  // offsets stay in int32
  const uint32_t* HWY_RESTRICT words = reinterpret_cast<const uint32_t*>(in);
  for (; j + N <= count; j += N) {
    const auto index = hn::LoadU(d, indices + j);
    const auto ok = hn::And(hn::Ge(index, min_index), hn::Le(index, max_index));
    if (HWY_UNLIKELY(!hn::AllTrue(d, ok))) {
      GatherScalar(in, indices + j, N, out + j);
      continue;
    }
    const auto offset = hn::Sub(hn::Mul(index, hn::Set(d, kW)), hn::Set(d, 4 - kW));
    const auto word = hn::GatherOffset(d, words, hn::BitCast(di, offset));
    hn::StoreU(hn::TruncateTo(dt, hn::ShiftRight<32 - 8 * kW>(word)), dt, out + j);
  }
#endif
  GatherScalar(in, indices + j, count - j, out + j);
}

// ------------------------------ bitmasks

// The bits of `value` at the set positions of `select`, packed to the bottom (x86 PEXT).
HWY_INLINE uint64_t ExtractBits(uint64_t value, uint64_t select) {
#if HWY_ARCH_X86_64 && HWY_TARGET <= HWY_AVX3 && !defined(HWY_DISABLE_BMI2_FMA)
  // AVX3 targets only: every AVX-512 CPU has a fast PEXT, while the AVX2 target also runs on
  // AMD Zen 1/2, where PEXT is microcoded and slow.
  return _pext_u64(value, select);
#else
  uint64_t packed = 0;
  for (size_t k = 0; select != 0; ++k, select &= select - 1) {
    if (value & select & (~select + 1)) packed |= uint64_t{1} << k;
  }
  return packed;
#endif
}

HWY_INLINE void CompressBitmaskImpl(const uint64_t* HWY_RESTRICT bits, size_t n,
                                    const uint64_t* HWY_RESTRICT mask,
                                    uint64_t* HWY_RESTRICT out) {
  uint64_t pending = 0;  // output bits not yet stored, from bit 0
  size_t filled = 0;     // how many (< 64)
  for (size_t w = 0; w < BitmaskWords(n); ++w) {
    uint64_t select = mask[w];
    if (w + 1 == BitmaskWords(n)) select &= BitmaskTailMask(n);
    if (select == 0) continue;
    const uint64_t packed = ExtractBits(bits[w], select);
    const size_t count = hwy::PopCount(select);
    pending |= packed << filled;
    if (filled + count >= 64) {
      *out++ = pending;
      pending = filled == 0 ? 0 : packed >> (64 - filled);
      filled = filled + count - 64;
    } else {
      filled += count;
    }
  }
  if (filled != 0) *out = pending;
}

HWY_INLINE void GatherBitmaskImpl(const uint64_t* HWY_RESTRICT bits,
                                  const uint32_t* HWY_RESTRICT indices, size_t count,
                                  uint64_t* HWY_RESTRICT out) {
  for (size_t begin = 0; begin < count; begin += 64) {
    const size_t stop = HWY_MIN(count, begin + 64);
    uint64_t word = 0;
    for (size_t j = begin; j < stop; ++j) {
      const uint32_t row = indices[j];
      word |= ((bits[row / 64] >> (row % 64)) & 1) << (j - begin);
    }
    out[begin / 64] = word;
  }
}

// ------------------------------ strings

// out[i] = in[i] + delta for i < count, wrapping (valid offsets never wrap).
HWY_INLINE void AddToOffsets(const int32_t* HWY_RESTRICT in, size_t count, int32_t delta,
                             int32_t* HWY_RESTRICT out) {
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  const hn::ScalableTag<int32_t> d;
  const size_t N = hn::Lanes(d);
  const auto vdelta = hn::Set(d, delta);
  for (; i + N <= count; i += N) hn::StoreU(hn::Add(hn::LoadU(d, in + i), vdelta), d, out + i);
#endif
  for (; i < count; ++i) {
    out[i] = static_cast<int32_t>(static_cast<uint32_t>(in[i]) + static_cast<uint32_t>(delta));
  }
}

// Exact copy of `length` bytes by fixed-size pieces the compiler turns into one or two moves:
// cheaper than a memcpy call for the short strings typical of a column.
HWY_INLINE void CopyBytesExact(uint8_t* HWY_RESTRICT dst, const uint8_t* HWY_RESTRICT src,
                               size_t length) {
  if (length >= 16) {
    if (length > 64) {
      memcpy(dst, src, length);
      return;
    }
    for (size_t i = 0; i + 16 < length; i += 16) memcpy(dst + i, src + i, 16);
    memcpy(dst + length - 16, src + length - 16, 16);  // the last 16, overlapping
  } else if (length >= 8) {
    memcpy(dst, src, 8);
    memcpy(dst + length - 8, src + length - 8, 8);
  } else if (length >= 4) {
    memcpy(dst, src, 4);
    memcpy(dst + length - 4, src + length - 4, 4);
  } else if (length != 0) {
    dst[0] = src[0];
    dst[length / 2] = src[length / 2];
    dst[length - 1] = src[length - 1];
  }
}

// Appends one row's bytes at `dst`. Rows are written in output order, so copying whole 32-byte
// pieces (up to 31 bytes too many) is harmless while both pieces stay inside their buffers: the
// next row overwrites the excess. Near either end the copy is exact.
HWY_INLINE void CopyRowBytes(uint8_t* HWY_RESTRICT dst, const uint8_t* dst_end,
                             const uint8_t* HWY_RESTRICT src, const uint8_t* src_end,
                             size_t length) {
  constexpr size_t kPiece = 32;
  const size_t rounded = (length + kPiece - 1) & ~(kPiece - 1);
  if (HWY_LIKELY(rounded <= static_cast<size_t>(src_end - src) &&
                 rounded <= static_cast<size_t>(dst_end - dst))) {
    for (size_t i = 0; i < length; i += kPiece) memcpy(dst + i, src + i, kPiece);
  } else {
    CopyBytesExact(dst, src, length);
  }
}

HWY_INLINE int64_t CompressStringOffsetsImpl(const int32_t* HWY_RESTRICT offsets, size_t n,
                                             const uint64_t* HWY_RESTRICT mask,
                                             int32_t* HWY_RESTRICT out_offsets) {
  int64_t bytes = 0;  // valid offsets keep this within int32; 64 bits keeps garbage defined
  out_offsets[0] = 0;
  int32_t* out = out_offsets + 1;
  const size_t words = BitmaskWords(n);
  for (size_t w = 0; w < words; ++w) {
    uint64_t bits = mask[w];
    if (w + 1 == words) bits &= BitmaskTailMask(n);
    const int32_t* o = offsets + w * 64;
    if (bits == ~uint64_t{0}) {
      // A whole word of rows: the input offsets shifted by one constant, a vector at a time.
      AddToOffsets(o + 1, 64, static_cast<int32_t>(bytes - o[0]), out);
      out += 64;
      bytes += o[64] - o[0];
      continue;
    }
    for (; bits != 0; bits &= bits - 1) {
      const size_t i = hwy::Num0BitsBelowLS1Bit_Nonzero64(bits);
      bytes += o[i + 1] - o[i];
      *out++ = static_cast<int32_t>(static_cast<uint32_t>(bytes));
    }
  }
  return bytes;
}

HWY_INLINE void CompressStringDataImpl(const int32_t* HWY_RESTRICT offsets,
                                       const uint8_t* HWY_RESTRICT data, size_t n,
                                       const uint64_t* HWY_RESTRICT mask,
                                       uint8_t* HWY_RESTRICT out_data, size_t out_bytes) {
  if (n == 0) return;
  const uint8_t* const data_end = data + offsets[n];
  const uint8_t* const out_end = out_data + out_bytes;
  const size_t words = BitmaskWords(n);
  for (size_t w = 0; w < words; ++w) {
    uint64_t bits = mask[w];
    if (w + 1 == words) bits &= BitmaskTailMask(n);
    if (bits == ~uint64_t{0}) {
      // Consecutive whole words of rows are one contiguous byte range.
      size_t stop = w + 1;
      while (stop + 1 < words && mask[stop] == ~uint64_t{0}) ++stop;  // never the tail word
      const size_t bytes = static_cast<size_t>(offsets[stop * 64] - offsets[w * 64]);
      memcpy(out_data, data + offsets[w * 64], bytes);
      out_data += bytes;
      w = stop - 1;
      continue;
    }
    const int32_t* o = offsets + w * 64;
    for (; bits != 0; bits &= bits - 1) {
      const size_t i = hwy::Num0BitsBelowLS1Bit_Nonzero64(bits);
      const size_t length = static_cast<size_t>(o[i + 1] - o[i]);
      CopyRowBytes(out_data, out_end, data + o[i], data_end, length);
      out_data += length;
    }
  }
}

HWY_INLINE int64_t GatherStringOffsetsImpl(const int32_t* HWY_RESTRICT offsets,
                                           const uint32_t* HWY_RESTRICT indices, size_t count,
                                           int32_t* HWY_RESTRICT out_offsets) {
  int64_t bytes = 0;  // 64 bits: repeated rows can add up to more than int32 holds
  out_offsets[0] = 0;
  for (size_t j = 0; j < count; ++j) {
    const uint32_t row = indices[j];
    bytes += offsets[row + 1] - offsets[row];
    out_offsets[j + 1] = static_cast<int32_t>(static_cast<uint32_t>(bytes));
  }
  return bytes > INT32_MAX ? kStringBytesOverflow : bytes;
}

HWY_INLINE void GatherStringDataImpl(const int32_t* HWY_RESTRICT offsets,
                                     const uint8_t* HWY_RESTRICT data, size_t data_bytes,
                                     const uint32_t* HWY_RESTRICT indices, size_t count,
                                     uint8_t* HWY_RESTRICT out_data, size_t out_bytes) {
  const uint8_t* const data_end = data + data_bytes;
  const uint8_t* const out_end = out_data + out_bytes;
  // Random rows are latency-bound (two dependent cache misses each): the first two lines of the
  // string a dozen rows ahead are prefetched (its offset is in cache: GatherStringOffsets has
  // just read it). 14 % of 10 M rows, in batches: URL 28 -> 24.5 ms, Title 24.5 -> 20 ms on AMD
  // EPYC (Zen 4); earlier it had not measurably helped on Sapphire Rapids. A hint: an address
  // past the data does not fault.
  // Non-temporal (locality 0; hwy::Prefetch is "keep in every level"): each line is read once,
  // right after, and lines kept in the shared L3 pushed out the hash table that the gathered
  // keys are then looked up in, more so with two threads gathering. GROUP BY URL behind Q36's
  // WHERE (60,000 groups): 37.6 -> 34-35.6 ms on 2 threads, 61-63 -> 59-60 ms on 1 (medians of
  // 11, interleaved, three rounds each).
  constexpr size_t kAhead = 12;
  for (size_t j = 0; j < count; ++j) {
    if (j + kAhead < count) {
      const uint8_t* ahead = data + offsets[indices[j + kAhead]];
      __builtin_prefetch(ahead, /*rw=*/0, /*locality=*/0);
      __builtin_prefetch(ahead + 64, /*rw=*/0, /*locality=*/0);
    }
    const uint32_t row = indices[j];
    const size_t length = static_cast<size_t>(offsets[row + 1] - offsets[row]);
    CopyRowBytes(out_data, out_end, data + offsets[row], data_end, length);
    out_data += length;
  }
}

#undef LANEQL_GATHER_HARDWARE

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_GATHER_INL_H_
