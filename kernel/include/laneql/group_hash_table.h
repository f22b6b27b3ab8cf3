// Hash tables for hash GROUP BY and COUNT(DISTINCT): a map from key to dense group id (0, 1, 2,
// ... in first-insertion order). The aggregate states live elsewhere, in arrays indexed by group
// id; these tables only number the distinct keys.
//
// Layout (Swiss-table style open addressing, no deletions): a power-of-two number of slots, one
// control byte per slot (0x80 = empty, else the 7-bit tag hash >> 57) and one 16-byte slot entry
// (the key word, or for string and wide keys the full hash; the group id; the hash's low bits).
// A probe starts at slot hash & (capacity - 1) and compares 16 control bytes at a time with SIMD
// (dispatched to the best target the CPU supports, laneql/targets.h); the next 16-slot window is
// chosen by triangular steps, which visit every window of a power-of-two table. The load stays
// at most 7/8; growth doubles the capacity and moves every slot by its stored hash bits (keys
// are not re-hashed, so hashes combined over several columns keep working). Keys live in dense
// arrays indexed by group id: one uint64 per group, several for wide keys, or for strings one
// growing byte arena plus offsets.
//
// Hashes are the caller's (normally laneql::HashKeys / HashStrings, laneql/hash.h); the table
// uses the low bits for the start slot and the top 7 bits for the tag, so any hash with good
// low and high bits works. Equal keys must come with equal hashes.
//
// Errors: a failed allocation (or a table that would outgrow 2^32 - 1 groups) makes the call
// return false with *error naming the size; the table then holds the groups of the rows before
// the failing one, whose group ids were written, and stays usable. Nothing throws or aborts.
// A table is not thread-safe: build one per thread and Merge them. Find alone only reads the
// table, so several threads may Find in one table while nobody inserts.
#ifndef LANEQL_GROUP_HASH_TABLE_H_
#define LANEQL_GROUP_HASH_TABLE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "laneql/aligned_buffer.h"

namespace laneql {

// The group id written for rows a selection leaves out (or a group cap keeps out).
inline constexpr uint32_t kNoGroup = UINT32_MAX;
// FindOrInsert's default `max_groups`: no cap.
inline constexpr size_t kUnlimitedGroups = SIZE_MAX;

namespace group_hash_table_internal {
struct TableView;  // what the SIMD loops see (kernel/src/simd/group_hash_table_layout.h)
// The storage both tables share: control bytes, slot entries, and the hash of every group.
class SlotStorage {
 public:
  // A moved-from table is empty (and usable).
  SlotStorage() = default;
  SlotStorage(SlotStorage&& other) noexcept { *this = std::move(other); }
  SlotStorage& operator=(SlotStorage&& other) noexcept {
    if (this != &other) {
      ctrl_ = std::move(other.ctrl_);
      slots_ = std::move(other.slots_);
      hashes_ = std::move(other.hashes_);
      capacity_ = std::exchange(other.capacity_, 0);
      size_ = std::exchange(other.size_, 0);
      growth_limit_ = std::exchange(other.growth_limit_, 0);
    }
    return *this;
  }

  size_t capacity() const { return capacity_; }
  size_t size() const { return size_; }
  // The most groups the current capacity takes before it must grow (7/8 of it).
  size_t growth_limit() const { return growth_limit_; }

 protected:
  // Replaces the slots with `capacity` ones (a power of two >= 16, >= the current one) and
  // moves every used slot there. The per-group arrays must already hold the new growth limit.
  // On failure the table is unchanged.
  bool Rehash(size_t capacity, std::string* error);
  // The shared fields of the view the SIMD loops work on (the key fields are the caller's).
  TableView View();
  // The same for a lookup alone: max_groups = size(), so the loops insert nothing and write
  // nothing but the caller's group ids (which is why Find may be const and run on several
  // threads at once).
  TableView FindView() const;

