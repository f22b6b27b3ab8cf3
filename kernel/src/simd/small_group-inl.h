// Small-key GROUP BY kernels, compiled once per SIMD target (Highway's per-target include
// pattern). A segment is processed in blocks of kBlockRows rows, each in three steps:
//  1. SIMD: keys -> entry indexes (slot * K + r % K, and slot * F + r % F for float sums unless
//     K == F), with unselected rows and out-of-range keys sent to the trash slot, and NULL rows
//     too where an aggregate has a validity bitmap;
//  2. SIMD: values of narrow types widened to int64 / float64 (MIN/MAX: int64 in their order);
//  3. scalar scatter: one 16-byte add of {value, 1} (or a min/max) into the table per row.
// The scatter is inherently one row at a time (ClickHouse does the same); what makes it fast is
// that each row costs one read-modify-write with no shuffles, and that repeated keys spread
// over copies so consecutive rows of a hot key do not wait on each other's stores.

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_SMALL_GROUP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_SMALL_GROUP_INL_H_
#undef LANEQL_SIMD_SMALL_GROUP_INL_H_
#else
#define LANEQL_SIMD_SMALL_GROUP_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>

#include <type_traits>

#include "hwy/highway.h"
#include "src/simd/small_group_layout.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace small_group {
namespace hn = hwy::HWY_NAMESPACE;
namespace sgd = ::laneql::small_group_detail;

// ------------------------------------------------------------------ bitmask lanes
// Tags are capped at 16 lanes (8 for 64-bit lanes) so that the rows of one vector always lie in
// one 64-bit bitmask word and lane l can test bit l of a broadcast word.
using D32 = hn::CappedTag<uint32_t, 16>;
using D64 = hn::CappedTag<uint64_t, 8>;

template <class D>
HWY_INLINE hn::Vec<D> LaneBits(D d) {
  using T = hn::TFromD<D>;
  HWY_ALIGN T bits[hn::MaxLanes(D())];
  for (size_t l = 0; l < hn::MaxLanes(D()); ++l) bits[l] = static_cast<T>(T{1} << l);
  return hn::Load(d, bits);
}

// Lanes whose row (row + l) has its bit set; row is a multiple of Lanes(d).
template <class D>
HWY_INLINE hn::Mask<D> RowMask(D d, const uint64_t* HWY_RESTRICT bits, size_t row,
                               hn::Vec<D> lane_bits) {
  using T = hn::TFromD<D>;
  const T word = static_cast<T>(bits[row / 64] >> (row % 64));
  return hn::TestBit(hn::Set(d, word), lane_bits);
}

// ------------------------------------------------------------------ step 1: entry indexes
// The u32 tag for the indexes and the tag that loads as many keys of type TK.
template <typename TK, bool kWide = (sizeof(TK) == 8)>
struct IndexTags {
  using DI = D32;
  using DK = hn::Rebind<TK, D32>;
};
template <typename TK>
struct IndexTags<TK, true> {
  using DK = D64;
  using DI = hn::Rebind<uint32_t, D64>;
};

// Slot of each key: (key - key_min) modulo the key width, or `slots` (trash) when out of range.
// (The broadcasts are loop-invariant once inlined.)
template <class DI, class DK>
HWY_INLINE hn::Vec<DI> SlotsOf(DI di, DK dk, hn::Vec<DK> keys, hn::Vec<DK> key_min,
                               uint32_t slots) {
  const auto diff = hn::Sub(keys, key_min);
  if constexpr (sizeof(hn::TFromD<DK>) == 8) {
    return hn::TruncateTo(di, hn::Min(diff, hn::Set(dk, uint64_t{slots})));
  } else if constexpr (sizeof(hn::TFromD<DK>) == 4) {
    return hn::Min(diff, hn::Set(di, slots));
  } else {  // 8/16-bit keys: widen first, their trash slot (256 or 65536) needs more bits
    return hn::Min(hn::PromoteTo(di, diff), hn::Set(di, slots));
  }
}

