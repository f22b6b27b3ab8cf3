// Radix-partitioned COUNT(DISTINCT) (see distinct_partitions.h).
#include "src/exec/distinct_partitions.h"

#include <algorithm>
#include <cstring>

#include "laneql/bitmask.h"
#include "laneql/hash.h"
#include "src/exec/morsel.h"

namespace laneql {
namespace exec {

namespace {

// Calls fn(i) for every row i < n set in `selection`, full words without testing bits.
template <class Fn>
void ForEachSelected(const uint64_t* selection, size_t n, const Fn& fn) {
  for (size_t base = 0; base < n; base += 64) {
    const size_t rows = std::min<size_t>(64, n - base);
    uint64_t word = selection[base / 64] & BitmaskTailMask(rows);
    if (word == ~uint64_t{0}) {
      for (size_t j = 0; j < 64; ++j) fn(base + j);
      continue;
    }
    while (word != 0) {
      fn(base + static_cast<size_t>(__builtin_ctzll(word)));
      word &= word - 1;
    }
  }
}

// A set of 64-bit words that only counts them: open addressing with linear probing, 0 marking
// an empty slot (the word 0 itself is a flag). Reused partition after partition by one thread.
class WordSet {
 public:
  // Empties the set, with room for `expected` words at most half full.
  bool Reset(size_t expected, std::string* error) {
    size_t capacity = kMinCapacity;
    while (capacity < 2 * expected) capacity *= 2;
    if (!slots_.Resize(0, error) || !slots_.Resize(capacity * sizeof(uint64_t), error)) return false;
    mask_ = capacity - 1;
    size_ = 0;
    zero_ = false;
    return true;
  }
  // `hash`: HashKeys' hash of the word (read as a uint64).
  bool Insert(uint64_t word, uint64_t hash, std::string* error) {
    if (word == 0) {
      zero_ = true;
      return true;
    }
    uint64_t* slots = slots_.As<uint64_t>();
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      if (slots[i] == word) return true;
      if (slots[i] == 0) {
        slots[i] = word;
        return ++size_ * 2 <= mask_ + 1 || Grow(error);
      }
    }
  }
  size_t size() const { return size_ + (zero_ ? 1 : 0); }

 private:
  static constexpr size_t kMinCapacity = 1024;
  bool Grow(std::string* error) {
    AlignedBuffer old = std::move(slots_);
    const size_t old_capacity = mask_ + 1;
    if (!slots_.Resize(2 * old_capacity * sizeof(uint64_t), error)) return false;
    mask_ = 2 * old_capacity - 1;
    uint64_t* slots = slots_.As<uint64_t>();
    const uint64_t* from = old.As<uint64_t>();
    for (size_t k = 0; k < old_capacity; ++k) {
      if (from[k] == 0) continue;
      size_t i = reference::HashWord(from[k] + kHashGamma) & mask_;  // as HashKeys
      while (slots[i] != 0) i = (i + 1) & mask_;
      slots[i] = from[k];
    }
    return true;
  }
  AlignedBuffer slots_;
  size_t mask_ = 0, size_ = 0;
  bool zero_ = false;
};

// The same for (group, value) pairs: a slot holds the value and the group + 1 (0: empty).
class PairSet {
 public:
  bool Reset(size_t expected, std::string* error) {
    size_t capacity = kMinCapacity;
    while (capacity < 2 * expected) capacity *= 2;
    if (!slots_.Resize(0, error) || !slots_.Resize(capacity * sizeof(Slot), error)) return false;
    mask_ = capacity - 1;
    size_ = 0;
    return true;
  }
  // Whether the pair is new (*error set and false returned when growing fails: check it).
  bool Insert(uint64_t value, uint32_t group, uint64_t value_hash, bool* added, std::string* error) {
    Slot* slots = slots_.As<Slot>();
    const uint32_t tag = group + 1;
    for (size_t i = SlotOf(value_hash, group);; i = (i + 1) & mask_) {
      if (slots[i].tag == tag && slots[i].value == value) {
        *added = false;
        return true;
      }
      if (slots[i].tag == 0) {
        slots[i] = Slot{value, tag, 0};
        *added = true;
        return ++size_ * 2 <= mask_ + 1 || Grow(error);
      }
    }
  }

