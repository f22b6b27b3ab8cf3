// Small-key GROUP BY: dispatch of the per-target kernels (foreach_target.h compiles this file
// once per SIMD target) and the SmallGroupBy class around them: table allocation, segments
// between integer folds, Merge and the results.
#include "laneql/small_group.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/small_group.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/small_group-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

void SmallGroupUpdateSegmentTarget(const small_group_detail::SegmentPlan* plan) {
  small_group::UpdateSegmentImpl(*plan);
}

void SmallGroupKeyRangeTarget(const void* keys, SmallGroupType type, size_t n, int64_t* min,
                              int64_t* max) {
  switch (type) {
#define LANEQL_SMALL_GROUP_RANGE(ENUM, T)                                             \
  case SmallGroupType::ENUM: {                                                        \
    T lo, hi;                                                                         \
    small_group::KeyRangeOf(static_cast<const T*>(keys), n, &lo, &hi);                \
    *min = static_cast<int64_t>(lo);                                                  \
    *max = static_cast<int64_t>(hi);                                                  \
    return;                                                                           \
  }
    LANEQL_SMALL_GROUP_RANGE(kInt8, int8_t)
    LANEQL_SMALL_GROUP_RANGE(kInt16, int16_t)
    LANEQL_SMALL_GROUP_RANGE(kInt32, int32_t)
    LANEQL_SMALL_GROUP_RANGE(kInt64, int64_t)
    LANEQL_SMALL_GROUP_RANGE(kUInt8, uint8_t)
    LANEQL_SMALL_GROUP_RANGE(kUInt16, uint16_t)
    LANEQL_SMALL_GROUP_RANGE(kUInt32, uint32_t)
    LANEQL_SMALL_GROUP_RANGE(kUInt64, uint64_t)
#undef LANEQL_SMALL_GROUP_RANGE
    default: HWY_ABORT("SmallGroupKeyRange: keys must be integers");
  }
}

