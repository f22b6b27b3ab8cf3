// Probe loops of the group hash tables, compiled once per SIMD target (Highway's per-target
// include pattern). Only the control-byte matching is vector code; it is small, so each target
// gets four loops (fixed, wide and string keys, moving the slots on growth) and nothing else.

// Per-target include guard: re-included once for every target by foreach_target.h.
#if defined(LANEQL_SIMD_GROUP_HASH_TABLE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef LANEQL_SIMD_GROUP_HASH_TABLE_INL_H_
#undef LANEQL_SIMD_GROUP_HASH_TABLE_INL_H_
#else
#define LANEQL_SIMD_GROUP_HASH_TABLE_INL_H_
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "laneql/group_hash_table.h"
#include "src/simd/group_hash_table_layout.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {
namespace group_hash_table_internal {
namespace hn = hwy::HWY_NAMESPACE;
using ::laneql::group_hash_table_internal::kEmpty;
using ::laneql::group_hash_table_internal::kTagShift;
using ::laneql::group_hash_table_internal::kWindow;
using ::laneql::group_hash_table_internal::SlotEntry;
using ::laneql::group_hash_table_internal::TableView;

// How many rows ahead the loops prefetch the start window: the hashes are known up front, so
// the cache misses of big tables overlap instead of queueing one per row.
constexpr size_t kPrefetchRows = 32;
// The later stages of ProbeRows' prefetching (see there): each comes after the one before has
// had time to arrive, and before the row is probed. Twice the distances of 16, 8, 4 and 2 rows
// (medians of 5-9, interleaved, two rounds, AMD EPYC Zen 4): string tables larger than the
// caches gained most, GROUP BY SearchPhrase 85 -> 75 ms on 1 thread and 46 -> 41-42 ms on 2,
// with COUNT(DISTINCT UserID) 60 -> 56 ms on 2, GROUP BY UserID, minute, SearchPhrase 623-629
// -> 556-607 ms on 1 and 338-355 -> 320 ms on 2; wide keys (WatchID, ClientIP) 211-215 ->
// 194-196 ms on 2; smaller tables and fixed keys no change beyond the noise.
constexpr size_t kSlotPrefetchRows = 16;
constexpr size_t kKeyPrefetchRows = 8;
constexpr size_t kArenaPrefetchRows = 4;
// Tables smaller than this (slots and control bytes) stay in the caches near the core, where the
// stages only add work: a second window match and a prefetch per row. Without them, 1 thread
// (medians of 5, two rounds alternated): GROUP BY g of 1,000 groups, count(*) 60 -> 39 ms and
// sum(d) 75 -> 53 ms over 10 M rows; b % 15000 (30,000 groups, about 1 MB of slots) 82 -> 74-76 ms;
// the radix partitions' small tables, b % 50000, 169-171 -> 145-153 ms; ClickBench's GROUP BY
// UserID, SearchPhrase LIMIT 10 264-268 -> 203-205 ms. Large tables keep them: with a 32 MiB
// bound GROUP BY SearchPhrase (a string table between the two bounds) took 233 ms for 92.
constexpr size_t kPrefetchMinTableBytes = size_t{4} << 20;
// Wide and string keys live outside the slots, one more dependent read (and a compare of
// bytes) per row, which the stages overlap from smaller tables on: ClickBench Q37's URLs under
// CounterID = 62 took 52 ms on 2 threads under the 4 MiB bound, 44-45 ms from 64 KiB or
// 256 KiB (as with every table prefetched), while a few hundred MobilePhoneModel strings still
// gain without them (22 -> 20 ms).
constexpr size_t kPrefetchMinKeyedTableBytes = size_t{256} << 10;

// Bit j of the results: control byte ctrl[j] (j < 16) equals `tag` / is empty. CappedTag gives
// 16 lanes on every 128-bit-or-wider target and fewer (1 on HWY_SCALAR) elsewhere, hence the
// loop, which the fixed-width targets run once.
struct WindowBits {
  uint32_t match;
  uint32_t empty;
};
HWY_INLINE WindowBits MatchWindow(const uint8_t* ctrl, uint8_t tag) {
  const hn::CappedTag<uint8_t, kWindow> d;
  const size_t lanes = hn::Lanes(d);
  WindowBits bits = {0, 0};
  for (size_t j = 0; j < kWindow; j += lanes) {
    const auto bytes = hn::LoadU(d, ctrl + j);
    // StoreMaskBits writes ceil(lanes / 8) <= 2 bytes, lane 0 in bit 0 of byte 0. On
    // little-endian machines a 2-byte copy into a 16-bit word compiles to the bare mask move.
    uint8_t match_bytes[8] = {0};
    uint8_t empty_bytes[8] = {0};
    hn::StoreMaskBits(d, hn::Eq(bytes, hn::Set(d, tag)), match_bytes);
    hn::StoreMaskBits(d, hn::Eq(bytes, hn::Set(d, kEmpty)), empty_bytes);
#if HWY_IS_LITTLE_ENDIAN
    uint16_t match;
    uint16_t empty;
    memcpy(&match, match_bytes, sizeof(match));
    memcpy(&empty, empty_bytes, sizeof(empty));
#else
    const uint32_t match = match_bytes[0] | static_cast<uint32_t>(match_bytes[1]) << 8;
    const uint32_t empty = empty_bytes[0] | static_cast<uint32_t>(empty_bytes[1]) << 8;
#endif
    bits.match |= static_cast<uint32_t>(match) << j;
    bits.empty |= static_cast<uint32_t>(empty) << j;
  }
  return bits;
}

HWY_INLINE size_t LowestBit(uint32_t bits) { return hwy::Num0BitsBelowLS1Bit_Nonzero32(bits); }

// Claims slot s for a new group with this tag, mirroring the control byte of the first window.
HWY_INLINE void ClaimSlot(TableView* t, size_t s, uint8_t tag, uint64_t word, uint32_t group,
                          uint64_t hash) {
  t->ctrl[s] = tag;
  if (s < kWindow) t->ctrl[t->mask + 1 + s] = tag;
  t->slots[s] = SlotEntry{word, group, static_cast<uint32_t>(hash)};
}

HWY_INLINE void PrefetchStart(const TableView* t, uint64_t hash) {
  const size_t pos = static_cast<size_t>(hash) & t->mask;
  hwy::Prefetch(t->ctrl + pos);
  hwy::Prefetch(t->slots + pos);
}

// The rows of [begin, n) that `selection` keeps (every row when it is null), in order, found by
// their set bits: an owned scan keeps about half the rows at random (another thread's keys are
// left out), and a branch per row on its bit would mispredict about every other row.
class SelectedRows {
 public:
  HWY_INLINE SelectedRows(const uint64_t* selection, size_t begin, size_t n)
      : selection_(selection), n_(n), next_(begin), base_(begin & ~size_t{63}) {
    if (selection_ != nullptr && begin < n) word_ = selection_[begin / 64] & (~uint64_t{0} << (begin % 64));
  }
  // The next kept row; a row >= n once there is none (bits past n come after every row's).
  HWY_INLINE size_t Next() {
    if (selection_ == nullptr) return next_ < n_ ? next_++ : n_;
    while (word_ == 0) {
      base_ += 64;
      if (base_ >= n_) return n_;
      word_ = selection_[base_ / 64];
    }
    const size_t i = base_ + hwy::Num0BitsBelowLS1Bit_Nonzero64(word_);
    word_ &= word_ - 1;
    return i;
  }

