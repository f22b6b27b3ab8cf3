// String kernels, compiled once per SIMD target (Highway's per-target include pattern).
//
// The substring search scans the column's whole byte buffer once, not row by row: rows of URLs
// are a few dozen bytes, too short for a per-row SIMD loop to pay off, while one long scan runs at
// memory speed and only touches the offsets when a candidate survives the prefilter.
// Every load stays inside [offsets[0], offsets[n]): vector loops stop a vector short of the end
// and scalar tails finish, so no input needs padding (ASan-clean).

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_STRING_MATCH_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_STRING_MATCH_INL_H_
#undef LANEQL_SIMD_STRING_MATCH_INL_H_
#else
#define LANEQL_SIMD_STRING_MATCH_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <algorithm>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "laneql/bitmask.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// At most 64 lanes, so that one mask always fits in a uint64_t of bits (scalable vectors may be
// wider). All widths are powers of two, so 64 is a whole number of vectors.
using StrByteTag = hn::CappedTag<uint8_t, 64>;
using StrI32Tag = hn::CappedTag<int32_t, 64>;
using StrI64Tag = hn::CappedTag<int64_t, 64>;

// Mask lane i -> bit i.
template <class D>
HWY_INLINE uint64_t StrMaskBits(D d, hn::MFromD<D> m) {
  uint8_t bytes[8] = {};
  hn::StoreMaskBits(d, m, bytes);
  uint64_t bits = 0;
  for (size_t i = 0; i < 8; ++i) bits |= uint64_t{bytes[i]} << (8 * i);
  const size_t lanes = hn::Lanes(d);
  return lanes >= 64 ? bits : bits & ((uint64_t{1} << lanes) - 1);
}

// Software prefetch kStrPrefetchAhead bytes past the [p, p + bytes) a scan step reads (clamped to
// the buffer). The hardware prefetcher alone left the substring scan ~15 % short of the memchr
// probe: branch mispredictions on candidates stall the stream; 4 KiB ahead recovers most of it.
constexpr size_t kStrPrefetchAhead = 4096;
HWY_INLINE void StrPrefetchAhead(const uint8_t* HWY_RESTRICT data, size_t p, size_t bytes,
                                 size_t end) {
  for (size_t line = 0; line < bytes; line += 64) {
    hwy::Prefetch(data + HWY_MIN(p + line + kStrPrefetchAhead, end - 1));
  }
}

// Maps byte positions of the buffer to rows. Positions must come in non-decreasing order (hits
// of a left-to-right scan do): it gallops forward from the last row, then bisects, so a dense run
// of hits costs a step each and a hit far away costs a logarithm, never a walk over every row.
class StrRowCursor {
 public:
  StrRowCursor(const int32_t* HWY_RESTRICT offsets, size_t n) : offsets_(offsets), n_(n) {}