// Fills idx_k (and idx_f when want_f and K != F) for rows [begin, begin + m) of the segment.
template <typename TK>
HWY_NOINLINE void ComputeIndexes(const sgd::SegmentPlan& p, size_t begin, size_t m,
                                 bool want_f) {
  using DI = typename IndexTags<TK>::DI;
  using DK = typename IndexTags<TK>::DK;
  const DI di;
  const DK dk;
  const size_t N = hn::Lanes(di);
  const TK* HWY_RESTRICT keys = static_cast<const TK*>(p.keys) + begin;
  const uint64_t* HWY_RESTRICT selection = p.selection;
  uint32_t* HWY_RESTRICT idx_k = p.idx_k;
  uint32_t* HWY_RESTRICT idx_f = p.idx_f;
  const int shift = static_cast<int>(p.interleave_shift);
  want_f = want_f && (size_t{1} << shift) != kSmallGroupFloatSubTables;
  const uint32_t slots = p.slots;
  const auto key_min = hn::Set(dk, static_cast<TK>(p.key_min));
  const auto trash = hn::Set(di, slots);
  const auto k_mask = hn::Set(di, (1u << shift) - 1);
  const auto f_mask = hn::Set(di, static_cast<uint32_t>(kSmallGroupFloatSubTables - 1));
  const auto lane_bits = LaneBits(di);
  // Global row number of each lane, modulo 2^32 (enough for r % K and r % F).
  auto rows = hn::Add(hn::Iota(di, 0), hn::Set(di, static_cast<uint32_t>(p.first_row + begin)));
  const auto step = hn::Set(di, static_cast<uint32_t>(N));
  for (size_t i = 0; i < m; i += N) {
    const auto k = (i + N <= m) ? hn::LoadU(dk, keys + i) : hn::LoadN(dk, keys + i, m - i);
    auto slot = SlotsOf(di, dk, k, key_min, slots);
    if (selection != nullptr) {
      slot = hn::IfThenElse(RowMask(di, selection, begin + i, lane_bits), slot, trash);
    }
    // Scratch has slack past kBlockRows, so a partial last vector is stored whole.
    hn::StoreU(hn::Add(hn::ShiftLeftSame(slot, shift), hn::And(rows, k_mask)), di, idx_k + i);
    if (want_f) {
      hn::StoreU(hn::Add(hn::ShiftLeft<2>(slot), hn::And(rows, f_mask)), di, idx_f + i);
    }
    rows = hn::Add(rows, step);
  }
  static_assert(kSmallGroupFloatSubTables == 4, "ShiftLeft<2> above multiplies by F");
}

// out = idx with the NULL rows sent to their copy of the trash slot; idx has 2^shift copies.
HWY_NOINLINE void RedirectNulls(const uint32_t* HWY_RESTRICT idx, uint32_t shift,
                                uint32_t slots, const uint64_t* HWY_RESTRICT validity,
                                size_t begin, size_t m, uint32_t* HWY_RESTRICT out) {
  const D32 d;
  const size_t N = hn::Lanes(d);
  const auto lane_bits = LaneBits(d);
  const auto copy_mask = hn::Set(d, (1u << shift) - 1);
  const auto trash = hn::Set(d, slots << shift);
  for (size_t i = 0; i < m; i += N) {
    const auto v = hn::LoadU(d, idx + i);  // within scratch, slack included
    const auto to_trash = hn::Or(hn::And(v, copy_mask), trash);
    hn::StoreU(hn::IfThenElse(RowMask(d, validity, begin + i, lane_bits), v, to_trash), d,
               out + i);
  }
}

