// The memory layout the group hash tables (laneql/group_hash_table.h) share between their
// non-SIMD half (allocation, growth, merge) and the per-target probe loops.
#ifndef LANEQL_SIMD_GROUP_HASH_TABLE_LAYOUT_H_
#define LANEQL_SIMD_GROUP_HASH_TABLE_LAYOUT_H_

#include <stddef.h>
#include <stdint.h>

namespace laneql::group_hash_table_internal {

// Control bytes: kEmpty, or the tag of the group in that slot (hash >> kTagShift, 0..127).
inline constexpr uint8_t kEmpty = 0x80;
inline constexpr int kTagShift = 57;
// Control bytes compared per probe step. The first kWindow control bytes are mirrored after the
// last one, so a window starting at any slot is one unaligned load that never wraps.
inline constexpr size_t kWindow = 16;
inline constexpr size_t kMinCapacity = 16;

// One slot: the key word (fixed keys) or the full hash (string and wide keys, compared before the
// key itself), the group id, and the low 32 bits of the hash, from which growth finds the slot's
// place in the doubled table while reading the old slots in order (for tables up to 2^32 slots;
// bigger ones look the hash up by group). 16 bytes, so a slot never straddles a cache line.
struct SlotEntry {
  uint64_t word;
  uint32_t group;
  uint32_t hash_low;
};
static_assert(sizeof(SlotEntry) == 16, "slot entries are 16 bytes");

// A borrowed view of one table, handed to the per-target loops. They insert until the table is
// at its growth limit (or, for strings, the arena is full) and then return the row they stopped
// at, so that all allocation stays in non-SIMD code. Once the table holds max_groups groups they
// only find: a row of a new key gets kNoGroup (GROUP BY ... LIMIT n keeps its first n groups).
struct TableView {
  uint8_t* ctrl;
  SlotEntry* slots;
  size_t mask;  // capacity - 1
  uint64_t* hashes;  // per group
  size_t size;       // groups so far (updated by the loops)
  size_t growth_limit;
  size_t max_groups;  // no group is added past this many: new keys get kNoGroup
  uint64_t* keys;  // fixed keys: per group; wide keys: words_per_key per group
  size_t words_per_key;
  // String keys: group g is arena[offsets[g], offsets[g + 1]).
  uint64_t* offsets;
  uint8_t* arena;
  size_t arena_capacity;
  uint32_t null_group;  // kNoGroup until a NULL key arrives
};

}  // namespace laneql::group_hash_table_internal

#endif  // LANEQL_SIMD_GROUP_HASH_TABLE_LAYOUT_H_
