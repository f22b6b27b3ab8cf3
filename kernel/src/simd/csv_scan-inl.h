// CSV structural scan, compiled once per SIMD target (Highway's per-target include pattern).
// A 64-byte block is 64 / Lanes vectors; each vector's comparisons become mask bits that are
// shifted into the block's 64-bit words. The last partial block is copied into a zeroed local
// block so that no load reads past the input; its bits past the end are cleared afterwards (a
// zero byte could equal a zero delimiter or quote).

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_CSV_SCAN_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_CSV_SCAN_INL_H_
#undef LANEQL_SIMD_CSV_SCAN_INL_H_
#else
#define LANEQL_SIMD_CSV_SCAN_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwy/highway.h"
#include "laneql/csv_scan.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// At most 64 lanes, so one vector's mask fits a uint64_t and a block is a whole number of
// vectors (all widths are powers of two).
using CsvByteTag = hn::CappedTag<uint8_t, 64>;

template <class D>
HWY_INLINE uint64_t CsvMaskBits(D d, hn::MFromD<D> m) {
  uint8_t bytes[8] = {};
  hn::StoreMaskBits(d, m, bytes);
  uint64_t bits = 0;
  for (size_t i = 0; i < 8; ++i) bits |= uint64_t{bytes[i]} << (8 * i);
  const size_t lanes = hn::Lanes(d);
  return lanes >= 64 ? bits : bits & ((uint64_t{1} << lanes) - 1);
}

// One full 64-byte block at `p`.
HWY_INLINE CsvBlockMasks CsvScanOneBlock(const uint8_t* HWY_RESTRICT p, uint8_t delimiter,
                                         uint8_t quote) {
  const CsvByteTag d;
  const size_t lanes = hn::Lanes(d);
  const auto vquote = hn::Set(d, quote);
  const auto vdelim = hn::Set(d, delimiter);
  const auto vnewline = hn::Set(d, static_cast<uint8_t>('\n'));
  const auto vhigh = hn::Set(d, static_cast<uint8_t>(0x80));
  CsvBlockMasks m;
  for (size_t i = 0; i < 64; i += lanes) {
    const auto v = hn::LoadU(d, p + i);
    m.quotes |= CsvMaskBits(d, hn::Eq(v, vquote)) << i;
    m.delimiters |= CsvMaskBits(d, hn::Eq(v, vdelim)) << i;
    m.newlines |= CsvMaskBits(d, hn::Eq(v, vnewline)) << i;
    m.non_ascii |= CsvMaskBits(d, hn::Ge(v, vhigh)) << i;
  }
  return m;
}

HWY_INLINE void CsvScanBlocksImpl(const uint8_t* HWY_RESTRICT data, size_t n, uint8_t delimiter,
                                  uint8_t quote, CsvBlockMasks* HWY_RESTRICT out) {
  const size_t full = n / 64;
  for (size_t b = 0; b < full; ++b) out[b] = CsvScanOneBlock(data + 64 * b, delimiter, quote);
  const size_t tail = n % 64;
  if (tail == 0) return;
  HWY_ALIGN uint8_t last[64] = {};
  memcpy(last, data + 64 * full, tail);
  CsvBlockMasks m = CsvScanOneBlock(last, delimiter, quote);
  const uint64_t keep = (uint64_t{1} << tail) - 1;
  m.quotes &= keep;
  m.delimiters &= keep;
  m.newlines &= keep;
  m.non_ascii &= keep;
  out[full] = m;
}

HWY_INLINE size_t CsvCountByteImpl(const uint8_t* HWY_RESTRICT data, size_t n, uint8_t byte) {
  const CsvByteTag d;
  const size_t lanes = hn::Lanes(d);
  const auto vbyte = hn::Set(d, byte);
  size_t count = 0;
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    count += hn::CountTrue(d, hn::Eq(hn::LoadU(d, data + i), vbyte));
  }
  for (; i < n; ++i) count += data[i] == byte ? 1 : 0;
  return count;
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
