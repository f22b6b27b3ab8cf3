// Internal to the small-key GROUP BY: the plan one Update segment hands to the per-target code
// (laneql/small_group.h is the public side). Plain pointers, so the SIMD code does not depend on
// the class or on std::vector.
//
// Table layout. Every state table has slots + 1 rows of slots: row `slots` is the trash slot
// that unselected rows, NULL values and out-of-range keys update, so the update loops never
// branch on masks. Each slot holds its copies next to each other (one cache line for a hot
// slot), copy chosen by the global row number r:
//  - integer and count states: K copies, entry index slot * K + (r % K);
//  - float {sum, count} pairs:  F copies, entry index slot * F + (r % F).
// With K == F both are the same index, computed once.
#ifndef LANEQL_SRC_SIMD_SMALL_GROUP_LAYOUT_H_
#define LANEQL_SRC_SIMD_SMALL_GROUP_LAYOUT_H_

#include <cstddef>
#include <cstdint>

#include "laneql/small_group.h"

namespace laneql {
namespace small_group_detail {

// Rows per block: the slot indexes and prepared values of one block (4 + 16 bytes a row) stay
// in L1 next to a 256-slot table. A multiple of 64 so blocks start at bitmask word boundaries.
inline constexpr size_t kBlockRows = 1024;
// Slack after each scratch buffer: full-vector stores of a partial last vector stay inside.
inline constexpr size_t kScratchSlack = 64;

struct AggregatePlan {
  SmallGroupType type;
  const void* values;        // the segment's rows
  const uint64_t* validity;  // nullptr: no NULLs
  double* float_pairs;       // float types: {sum, count} per entry (F-indexed)
  int64_t* int_pairs;        // integer types: {sum, count} per entry (K-indexed)
  int64_t* carries;          // kInt64: overflow carries (units of 2^64) per entry, else nullptr
  int64_t* min_max;          // {min, max} per entry (K-indexed) in the total order, or nullptr
};

struct SegmentPlan {
  const void* keys;
  SmallGroupType key_type;
  uint64_t key_min;  // two's complement bits; slots are computed modulo the key width
  uint32_t slots;    // also the trash slot's number
  size_t rows;
  const uint64_t* selection;  // nullptr: all rows; bit 0 = row 0 of the segment
  uint64_t first_row;         // global row number of row 0
  uint32_t interleave_shift;  // K = 1 << interleave_shift
  uint64_t* row_counts;       // COUNT(*) per entry (K-indexed), or nullptr
  const AggregatePlan* aggregates;
  size_t num_aggregates;
  // Scratch, kBlockRows + kScratchSlack elements each.
  uint32_t* idx_k;  // K-indexed entries of the block's rows (trash when unselected)
  uint32_t* idx_f;  // F-indexed entries (unused when K == F: idx_k is both)
  uint32_t* idx_v;  // the sum index with NULL rows sent to the trash slot
  uint32_t* idx_w;  // idx_k with NULL rows sent to the trash slot (MIN/MAX of floats)
  double* f64_values;     // float32 values widened
  int64_t* i64_values;    // narrower integers widened
  int64_t* ordered;       // values as int64 in the total order (MIN/MAX)
};

// Float64 bits as int64 such that signed comparison is the total order of small_group.h:
// negative values have their magnitude bits flipped; NaN must be canonical first.
inline int64_t OrderedFromBits(int64_t bits) {
  return bits < 0 ? bits ^ INT64_MAX : bits;
}
inline constexpr int64_t kCanonicalNaNBits = 0x7FF8000000000000;

}  // namespace small_group_detail
}  // namespace laneql

#endif  // LANEQL_SRC_SIMD_SMALL_GROUP_LAYOUT_H_
