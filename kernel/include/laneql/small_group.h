// Small-key GROUP BY: aggregates grouped by a key with at most 65,536 distinct values, kept in
// direct-indexed state tables (ClickHouse's lookup-table aggregation): slot = key - key_min, no
// hashing. For 8/16-bit keys (the whole domain is small) and for any integer key column whose
// min..max range spans at most 65,536 values (SmallGroupKeyRange finds it in one SIMD pass).
//
// ClickBench examples: GROUP BY AdvEngineID (SMALLINT), GROUP BY RegionID (INTEGER, a few
// thousand values) with SUM(AdvEngineID), COUNT(*), AVG(ResolutionWidth).
//
// States. Every aggregate keeps COUNT (of its non-NULL values), SUM and therefore AVG; MIN and
// MAX on request. COUNT(*) per group is RowCount. Integer SUM is exact (128-bit, as DuckDB's
// HUGEINT): 64-bit per-slot accumulators, an overflow carry for int64 values, and a fold into
// 128-bit totals at least every kSmallGroupFlushRows rows. Float32 values are summed as float64.
//
// The float SUM order, which every target, every interleave K and the reference follow exactly,
// so float sums are bit-identical everywhere:
//  - a row's position is its global row number r = first_row + i (first_row: Update's argument);
//  - each group has kSmallGroupFloatSubTables (F = 4) partial sums p[0..3], each starting at +0.0;
//  - a selected, non-NULL row with value v adds v to p[r % F] of its group, in increasing r;
//  - the group's SUM is (p[0] + p[2]) + (p[1] + p[3]);
//  - Merge(later) adds later's p[f] to this p[f] (this + later) for each f.
// Sequential Update calls with consecutive first_row equal one call over the concatenation.
// F is fixed (not the interleave K) because four independent add chains per group already hide
// the store-to-load latency of a hot key (a key on 90 % of the rows) and keep a slot's four
// {sum, count} pairs in one 64-byte cache line.
//
// MIN/MAX of floats use the total order -inf < ... < -0.0 < +0.0 < ... < +inf < NaN (NaN is the
// largest value, as in DuckDB), so they do not depend on the order either; a NaN result is the
// canonical quiet NaN.
//
// Interleave K (integer and count states): row r updates copy r % K of its slot's
// state, so consecutive rows of one hot key do not wait on each other's stores; the K copies are
// folded when results are read. K changes no result, only the speed; 0 picks the default of the
// dispatched SIMD target (measured per target, see bench/small_group_bench.cc).
//
// Masks follow laneql/bitmask.h: `selection` (nullptr = all rows) filters rows for every state,
// COUNT(*) included; a column's `validity` (nullptr = no NULLs) removes NULL values from its
// aggregate only. Keys outside [key_min, key_min + slots) are ignored (counted nowhere): memory
// stays safe even when the caller's range is wrong.
#ifndef LANEQL_SMALL_GROUP_H_
#define LANEQL_SMALL_GROUP_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "laneql/int128.h"

namespace laneql {

enum class SmallGroupType : uint8_t {
  kInt8, kInt16, kInt32, kInt64, kUInt8, kUInt16, kUInt32, kUInt64, kFloat32, kFloat64
};
size_t SmallGroupTypeBytes(SmallGroupType type);
bool SmallGroupTypeIsFloat(SmallGroupType type);

inline constexpr size_t kSmallGroupMaxSlots = 65536;
inline constexpr size_t kSmallGroupFloatSubTables = 4;
// Integer partial sums fold into 128-bit totals at least this often: |value| < 2^32 and at most
// 2^31 rows keep a 64-bit partial sum below 2^63.
inline constexpr uint64_t kSmallGroupFlushRows = uint64_t{1} << 31;

// Minimum and maximum of an integer key column (SIMD, one pass). Keys and results are int64;
// kUInt64 keys are their bit patterns (compared as unsigned). Returns false when n == 0.
bool SmallGroupKeyRange(const void* keys, SmallGroupType key_type, size_t n, int64_t* min,
                        int64_t* max);
// Slots for keys in [min, max] (max - min + 1), or 0 when that is more than kSmallGroupMaxSlots.
// For kUInt64 keys min and max are bit patterns and compared as unsigned.
size_t SmallGroupSlotsForRange(SmallGroupType key_type, int64_t min, int64_t max);

// One aggregate: its value type (any type but kUInt64) and what it keeps besides COUNT/SUM/AVG.
struct SmallGroupAggregate {
  SmallGroupType type = SmallGroupType::kInt64;
  bool nullable = false;  // its column may come with a validity bitmap
  bool min_max = false;   // also keep MIN and MAX
};

// One aggregate's input to Update: values[0..n) and its validity (nullptr = no NULLs; must be
// nullptr for an aggregate declared non-nullable).
struct SmallGroupColumn {
  const void* values = nullptr;
  const uint64_t* validity = nullptr;
};

// The SIMD target's default interleave K for a table of `slots` slots.
size_t SmallGroupDefaultInterleave(size_t slots);

// One GROUP BY: a key column and a list of aggregates, one state table each. Not thread-safe;
// for parallel execution give each thread its own and Merge them in row order.
class SmallGroupBy {
 public:
  // Keys of key_type (an integer type) with slot = key - key_min in [0, slots), slots in
  // 1..kSmallGroupMaxSlots; key_min .. key_min + slots - 1 must be values of key_type (so 8-bit
  // keys have at most 256 slots). interleave: K in {1, 2, 4, 8}, or 0 for the target default.
  SmallGroupBy(SmallGroupType key_type, int64_t key_min, size_t slots,
               std::vector<SmallGroupAggregate> aggregates, size_t interleave = 0);