 private:
  const uint64_t* selection_;
  size_t n_, next_, base_;
  uint64_t word_ = 0;
};

// The loops' walk over the rows to probe: rows left out get kNoGroup up front, and in a table of
// kPrefetchMinTableBytes or more (kPrefetchMinKeyedTableBytes with wide or string keys) the
// kept rows ahead are prefetched in stages as each row is taken (rows left out would only fetch
// lines this table never reads):
//   kPrefetchRows ahead, the start window (its control bytes and first slots);
//   kSlotPrefetchRows ahead, the slot of the first control byte that matches the tag, which at
//     the table's usual load is often a cache line or two past the first slots;
//   kKeyPrefetchRows ahead, with `group_words` set (wide and string keys, which live outside
//     the slots), group_words + group * stride for the first slot whose full hash matches;
//   kArenaPrefetchRows ahead, with `arena` set (string keys: group_words are then the arena
//     offsets), the first two lines of that group's bytes;
//   kKeyPrefetchRows ahead, with `row_bytes` set (string keys), the first two lines of the row's
//     own key, which memcmp reads: under an owned scan another thread may have prepared them
//     (Q36's URLs on 2 threads: memcmp 12.9 -> 9.5 ms of CPU, the probe loop 19.0 -> 20.2).
// Each stage reads only lines an earlier stage has fetched, so the loops' own reads hit the
// cache instead of queueing one miss after another per row (GROUP BY RegionID, COUNT(DISTINCT
// UserID): the dependent miss on the key words was 80 % of the probe loop's time).
class ProbeRows {
 public:
  HWY_INLINE ProbeRows(const TableView* t, const uint64_t* hashes, const uint64_t* selection,
                       size_t begin, size_t n, uint32_t* group_ids,
                       const uint64_t* group_words = nullptr, size_t stride = 0,
                       const uint8_t* arena = nullptr, const int32_t* row_offsets = nullptr,
                       const uint8_t* row_bytes = nullptr)
      : t_(t), hashes_(hashes), n_(n), group_words_(group_words), stride_(stride), arena_(arena),
        row_offsets_(row_offsets), row_bytes_(row_bytes),
        rows_(selection, begin, n), start_(selection, begin, n), slot_(selection, begin, n),
        key_(selection, begin, n),
        prefetch_(TableBytes(*t, group_words, stride, arena) >=
                  (group_words != nullptr ? kPrefetchMinKeyedTableBytes : kPrefetchMinTableBytes)) {
    if (selection != nullptr) {
      for (size_t i = begin; i < n; ++i) group_ids[i] = kNoGroup;
    }
    if (!prefetch_) {
      if (row_bytes_ != nullptr) {
        for (size_t k = 0; k < kKeyPrefetchRows; ++k) PrefetchRowBytes(key_.Next());
      }
      return;
    }
    for (size_t k = 0; k < kPrefetchRows; ++k) PrefetchStart(start_.Next());
    for (size_t k = 0; k < kSlotPrefetchRows; ++k) PrefetchSlot(slot_.Next());
    if (group_words_ != nullptr) {
      for (size_t k = 0; k < kKeyPrefetchRows; ++k) PrefetchKeyAndArena();
    }
  }
  HWY_INLINE size_t Next() {
    if (!prefetch_) {
      if (row_bytes_ != nullptr) PrefetchRowBytes(key_.Next());
      return rows_.Next();
    }
    PrefetchStart(start_.Next());
    PrefetchSlot(slot_.Next());
    if (group_words_ != nullptr) PrefetchKeyAndArena();
    return rows_.Next();
  }