// ------------------------------------------------------------------ step 2: value preparation
// Loads Lanes(d) values of type T (fewer at the tail, zero-filled) widened to d's lane type.
template <typename T, class D>
HWY_INLINE hn::Vec<D> LoadWidened(D d, const T* HWY_RESTRICT v, size_t count) {
  using TD = hn::TFromD<D>;
  const size_t N = hn::Lanes(d);
  if constexpr (std::is_same_v<T, TD>) {
    return count >= N ? hn::LoadU(d, v) : hn::LoadN(d, v, count);
  } else if constexpr (hwy::IsFloat<T>() || hwy::IsSigned<T>()) {
    const hn::Rebind<T, D> dv;
    return hn::PromoteTo(d, count >= N ? hn::LoadU(dv, v) : hn::LoadN(dv, v, count));
  } else {  // unsigned into int64: zero-extend
    const hn::RebindToUnsigned<D> du;
    const hn::Rebind<T, decltype(du)> dv;
    return hn::BitCast(d, hn::PromoteTo(du, count >= N ? hn::LoadU(dv, v)
                                                       : hn::LoadN(dv, v, count)));
  }
}

// Values of a narrow type as int64 (integers) or float64 (float32), for the sum tables.
template <typename T, typename TW>
HWY_NOINLINE void Widen(const T* HWY_RESTRICT v, size_t m, TW* HWY_RESTRICT out) {
  const hn::Rebind<TW, D64> d;
  const size_t N = hn::Lanes(d);
  for (size_t i = 0; i < m; i += N) hn::StoreU(LoadWidened<T>(d, v + i, m - i), d, out + i);
}

// Values as int64 whose signed order is the MIN/MAX order: integers widened; floats widened to
// float64, NaN made canonical, negative values with their magnitude bits flipped.
template <typename T>
HWY_NOINLINE void PrepareOrdered(const T* HWY_RESTRICT v, size_t m, int64_t* HWY_RESTRICT out) {
  const hn::RebindToSigned<D64> di;
  const size_t N = hn::Lanes(di);
  if constexpr (hwy::IsFloat<T>()) {
    const hn::RebindToFloat<D64> df;
    const auto nan = hn::BitCast(df, hn::Set(di, sgd::kCanonicalNaNBits));
    const auto magnitude = hn::Set(di, INT64_MAX);
    for (size_t i = 0; i < m; i += N) {
      auto x = LoadWidened<T>(df, v + i, m - i);
      x = hn::IfThenElse(hn::IsNaN(x), nan, x);
      const auto bits = hn::BitCast(di, x);
      hn::StoreU(hn::Xor(bits, hn::And(hn::BroadcastSignBit(bits), magnitude)), di, out + i);
    }
  } else {
    for (size_t i = 0; i < m; i += N) hn::StoreU(LoadWidened<T>(di, v + i, m - i), di, out + i);
  }
}

// ------------------------------------------------------------------ step 3: scatter
// Rows of a block may share an entry, so these loops keep row order; unrolling by 4 lets the
// loads of the next rows start while earlier stores retire.

HWY_NOINLINE void CountRows(const uint32_t* HWY_RESTRICT idx, size_t m,
                            uint64_t* HWY_RESTRICT counts) {
  size_t i = 0;
  for (; i + 4 <= m; i += 4) {
    ++counts[idx[i]];
    ++counts[idx[i + 1]];
    ++counts[idx[i + 2]];
    ++counts[idx[i + 3]];
  }
  for (; i < m; ++i) ++counts[idx[i]];
}

