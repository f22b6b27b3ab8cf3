// Group hash tables: allocation, growth and merging here; the probe loops are compiled once per
// SIMD target (foreach_target.h re-includes this file) and HWY_DYNAMIC_DISPATCH picks the best
// one the CPU supports (or the one ForceTarget chose).
#include "laneql/group_hash_table.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/exec/group_hash_table.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/group_hash_table-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

size_t FixedFindOrInsertTarget(group_hash_table_internal::TableView* t, const uint64_t* keys,
                               const uint64_t* hashes, size_t begin, size_t n,
                               const uint64_t* selection, uint32_t* group_ids) {
  return group_hash_table_internal::FixedFindOrInsertImpl(t, keys, hashes, begin, n, selection,
                                                          group_ids);
}
size_t WideFindOrInsertTarget(group_hash_table_internal::TableView* t, const uint64_t* keys,
                              const uint64_t* hashes, size_t begin, size_t n,
                              const uint64_t* selection, uint32_t* group_ids) {
  return group_hash_table_internal::WideFindOrInsertImpl(t, keys, hashes, begin, n, selection,
                                                         group_ids);
}
size_t StringFindOrInsertTarget(group_hash_table_internal::TableView* t, const int32_t* offsets,
                                const uint8_t* bytes, const uint64_t* validity,
                                const uint64_t* hashes, size_t begin, size_t n,
                                const uint64_t* selection, uint32_t* group_ids) {
  return group_hash_table_internal::StringFindOrInsertImpl(t, offsets, bytes, validity, hashes,
                                                           begin, n, selection, group_ids);
}
void MoveSlotsTarget(group_hash_table_internal::TableView* t, const uint8_t* old_ctrl,
                     const group_hash_table_internal::SlotEntry* old_slots, size_t old_capacity) {
  group_hash_table_internal::MoveSlotsImpl(t, old_ctrl, old_slots, old_capacity);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <cstring>
#include <new>
#include <utility>

#include "laneql/bitmask.h"

namespace laneql {

HWY_EXPORT(FixedFindOrInsertTarget);
HWY_EXPORT(WideFindOrInsertTarget);
HWY_EXPORT(StringFindOrInsertTarget);
HWY_EXPORT(MoveSlotsTarget);

namespace group_hash_table_internal {
namespace {

// Group ids are uint32 and kNoGroup is not one.
constexpr size_t kMaxGroups = kNoGroup;

// At most 7/8 of the slots are used: probe sequences stay short, and every probe sequence
// meets an empty slot.
size_t GrowthLimit(size_t capacity) { return std::min(capacity - capacity / 8, kMaxGroups); }

void SetError(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
}

// The per-group arrays a growth limit needs. Keys and hashes are written as their groups are
// inserted and never read before, so the words gained are left as they come (`zeroed` =
// false): zeroing them, and the slots in Rehash, wrote some 300 MB per thread when GROUP BY
// WatchID, ClientIP presized for 5 M groups a thread. The string offsets start at a zero.
bool ResizeWords(AlignedBuffer* buffer, size_t words, bool zeroed, std::string* error) {
  if (words > AlignedBuffer::kMaxSize / sizeof(uint64_t)) {
    SetError(error, "group hash table: cannot allocate " + std::to_string(words) +
                        " 8-byte group entries");
    return false;
  }
  return zeroed ? buffer->Resize(words * sizeof(uint64_t), error)
                : buffer->ResizeForOverwrite(words * sizeof(uint64_t), error);
}

bool ResizeVector(std::vector<uint32_t>* v, size_t n, std::string* error) {
  try {
    v->resize(n);
  } catch (const std::bad_alloc&) {
    SetError(error, "group hash table: out of memory for a merge mapping of " +
                        std::to_string(n) + " groups");
    return false;
  }
  return true;
}

// Whether a table of `size` groups may grow to `capacity` slots (checked before any of its
// arrays grows, so that a hopeless growth allocates nothing).
bool CheckGrowth(size_t size, size_t capacity, std::string* error) {
  if (size >= kMaxGroups) {
    SetError(error, "group hash table: more than " + std::to_string(kMaxGroups) + " groups");
    return false;
  }
  if (capacity > AlignedBuffer::kMaxSize / sizeof(SlotEntry)) {
    SetError(error, "group hash table: cannot allocate " + std::to_string(capacity) + " slots");
    return false;
  }
  return true;
}

// The capacity Reserve(groups) needs: at least the current one.
bool ReserveCapacity(size_t groups, size_t current_capacity, size_t* capacity,
                     std::string* error) {
  if (groups > kMaxGroups) {
    SetError(error, "group hash table: cannot reserve " + std::to_string(groups) +
                        " groups (at most " + std::to_string(kMaxGroups) + ")");
    return false;
  }
  size_t wanted = kMinCapacity;
  while (GrowthLimit(wanted) < groups && wanted <= (SIZE_MAX >> 1)) wanted *= 2;
  *capacity = std::max(wanted, current_capacity);
  return true;
}

}  // namespace

bool SlotStorage::Rehash(size_t capacity, std::string* error) {
  if (capacity > AlignedBuffer::kMaxSize / sizeof(SlotEntry)) {
    SetError(error, "group hash table: cannot allocate " + std::to_string(capacity) + " slots");
    return false;
  }
  AlignedBuffer ctrl;
  AlignedBuffer slots;
  // A slot is read only where its control byte says it is full: neither array is zeroed.
  if (!ctrl.ResizeForOverwrite(capacity + kWindow, error) ||
      !slots.ResizeForOverwrite(capacity * sizeof(SlotEntry), error)) {
    return false;
  }
  std::memset(ctrl.data(), kEmpty, capacity + kWindow);
  TableView view = View();  // then pointed at the new slots
  view.ctrl = ctrl.data();
  view.slots = slots.As<SlotEntry>();
  view.mask = capacity - 1;
  HWY_DYNAMIC_DISPATCH(MoveSlotsTarget)(&view, ctrl_.data(), slots_.As<SlotEntry>(), capacity_);
  ctrl_ = std::move(ctrl);
  slots_ = std::move(slots);
  capacity_ = capacity;
  growth_limit_ = GrowthLimit(capacity);
  return true;
}

}  // namespace group_hash_table_internal

using group_hash_table_internal::SetError;
using group_hash_table_internal::TableView;

namespace group_hash_table_internal {
TableView SlotStorage::View() {
  TableView view{};
  view.ctrl = ctrl_.data();
  view.slots = slots_.As<SlotEntry>();
  view.mask = capacity_ - 1;
  view.hashes = hashes_.As<uint64_t>();
  view.size = size_;
  view.growth_limit = growth_limit_;
  view.max_groups = kUnlimitedGroups;
  return view;
}

TableView SlotStorage::FindView() const {
  // The loops take a mutable view because they insert; capped at size_ they only read.
  TableView view = const_cast<SlotStorage*>(this)->View();
  view.max_groups = size_;
  return view;
}
}  // namespace group_hash_table_internal

namespace {
// What Find writes for an empty table (which has no slots to probe): no row is found.
void FindNothing(size_t n, uint32_t* group_ids) { std::fill_n(group_ids, n, kNoGroup); }
}  // namespace

// ---------------------------------------------------------------- fixed keys

bool FixedKeyHashTable::GrowTo(size_t capacity, std::string* error) {
  if (!group_hash_table_internal::CheckGrowth(size_, capacity, error)) return false;
  const size_t limit = group_hash_table_internal::GrowthLimit(capacity);
  return group_hash_table_internal::ResizeWords(&keys_, limit, false, error) &&
         group_hash_table_internal::ResizeWords(&hashes_, limit, false, error) &&
         Rehash(capacity, error);
}

bool FixedKeyHashTable::Reserve(size_t groups, std::string* error) {
  size_t capacity;
  if (!group_hash_table_internal::ReserveCapacity(groups, capacity_, &capacity, error)) {
    return false;
  }
  return capacity <= capacity_ || GrowTo(capacity, error);
}

bool FixedKeyHashTable::FindOrInsert(const uint64_t* keys, const uint64_t* hashes, size_t n,
                                     const uint64_t* selection, uint32_t* group_ids,
                                     std::string* error, size_t max_groups) {
  if (n == 0) return true;
  if (capacity_ == 0 && !GrowTo(group_hash_table_internal::kMinCapacity, error)) return false;
  for (size_t row = 0;;) {
    TableView view = View();
    view.max_groups = max_groups;
    view.keys = keys_.As<uint64_t>();
    row = HWY_DYNAMIC_DISPATCH(FixedFindOrInsertTarget)(&view, keys, hashes, row, n, selection,
                                                        group_ids);
    size_ = view.size;
    if (row == n) return true;
    if (!GrowTo(capacity_ * 2, error)) return false;
  }
}

void FixedKeyHashTable::Find(const uint64_t* keys, const uint64_t* hashes, size_t n,
                             const uint64_t* selection, uint32_t* group_ids) const {
  if (capacity_ == 0) return FindNothing(n, group_ids);
  TableView view = FindView();
  view.keys = const_cast<uint64_t*>(keys_.As<uint64_t>());
  HWY_DYNAMIC_DISPATCH(FixedFindOrInsertTarget)(&view, keys, hashes, 0, n, selection, group_ids);
}

bool FixedKeyHashTable::Merge(const FixedKeyHashTable& other, std::vector<uint32_t>* mapping,
                              std::string* error) {
  if (&other == this) {
    SetError(error, "group hash table: cannot merge a table into itself");
    return false;
  }
  if (!group_hash_table_internal::ResizeVector(mapping, other.size(), error)) return false;
  return FindOrInsert(other.keys(), other.hashes(), other.size(), nullptr, mapping->data(),
                      error);
}

// ---------------------------------------------------------------- wide keys

WideKeyHashTable::WideKeyHashTable(size_t words_per_key)
    : words_per_key_(std::max<size_t>(words_per_key, 1)) {}

bool WideKeyHashTable::GrowTo(size_t capacity, std::string* error) {
  if (!group_hash_table_internal::CheckGrowth(size_, capacity, error)) return false;
  const size_t limit = group_hash_table_internal::GrowthLimit(capacity);
  if (limit > AlignedBuffer::kMaxSize / sizeof(uint64_t) / words_per_key_) {
    SetError(error, "group hash table: cannot allocate keys of " +
                        std::to_string(words_per_key_) + " words for " + std::to_string(limit) +
                        " groups");
    return false;
  }
  return group_hash_table_internal::ResizeWords(&keys_, limit * words_per_key_, false, error) &&
         group_hash_table_internal::ResizeWords(&hashes_, limit, false, error) &&
         Rehash(capacity, error);
}

bool WideKeyHashTable::FindOrInsert(const uint64_t* keys, const uint64_t* hashes, size_t n,
                                    const uint64_t* selection, uint32_t* group_ids,
                                    std::string* error, size_t max_groups) {
  if (n == 0) return true;
  if (capacity_ == 0 && !GrowTo(group_hash_table_internal::kMinCapacity, error)) return false;
  for (size_t row = 0;;) {
    TableView view = View();
    view.max_groups = max_groups;
    view.keys = keys_.As<uint64_t>();
    view.words_per_key = words_per_key_;
    row = HWY_DYNAMIC_DISPATCH(WideFindOrInsertTarget)(&view, keys, hashes, row, n, selection,
                                                       group_ids);
    size_ = view.size;
    if (row == n) return true;
    if (!GrowTo(capacity_ * 2, error)) return false;
  }
}

void WideKeyHashTable::Find(const uint64_t* keys, const uint64_t* hashes, size_t n,
                            const uint64_t* selection, uint32_t* group_ids) const {
  if (capacity_ == 0) return FindNothing(n, group_ids);
  TableView view = FindView();
  view.keys = const_cast<uint64_t*>(keys_.As<uint64_t>());
  view.words_per_key = words_per_key_;
  HWY_DYNAMIC_DISPATCH(WideFindOrInsertTarget)(&view, keys, hashes, 0, n, selection, group_ids);
}

bool WideKeyHashTable::Reserve(size_t groups, std::string* error) {
  size_t capacity;
  if (!group_hash_table_internal::ReserveCapacity(groups, capacity_, &capacity, error)) {
    return false;
  }
  return capacity <= capacity_ || GrowTo(capacity, error);
}

bool WideKeyHashTable::Merge(const WideKeyHashTable& other, std::vector<uint32_t>* mapping,
                             std::string* error) {
  if (&other == this || other.words_per_key_ != words_per_key_) {
    SetError(error, "group hash table: can only merge another table with keys of " +
                        std::to_string(words_per_key_) + " words");
    return false;
  }
  if (!group_hash_table_internal::ResizeVector(mapping, other.size(), error)) return false;
  return FindOrInsert(other.keys(), other.hashes(), other.size(), nullptr, mapping->data(),
                      error);
}

// ---------------------------------------------------------------- string keys

bool StringKeyHashTable::GrowTo(size_t capacity, std::string* error) {
  if (!group_hash_table_internal::CheckGrowth(size_, capacity, error)) return false;
  const size_t limit = group_hash_table_internal::GrowthLimit(capacity);
  return group_hash_table_internal::ResizeWords(&offsets_, limit + 1, true, error) &&
         group_hash_table_internal::ResizeWords(&hashes_, limit, false, error) &&
         Rehash(capacity, error);
}

bool StringKeyHashTable::GrowArena(size_t bytes, std::string* error) {
  // Doubling keeps appends amortised O(1); the first arena is big enough for many short keys.
  // Not zeroed: a key's bytes are written before any is read.
  const size_t doubled = arena_.size() > AlignedBuffer::kMaxSize / 2 ? AlignedBuffer::kMaxSize
                                                                      : arena_.size() * 2;
  return arena_.ResizeForOverwrite(std::max({bytes, doubled, size_t{4096}}), error);
}

bool StringKeyHashTable::FindOrInsert(const int32_t* offsets, const uint8_t* bytes,
                                      const uint64_t* validity, const uint64_t* hashes, size_t n,
                                      const uint64_t* selection, uint32_t* group_ids,
                                      std::string* error, size_t max_groups) {
  if (n == 0) return true;
  if (capacity_ == 0 && !GrowTo(group_hash_table_internal::kMinCapacity, error)) return false;
  for (size_t row = 0;;) {
    TableView view = View();
    view.max_groups = max_groups;
    view.offsets = offsets_.As<uint64_t>();
    view.arena = arena_.data();
    view.arena_capacity = arena_.size();
    view.null_group = null_group_;
    row = HWY_DYNAMIC_DISPATCH(StringFindOrInsertTarget)(&view, offsets, bytes, validity, hashes,
                                                         row, n, selection, group_ids);
    size_ = view.size;
    null_group_ = view.null_group;
    if (row == n) return true;
    if (size_ == growth_limit_) {
      if (!GrowTo(capacity_ * 2, error)) return false;
    } else {
      const size_t len = static_cast<size_t>(offsets[row + 1] - offsets[row]);
      if (!GrowArena(arena_bytes() + len, error)) return false;
    }
  }
}

bool StringKeyHashTable::Reserve(size_t groups, size_t key_bytes, std::string* error) {
  size_t capacity;
  if (!group_hash_table_internal::ReserveCapacity(groups, capacity_, &capacity, error)) {
    return false;
  }
  if (capacity > capacity_ && !GrowTo(capacity, error)) return false;
  return key_bytes <= arena_.size() || arena_.ResizeForOverwrite(key_bytes, error);
}

void StringKeyHashTable::Find(const int32_t* offsets, const uint8_t* bytes, const uint64_t* validity,
                              const uint64_t* hashes, size_t n, const uint64_t* selection,
                              uint32_t* group_ids) const {
  if (capacity_ == 0) return FindNothing(n, group_ids);
  TableView view = FindView();
  view.offsets = const_cast<uint64_t*>(offsets_.As<uint64_t>());
  view.arena = const_cast<uint8_t*>(arena_.data());
  view.arena_capacity = arena_.size();
  view.null_group = null_group_;
  HWY_DYNAMIC_DISPATCH(StringFindOrInsertTarget)(&view, offsets, bytes, validity, hashes, 0, n,
                                                 selection, group_ids);
}

bool StringKeyHashTable::Merge(const StringKeyHashTable& other, std::vector<uint32_t>* mapping,
                               std::string* error) {
  if (&other == this) {
    SetError(error, "group hash table: cannot merge a table into itself");
    return false;
  }
  if (!group_hash_table_internal::ResizeVector(mapping, other.size(), error)) return false;
  // Other's groups go in as Arrow rows, a chunk at a time: its arena offsets are 64-bit, and a
  // chunk's offsets rebased to its first byte fit int32 (each key came from int32 offsets).
  constexpr size_t kChunkRows = 4096;
  int32_t chunk_offsets[kChunkRows + 1];
  uint64_t chunk_validity[kChunkRows / 64];
  const uint64_t* other_offsets = other.offsets_.As<uint64_t>();
  for (size_t begin = 0; begin < other.size();) {
    const uint64_t base = other_offsets[begin];
    size_t end = begin;
    chunk_offsets[0] = 0;
    while (end < other.size() && end - begin < kChunkRows &&
           other_offsets[end + 1] - base <= static_cast<uint64_t>(INT32_MAX)) {
      chunk_offsets[end - begin + 1] = static_cast<int32_t>(other_offsets[end + 1] - base);
      ++end;
    }
    std::fill(std::begin(chunk_validity), std::end(chunk_validity), ~uint64_t{0});
    const size_t rows = end - begin;
    if (rows % 64 != 0) chunk_validity[rows / 64] = BitmaskTailMask(rows);
    for (size_t w = BitmaskWords(rows); w < kChunkRows / 64; ++w) chunk_validity[w] = 0;
    if (other.null_group_ >= begin && other.null_group_ < end) {
      const size_t bit = other.null_group_ - begin;
      chunk_validity[bit / 64] &= ~(uint64_t{1} << (bit % 64));
    }
    if (!FindOrInsert(chunk_offsets, other.arena_.data() + base, chunk_validity,
                      other.hashes() + begin, rows, nullptr, mapping->data() + begin, error)) {
      return false;
    }
    begin = end;
  }
  return true;
}

// ---------------------------------------------------------------- subset merges
// A few thousand groups at a time gathered into contiguous keys and hashes, then the batched
// (SIMD-probing) FindOrInsert.
namespace {
constexpr size_t kMergeChunk = 4096;
// The groups of one partition lie scattered over the other table's arrays (every 256th group
// or so): loads issued this many groups ahead overlap the cache misses.
constexpr size_t kPrefetchAhead = 16;
inline void Prefetch(const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p);
#else
  (void)p;
#endif
}
}  // namespace

bool FixedKeyHashTable::MergeGroups(const FixedKeyHashTable& other, const uint32_t* groups,
                                    size_t n, uint32_t* ids, std::string* error) {
  std::vector<uint64_t> keys(std::min(n, kMergeChunk)), hashes(keys.size());
  for (size_t begin = 0; begin < n; begin += kMergeChunk) {
    const size_t m = std::min(kMergeChunk, n - begin);
    for (size_t i = 0; i < m; ++i) {
      if (begin + i + kPrefetchAhead < n) {
        Prefetch(other.keys() + groups[begin + i + kPrefetchAhead]);
        Prefetch(other.hashes() + groups[begin + i + kPrefetchAhead]);
      }
      keys[i] = other.keys()[groups[begin + i]];
      hashes[i] = other.hashes()[groups[begin + i]];
    }
    if (!FindOrInsert(keys.data(), hashes.data(), m, nullptr, ids + begin, error)) return false;
  }
  return true;
}

bool WideKeyHashTable::MergeGroups(const WideKeyHashTable& other, const uint32_t* groups, size_t n,
                                   uint32_t* ids, std::string* error) {
  const size_t w = words_per_key_;
  if (other.words_per_key_ != w) {
    SetError(error, "group hash table: can only merge another table with keys of " + std::to_string(w) + " words");
    return false;
  }
  std::vector<uint64_t> keys(std::min(n, kMergeChunk) * w), hashes(std::min(n, kMergeChunk));
  for (size_t begin = 0; begin < n; begin += kMergeChunk) {
    const size_t m = std::min(kMergeChunk, n - begin);
    for (size_t i = 0; i < m; ++i) {
      if (begin + i + kPrefetchAhead < n) {
        Prefetch(other.key(groups[begin + i + kPrefetchAhead]));
        Prefetch(other.hashes() + groups[begin + i + kPrefetchAhead]);
      }
      std::memcpy(&keys[i * w], other.key(groups[begin + i]), w * sizeof(uint64_t));
      hashes[i] = other.hashes()[groups[begin + i]];
    }
    if (!FindOrInsert(keys.data(), hashes.data(), m, nullptr, ids + begin, error)) return false;
  }
  return true;
}

bool StringKeyHashTable::MergeGroups(const StringKeyHashTable& other, const uint32_t* groups,
                                     size_t n, uint32_t* ids, std::string* error) {
  std::vector<int32_t> offsets(kMergeChunk + 1);
  std::vector<uint64_t> validity(kMergeChunk / 64), hashes(kMergeChunk);
  std::string bytes;
  for (size_t begin = 0; begin < n;) {
    bytes.clear();
    offsets[0] = 0;
    std::fill(validity.begin(), validity.end(), 0);
    size_t m = 0;
    const uint64_t* other_offsets = other.offsets_.As<uint64_t>();
    while (begin + m < n && m < kMergeChunk) {
      // Two steps ahead: the offsets of a far group, the bytes of a nearer one.
      if (begin + m + 2 * kPrefetchAhead < n) {
        Prefetch(other_offsets + groups[begin + m + 2 * kPrefetchAhead]);
        Prefetch(other.hashes() + groups[begin + m + 2 * kPrefetchAhead]);
      }
      if (begin + m + kPrefetchAhead < n) {
        Prefetch(other.arena_.data() + other_offsets[groups[begin + m + kPrefetchAhead]]);
      }
      const uint32_t g = groups[begin + m];
      const std::string_view key = other.key(g);
      if (m > 0 && bytes.size() + key.size() > static_cast<size_t>(INT32_MAX)) break;
      bytes.append(key.data(), key.size());
      offsets[m + 1] = static_cast<int32_t>(bytes.size());
      if (!other.is_null(g)) validity[m / 64] |= uint64_t{1} << (m % 64);
      hashes[m] = other.hashes()[g];
      ++m;
    }
    if (!FindOrInsert(offsets.data(), reinterpret_cast<const uint8_t*>(bytes.data()), validity.data(),
                      hashes.data(), m, nullptr, ids + begin, error)) {
      return false;
    }
    begin += m;
  }
  return true;
}

}  // namespace laneql
#endif  // HWY_ONCE