  // The row r with offsets[r] <= pos < offsets[r + 1] (so never an empty row), for
  // offsets[0] <= pos < offsets[n].
  size_t Seek(size_t pos) {
    size_t lo = row_ + 1;
    if (At(lo) > pos) return row_;
    size_t step = 1, hi = lo + 1;  // invariant: At(lo) <= pos
    while (hi <= n_ && At(hi) <= pos) {
      lo = hi;
      step *= 2;
      hi = lo + step;
    }
    if (hi > n_) hi = n_;  // At(n) > pos
    while (hi - lo > 1) {
      const size_t mid = lo + (hi - lo) / 2;
      if (At(mid) <= pos) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    row_ = lo;
    return lo;
  }

 private:
  size_t At(size_t i) const { return static_cast<size_t>(offsets_[i]); }
  const int32_t* HWY_RESTRICT offsets_;
  size_t n_;
  size_t row_ = 0;
};

// Sets the bit of every row containing needle[0, k) (k >= 1; out zeroed by the caller).
// Prefilter: byte needle[i1] at p + i1 and byte needle[i2] at p + i2 for a vector of starts p,
// then memcmp on the survivors. After a row matches, the scan resumes at its end.
HWY_INLINE void ContainsImpl(const int32_t* HWY_RESTRICT offsets, const uint8_t* HWY_RESTRICT data,
                             size_t n, const uint8_t* HWY_RESTRICT needle, size_t k, size_t i1,
                             size_t i2, uint64_t* HWY_RESTRICT out) {
  const size_t begin = static_cast<size_t>(offsets[0]);
  const size_t end = static_cast<size_t>(offsets[n]);
  if (end - begin < k) return;
  const size_t last_start = end - k;
  StrRowCursor rows(offsets, n);
  size_t resume = begin;  // starts before this lie in a row already selected

  // The needle's first min(k, 8) bytes as one masked word: most false candidates fail this one
  // compare, which is cheaper than a call to memcmp.
  uint8_t head_bytes[8] = {}, head_mask_bytes[8] = {};
  for (size_t j = 0; j < HWY_MIN(k, size_t{8}); ++j) {
    head_bytes[j] = needle[j];
    head_mask_bytes[j] = 0xFF;
  }
  uint64_t head, head_mask;
  memcpy(&head, head_bytes, 8);
  memcpy(&head_mask, head_mask_bytes, 8);

  const auto verify = [&](size_t s) {
    if (s < resume || s > last_start) return;
    if (s + 8 <= end) {
      uint64_t word;
      memcpy(&word, data + s, 8);
      if (((word ^ head) & head_mask) != 0) return;
      if (k > 8 && memcmp(data + s + 8, needle + 8, k - 8) != 0) return;
    } else if (memcmp(data + s, needle, k) != 0) {
      return;
    }
    const size_t r = rows.Seek(s);
    const size_t row_end = static_cast<size_t>(offsets[r + 1]);
    if (s + k > row_end) return;  // straddles into the next row: not a match of row r
    out[r / 64] |= uint64_t{1} << (r % 64);
    resume = row_end;
  };
  const auto verify_bits = [&](size_t p, uint64_t bits) {
    while (bits != 0) {
      verify(p + hwy::Num0BitsBelowLS1Bit_Nonzero64(bits));
      bits &= bits - 1;
    }
  };

#if HWY_TARGET == HWY_SCALAR
  // One-lane "vectors" would test a byte per step: libc's memchr (vectorised even where this
  // target is the best one) jumps from one needle[i1] to the next instead.
  for (size_t p = begin; p <= last_start;) {
    const void* hit = memchr(data + p + i1, needle[i1], last_start - p + 1);
    if (hit == nullptr) break;
    const size_t s = static_cast<size_t>(static_cast<const uint8_t*>(hit) - data) - i1;
    if (data[s + i2] == needle[i2]) verify(s);
    p = HWY_MAX(s + 1, resume);
  }
  return;
#endif
  const StrByteTag d;
  const size_t N = hn::Lanes(d);
  const auto c1 = hn::Set(d, needle[i1]);
  const auto c2 = hn::Set(d, needle[i2]);
  const size_t reach = HWY_MAX(i1, i2);  // loads at p cover bytes [p, p + reach + N)
  const auto candidates = [&](size_t p) {
    return hn::And(hn::Eq(hn::LoadU(d, data + p + i1), c1),
                   hn::Eq(hn::LoadU(d, data + p + i2), c2));
  };

  size_t p = begin;
  // Four vectors per step with one branch: candidates are rare in real text.
  while (p + reach + 4 * N <= end) {
    StrPrefetchAhead(data, p, 4 * N, end);
    const auto m0 = candidates(p);
    const auto m1 = candidates(p + N);
    const auto m2 = candidates(p + 2 * N);
    const auto m3 = candidates(p + 3 * N);
    if (HWY_UNLIKELY(!hn::AllFalse(d, hn::Or(hn::Or(m0, m1), hn::Or(m2, m3))))) {
      verify_bits(p, StrMaskBits(d, m0));
      verify_bits(p + N, StrMaskBits(d, m1));
      verify_bits(p + 2 * N, StrMaskBits(d, m2));
      verify_bits(p + 3 * N, StrMaskBits(d, m3));
      p = HWY_MAX(p + 4 * N, resume);
    } else {
      p += 4 * N;
    }
  }
  while (p + reach + N <= end) {
    const auto m = candidates(p);
    if (!hn::AllFalse(d, m)) verify_bits(p, StrMaskBits(d, m));
    p = HWY_MAX(p + N, resume);
  }
  for (; p <= last_start; ++p) {  // fewer than reach + N starts left: scalar
    if (data[p + i1] == needle[i1] && data[p + i2] == needle[i2]) verify(p);
  }
}

// CountSubstringCandidates' per-target part (k >= 1, at least k bytes): adds to counts[0..2]
// the positions passing the first byte, both bytes, and verification; sets in `rows` (zeroed by
// the caller) the bit of every row with a verified match. Unlike ContainsImpl it never skips
// ahead, and it counts every lane rather than testing for any, so it is slower: a measuring tool.
HWY_INLINE void CountCandidatesImpl(const int32_t* HWY_RESTRICT offsets,
                                    const uint8_t* HWY_RESTRICT data, size_t n,
                                    const uint8_t* HWY_RESTRICT needle, size_t k, size_t i1,
                                    size_t i2, uint64_t* HWY_RESTRICT counts,
                                    uint64_t* HWY_RESTRICT rows) {
  const size_t begin = static_cast<size_t>(offsets[0]);
  const size_t end = static_cast<size_t>(offsets[n]);
  const size_t last_start = end - k;
  StrRowCursor cursor(offsets, n);
  uint64_t first = 0, two = 0, verified = 0;
  const auto verify = [&](size_t s) {  // s: a two-byte candidate, in increasing order
    if (memcmp(data + s, needle, k) != 0) return;
    const size_t r = cursor.Seek(s);
    if (s + k > static_cast<size_t>(offsets[r + 1])) return;  // straddles two rows
    ++verified;
    rows[r / 64] |= uint64_t{1} << (r % 64);
  };

  const StrByteTag d;
  const size_t N = hn::Lanes(d);
  const auto c1 = hn::Set(d, needle[i1]);
  const auto c2 = hn::Set(d, needle[i2]);
  size_t p = begin;
  // Starts p .. p + N - 1 all <= last_start, so every load (reach < k) stays before end.
  for (; p + N <= last_start + 1; p += N) {
    const auto m1 = hn::Eq(hn::LoadU(d, data + p + i1), c1);
    first += hn::CountTrue(d, m1);
    const auto m2 = hn::And(m1, hn::Eq(hn::LoadU(d, data + p + i2), c2));
    if (hn::AllFalse(d, m2)) continue;
    two += hn::CountTrue(d, m2);
    for (uint64_t bits = StrMaskBits(d, m2); bits != 0; bits &= bits - 1) {
      verify(p + hwy::Num0BitsBelowLS1Bit_Nonzero64(bits));
    }
  }
  for (; p <= last_start; ++p) {  // the last starts, fewer than a vector
    if (data[p + i1] != needle[i1]) continue;
    ++first;
    if (data[p + i2] != needle[i2]) continue;
    ++two;
    verify(p);
  }
  counts[0] += first;
  counts[1] += two;
  counts[2] += verified;
}

enum StrAffixMode : int { kStrPrefix = 0, kStrSuffix = 1, kStrEquals = 2 };

// needle[from, from + count) (count <= 8) placed at byte `at` of an 8-byte little-endian window,
// and the mask of those bytes: built through memcpy, so in the same byte order as a gathered word.
struct StrWindow {
  uint64_t bytes = 0, mask = 0;
  StrWindow(const uint8_t* needle, size_t from, size_t count, size_t at) {
    uint8_t b[8] = {}, m[8] = {};
    for (size_t j = 0; j < count; ++j) {
      b[at + j] = needle[from + j];
      m[at + j] = 0xFF;
    }
    memcpy(&bytes, b, 8);
    memcpy(&mask, m, 8);
  }
};

// LIKE 'needle%' (kStrPrefix) or LIKE '%needle' (kStrSuffix), k >= 1; writes every word of out.
// Per row the needle's place is fixed (the row's start, or its end - k), so 8-byte gathers
// compare it without a loop over bytes: k < 8 one masked window (the row's first 8 bytes, or its
// last 8 for suffixes, so that it stays inside the row's neighbourhood); k >= 8 two full windows,
// the needle's first and last 8 bytes, exact up to k = 16; longer needles verify the survivors
// with memcmp. Rows whose windows could leave [offsets[0], offsets[n]), and the last partial
// word of rows, are checked row by row.
template <int kMode>
HWY_INLINE void AffixImpl(const int32_t* HWY_RESTRICT offsets, const uint8_t* HWY_RESTRICT data,
                          size_t n, const uint8_t* HWY_RESTRICT needle, size_t k,
                          uint64_t* HWY_RESTRICT out) {
  constexpr bool suffix = kMode == kStrSuffix;
  const size_t begin = static_cast<size_t>(offsets[0]);
  const size_t end = static_cast<size_t>(offsets[n]);
  const auto row_matches = [&](size_t i) {
    const size_t start = static_cast<size_t>(offsets[i]);
    const size_t stop = static_cast<size_t>(offsets[i + 1]);
    if (stop - start < k) return false;
    return memcmp(data + (suffix ? stop - k : start), needle, k) == 0;
  };

  // Rows [safe_begin, safe_end) may read span bytes from their start (prefix) or back from their
  // end (suffix): offsets are non-decreasing, so those rows are a prefix (suffix) of the column.
  const size_t span = HWY_MAX(k, size_t{8});
  size_t safe_begin = 0, safe_end = 0;
  if (end - begin >= span) {
    if (suffix) {
      const int32_t first_stop = static_cast<int32_t>(begin + span);
      safe_begin = static_cast<size_t>(
          std::lower_bound(offsets + 1, offsets + n + 1, first_stop) - (offsets + 1));
      safe_end = n;
    } else {
      const int32_t last_start = static_cast<int32_t>(end - span);
      safe_end = static_cast<size_t>(std::upper_bound(offsets, offsets + n, last_start) - offsets);
    }
  }

  const bool two = k >= 8;
  const StrWindow w1 = two ? StrWindow(needle, 0, 8, 0)
                           : StrWindow(needle, 0, k, suffix ? 8 - k : 0);
  const StrWindow w2(needle, two ? k - 8 : 0, two ? 8 : 0, 0);

  const StrI64Tag di;
  const hn::RebindToUnsigned<decltype(di)> du;
  const hn::Rebind<int32_t, decltype(di)> d32;
  const size_t N = hn::Lanes(di);
  const auto w1_bytes = hn::Set(du, w1.bytes), w1_mask = hn::Set(du, w1.mask);
  const auto w2_bytes = hn::Set(du, w2.bytes);
  const auto k_minus_1 = hn::Set(di, static_cast<int64_t>(k) - 1);
  // Where window 1 starts, relative to the row's start (prefix) or end (suffix).
  const auto back = hn::Set(di, static_cast<int64_t>(two ? k : 8));
  const auto w2_shift = hn::Set(di, static_cast<int64_t>(two ? k - 8 : 0));
  const uint64_t* base = reinterpret_cast<const uint64_t*>(data);  // byte offsets, any alignment

  for (size_t word = 0; word < BitmaskWords(n); ++word) {
    const size_t r0 = word * 64;
    uint64_t bits = 0;
    if (r0 + 64 <= n && r0 >= safe_begin && r0 + 64 <= safe_end) {
      for (size_t j = 0; j < 64; j += N) {
        const auto start = hn::PromoteTo(di, hn::LoadU(d32, offsets + r0 + j));
        const auto stop = hn::PromoteTo(di, hn::LoadU(d32, offsets + r0 + j + 1));
        auto at = start;
        if constexpr (suffix) at = hn::Sub(stop, back);
        auto same = hn::Eq(hn::And(hn::Xor(hn::GatherOffset(du, base, at), w1_bytes), w1_mask),
                           hn::Zero(du));
        if (k > 8) {
          same = hn::And(same, hn::Eq(hn::GatherOffset(du, base, hn::Add(at, w2_shift)), w2_bytes));
        }
        const auto len_ok = hn::Gt(hn::Sub(stop, start), k_minus_1);
        bits |= StrMaskBits(di, hn::And(hn::RebindMask(di, same), len_ok)) << j;
      }
      if (k > 16) {  // the windows checked 16 bytes: verify the survivors in full
        for (uint64_t b = bits; b != 0; b &= b - 1) {
          const size_t bit = hwy::Num0BitsBelowLS1Bit_Nonzero64(b);
          if (!row_matches(r0 + bit)) bits &= ~(uint64_t{1} << bit);
        }
      }
    } else {
      for (size_t r = r0; r < HWY_MIN(r0 + 64, n); ++r) {
        bits |= uint64_t{row_matches(r)} << (r - r0);
      }
    }
    out[word] = bits;
  }
}

// = needle (k >= 1); writes every word of out. The length test needs only the offsets and
// rejects nearly every row, so the bytes of the few rows of length k are compared afterwards:
// gathering every row's bytes, as prefixes must, would read the whole string buffer.
HWY_INLINE void EqualsImpl(const int32_t* HWY_RESTRICT offsets, const uint8_t* HWY_RESTRICT data,
                           size_t n, const uint8_t* HWY_RESTRICT needle, size_t k,
                           uint64_t* HWY_RESTRICT out) {
  const StrI32Tag d;
  const size_t N = hn::Lanes(d);
  const auto vk = hn::Set(d, static_cast<int32_t>(k));
  for (size_t word = 0; word < BitmaskWords(n); ++word) {
    const size_t r0 = word * 64;
    uint64_t bits = 0;
    if (r0 + 64 <= n) {
      for (size_t j = 0; j < 64; j += N) {
        const auto start = hn::LoadU(d, offsets + r0 + j);
        const auto len = hn::Sub(hn::LoadU(d, offsets + r0 + j + 1), start);
        bits |= StrMaskBits(d, hn::Eq(len, vk)) << j;
      }
    } else {
      for (size_t r = r0; r < n; ++r) {
        bits |= uint64_t{static_cast<size_t>(offsets[r + 1] - offsets[r]) == k} << (r - r0);
      }
    }
    for (uint64_t b = bits; b != 0; b &= b - 1) {
      const size_t bit = hwy::Num0BitsBelowLS1Bit_Nonzero64(b);
      if (memcmp(data + offsets[r0 + bit], needle, k) != 0) bits &= ~(uint64_t{1} << bit);
    }
    out[word] = bits;
  }
}

// Bit i = row i is not empty; writes every word of out.
HWY_INLINE void NotEmptyImpl(const int32_t* HWY_RESTRICT offsets, size_t n,
                             uint64_t* HWY_RESTRICT out) {
  const StrI32Tag d;
  const size_t N = hn::Lanes(d);
  for (size_t word = 0; word < BitmaskWords(n); ++word) {
    const size_t r0 = word * 64;
    uint64_t bits = 0;
    if (r0 + 64 <= n) {
      for (size_t j = 0; j < 64; j += N) {
        const auto ne = hn::Ne(hn::LoadU(d, offsets + r0 + j + 1), hn::LoadU(d, offsets + r0 + j));
        bits |= StrMaskBits(d, ne) << j;
      }
    } else {
      for (size_t r = r0; r < n; ++r) bits |= uint64_t{offsets[r + 1] != offsets[r]} << (r - r0);
    }
    out[word] = bits;
  }
}

HWY_INLINE void ByteLengthsImpl(const int32_t* HWY_RESTRICT offsets, size_t n,
                                int64_t* HWY_RESTRICT out) {
  const StrI64Tag di;
  const hn::Rebind<int32_t, decltype(di)> d32;
  const size_t N = hn::Lanes(di);
  size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto a = hn::Sub(hn::LoadU(d32, offsets + i + 1), hn::LoadU(d32, offsets + i));
    const auto b = hn::Sub(hn::LoadU(d32, offsets + i + N + 1), hn::LoadU(d32, offsets + i + N));
    hn::StoreU(hn::PromoteTo(di, a), di, out + i);
    hn::StoreU(hn::PromoteTo(di, b), di, out + i + N);
  }
  for (; i < n; ++i) out[i] = offsets[i + 1] - offsets[i];
}