// Interleave K by table size, from bench/small_group_bench.cc on Sapphire Rapids (rates in
// thread CPU time): up to 4 copies while the 16-byte entries fit in 64 KiB. On 256 slots with one
// key on 90 % of the rows, COUNT(*) runs at 0.4 / 0.7 / 1.4 / 2.0 G rows/s with K = 1 / 2 / 4 / 8,
// but K = 8 costs 7-13 % on uniform keys (and float sums then need their own F = 4 index), so 4
// is the all-round choice; on 4096 slots and more the copies' footprint costs up to 1.6x on
// uniform keys and K = 1 is best. Every x86 target (AVX3_SPR .. SCALAR) ranked the K the same
// way, so the rule is the same for all; it is per target so that another target can differ.
size_t SmallGroupDefaultInterleaveTarget(size_t slots) {
  size_t k = 4;
  while (k > 1 && (slots + 1) * k > 4096) k /= 2;
  return k;
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <cstring>
#include <limits>

namespace laneql {

HWY_EXPORT(SmallGroupUpdateSegmentTarget);
HWY_EXPORT(SmallGroupKeyRangeTarget);
HWY_EXPORT(SmallGroupDefaultInterleaveTarget);

namespace sgd = small_group_detail;

size_t SmallGroupTypeBytes(SmallGroupType type) {
  switch (type) {
    case SmallGroupType::kInt8: case SmallGroupType::kUInt8: return 1;
    case SmallGroupType::kInt16: case SmallGroupType::kUInt16: return 2;
    case SmallGroupType::kInt32: case SmallGroupType::kUInt32: case SmallGroupType::kFloat32:
      return 4;
    default: return 8;
  }
}

bool SmallGroupTypeIsFloat(SmallGroupType type) {
  return type == SmallGroupType::kFloat32 || type == SmallGroupType::kFloat64;
}

bool SmallGroupKeyRange(const void* keys, SmallGroupType key_type, size_t n, int64_t* min,
                        int64_t* max) {
  if (n == 0) return false;
  HWY_DYNAMIC_DISPATCH(SmallGroupKeyRangeTarget)(keys, key_type, n, min, max);
  return true;
}

size_t SmallGroupSlotsForRange(SmallGroupType key_type, int64_t min, int64_t max) {
  const bool is_unsigned64 = key_type == SmallGroupType::kUInt64;
  if (is_unsigned64 ? static_cast<uint64_t>(min) > static_cast<uint64_t>(max) : min > max) {
    return 0;
  }
  const uint64_t span = static_cast<uint64_t>(max) - static_cast<uint64_t>(min);
  return span < kSmallGroupMaxSlots ? static_cast<size_t>(span) + 1 : 0;
}

size_t SmallGroupDefaultInterleave(size_t slots) {
  return HWY_DYNAMIC_DISPATCH(SmallGroupDefaultInterleaveTarget)(slots);
}

namespace {

constexpr size_t F = kSmallGroupFloatSubTables;

// The smallest and largest value of an integer type, as int64 (kUInt64: bit patterns).
void TypeLimits(SmallGroupType t, int64_t* lo, uint64_t* span) {
  const size_t bits = 8 * SmallGroupTypeBytes(t);
  const bool is_signed = t == SmallGroupType::kInt8 || t == SmallGroupType::kInt16 ||
                         t == SmallGroupType::kInt32 || t == SmallGroupType::kInt64;
  *lo = is_signed ? static_cast<int64_t>(~uint64_t{0} << (bits - 1)) : 0;  // sign-extended
  *span = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;          // hi - lo
}

Int128 WithCarry(int64_t sum, int64_t carry) {
  return static_cast<Int128>(sum) + static_cast<Int128>(carry) * (Int128{1} << 64);
}

double FromOrdered(int64_t ordered) {
  const int64_t bits = sgd::OrderedFromBits(ordered);  // the transform is its own inverse
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace

SmallGroupBy::SmallGroupBy(SmallGroupType key_type, int64_t key_min, size_t slots,
                           std::vector<SmallGroupAggregate> aggregates, size_t interleave)
    : key_type_(key_type), key_min_(static_cast<uint64_t>(key_min)), slots_(slots),
      aggregates_(std::move(aggregates)), row_count_source_(SIZE_MAX) {
  if (SmallGroupTypeIsFloat(key_type)) HWY_ABORT("SmallGroupBy: keys must be integers");
  if (slots == 0 || slots > kSmallGroupMaxSlots) HWY_ABORT("SmallGroupBy: %zu slots", slots);
  int64_t type_min;
  uint64_t type_span;
  TypeLimits(key_type, &type_min, &type_span);
  // key_min .. key_min + slots - 1 within the type, so slots modulo the key width are exact.
  const uint64_t offset = key_min_ - static_cast<uint64_t>(type_min);
  if (offset > type_span || slots - 1 > type_span - offset) {
    HWY_ABORT("SmallGroupBy: keys from %lld over %zu slots exceed the key type",
              static_cast<long long>(key_min), slots);
  }
  if (interleave == 0) interleave = SmallGroupDefaultInterleave(slots);
  if (interleave != 1 && interleave != 2 && interleave != 4 && interleave != 8) {
    HWY_ABORT("SmallGroupBy: interleave %zu is not 1, 2, 4 or 8", interleave);
  }
  interleave_shift_ = static_cast<uint32_t>(__builtin_ctzll(interleave));
  const size_t K = interleave;
  const size_t entries = slots + 1;  // + the trash slot
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    const SmallGroupAggregate& spec = aggregates_[a];
    if (spec.type == SmallGroupType::kUInt64) HWY_ABORT("SmallGroupBy: uint64 values");
    Tables t;
    t.spec = spec;
    if (SmallGroupTypeIsFloat(spec.type)) {
      t.float_pairs.assign(2 * entries * F, 0.0);
    } else {
      t.int_pairs.assign(2 * entries * K, 0);
      if (spec.type == SmallGroupType::kInt64) t.carries.assign(entries * K, 0);
      t.wide_sums.assign(slots, 0);
    }
    if (spec.min_max) {
      t.min_max.resize(2 * entries * K);
      for (size_t e = 0; e < entries * K; ++e) {
        t.min_max[2 * e] = std::numeric_limits<int64_t>::max();
        t.min_max[2 * e + 1] = std::numeric_limits<int64_t>::min();
      }
    }
    t.wide_counts.assign(slots, 0);
    tables_.push_back(std::move(t));
    // A non-nullable aggregate counts every selected row: its COUNT is COUNT(*).
    if (!spec.nullable && row_count_source_ == SIZE_MAX) row_count_source_ = a;
  }
  if (row_count_source_ == SIZE_MAX) row_counts_.assign(entries * K, 0);
  scratch_idx_.resize(4 * (sgd::kBlockRows + sgd::kScratchSlack));
  scratch_f64_.resize(sgd::kBlockRows + sgd::kScratchSlack);
  scratch_i64_.resize(2 * (sgd::kBlockRows + sgd::kScratchSlack));
}

void SmallGroupBy::Update(const void* keys, size_t n, const uint64_t* selection,
                          const SmallGroupColumn* columns, uint64_t first_row) {
  if (n == 0) return;  // columns may be nullptr then
  const size_t num = aggregates_.size();
  for (size_t a = 0; a < num; ++a) {
    if (columns[a].validity != nullptr && !aggregates_[a].nullable) {
      HWY_ABORT("SmallGroupBy: validity given for non-nullable aggregate %zu", a);
    }
  }
  constexpr size_t kPlanOnStack = 8;
  sgd::AggregatePlan on_stack[kPlanOnStack];
  std::vector<sgd::AggregatePlan> on_heap(num > kPlanOnStack ? num : 0);
  sgd::AggregatePlan* plans = num > kPlanOnStack ? on_heap.data() : on_stack;

  const size_t stride = sgd::kBlockRows + sgd::kScratchSlack;
  sgd::SegmentPlan p;
  p.key_type = key_type_;
  p.key_min = key_min_;
  p.slots = static_cast<uint32_t>(slots_);
  p.interleave_shift = interleave_shift_;
  p.row_counts = row_counts_.empty() ? nullptr : row_counts_.data();
  p.aggregates = plans;
  p.num_aggregates = num;
  p.idx_k = scratch_idx_.data();
  p.idx_f = scratch_idx_.data() + stride;
  p.idx_v = scratch_idx_.data() + 2 * stride;
  p.idx_w = scratch_idx_.data() + 3 * stride;
  p.f64_values = scratch_f64_.data();
  p.i64_values = scratch_i64_.data();
  p.ordered = scratch_i64_.data() + stride;

  const size_t key_bytes = SmallGroupTypeBytes(key_type_);
  size_t done = 0;
  while (done < n) {
    // Segments start at multiples of 64 rows (bitmask words) and end before the next fold.
    const uint64_t room = (flush_rows_ - rows_since_flush_) / 64 * 64;
    if (room == 0) {
      Flush();
      continue;
    }
    const size_t rows = static_cast<size_t>(std::min<uint64_t>(n - done, room));
    p.keys = static_cast<const uint8_t*>(keys) + done * key_bytes;
    p.rows = rows;
    p.selection = selection == nullptr ? nullptr : selection + done / 64;
    p.first_row = first_row + done;
    for (size_t a = 0; a < num; ++a) {
      Tables& t = tables_[a];
      sgd::AggregatePlan& ap = plans[a];
      ap.type = t.spec.type;
      ap.values = static_cast<const uint8_t*>(columns[a].values) +
                  done * SmallGroupTypeBytes(t.spec.type);
      ap.validity = columns[a].validity == nullptr ? nullptr : columns[a].validity + done / 64;
      ap.float_pairs = t.float_pairs.empty() ? nullptr : t.float_pairs.data();
      ap.int_pairs = t.int_pairs.empty() ? nullptr : t.int_pairs.data();
      ap.carries = t.carries.empty() ? nullptr : t.carries.data();
      ap.min_max = t.min_max.empty() ? nullptr : t.min_max.data();
    }
    HWY_DYNAMIC_DISPATCH(SmallGroupUpdateSegmentTarget)(&p);
    rows_since_flush_ += rows;
    done += rows;
  }
}

// Moves the 64-bit partial sums and counts into the 128-bit / 64-bit totals and zeroes them,
// so each starts again from at most kSmallGroupFlushRows rows. Float sums stay: only their
// counts move, so the float order is untouched.
void SmallGroupBy::Flush() {
  const size_t K = interleave();
  for (Tables& t : tables_) {
    for (size_t slot = 0; slot < slots_; ++slot) t.wide_counts[slot] += SumPairCounts(t, slot);
    if (!t.float_pairs.empty()) {
      for (size_t e = 0; e < t.float_pairs.size(); e += 2) t.float_pairs[e + 1] = 0.0;
    } else {
      for (size_t slot = 0; slot < slots_; ++slot) {
        for (size_t k = 0; k < K; ++k) {
          const size_t e = slot * K + k;
          t.wide_sums[slot] += WithCarry(t.int_pairs[2 * e], t.carries.empty() ? 0 : t.carries[e]);
        }
      }
      std::fill(t.int_pairs.begin(), t.int_pairs.end(), 0);
      std::fill(t.carries.begin(), t.carries.end(), 0);
    }
  }
  rows_since_flush_ = 0;
}

uint64_t SmallGroupBy::SumPairCounts(const Tables& t, size_t slot) const {
  uint64_t count = 0;
  if (!t.float_pairs.empty()) {
    for (size_t f = 0; f < F; ++f) {
      count += static_cast<uint64_t>(t.float_pairs[2 * (slot * F + f) + 1]);
    }
  } else {
    const size_t K = interleave();
    for (size_t k = 0; k < K; ++k) {
      count += static_cast<uint64_t>(t.int_pairs[2 * (slot * K + k) + 1]);
    }
  }
  return count;
}

void SmallGroupBy::Merge(const SmallGroupBy& later) {
  bool same = later.key_type_ == key_type_ && later.key_min_ == key_min_ &&
              later.slots_ == slots_ && later.aggregates_.size() == aggregates_.size();
  for (size_t a = 0; same && a < aggregates_.size(); ++a) {
    same = later.aggregates_[a].type == aggregates_[a].type &&
           later.aggregates_[a].nullable == aggregates_[a].nullable &&
           later.aggregates_[a].min_max == aggregates_[a].min_max;
  }
  if (!same) HWY_ABORT("SmallGroupBy::Merge: different keys or aggregates");
  const size_t K = interleave();
  for (size_t slot = 0; slot < slots_; ++slot) {
    if (!row_counts_.empty()) row_counts_[slot * K] += later.RowCount(slot);
    for (size_t a = 0; a < tables_.size(); ++a) {
      Tables& t = tables_[a];
      const Tables& o = later.tables_[a];
      t.wide_counts[slot] += later.Count(a, slot);
      if (!t.float_pairs.empty()) {
        for (size_t f = 0; f < F; ++f) {
          double& part = t.float_pairs[2 * (slot * F + f)];
          part = part + o.float_pairs[2 * (slot * F + f)];
        }
      } else {
        t.wide_sums[slot] += later.SumInt(a, slot);
      }
      if (!t.min_max.empty()) {
        const size_t e = 2 * slot * K;
        const size_t KO = later.interleave();
        for (size_t k = 0; k < KO; ++k) {
          t.min_max[e] = std::min(t.min_max[e], o.min_max[2 * (slot * KO + k)]);
          t.min_max[e + 1] = std::max(t.min_max[e + 1], o.min_max[2 * (slot * KO + k) + 1]);
        }
      }
    }
  }
}

int64_t SmallGroupBy::KeyOfSlot(size_t slot) const {
  return static_cast<int64_t>(key_min_ + slot);
}

uint64_t SmallGroupBy::RowCount(size_t slot) const {
  if (row_counts_.empty()) return Count(row_count_source_, slot);
  const size_t K = interleave();
  uint64_t count = 0;
  for (size_t k = 0; k < K; ++k) count += row_counts_[slot * K + k];
  return count;
}

std::vector<uint32_t> SmallGroupBy::GroupSlots() const {
  std::vector<uint32_t> out;
  for (size_t slot = 0; slot < slots_; ++slot) {
    if (RowCount(slot) != 0) out.push_back(static_cast<uint32_t>(slot));
  }
  return out;
}

uint64_t SmallGroupBy::Count(size_t a, size_t slot) const {
  return tables_[a].wide_counts[slot] + SumPairCounts(tables_[a], slot);
}

Int128 SmallGroupBy::SumInt(size_t a, size_t slot) const {
  const Tables& t = tables_[a];
  const size_t K = interleave();
  Int128 sum = t.wide_sums[slot];
  for (size_t k = 0; k < K; ++k) {
    const size_t e = slot * K + k;
    sum += WithCarry(t.int_pairs[2 * e], t.carries.empty() ? 0 : t.carries[e]);
  }
  return sum;
}

double SmallGroupBy::SumFloat(size_t a, size_t slot) const {
  const double* pairs = &tables_[a].float_pairs[2 * slot * F];
  static_assert(F == 4, "the fold below is written out for four sub-tables");
  return (pairs[0] + pairs[4]) + (pairs[2] + pairs[6]);  // (p0 + p2) + (p1 + p3)
}

double SmallGroupBy::Avg(size_t a, size_t slot) const {
  const double count = static_cast<double>(Count(a, slot));
  if (SmallGroupTypeIsFloat(aggregates_[a].type)) return SumFloat(a, slot) / count;
  return static_cast<double>(SumInt(a, slot)) / count;
}

int64_t SmallGroupBy::MinInt(size_t a, size_t slot) const {
  const size_t K = interleave();
  int64_t m = std::numeric_limits<int64_t>::max();
  for (size_t k = 0; k < K; ++k) m = std::min(m, tables_[a].min_max[2 * (slot * K + k)]);
  return m;
}

int64_t SmallGroupBy::MaxInt(size_t a, size_t slot) const {
  const size_t K = interleave();
  int64_t m = std::numeric_limits<int64_t>::min();
  for (size_t k = 0; k < K; ++k) m = std::max(m, tables_[a].min_max[2 * (slot * K + k) + 1]);
  return m;
}

double SmallGroupBy::MinFloat(size_t a, size_t slot) const { return FromOrdered(MinInt(a, slot)); }
double SmallGroupBy::MaxFloat(size_t a, size_t slot) const { return FromOrdered(MaxInt(a, slot)); }

}  // namespace laneql
#endif  // HWY_ONCE