// table[2 * idx[i] + {0, 1}] += {values[i], 1}: one 128-bit add per row. The pair is a
// broadcast load (no shuffle port) blended with 1 in the upper lane.
template <typename T>
HWY_NOINLINE void AddValues(const uint32_t* HWY_RESTRICT idx, const T* HWY_RESTRICT values,
                            size_t m, T* HWY_RESTRICT table) {
#if HWY_TARGET == HWY_SCALAR
  for (size_t i = 0; i < m; ++i) {
    T* HWY_RESTRICT entry = table + 2 * size_t{idx[i]};
    entry[0] = entry[0] + values[i];
    entry[1] = entry[1] + T{1};
  }
#else
  const hn::FixedTag<T, 2> d2;
  const auto one = hn::Set(d2, T{1});
  auto add = [&](size_t i) HWY_ATTR {
    T* HWY_RESTRICT entry = table + 2 * size_t{idx[i]};
    const auto pair = hn::OddEven(one, hn::Set(d2, values[i]));  // {values[i], 1}
    hn::StoreU(hn::Add(hn::LoadU(d2, entry), pair), d2, entry);
  };
  size_t i = 0;
  for (; i + 4 <= m; i += 4) {
    add(i);
    add(i + 1);
    add(i + 2);
    add(i + 3);
  }
  for (; i < m; ++i) add(i);
#endif
}

// int64 values: the sum may overflow 64 bits, so each add is checked and an overflow counts a
// carry of +-2^64 in a side table (rare: it needs values near the int64 limits).
HWY_NOINLINE void AddValuesChecked(const uint32_t* HWY_RESTRICT idx,
                                   const int64_t* HWY_RESTRICT values, size_t m,
                                   int64_t* HWY_RESTRICT table, int64_t* HWY_RESTRICT carries) {
  for (size_t i = 0; i < m; ++i) {
    int64_t* HWY_RESTRICT entry = table + 2 * size_t{idx[i]};
    const int64_t v = values[i];
    int64_t sum;
    if (HWY_UNLIKELY(__builtin_add_overflow(entry[0], v, &sum))) {
      carries[idx[i]] += v < 0 ? -1 : 1;
    }
    entry[0] = sum;
    entry[1] += 1;
  }
}

HWY_NOINLINE void MinMax(const uint32_t* HWY_RESTRICT idx, const int64_t* HWY_RESTRICT ordered,
                         size_t m, int64_t* HWY_RESTRICT table) {
  for (size_t i = 0; i < m; ++i) {
    int64_t* HWY_RESTRICT entry = table + 2 * size_t{idx[i]};
    const int64_t v = ordered[i];
    entry[0] = HWY_MIN(entry[0], v);
    entry[1] = HWY_MAX(entry[1], v);
  }
}

// ------------------------------------------------------------------ one segment
template <typename T>
HWY_INLINE void UpdateAggregate(const sgd::SegmentPlan& p, const sgd::AggregatePlan& a,
                                size_t begin, size_t m) {
  const T* HWY_RESTRICT v = static_cast<const T*>(a.values) + begin;
  const uint32_t shift_k = p.interleave_shift;
  const bool k_is_f = (size_t{1} << shift_k) == kSmallGroupFloatSubTables;
  constexpr bool kFloat = hwy::IsFloat<T>();
  // The sum index: F copies for float sums, K for integer ones; NULL rows to the trash slot.
  const uint32_t* sum_idx = (kFloat && !k_is_f) ? p.idx_f : p.idx_k;
  const uint32_t sum_shift = kFloat ? 2 : shift_k;
  if (a.validity != nullptr) {
    RedirectNulls(sum_idx, sum_shift, p.slots, a.validity, begin, m, p.idx_v);
    sum_idx = p.idx_v;
  }
  if constexpr (std::is_same_v<T, double>) {
    AddValues(sum_idx, v, m, a.float_pairs);
  } else if constexpr (kFloat) {
    Widen(v, m, p.f64_values);
    AddValues(sum_idx, p.f64_values, m, a.float_pairs);
  } else if constexpr (std::is_same_v<T, int64_t>) {
    AddValuesChecked(sum_idx, v, m, a.int_pairs, a.carries);
  } else {
    Widen(v, m, p.i64_values);
    AddValues(sum_idx, p.i64_values, m, a.int_pairs);
  }
  if (a.min_max != nullptr) {
    PrepareOrdered(v, m, p.ordered);
    // K copies; for integers the redirected sum index already is that.
    const uint32_t* idx = p.idx_k;
    if (a.validity != nullptr) {
      idx = p.idx_v;
      if (kFloat && !k_is_f) {
        RedirectNulls(p.idx_k, shift_k, p.slots, a.validity, begin, m, p.idx_w);
        idx = p.idx_w;
      }
    }
    MinMax(idx, p.ordered, m, a.min_max);
  }
}