// Whether every byte of data[0, n) is below 0x80: the bytes are ORed 256 at a time and the
// sign bit of the result tested, so a column that is not ASCII is found out at its first block
// with a high byte.
HWY_INLINE bool BytesAreAsciiImpl(const uint8_t* HWY_RESTRICT data, size_t n) {
  const StrByteTag d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  constexpr size_t kBlock = 256;
  size_t p = 0;
  for (; p + kBlock <= n; p += kBlock) {
    StrPrefetchAhead(data, p, kBlock, n);
    auto any = hn::Zero(d);
    for (size_t j = 0; j < kBlock; j += N) any = hn::Or(any, hn::LoadU(d, data + p + j));
    if (!hn::AllFalse(di, hn::Lt(hn::BitCast(di, any), hn::Zero(di)))) return false;
  }
  uint8_t any = 0;
  for (; p < n; ++p) any |= data[p];
  return any < 0x80;
}

// ASCII letters of data[0, n) mapped to upper (or lower) case into out[0, n); every other byte
// (UTF-8 sequences included: their bytes are all >= 0x80) copied as it is. A letter is a byte
// whose distance from 'a' (or 'A'), as unsigned, is below 26: one subtraction and one compare.
HWY_INLINE void AsciiCaseMapImpl(const uint8_t* data, size_t n, bool upper,
                                 uint8_t* out) {  // may be data itself
  const StrByteTag d;
  const size_t N = hn::Lanes(d);
  const auto first = hn::Set(d, static_cast<uint8_t>(upper ? 'a' : 'A'));
  const auto letters = hn::Set(d, static_cast<uint8_t>(26));
  const auto flip = hn::Set(d, static_cast<uint8_t>(0x20));
  size_t p = 0;
  for (; p + N <= n; p += N) {
    const auto v = hn::LoadU(d, data + p);
    const auto is_letter = hn::Lt(hn::Sub(v, first), letters);
    hn::StoreU(hn::Xor(v, hn::IfThenElseZero(is_letter, flip)), d, out + p);
  }
  for (; p < n; ++p) {
    const uint8_t c = data[p];
    out[p] = static_cast<uint8_t>(c - (upper ? 'a' : 'A')) < 26 ? static_cast<uint8_t>(c ^ 0x20) : c;
  }
}

