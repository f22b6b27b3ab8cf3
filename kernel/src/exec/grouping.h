// Grouping: GROUP BY key values -> dense group ids (0, 1, 2, ... in first-seen order), the
// first half of hash aggregation. The strategy follows the key types:
//  - one 8/16-bit (or bool) key, or one wider integer key whose column's values span at most
//    65,536 (Column::IntegerRange): a direct lookup table of 65,536 slots (+1 for NULL), the
//    slot the value's offset, no hashing;
//  - fixed-width keys that pack into 8 bytes with no NULLs: one uint64 word per row,
//    FixedKeyHashTable;
//  - other fixed-width keys: a word per key (+ a NULL-flags word), WideKeyHashTable;
//  - one string key: StringKeyHashTable on the strings themselves (keys in its arena);
//  - strings among several keys: each row's keys serialised into one byte string.
// A Grouper is single-threaded: each thread of a query fills its own, and they are merged.
#ifndef LANEQL_EXEC_GROUPING_H_
#define LANEQL_EXEC_GROUPING_H_

#include <memory>
#include <string>
#include <vector>

#include "laneql/column.h"
#include "laneql/group_hash_table.h"
#include "src/exec/hash_ownership.h"
#include "src/exec/vector.h"

namespace laneql {
namespace exec {

// One batch's GROUP BY keys made ready for a hash table: the packed or wide words, or the
// serialised bytes, and every row's hash. Filled by Grouper::Prepare, read by Grouper::Insert
// together with the key Vecs it was prepared from (kDirect and kString read those, and a single
// 8-byte key's words are its values). An owned scan prepares each batch once, on one thread,
// and every owner inserts its share of it (owned_scan.h).
struct PreparedKeys {
  size_t count = 0;
  const uint64_t* words = nullptr;  // kPacked: one per row; kWide: words per row
  std::vector<uint64_t> words_buf, hashes;
  AlignedBuffer ser_offsets, ser_data;  // kSerialized
};

class Grouper {
 public:
  enum class Strategy { kDirect, kPacked, kWide, kString, kSerialized };

  // `nullable[i]`: whether key i can be NULL. `lookup_table`: false sends a single 8/16-bit key
  // through the hash table too (same groups, in the same order; to compare the two's speed).
  // `direct_min`: one integer key (Column::IntegerRange's types) whose every value v has
  // 0 <= v - *direct_min < kDirectSlots goes to the direct table too (with lookup_table).
  bool Init(const std::vector<TypeId>& key_types, const std::vector<bool>& nullable,
            bool lookup_table, std::string* error, const int64_t* direct_min = nullptr);
  static constexpr size_t kDirectSlots = 65536;
  // Group ids of `count` rows; keys[i] holds key i for those rows (not constant: see
  // ExpandConstant).
  bool Assign(const std::vector<Vec>& keys, size_t count, uint32_t* group_ids, std::string* error);
  // Assign in two steps: Prepare touches no state of this grouper (any grouper of the same key
  // types gives the same result, on any thread); Insert then finds or adds the groups (of the
  // owned rows only, under SetOwnership). `keys` must be the same, alive, for both.
  bool Prepare(const std::vector<Vec>& keys, size_t count, PreparedKeys* out, std::string* error) const;
  bool Insert(const std::vector<Vec>& keys, const PreparedKeys& prepared, uint32_t* group_ids,
              std::string* error);
  size_t size() const;
  Strategy strategy() const { return strategy_; }
  // Adds the groups of `other` (same key types, another thread's share of the rows) and sets
  // (*mapping)[g] = this grouper's id for other's group g, for AggregateStates::Merge.
  bool Merge(const Grouper& other, std::vector<uint32_t>* mapping, std::string* error);
  // One column per key: row i = the key of group ids[i] (of every group in order when ids is
  // null). Materialising only the groups a query outputs saves copying every distinct key.
  bool KeyColumns(const std::vector<uint32_t>* ids, std::vector<Column>* out,
                  std::string* error) const;
  // KeyColumns in pieces: empty key columns with room for `rows`, then group g's key appended.
  bool StartKeyColumns(size_t rows, size_t string_bytes, std::vector<Column>* out,
                       std::string* error) const;
  bool AppendKey(size_t g, std::vector<Column>* out, std::string* error) const;
  // Packed keys (packed(): fixed-width keys in one word, never NULL) are copied column by
  // column instead: a buffer of `rows` values per key (StartPackedKeys), key k of the groups
  // (ids, or [0, rows)) written from outs[k] on (CopyPackedKeys, which may fill parts of
  // one buffer from several groupers), then the columns made of the buffers.
  bool packed() const { return strategy_ == Strategy::kPacked; }
  const std::vector<TypeId>& types() const { return types_; }  // the hashed keys' types
  bool StartPackedKeys(size_t rows, std::vector<AlignedBuffer>* values, std::string* error) const;
  void CopyPackedKeys(const std::vector<uint32_t>* ids, size_t rows, const std::vector<uint8_t*>& outs) const;
  bool FinishPackedKeys(size_t rows, std::vector<AlignedBuffer>* values, std::vector<Column>* out,
                        std::string* error) const;

