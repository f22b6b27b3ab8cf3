// The Bloom filter test kernel (laneql/bloom_filter.h), compiled once per SIMD target: a
// vector of hashes at a time, their blocks gathered, each lane's key bits made by per-lane
// shifts, one compare, and the lanes' verdicts stored as bits.
// (On wasm the scalar loop alone: see BloomFilterTestImpl.)

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_BLOOM_FILTER_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_BLOOM_FILTER_INL_H_
#undef LANEQL_SIMD_BLOOM_FILTER_INL_H_
#else
#define LANEQL_SIMD_BLOOM_FILTER_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwy/highway.h"
#include "laneql/bloom_filter.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// At most 64 lanes, so one vector's bits land in one hits word (lane counts are powers of two,
// so vectors starting at multiples of the lane count never straddle two words).
using BloomTag = hn::CappedTag<uint64_t, 64>;

HWY_INLINE void BloomFilterTestImpl(const uint64_t* HWY_RESTRICT words, int shift,
                                    const uint64_t* HWY_RESTRICT hashes, size_t n,
                                    uint64_t* HWY_RESTRICT hits) {
  memset(hits, 0, (n + 63) / 64 * sizeof(uint64_t));
  size_t i = 0;
#if HWY_TARGET != HWY_WASM && HWY_TARGET != HWY_WASM_EMU256
  // Not on wasm: it has no 64-bit gather and no per-lane 64-bit shift, and their lane-by-lane
  // emulation made the vector loop about 3 times slower than the scalar one below (TPC-H Q17's
  // probe of 6 M lineitem rows in Node: 66 -> 23 ms a run in this function, node --cpu-prof).
  const BloomTag d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  const auto one = hn::Set(d, uint64_t{1});
  const auto low6 = hn::Set(d, uint64_t{63});
  for (; i + N <= n; i += N) {
    const auto h = hn::LoadU(d, hashes + i);
    const auto block = hn::ShiftRightSame(h, shift);
    const auto word = hn::GatherIndex(d, words, hn::BitCast(di, block));
    const auto bits = hn::Or(hn::Or(hn::Shl(one, hn::And(hn::ShiftRight<kBloomBitShifts[0]>(h), low6)),
                                    hn::Shl(one, hn::And(hn::ShiftRight<kBloomBitShifts[1]>(h), low6))),
                             hn::Shl(one, hn::And(hn::ShiftRight<kBloomBitShifts[2]>(h), low6)));
    const auto hit = hn::Eq(hn::And(word, bits), bits);
    uint8_t bytes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    hn::StoreMaskBits(d, hit, bytes);
    uint64_t lane_bits = 0;
    for (int b = 7; b >= 0; --b) lane_bits = (lane_bits << 8) | bytes[b];
    hits[i / 64] |= lane_bits << (i % 64);
  }
#endif
  for (; i < n; ++i) {
    const uint64_t bits = BloomKeyBits(hashes[i]);
    if ((words[BloomBlock(hashes[i], shift)] & bits) == bits) hits[i / 64] |= uint64_t{1} << (i % 64);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_BLOOM_FILTER_INL_H_