  AlignedBuffer ctrl_;    // capacity_ + 16 bytes: the first 16 are mirrored at the end
  AlignedBuffer slots_;   // capacity_ SlotEntry (kernel/src/simd/group_hash_table_layout.h)
  AlignedBuffer hashes_;  // uint64 per group
  size_t capacity_ = 0;
  size_t size_ = 0;
  size_t growth_limit_ = 0;
};
}  // namespace group_hash_table_internal

// Keys of one uint64 word (one fixed-width column widened, or several small ones packed).
class FixedKeyHashTable : public group_hash_table_internal::SlotStorage {
 public:
  FixedKeyHashTable() = default;
  FixedKeyHashTable(FixedKeyHashTable&&) noexcept = default;
  FixedKeyHashTable& operator=(FixedKeyHashTable&&) noexcept = default;

  // For each row i < n: finds or inserts keys[i] (hash hashes[i]) and writes its group id to
  // group_ids[i]. `selection` is an n-row bitmask (laneql/bitmask.h) or nullptr for all rows;
  // unselected rows get kNoGroup and are not inserted. Once the table holds `max_groups`
  // groups, new keys are not inserted either and get kNoGroup: GROUP BY ... LIMIT n keeps its
  // first n groups in a table that stays that small, instead of inserting every key and
  // dropping the rest.
  bool FindOrInsert(const uint64_t* keys, const uint64_t* hashes, size_t n,
                    const uint64_t* selection, uint32_t* group_ids, std::string* error,
                    size_t max_groups = kUnlimitedGroups);
  // Inserts every group of `other` (in its group order) and sets (*mapping)[g] to this table's
  // group id for other's group g, so per-thread aggregate states can be merged. `other` must
  // not be this table.
  bool Merge(const FixedKeyHashTable& other, std::vector<uint32_t>* mapping, std::string* error);
  // Inserts only other's groups groups[0..n) (in that order) and sets ids[i] to this table's
  // group id for groups[i]: one partition of a two-level merge.
  bool MergeGroups(const FixedKeyHashTable& other, const uint32_t* groups, size_t n, uint32_t* ids,
                   std::string* error);
  // Pre-sizes for `groups` groups without growth on the way.
  bool Reserve(size_t groups, std::string* error);
  // For each row i < n (of `selection`, or all rows when it is null): group_ids[i] = the
  // group of keys[i], or kNoGroup when the table does not hold it (or the row is left out).
  // Inserts nothing.
  void Find(const uint64_t* keys, const uint64_t* hashes, size_t n, const uint64_t* selection,
            uint32_t* group_ids) const;

  // keys()[g] is the key of group g < size(); hashes()[g] its hash.
  const uint64_t* keys() const { return keys_.As<uint64_t>(); }
  const uint64_t* hashes() const { return hashes_.As<uint64_t>(); }

 private:
  // Grows the per-group arrays and then the slots to `capacity`.
  bool GrowTo(size_t capacity, std::string* error);
  AlignedBuffer keys_;  // uint64 per group
};

// Keys of `words_per_key` uint64 words (several key columns packed per row, e.g. two 64-bit
// columns or a 128-bit value): row i is keys[i * words_per_key, (i + 1) * words_per_key).
// The slots hold full hashes, so a key's words are read only when its whole hash matches.
class WideKeyHashTable : public group_hash_table_internal::SlotStorage {
 public:
  explicit WideKeyHashTable(size_t words_per_key = 2);  // 0 is taken as 1
  WideKeyHashTable(WideKeyHashTable&&) noexcept = default;
  WideKeyHashTable& operator=(WideKeyHashTable&&) noexcept = default;

  // As FixedKeyHashTable's; `other` must have the same words_per_key.
  bool FindOrInsert(const uint64_t* keys, const uint64_t* hashes, size_t n,
                    const uint64_t* selection, uint32_t* group_ids, std::string* error,
                    size_t max_groups = kUnlimitedGroups);
  bool Merge(const WideKeyHashTable& other, std::vector<uint32_t>* mapping, std::string* error);
  bool MergeGroups(const WideKeyHashTable& other, const uint32_t* groups, size_t n, uint32_t* ids,
                   std::string* error);
  bool Reserve(size_t groups, std::string* error);
  // As FixedKeyHashTable::Find.
  void Find(const uint64_t* keys, const uint64_t* hashes, size_t n, const uint64_t* selection,
            uint32_t* group_ids) const;