  // Two-level merge: the hash of every group (what the partition is taken from; null for the
  // direct table, which is never partitioned), and the merge of other's groups groups[0..n)
  // alone, ids[i] = this grouper's id for groups[i].
  const uint64_t* GroupHashes() const;
  // Room for `groups` groups without growing on the way, string and serialised keys of
  // `key_bytes` bytes in all.
  bool Reserve(size_t groups, size_t key_bytes, std::string* error);
  // The bytes the string and serialised keys take (0 for the other strategies).
  size_t KeyBytes() const;
  // Radix-partitioned GROUP BY (group_partitions.h) carries the prepared words of the packed
  // and wide strategies through its partitions: the words per row (0 for the other
  // strategies), and their hashes as Prepare makes them (count rows of KeyWords() words each).
  size_t KeyWords() const;
  void HashWords(const uint64_t* words, size_t count, uint64_t* hashes) const;
  // One string key (kString) and serialised keys (kSerialized) go through the partitions as
  // bytes instead, with their hashes as Prepare made them: the groups of `count` such keys,
  // offsets[i]..offsets[i + 1] in `bytes`, NULL where `validity` (kString; may be null) says.
  bool InsertKeyBytes(const int32_t* offsets, const uint8_t* bytes, const uint64_t* validity,
                      const uint64_t* hashes, size_t count, uint32_t* group_ids, std::string* error);
  bool MergeGroups(const Grouper& other, const uint32_t* groups, size_t n, uint32_t* ids,
                   std::string* error);

  // Owned scan (group_owned.h): with owners > 1 this grouper takes only the rows whose key
  // hash falls to `owner` (HashOwnership::OwnerOf); the others get kNoGroup and are not
  // inserted, so the owners' groupers hold disjoint groups. Hashed strategies only (not kDirect).
  void SetOwnership(uint32_t owner, uint32_t owners);
  // Assign adds no group past `groups`: rows of other keys get kNoGroup and are not inserted
  // (GROUP BY ... LIMIT, group_stage.h). Merge is not capped.
  void set_max_groups(size_t groups) { max_groups_ = groups; }

 private:
  // The selection bitmask of the rows this grouper owns (null when it owns every row).
  const uint64_t* OwnedRows(const uint64_t* hashes, size_t count);
  bool Serialize(const std::vector<Vec>& keys, size_t count, PreparedKeys* out, std::string* error) const;

  Strategy strategy_ = Strategy::kSerialized;
  std::vector<TypeId> types_;
  std::vector<size_t> byte_offsets_;  // kPacked: where each key sits in the word
  size_t words_ = 0;                  // kWide: words per key row (+1 for NULL flags)
  bool null_word_ = false;
  // kDirect: a value's slot is value + direct_bias_ (int8: 128; a wider key: -its minimum)
  std::vector<uint32_t> slot_group_;
  std::vector<int32_t> direct_keys_;  // slot of each group (65536 = NULL)
  int64_t direct_bias_ = 0;
  FixedKeyHashTable fixed_;
  std::unique_ptr<WideKeyHashTable> wide_;
  StringKeyHashTable strings_;
  HashOwnership ownership_;
  size_t max_groups_ = kUnlimitedGroups;
  // scratch
  PreparedKeys prepared_;  // Assign's
  std::vector<uint64_t> owned_;
};

// Makes a constant Vec an ordinary one with `count` stored rows.
bool ExpandConstant(Vec* vec, std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUPING_H_