 private:
  HWY_INLINE void PrefetchStart(size_t row) {
    if (row < n_) ::laneql::HWY_NAMESPACE::group_hash_table_internal::PrefetchStart(t_, hashes_[row]);
  }
  HWY_INLINE void PrefetchSlot(size_t row) {
    if (row >= n_) return;
    const uint64_t hash = hashes_[row];
    const size_t pos = static_cast<size_t>(hash) & t_->mask;
    const uint32_t match = MatchWindow(t_->ctrl + pos, static_cast<uint8_t>(hash >> kTagShift)).match;
    if (match != 0) hwy::Prefetch(t_->slots + ((pos + LowestBit(match)) & t_->mask));
  }
  // The key stage for its next row, and the arena stage for the row whose group the key stage
  // found kArenaDelay calls ago (its offsets have arrived since).
  HWY_INLINE void PrefetchKeyAndArena() {
    const size_t row = key_.Next();
    PrefetchRowBytes(row);
    const uint32_t group = PrefetchKey(row);
    if (arena_ == nullptr) return;
    const uint32_t earlier = found_[next_found_];
    found_[next_found_] = group;
    next_found_ = (next_found_ + 1) % kArenaDelay;
    if (earlier != kNoGroup) {
      const uint8_t* bytes = arena_ + group_words_[earlier];
      hwy::Prefetch(bytes);
      hwy::Prefetch(bytes + 64);
    }
  }
  // The row's own key bytes (string keys), which memcmp reads: kept in a small table too, as
  // they are not the table's and a WHERE leaves the rows scattered (not measured apart from
  // the table's stages).
  HWY_INLINE void PrefetchRowBytes(size_t row) {
    if (row_bytes_ == nullptr || row >= n_) return;
    const uint8_t* bytes = row_bytes_ + row_offsets_[row];
    hwy::Prefetch(bytes);
    hwy::Prefetch(bytes + 64);
  }
  // What the probes read of the table: slots and control bytes, the groups' key words, and
  // string keys' bytes (group_words are then the arena offsets, one per group and one more).
  static size_t TableBytes(const TableView& t, const uint64_t* group_words, size_t stride,
                           const uint8_t* arena) {
    size_t bytes = (t.mask + 1) * (sizeof(SlotEntry) + 1);
    if (group_words != nullptr) bytes += t.size * stride * sizeof(uint64_t);
    if (arena != nullptr) bytes += static_cast<size_t>(group_words[t.size]);
    return bytes;
  }
  // Returns the group whose key it prefetched, or kNoGroup.
  HWY_INLINE uint32_t PrefetchKey(size_t row) {
    if (row >= n_) return kNoGroup;
    const uint64_t hash = hashes_[row];
    const size_t pos = static_cast<size_t>(hash) & t_->mask;
    uint32_t match = MatchWindow(t_->ctrl + pos, static_cast<uint8_t>(hash >> kTagShift)).match;
    for (; match != 0; match &= match - 1) {
      const SlotEntry& slot = t_->slots[(pos + LowestBit(match)) & t_->mask];
      if (slot.word == hash) {
        hwy::Prefetch(group_words_ + slot.group * stride_);
        return slot.group;
      }
    }
    return kNoGroup;
  }
  static constexpr size_t kArenaDelay = kKeyPrefetchRows - kArenaPrefetchRows;
  static_assert(kArenaDelay == 4, "found_ is initialised for a delay of 4");
  const TableView* t_;
  const uint64_t* hashes_;
  size_t n_;
  const uint64_t* group_words_;
  size_t stride_;
  const uint8_t* arena_;
  const int32_t* row_offsets_;
  const uint8_t* row_bytes_;
  uint32_t found_[kArenaDelay] = {kNoGroup, kNoGroup, kNoGroup, kNoGroup};  // the key stage's last groups, a ring
  size_t next_found_ = 0;
  SelectedRows rows_, start_, slot_, key_;
  const bool prefetch_;
};

// The finds-or-inserts of rows [begin, n); returns n, or the first row whose insertion needs
// the table to grow (its group id is not written yet).
HWY_INLINE size_t FixedFindOrInsertImpl(TableView* t, const uint64_t* keys, const uint64_t* hashes,
                                        size_t begin, size_t n, const uint64_t* selection,
                                        uint32_t* group_ids) {
  ProbeRows rows(t, hashes, selection, begin, n, group_ids);
  for (size_t i = rows.Next(); i < n; i = rows.Next()) {
    const uint64_t hash = hashes[i];
    const uint64_t key = keys[i];
    const uint8_t tag = static_cast<uint8_t>(hash >> kTagShift);
    size_t pos = static_cast<size_t>(hash) & t->mask;
    for (size_t step = kWindow;; step += kWindow) {
      WindowBits bits = MatchWindow(t->ctrl + pos, tag);
      uint32_t found = kNoGroup;
      for (; bits.match != 0; bits.match &= bits.match - 1) {
        const SlotEntry& slot = t->slots[(pos + LowestBit(bits.match)) & t->mask];
        if (slot.word == key) {
          found = slot.group;
          break;
        }
      }
      if (found != kNoGroup) {
        group_ids[i] = found;
        break;
      }
      if (bits.empty != 0) {
        if (t->size >= t->max_groups) {
          group_ids[i] = kNoGroup;
          break;
        }
        if (t->size == t->growth_limit) return i;
        const uint32_t group = static_cast<uint32_t>(t->size++);
        ClaimSlot(t, (pos + LowestBit(bits.empty)) & t->mask, tag, key, group, hash);
        t->keys[group] = key;
        t->hashes[group] = hash;
        group_ids[i] = group;
        break;
      }
      pos = (pos + step) & t->mask;  // triangular steps: every window of the table, in turn
    }
  }
  return n;
}

// Wide keys: t->words_per_key words per row. The slot holds the full hash, compared before the
// key words (in the group's row of t->keys).
HWY_INLINE size_t WideFindOrInsertImpl(TableView* t, const uint64_t* keys, const uint64_t* hashes,
                                       size_t begin, size_t n, const uint64_t* selection,
                                       uint32_t* group_ids) {
  const size_t width = t->words_per_key;
  ProbeRows rows(t, hashes, selection, begin, n, group_ids, t->keys, width);
  for (size_t i = rows.Next(); i < n; i = rows.Next()) {
    const uint64_t hash = hashes[i];
    const uint64_t* key = keys + i * width;
    const uint8_t tag = static_cast<uint8_t>(hash >> kTagShift);
    size_t pos = static_cast<size_t>(hash) & t->mask;
    for (size_t step = kWindow;; step += kWindow) {
      WindowBits bits = MatchWindow(t->ctrl + pos, tag);
      uint32_t found = kNoGroup;
      for (; bits.match != 0; bits.match &= bits.match - 1) {
        const SlotEntry& slot = t->slots[(pos + LowestBit(bits.match)) & t->mask];
        if (slot.word != hash) continue;
        const uint64_t* stored = t->keys + slot.group * width;
        size_t w = 0;
        while (w < width && stored[w] == key[w]) ++w;
        if (w == width) {
          found = slot.group;
          break;
        }
      }
      if (found != kNoGroup) {
        group_ids[i] = found;
        break;
      }
      if (bits.empty != 0) {
        if (t->size >= t->max_groups) {
          group_ids[i] = kNoGroup;
          break;
        }
        if (t->size == t->growth_limit) return i;
        const uint32_t group = static_cast<uint32_t>(t->size++);
        ClaimSlot(t, (pos + LowestBit(bits.empty)) & t->mask, tag, hash, group, hash);
        for (size_t w = 0; w < width; ++w) t->keys[group * width + w] = key[w];
        t->hashes[group] = hash;
        group_ids[i] = group;
        break;
      }
      pos = (pos + step) & t->mask;
    }
  }
  return n;
}

HWY_INLINE size_t StringFindOrInsertImpl(TableView* t, const int32_t* offsets,
                                         const uint8_t* bytes, const uint64_t* validity,
                                         const uint64_t* hashes, size_t begin, size_t n,
                                         const uint64_t* selection, uint32_t* group_ids) {
  ProbeRows rows(t, hashes, selection, begin, n, group_ids, t->offsets, 1, t->arena, offsets, bytes);
  for (size_t i = rows.Next(); i < n; i = rows.Next()) {
    const uint64_t hash = hashes[i];
    const size_t used = static_cast<size_t>(t->offsets[t->size]);
    if (validity != nullptr && !BitmaskGet(validity, i)) {
      if (t->null_group == kNoGroup) {
        if (t->size >= t->max_groups) {
          group_ids[i] = kNoGroup;
          continue;
        }
        if (t->size == t->growth_limit) return i;
        t->null_group = static_cast<uint32_t>(t->size);
        t->hashes[t->size] = hash;
        t->offsets[++t->size] = used;
      }
      group_ids[i] = t->null_group;
      continue;
    }
    const uint8_t* key = bytes + offsets[i];
    const size_t len = static_cast<size_t>(offsets[i + 1] - offsets[i]);
    const uint8_t tag = static_cast<uint8_t>(hash >> kTagShift);
    size_t pos = static_cast<size_t>(hash) & t->mask;
    for (size_t step = kWindow;; step += kWindow) {
      WindowBits bits = MatchWindow(t->ctrl + pos, tag);
      uint32_t found = kNoGroup;
      for (; bits.match != 0; bits.match &= bits.match - 1) {
        const SlotEntry& slot = t->slots[(pos + LowestBit(bits.match)) & t->mask];
        if (slot.word != hash) continue;  // the full hash rules out almost every tag collision
        const uint64_t start = t->offsets[slot.group];
        if (t->offsets[slot.group + 1] - start == len &&
            (len == 0 || memcmp(t->arena + start, key, len) == 0)) {
          found = slot.group;
          break;
        }
      }
      if (found != kNoGroup) {
        group_ids[i] = found;
        break;
      }
      if (bits.empty != 0) {
        if (t->size >= t->max_groups) {
          group_ids[i] = kNoGroup;
          break;
        }
        if (t->size == t->growth_limit || len > t->arena_capacity - used) return i;
        const uint32_t group = static_cast<uint32_t>(t->size++);
        ClaimSlot(t, (pos + LowestBit(bits.empty)) & t->mask, tag, hash, group, hash);
        AlignedBuffer::CopyShort(t->arena + used, key, len);
        t->offsets[group + 1] = used + len;
        t->hashes[group] = hash;
        group_ids[i] = group;
        break;
      }
      pos = (pos + step) & t->mask;
    }
  }
  return n;
}

// Growth: moves every used slot of the old table into the (empty, bigger) table t. Reading the
// old slots in order writes the new ones in two nearly sequential streams (a slot at p moves to
// about p or p + old capacity), not at random as re-inserting in group order would. The keys
// are distinct, so only the first empty slot of each probe sequence is looked for; and every
// probe sequence's earlier windows stay full, as lookups require.
HWY_INLINE void MoveSlotsImpl(TableView* t, const uint8_t* old_ctrl, const SlotEntry* old_slots,
                              size_t old_capacity) {
  const bool low_bits_suffice = (t->mask >> 16 >> 16) == 0;  // (no warning on 32-bit size_t)
  for (size_t s = 0; s < old_capacity; ++s) {
    const uint8_t tag = old_ctrl[s];
    if (tag == kEmpty) continue;
    const SlotEntry& entry = old_slots[s];
    const uint64_t hash = low_bits_suffice ? entry.hash_low : t->hashes[entry.group];
    size_t pos = static_cast<size_t>(hash) & t->mask;
    for (size_t step = kWindow;; step += kWindow) {
      const uint32_t empty = MatchWindow(t->ctrl + pos, tag).empty;
      if (empty != 0) {
        ClaimSlot(t, (pos + LowestBit(empty)) & t->mask, tag, entry.word, entry.group, hash);
        break;
      }
      pos = (pos + step) & t->mask;
    }
  }
}

}  // namespace group_hash_table_internal
// NOLINTNEXTLINE(google-build-namespaces)
}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