HWY_INLINE void UpdateSegmentImpl(const sgd::SegmentPlan& p) {
  bool want_f = false;
  for (size_t a = 0; a < p.num_aggregates; ++a) {
    want_f = want_f || SmallGroupTypeIsFloat(p.aggregates[a].type);
  }
  const size_t key_bytes = SmallGroupTypeBytes(p.key_type);
  for (size_t begin = 0; begin < p.rows; begin += sgd::kBlockRows) {
    const size_t m = HWY_MIN(sgd::kBlockRows, p.rows - begin);
    if (p.selection != nullptr) {  // a block with no selected row changes nothing: skip it
      uint64_t any = 0;
      for (size_t w = begin / 64; w < (begin + m + 63) / 64; ++w) any |= p.selection[w];
      if (any == 0) continue;
    }
    switch (key_bytes) {
      case 1: ComputeIndexes<uint8_t>(p, begin, m, want_f); break;
      case 2: ComputeIndexes<uint16_t>(p, begin, m, want_f); break;
      case 4: ComputeIndexes<uint32_t>(p, begin, m, want_f); break;
      default: ComputeIndexes<uint64_t>(p, begin, m, want_f); break;
    }
    if (p.row_counts != nullptr) CountRows(p.idx_k, m, p.row_counts);
    for (size_t i = 0; i < p.num_aggregates; ++i) {
      const sgd::AggregatePlan& a = p.aggregates[i];
      switch (a.type) {
        case SmallGroupType::kInt8: UpdateAggregate<int8_t>(p, a, begin, m); break;
        case SmallGroupType::kInt16: UpdateAggregate<int16_t>(p, a, begin, m); break;
        case SmallGroupType::kInt32: UpdateAggregate<int32_t>(p, a, begin, m); break;
        case SmallGroupType::kInt64: UpdateAggregate<int64_t>(p, a, begin, m); break;
        case SmallGroupType::kUInt8: UpdateAggregate<uint8_t>(p, a, begin, m); break;
        case SmallGroupType::kUInt16: UpdateAggregate<uint16_t>(p, a, begin, m); break;
        case SmallGroupType::kUInt32: UpdateAggregate<uint32_t>(p, a, begin, m); break;
        case SmallGroupType::kFloat32: UpdateAggregate<float>(p, a, begin, m); break;
        case SmallGroupType::kFloat64: UpdateAggregate<double>(p, a, begin, m); break;
        case SmallGroupType::kUInt64: break;  // rejected by the constructor
      }
    }
  }
}

// ------------------------------------------------------------------ key range pre-pass
template <typename T>
HWY_INLINE void KeyRangeOf(const T* HWY_RESTRICT keys, size_t n, T* min_out, T* max_out) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  const auto first = hn::Set(d, keys[0]);  // n > 0; also the filler of the partial last vector
  auto min0 = first, min1 = first, max0 = first, max1 = first;
  size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto a = hn::LoadU(d, keys + i);
    const auto b = hn::LoadU(d, keys + i + N);
    min0 = hn::Min(min0, a);
    min1 = hn::Min(min1, b);
    max0 = hn::Max(max0, a);
    max1 = hn::Max(max1, b);
  }
  for (; i < n; i += N) {
    const auto a = hn::LoadNOr(first, d, keys + i, HWY_MIN(N, n - i));
    min0 = hn::Min(min0, a);
    max0 = hn::Max(max0, a);
  }
  *min_out = hn::ReduceMin(d, hn::Min(min0, min1));
  *max_out = hn::ReduceMax(d, hn::Max(max0, max1));
}

}  // namespace small_group
}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // LANEQL_SIMD_SMALL_GROUP_INL_H_