// Code points = bytes - continuation bytes. The byte lengths come from the offsets; one scan of
// the buffer, 64 bytes at a time, finds the continuation bytes (none at all in ASCII blocks,
// which cost one compare) and subtracts each run of them from the row it falls in.
HWY_INLINE void CodePointLengthsImpl(const int32_t* HWY_RESTRICT offsets,
                                     const uint8_t* HWY_RESTRICT data, size_t n,
                                     int64_t* HWY_RESTRICT out) {
  ByteLengthsImpl(offsets, n, out);
  const size_t begin = static_cast<size_t>(offsets[0]);
  const size_t end = static_cast<size_t>(offsets[n]);
  StrRowCursor rows(offsets, n);
  // bits: continuation bytes among data[p, p + 64); subtract them row by row.
  const auto attribute = [&](size_t p, uint64_t bits) {
    while (bits != 0) {
      const size_t r = rows.Seek(p + hwy::Num0BitsBelowLS1Bit_Nonzero64(bits));
      const size_t row_end = static_cast<size_t>(offsets[r + 1]);
      if (row_end - p >= 64) {
        out[r] -= static_cast<int64_t>(hwy::PopCount(bits));
        return;
      }
      const uint64_t in_row = (uint64_t{1} << (row_end - p)) - 1;
      out[r] -= static_cast<int64_t>(hwy::PopCount(bits & in_row));
      bits &= ~in_row;
    }
  };

  const StrByteTag d;
  const hn::RebindToSigned<decltype(d)> di;
  const size_t N = hn::Lanes(d);
  const auto below = hn::Set(di, static_cast<int8_t>(-64));  // 0x80..0xBF as int8: -128..-65
  size_t p = begin;
  for (; p + 64 <= end; p += 64) {
    StrPrefetchAhead(data, p, 64, end);
    uint64_t bits = 0;
    for (size_t j = 0; j < 64; j += N) {
      const auto v = hn::BitCast(di, hn::LoadU(d, data + p + j));
      bits |= StrMaskBits(di, hn::Lt(v, below)) << j;
    }
    if (bits != 0) attribute(p, bits);
  }
  uint64_t bits = 0;
  for (size_t q = p; q < end; ++q) bits |= uint64_t{(data[q] & 0xC0) == 0x80} << (q - p);
  if (bits != 0) attribute(p, bits);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_STRING_MATCH_INL_H_