 private:
  struct Slot {
    uint64_t value;
    uint32_t tag;
    uint32_t unused;
  };
  static constexpr size_t kMinCapacity = 1024;
  size_t SlotOf(uint64_t value_hash, uint32_t group) const {
    return reference::CombineWord(value_hash, group) & mask_;
  }
  bool Grow(std::string* error) {
    AlignedBuffer old = std::move(slots_);
    const size_t old_capacity = mask_ + 1;
    if (!slots_.Resize(2 * old_capacity * sizeof(Slot), error)) return false;
    mask_ = 2 * old_capacity - 1;
    Slot* slots = slots_.As<Slot>();
    const Slot* from = old.As<Slot>();
    for (size_t k = 0; k < old_capacity; ++k) {
      if (from[k].tag == 0) continue;
      size_t i = SlotOf(reference::HashWord(from[k].value + kHashGamma), from[k].tag - 1);  // as HashKeys
      while (slots[i].tag != 0) i = (i + 1) & mask_;
      slots[i] = from[k];
    }
    return true;
  }
  AlignedBuffer slots_;
  size_t mask_ = 0, size_ = 0;
};

// alignas(64): each count thread grows its own set's fields.
struct alignas(64) CountThread {
  WordSet set;
  PairSet pairs;
  AlignedBuffer counts;  // grouped: an int64 per merged group (charged to the query's memory)
  size_t last_distinct = 0;  // of the partition it counted before
  // Hashes of the next words to insert, made by the SIMD kernel a block at a time (a scalar
  // hash per word was a call per word).
  static constexpr size_t kHashBlock = 256;
  uint64_t hashes[kHashBlock];
};
static_assert(alignof(CountThread) == 64, "each count thread writes its own cache lines");

}  // namespace

bool DistinctPartitions::MakeRoom(size_t n, bool grouped, std::string* error) {
  if (!value_chunks_.empty() && chunk_used_ + n <= chunk_values_) return true;
  size_t values = value_chunks_.empty() ? kFirstChunkValues : std::min(2 * chunk_values_, kMaxChunkValues);
  values = std::max(values, n);
  AlignedBuffer chunk, group_chunk;
  if (!chunk.ResizeForOverwrite(values * sizeof(uint64_t), error) ||
      (grouped && !group_chunk.ResizeForOverwrite(values * sizeof(uint32_t), error))) {
    return false;
  }
  value_chunks_.push_back(std::move(chunk));
  if (grouped) group_chunks_.push_back(std::move(group_chunk));
  chunk_values_ = values;
  chunk_used_ = 0;
  return true;
}

bool DistinctPartitions::Append(const uint64_t* words, const uint32_t* groups, const uint64_t* hashes,
                                size_t n, const uint64_t* selection, std::string* error) {
  uint32_t sizes[kPartitions] = {};
  size_t selected = 0;
  ForEachSelected(selection, n, [&](size_t i) {
    ++sizes[PartitionOf(hashes[i])];
    ++selected;
  });
  if (selected == 0) return true;
  if (!MakeRoom(selected, groups != nullptr, error)) return false;
  Run run;
  uint64_t* values_out = value_chunks_.back().As<uint64_t>() + chunk_used_;
  uint32_t* groups_out = groups != nullptr ? group_chunks_.back().As<uint32_t>() + chunk_used_ : nullptr;
  run.values = values_out;
  run.groups = groups_out;
  uint32_t next[kPartitions];
  run.begin[0] = 0;
  for (size_t p = 0; p < kPartitions; ++p) {
    next[p] = run.begin[p];
    run.begin[p + 1] = run.begin[p] + sizes[p];
  }
  if (groups == nullptr) {
    ForEachSelected(selection, n, [&](size_t i) { values_out[next[PartitionOf(hashes[i])]++] = words[i]; });
  } else {
    ForEachSelected(selection, n, [&](size_t i) {
      const uint32_t at = next[PartitionOf(hashes[i])]++;
      values_out[at] = words[i];
      groups_out[at] = groups[i];
    });
  }
  chunk_used_ += selected;
  values_ += selected;
  runs_.push_back(run);
  return true;
}

size_t DistinctPartitions::PartitionSize(size_t p) const {
  size_t n = 0;
  for (const Run& run : runs_) n += run.begin[p + 1] - run.begin[p];
  return n;
}

bool CountDistinctPartitions(const std::vector<const DistinctPartitions*>& sides,
                             const ExecContext& ctx, int threads, size_t* count, std::string* error) {
  std::vector<CountThread> per_thread(static_cast<size_t>(std::max(threads, 1)));
  std::vector<size_t> counts(DistinctPartitions::kPartitions, 0);
  const bool ok = RunTasks(ctx, threads, DistinctPartitions::kPartitions,
                           [&](size_t p, int t, std::string* task_error) {
    ScopedSpan span(ctx.profiler, t, "count distinct", "merge");
    CountThread& mine = per_thread[static_cast<size_t>(t)];
    size_t values = 0;
    for (const DistinctPartitions* side : sides) values += side->PartitionSize(p);
    // The partitions are alike (the hash spreads the values evenly): sized as the last one
    // ended, the set rarely grows, and is not made larger than the values it may hold.
    if (!mine.set.Reset(std::min(values, mine.last_distinct + mine.last_distinct / 4), task_error)) {
      return false;
    }
    bool inserted = true;
    for (const DistinctPartitions* side : sides) {
      side->ForEachSegment(p, [&](const uint64_t* words, const uint32_t*, size_t n) {
        for (size_t begin = 0; begin < n && inserted; begin += CountThread::kHashBlock) {
          const size_t m = std::min(n - begin, CountThread::kHashBlock);
          HashKeys(words + begin, m, nullptr, mine.hashes);
          for (size_t i = 0; i < m && inserted; ++i) {
            inserted = mine.set.Insert(words[begin + i], mine.hashes[i], task_error);
          }
        }
      });
    }
    if (!inserted) return false;
    counts[p] = mine.set.size();
    mine.last_distinct = counts[p];
    span.counters().rows = values;
    span.counters().probes = values;
    return true;
  }, error);
  if (!ok) return false;
  *count = 0;
  for (size_t n : counts) *count += n;
  return true;
}

bool CountDistinctPairPartitions(const std::vector<const DistinctPartitions*>& sides,
                                 const std::vector<const uint32_t*>& targets, size_t groups,
                                 const ExecContext& ctx, int threads, int64_t* counts,
                                 std::string* error) {
  std::vector<CountThread> per_thread(static_cast<size_t>(std::max(threads, 1)));
  const bool ok = RunTasks(ctx, threads, DistinctPartitions::kPartitions,
                           [&](size_t p, int t, std::string* task_error) {
    ScopedSpan span(ctx.profiler, t, "count distinct", "merge");
    CountThread& mine = per_thread[static_cast<size_t>(t)];
    const size_t count_bytes = std::max<size_t>(groups, 1) * sizeof(int64_t);
    if (mine.counts.empty() && !mine.counts.Resize(count_bytes, task_error)) return false;
    int64_t* group_counts = mine.counts.As<int64_t>();
    size_t values = 0;
    for (const DistinctPartitions* side : sides) values += side->PartitionSize(p);
    if (!mine.pairs.Reset(std::min(values, mine.last_distinct + mine.last_distinct / 4), task_error)) {
      return false;
    }
    size_t distinct = 0;
    bool inserted = true;
    for (size_t w = 0; w < sides.size(); ++w) {
      const uint32_t* target = targets[w];
      sides[w]->ForEachSegment(p, [&](const uint64_t* words, const uint32_t* local, size_t n) {
        for (size_t begin = 0; begin < n && inserted; begin += CountThread::kHashBlock) {
          const size_t m = std::min(n - begin, CountThread::kHashBlock);
          HashKeys(words + begin, m, nullptr, mine.hashes);
          for (size_t i = 0; i < m && inserted; ++i) {
            const uint32_t group = target[local[begin + i]];
            bool added = false;
            inserted = mine.pairs.Insert(words[begin + i], group, mine.hashes[i], &added, task_error);
            group_counts[group] += added ? 1 : 0;
            distinct += added ? 1 : 0;
          }
        }
      });
    }
    if (!inserted) return false;
    mine.last_distinct = distinct;
    span.counters().rows = values;
    span.counters().probes = values;
    return true;
  }, error);
  if (!ok) return false;
  for (const CountThread& thread : per_thread) {
    if (thread.counts.empty()) continue;  // took no partition
    const int64_t* thread_counts = thread.counts.As<int64_t>();
    for (size_t g = 0; g < groups; ++g) counts[g] += thread_counts[g];
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