  // Aggregates rows [0, n): keys[i], columns[a].values[i] for each aggregate a. first_row is the
  // global row number of row 0 (it places rows in the float sub-sums; see the order above).
  void Update(const void* keys, size_t n, const uint64_t* selection,
              const SmallGroupColumn* columns, uint64_t first_row);
  // Adds the states of `later` (same keys and aggregates, any interleave), which covers rows
  // after this one's: float partial sums become this + later.
  void Merge(const SmallGroupBy& later);

  size_t slots() const { return slots_; }
  size_t interleave() const { return size_t{1} << interleave_shift_; }
  size_t num_aggregates() const { return aggregates_.size(); }
  int64_t KeyOfSlot(size_t slot) const;  // key_min + slot (bit pattern for kUInt64 keys)

  // COUNT(*) of the group: selected rows with its key. A group exists when RowCount > 0.
  uint64_t RowCount(size_t slot) const;
  // The slots of the existing groups, in increasing key order.
  std::vector<uint32_t> GroupSlots() const;

  // Aggregate a's states of a group; SUM, AVG, MIN and MAX are SQL NULL when Count is 0.
  uint64_t Count(size_t a, size_t slot) const;
  Int128 SumInt(size_t a, size_t slot) const;    // integer value types
  double SumFloat(size_t a, size_t slot) const;  // float value types
  double Avg(size_t a, size_t slot) const;       // SUM / COUNT in double (Int128 -> double first)
  int64_t MinInt(size_t a, size_t slot) const;   // integer types, min_max aggregates
  int64_t MaxInt(size_t a, size_t slot) const;
  double MinFloat(size_t a, size_t slot) const;  // float types, min_max aggregates
  double MaxFloat(size_t a, size_t slot) const;

  // Folds integer partial sums into 128-bit totals after every `rows` rows (>= 64) instead of
  // kSmallGroupFlushRows, so tests can reach the fold. Results never depend on it.
  void SetFlushRowsForTesting(uint64_t rows) { flush_rows_ = rows < 64 ? 64 : rows; }

 private:
  struct Tables {
    SmallGroupAggregate spec;
    std::vector<double> float_pairs;   // float types: {sum, count} per (slot, sub-table f)
    std::vector<int64_t> int_pairs;    // integer types: {sum, count} per (slot, copy k)
    std::vector<int64_t> carries;      // int64 values: 2^64 carries per (slot, copy k)
    std::vector<int64_t> min_max;      // min_max: {min, max} per (slot, copy k), ordered bits
    std::vector<Int128> wide_sums;     // integer sums folded so far, per slot
    std::vector<uint64_t> wide_counts; // counts folded so far, per slot
  };
  void Flush();
  uint64_t SumPairCounts(const Tables& t, size_t slot) const;

  SmallGroupType key_type_;
  uint64_t key_min_;
  size_t slots_;
  uint32_t interleave_shift_;
  std::vector<SmallGroupAggregate> aggregates_;
  std::vector<Tables> tables_;
  // COUNT(*) per (slot, copy k); empty when a non-nullable aggregate's COUNT is the row count.
  std::vector<uint64_t> row_counts_;
  size_t row_count_source_;  // that aggregate, or SIZE_MAX
  uint64_t rows_since_flush_ = 0;
  uint64_t flush_rows_ = kSmallGroupFlushRows;
  // Per-block scratch: slot indexes and prepared values (reused across Update calls).
  std::vector<uint32_t> scratch_idx_;
  std::vector<double> scratch_f64_;
  std::vector<int64_t> scratch_i64_;
};

namespace reference {
// Plain scalar GROUP BY, no Highway, one table per state: the definition the kernels are tested
// against (same constructor and results as laneql::SmallGroupBy; it follows the float order).
class SmallGroupBy {
 public:
  SmallGroupBy(SmallGroupType key_type, int64_t key_min, size_t slots,
               std::vector<SmallGroupAggregate> aggregates);
  void Update(const void* keys, size_t n, const uint64_t* selection,
              const SmallGroupColumn* columns, uint64_t first_row);
  void Merge(const SmallGroupBy& later);

  size_t slots() const { return slots_; }
  int64_t KeyOfSlot(size_t slot) const;
  uint64_t RowCount(size_t slot) const { return row_counts_[slot]; }
  std::vector<uint32_t> GroupSlots() const;
  uint64_t Count(size_t a, size_t slot) const { return states_[a].counts[slot]; }
  Int128 SumInt(size_t a, size_t slot) const { return states_[a].int_sums[slot]; }
  double SumFloat(size_t a, size_t slot) const;
  double Avg(size_t a, size_t slot) const;
  int64_t MinInt(size_t a, size_t slot) const { return states_[a].int_mins[slot]; }
  int64_t MaxInt(size_t a, size_t slot) const { return states_[a].int_maxs[slot]; }
  double MinFloat(size_t a, size_t slot) const { return states_[a].float_mins[slot]; }
  double MaxFloat(size_t a, size_t slot) const { return states_[a].float_maxs[slot]; }

 private:
  struct States {
    SmallGroupAggregate spec;
    std::vector<uint64_t> counts;
    std::vector<Int128> int_sums;
    std::vector<double> float_sums;  // kSmallGroupFloatSubTables per slot
    std::vector<int64_t> int_mins, int_maxs;
    std::vector<double> float_mins, float_maxs;
  };
  SmallGroupType key_type_;
  uint64_t key_min_;
  size_t slots_;
  std::vector<uint64_t> row_counts_;
  std::vector<States> states_;
};
}  // namespace reference

}  // namespace laneql

#endif  // LANEQL_SMALL_GROUP_H_
