// Scalar reference for the small-key GROUP BY: one plain loop over the rows and one table per
// state, spelling out laneql/small_group.h's definition (float sum order included). No Highway,
// no interleaved copies, no trash slot, no 64-bit partial sums: a bug in the kernels cannot hide
// in a helper shared with them.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "laneql/bitmask.h"
#include "laneql/small_group.h"

namespace laneql {
namespace reference {
namespace {

bool IsFloat(SmallGroupType t) {
  return t == SmallGroupType::kFloat32 || t == SmallGroupType::kFloat64;
}

// Row i of a column of type t, as the mathematical integer (unsigned 64-bit: its bit pattern).
int64_t IntAt(const void* column, SmallGroupType t, size_t i) {
  switch (t) {
    case SmallGroupType::kInt8: return static_cast<const int8_t*>(column)[i];
    case SmallGroupType::kInt16: return static_cast<const int16_t*>(column)[i];
    case SmallGroupType::kInt32: return static_cast<const int32_t*>(column)[i];
    case SmallGroupType::kInt64: return static_cast<const int64_t*>(column)[i];
    case SmallGroupType::kUInt8: return static_cast<const uint8_t*>(column)[i];
    case SmallGroupType::kUInt16: return static_cast<const uint16_t*>(column)[i];
    case SmallGroupType::kUInt32: return static_cast<const uint32_t*>(column)[i];
    case SmallGroupType::kUInt64:
      return static_cast<int64_t>(static_cast<const uint64_t*>(column)[i]);
    default: std::abort();
  }
}

double FloatAt(const void* column, SmallGroupType t, size_t i) {
  if (t == SmallGroupType::kFloat32) return static_cast<const float*>(column)[i];
  return static_cast<const double*>(column)[i];
}

// The total order of small_group.h: -0.0 below +0.0, NaN above everything (all NaNs equal).
bool TotalLess(double a, double b) {
  if (std::isnan(a)) return false;
  if (std::isnan(b)) return true;
  if (a == b) return std::signbit(a) && !std::signbit(b);
  return a < b;
}

}  // namespace

SmallGroupBy::SmallGroupBy(SmallGroupType key_type, int64_t key_min, size_t slots,
                           std::vector<SmallGroupAggregate> aggregates)
    : key_type_(key_type), key_min_(static_cast<uint64_t>(key_min)), slots_(slots),
      row_counts_(slots, 0) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const SmallGroupAggregate& spec : aggregates) {
    States s;
    s.spec = spec;
    s.counts.assign(slots, 0);
    s.int_sums.assign(slots, 0);
    s.float_sums.assign(slots * kSmallGroupFloatSubTables, 0.0);
    s.int_mins.assign(slots, std::numeric_limits<int64_t>::max());
    s.int_maxs.assign(slots, std::numeric_limits<int64_t>::min());
    s.float_mins.assign(slots, nan);  // NaN is the largest: any value replaces it as MIN
    s.float_maxs.assign(slots, -std::numeric_limits<double>::infinity());
    states_.push_back(std::move(s));
  }
}

void SmallGroupBy::Update(const void* keys, size_t n, const uint64_t* selection,
                          const SmallGroupColumn* columns, uint64_t first_row) {
  for (size_t i = 0; i < n; ++i) {
    if (selection != nullptr && !BitmaskGet(selection, i)) continue;
    // Mathematical key - key_min; keys below key_min wrap to huge values and are skipped.
    const uint64_t slot = static_cast<uint64_t>(IntAt(keys, key_type_, i)) - key_min_;
    if (slot >= slots_) continue;
    ++row_counts_[slot];
    for (size_t a = 0; a < states_.size(); ++a) {
      States& s = states_[a];
      const SmallGroupColumn& c = columns[a];
      if (c.validity != nullptr && !BitmaskGet(c.validity, i)) continue;
      ++s.counts[slot];
      if (IsFloat(s.spec.type)) {
        const double v = FloatAt(c.values, s.spec.type, i);
        double& part = s.float_sums[slot * kSmallGroupFloatSubTables +
                                    (first_row + i) % kSmallGroupFloatSubTables];
        part = part + v;
        if (s.spec.min_max) {
          const double canonical = std::isnan(v) ? std::numeric_limits<double>::quiet_NaN() : v;
          // The first value replaces the initial NaN even when the value is NaN itself.
          if (s.counts[slot] == 1 || TotalLess(canonical, s.float_mins[slot])) {
            s.float_mins[slot] = canonical;
          }
          if (s.counts[slot] == 1 || TotalLess(s.float_maxs[slot], canonical)) {
            s.float_maxs[slot] = canonical;
          }
        }
      } else {
        const int64_t v = IntAt(c.values, s.spec.type, i);
        s.int_sums[slot] += v;
        if (v < s.int_mins[slot]) s.int_mins[slot] = v;
        if (v > s.int_maxs[slot]) s.int_maxs[slot] = v;
      }
    }
  }
}

void SmallGroupBy::Merge(const SmallGroupBy& later) {
  for (size_t slot = 0; slot < slots_; ++slot) row_counts_[slot] += later.row_counts_[slot];
  for (size_t a = 0; a < states_.size(); ++a) {
    States& s = states_[a];
    const States& o = later.states_[a];
    for (size_t slot = 0; slot < slots_; ++slot) {
      if (o.counts[slot] == 0) continue;
      const bool first = s.counts[slot] == 0;
      s.counts[slot] += o.counts[slot];
      s.int_sums[slot] += o.int_sums[slot];
      for (size_t f = 0; f < kSmallGroupFloatSubTables; ++f) {
        double& part = s.float_sums[slot * kSmallGroupFloatSubTables + f];
        part = part + o.float_sums[slot * kSmallGroupFloatSubTables + f];
      }
      s.int_mins[slot] = std::min(s.int_mins[slot], o.int_mins[slot]);
      s.int_maxs[slot] = std::max(s.int_maxs[slot], o.int_maxs[slot]);
      if (first || TotalLess(o.float_mins[slot], s.float_mins[slot])) {
        s.float_mins[slot] = o.float_mins[slot];
      }
      if (first || TotalLess(s.float_maxs[slot], o.float_maxs[slot])) {
        s.float_maxs[slot] = o.float_maxs[slot];
      }
    }
  }
}

int64_t SmallGroupBy::KeyOfSlot(size_t slot) const {
  return static_cast<int64_t>(key_min_ + slot);
}

std::vector<uint32_t> SmallGroupBy::GroupSlots() const {
  std::vector<uint32_t> out;
  for (size_t slot = 0; slot < slots_; ++slot) {
    if (row_counts_[slot] != 0) out.push_back(static_cast<uint32_t>(slot));
  }
  return out;
}

double SmallGroupBy::SumFloat(size_t a, size_t slot) const {
  const double* p = &states_[a].float_sums[slot * kSmallGroupFloatSubTables];
  return (p[0] + p[2]) + (p[1] + p[3]);
}

double SmallGroupBy::Avg(size_t a, size_t slot) const {
  const double count = static_cast<double>(Count(a, slot));
  if (IsFloat(states_[a].spec.type)) return SumFloat(a, slot) / count;
  return static_cast<double>(SumInt(a, slot)) / count;
}

}  // namespace reference
}  // namespace laneql