  size_t words_per_key() const { return words_per_key_; }
  // The words of group g's key: keys() + g * words_per_key().
  const uint64_t* keys() const { return keys_.As<uint64_t>(); }
  const uint64_t* key(size_t g) const { return keys() + g * words_per_key_; }
  const uint64_t* hashes() const { return hashes_.As<uint64_t>(); }

 private:
  bool GrowTo(size_t capacity, std::string* error);
  size_t words_per_key_;
  AlignedBuffer keys_;  // words_per_key_ uint64 per group
};

// Keys that are Arrow utf8 rows: row i is bytes[offsets[i], offsets[i + 1]), NULL where the
// validity bit is 0. Strings compare byte-wise; NULL is one group of its own, distinct from ''.
class StringKeyHashTable : public group_hash_table_internal::SlotStorage {
 public:
  StringKeyHashTable() = default;
  StringKeyHashTable(StringKeyHashTable&& other) noexcept { *this = std::move(other); }
  StringKeyHashTable& operator=(StringKeyHashTable&& other) noexcept {
    if (this != &other) {
      SlotStorage::operator=(std::move(other));
      offsets_ = std::move(other.offsets_);
      arena_ = std::move(other.arena_);
      null_group_ = std::exchange(other.null_group_, kNoGroup);
    }
    return *this;
  }

  // As FixedKeyHashTable::FindOrInsert; `validity` is an n-row bitmask or nullptr (no NULLs).
  // The hash of a NULL row is stored (for Merge) but not used to find the NULL group.
  bool FindOrInsert(const int32_t* offsets, const uint8_t* bytes, const uint64_t* validity,
                    const uint64_t* hashes, size_t n, const uint64_t* selection,
                    uint32_t* group_ids, std::string* error,
                    size_t max_groups = kUnlimitedGroups);
  bool Merge(const StringKeyHashTable& other, std::vector<uint32_t>* mapping, std::string* error);
  bool MergeGroups(const StringKeyHashTable& other, const uint32_t* groups, size_t n, uint32_t* ids,
                   std::string* error);
  // Pre-sizes for `groups` groups whose keys take `key_bytes` bytes in all.
  bool Reserve(size_t groups, size_t key_bytes, std::string* error);
  // As FixedKeyHashTable::Find; a NULL row (validity bit 0) finds the NULL group.
  void Find(const int32_t* offsets, const uint8_t* bytes, const uint64_t* validity,
            const uint64_t* hashes, size_t n, const uint64_t* selection, uint32_t* group_ids) const;

  // The key of group g < size() ("" for the NULL group, see is_null).
  std::string_view key(size_t g) const {
    const uint64_t* offsets = offsets_.As<uint64_t>();
    return std::string_view(reinterpret_cast<const char*>(arena_.data()) + offsets[g],
                            offsets[g + 1] - offsets[g]);
  }
  bool is_null(size_t g) const { return g == null_group_; }
  // The NULL key's group id, or kNoGroup while no NULL key was inserted.
  uint32_t null_group() const { return null_group_; }
  const uint64_t* hashes() const { return hashes_.As<uint64_t>(); }
  size_t arena_bytes() const { return size_ == 0 ? 0 : offsets_.As<uint64_t>()[size_]; }

 private:
  bool GrowTo(size_t capacity, std::string* error);
  bool GrowArena(size_t bytes, std::string* error);
  AlignedBuffer offsets_;  // uint64 per group + 1: group g is arena_[offsets[g], offsets[g + 1])
  AlignedBuffer arena_;    // the key bytes of every group, back to back
  uint32_t null_group_ = kNoGroup;
};

}  // namespace laneql

#endif  // LANEQL_GROUP_HASH_TABLE_H_
