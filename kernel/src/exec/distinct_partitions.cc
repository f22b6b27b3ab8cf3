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

// A set that only counts what it holds: open addressing with linear probing, an all-zero slot
// empty. Reused partition after partition by one thread. `Slot` (trivially copyable) has
// used(), ==, and Hash(): the hash the caller gave Insert for it, recomputed when growing.
template <class Slot>
class ProbingSet {
 public:
  // Empties the set, with room for `expected` slots at most half full.
  bool Reset(size_t expected, std::string* error) {
    size_t capacity = kMinCapacity;
    while (capacity < 2 * expected) capacity *= 2;
    if (!slots_.Resize(0, error) || !slots_.Resize(capacity * sizeof(Slot), error)) return false;
    mask_ = capacity - 1;
    size_ = 0;
    return true;
  }
  // *added: whether `slot` (used) was new. False with *error when growing fails.
  bool Insert(const Slot& slot, uint64_t hash, bool* added, std::string* error) {
    Slot* slots = slots_.As<Slot>();
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      if (slots[i] == slot) {
        *added = false;
        return true;
      }
      if (!slots[i].used()) {
        slots[i] = slot;
        *added = true;
        return ++size_ * 2 <= mask_ + 1 || Grow(error);
      }
    }
  }
  size_t size() const { return size_; }

 private:
  static constexpr size_t kMinCapacity = 1024;
  bool Grow(std::string* error) {
    AlignedBuffer old = std::move(slots_);
    const size_t old_capacity = mask_ + 1;
    if (!slots_.Resize(2 * old_capacity * sizeof(Slot), error)) return false;
    mask_ = 2 * old_capacity - 1;
    Slot* slots = slots_.As<Slot>();
    const Slot* from = old.As<Slot>();
    for (size_t k = 0; k < old_capacity; ++k) {
      if (!from[k].used()) continue;
      size_t i = from[k].Hash() & mask_;
      while (slots[i].used()) i = (i + 1) & mask_;
      slots[i] = from[k];
    }
    return true;
  }
  AlignedBuffer slots_;
  size_t mask_ = 0, size_ = 0;
};

// A nonzero word (the word 0 is counted apart), hashed as HashKeys hashes a uint64.
struct WordSlot {
  uint64_t word;
  bool used() const { return word != 0; }
  bool operator==(const WordSlot& other) const { return word == other.word; }
  uint64_t Hash() const { return reference::HashWord(word + kHashGamma); }
};
// A (group, value) pair: the group + 1 in `tag` (0: empty), hashed from the value's hash.
struct PairSlot {
  uint64_t value;
  uint32_t tag;
  uint32_t unused;
  bool used() const { return tag != 0; }
  bool operator==(const PairSlot& other) const { return tag == other.tag && value == other.value; }
  static uint64_t HashOf(uint64_t value_hash, uint32_t tag) {
    return reference::CombineWord(value_hash, tag);
  }
  uint64_t Hash() const { return HashOf(reference::HashWord(value + kHashGamma), tag); }
};

// alignas(64): each count thread grows its own set's fields.
struct alignas(64) CountThread {
  ProbingSet<WordSlot> words;
  bool zero = false;  // the word 0 seen in this partition
  ProbingSet<PairSlot> pairs;
  AlignedBuffer counts;  // grouped: an int64 per merged group (charged to the query's memory)
  size_t last_distinct = 0;  // of the partition it counted before
  // Hashes of the words to insert, made by the SIMD kernel a block at a time (a scalar hash
  // per word was a call per word). Segments of fewer than kGatherBelow words are gathered into
  // blocks first: a hash call per segment of 4-16 words cost more than its words (Q13, 2
  // threads: 17 ms of CPU counting against 10.7 on one thread, whose segments were twice as
  // long); gathering longer segments too copied every value (Q9: 17 ms of memmove).
  static constexpr size_t kGatherBelow = 32;
  static constexpr size_t kHashBlock = 256;
  uint64_t words_block[kHashBlock];
  uint32_t groups_block[kHashBlock];
  uint64_t hashes[kHashBlock];
};
static_assert(alignof(CountThread) == 64, "each count thread writes its own cache lines");

// Calls insert(word, group, hash) for each value of `side`'s partition p in turn (group 0
// when ungrouped), hashed a block or a segment at a time; stops at the first insert that
// returns false. False if one did.
template <class Insert>
bool ForEachHashed(const DistinctPartitions& side, size_t p, CountThread& mine, const Insert& insert) {
  size_t filled = 0;
  bool ok = true;
  const auto insert_block = [&](const uint64_t* words, const uint32_t* groups, size_t n) {
    HashKeys(words, n, nullptr, mine.hashes);
    for (size_t i = 0; i < n && ok; ++i) ok = insert(words[i], groups != nullptr ? groups[i] : 0u, mine.hashes[i]);
  };
  side.ForEachSegment(p, [&](const uint64_t* words, const uint32_t* groups, size_t n) {
    if (n >= CountThread::kGatherBelow) {
      for (size_t begin = 0; begin < n && ok; begin += CountThread::kHashBlock) {
        insert_block(words + begin, groups != nullptr ? groups + begin : nullptr,
                     std::min(n - begin, CountThread::kHashBlock));
      }
      return;
    }
    if (filled + n > CountThread::kHashBlock) {
      insert_block(mine.words_block, mine.groups_block, filled);
      filled = 0;
    }
    std::copy(words, words + n, mine.words_block + filled);
    if (groups != nullptr) std::copy(groups, groups + n, mine.groups_block + filled);
    else std::fill(mine.groups_block + filled, mine.groups_block + filled + n, 0u);
    filled += n;
  });
  if (filled > 0 && ok) insert_block(mine.words_block, mine.groups_block, filled);
  return ok;
}

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
  size_t selected = 0;
  for (size_t base = 0; base < n; base += 64) {
    const uint64_t word = selection[base / 64] & BitmaskTailMask(std::min<size_t>(64, n - base));
    selected += static_cast<size_t>(__builtin_popcountll(word));
  }
  if (selected == 0) return true;
  values_ += selected;
  const auto partition_of = [&](size_t i) {
    return by_group_ ? PartitionOfGroup(groups[i]) : PartitionOf(hashes[i]);
  };
  const bool grouped = groups != nullptr;
  if (selected >= kRunValues) {  // a run of its own
    uint32_t sizes[kPartitions] = {};
    ForEachSelected(selection, n, [&](size_t i) { ++sizes[partition_of(i)]; });
    if (!MakeRoom(selected, grouped, error)) return false;
    uint64_t* values_out = value_chunks_.back().As<uint64_t>() + chunk_used_;
    uint32_t* groups_out = grouped ? group_chunks_.back().As<uint32_t>() + chunk_used_ : nullptr;
    uint32_t next[kPartitions];
    StartRun(values_out, groups_out, sizes, next);
    if (!grouped) {
      ForEachSelected(selection, n, [&](size_t i) { values_out[next[PartitionOf(hashes[i])]++] = words[i]; });
    } else {
      ForEachSelected(selection, n, [&](size_t i) {
        const uint32_t at = next[partition_of(i)]++;
        values_out[at] = words[i];
        groups_out[at] = groups[i];
      });
    }
    chunk_used_ += selected;
    return true;
  }
  if (stage_values_.empty() && (!stage_values_.ResizeForOverwrite(kStageValues * sizeof(uint64_t), error) ||
                                !stage_parts_.ResizeForOverwrite(kStageValues, error))) {
    return false;
  }
  if (grouped && stage_groups_.empty() &&
      !stage_groups_.ResizeForOverwrite(kStageValues * sizeof(uint32_t), error)) {
    return false;
  }
  if (staged_ + selected > kStageValues && !PartitionStaged(error)) return false;
  uint64_t* values = stage_values_.As<uint64_t>() + staged_;
  uint32_t* stage_groups = grouped ? stage_groups_.As<uint32_t>() + staged_ : nullptr;
  uint8_t* parts = stage_parts_.As<uint8_t>() + staged_;
  size_t k = 0;
  ForEachSelected(selection, n, [&](size_t i) {
    values[k] = words[i];
    if (grouped) stage_groups[k] = groups[i];
    parts[k] = static_cast<uint8_t>(partition_of(i));
    ++k;
  });
  staged_ += selected;
  return true;
}

void DistinctPartitions::StartRun(const uint64_t* values, const uint32_t* groups, const uint32_t* sizes,
                                  uint32_t* next) {
  Run run;
  run.values = values;
  run.groups = groups;
  run.begin[0] = 0;
  for (size_t p = 0; p < kPartitions; ++p) {
    next[p] = run.begin[p];
    run.begin[p + 1] = run.begin[p] + sizes[p];
  }
  runs_.push_back(run);
}

bool DistinctPartitions::Finish(std::string* error) { return staged_ == 0 || PartitionStaged(error); }

bool DistinctPartitions::PartitionStaged(std::string* error) {
  static_assert(kPartitions <= 256, "a staged value's partition is one byte");
  const size_t n = staged_;
  const bool grouped = !stage_groups_.empty();
  if (!MakeRoom(n, grouped, error)) return false;
  const uint64_t* values = stage_values_.As<uint64_t>();
  const uint32_t* groups = grouped ? stage_groups_.As<uint32_t>() : nullptr;
  const uint8_t* parts = stage_parts_.As<uint8_t>();
  uint32_t sizes[kPartitions] = {};
  for (size_t i = 0; i < n; ++i) ++sizes[parts[i]];
  uint64_t* values_out = value_chunks_.back().As<uint64_t>() + chunk_used_;
  uint32_t* groups_out = grouped ? group_chunks_.back().As<uint32_t>() + chunk_used_ : nullptr;
  uint32_t next[kPartitions];
  StartRun(values_out, groups_out, sizes, next);
  if (grouped) {
    for (size_t i = 0; i < n; ++i) {
      const uint32_t at = next[parts[i]]++;
      values_out[at] = values[i];
      groups_out[at] = groups[i];
    }
  } else {
    for (size_t i = 0; i < n; ++i) values_out[next[parts[i]]++] = values[i];
  }
  chunk_used_ += n;
  staged_ = 0;
  return true;
}

namespace {

// Counting a side whose values are still staged would miss them: a clear error instead.
bool AllFinished(const std::vector<const DistinctPartitions*>& sides, std::string* error) {
  for (const DistinctPartitions* side : sides) {
    if (!side->finished()) {
      *error = "internal error: COUNT(DISTINCT) partitions counted before their staged values";
      return false;
    }
  }
  return true;
}

}  // namespace

size_t DistinctPartitions::PartitionSize(size_t p) const {
  size_t n = 0;
  for (const Run& run : runs_) n += run.begin[p + 1] - run.begin[p];
  return n;
}

bool CountDistinctPartitions(const std::vector<const DistinctPartitions*>& sides,
                             const ExecContext& ctx, int threads, size_t* count, std::string* error) {
  if (!AllFinished(sides, error)) return false;
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
    if (!mine.words.Reset(std::min(values, mine.last_distinct + mine.last_distinct / 4), task_error)) {
      return false;
    }
    mine.zero = false;
    bool inserted = true;
    for (const DistinctPartitions* side : sides) {
      inserted = inserted && ForEachHashed(*side, p, mine, [&](uint64_t word, uint32_t, uint64_t hash) {
        bool added = false;
        if (word == 0) {
          mine.zero = true;
          return true;
        }
        return mine.words.Insert(WordSlot{word}, hash, &added, task_error);
      });
    }
    if (!inserted) return false;
    counts[p] = mine.words.size() + (mine.zero ? 1 : 0);
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
  if (!AllFinished(sides, error)) return false;
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
      inserted = inserted && ForEachHashed(*sides[w], p, mine, [&](uint64_t word, uint32_t local, uint64_t hash) {
        const uint32_t group = target[local];
        bool added = false;
        const PairSlot pair{word, group + 1, 0};
        const bool ok = mine.pairs.Insert(pair, PairSlot::HashOf(hash, pair.tag), &added, task_error);
        group_counts[group] += added ? 1 : 0;
        distinct += added ? 1 : 0;
        return ok;
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

bool CountDistinctPairsByGroup(const std::vector<const DistinctPartitions*>& sides,
                               const std::vector<size_t>& side_groups, const ExecContext& ctx,
                               int threads, int64_t* counts, std::string* error) {
  if (!AllFinished(sides, error)) return false;
  constexpr size_t kParts = DistinctPartitions::kPartitions;
  // Partition p's counts are one row of a table: side w's group l (l % 256 == p) at column
  // columns[w] + l / 256. A row is a 256th of the groups, in the cache of the thread counting
  // it, and the rows' threads write apart.
  std::vector<size_t> first_group(sides.size() + 1, 0), columns(sides.size() + 1, 0);
  for (size_t w = 0; w < sides.size(); ++w) {
    first_group[w + 1] = first_group[w] + side_groups[w];
    columns[w + 1] = columns[w] + (side_groups[w] + kParts - 1) / kParts;
  }
  const size_t width = columns.back();
  if (width == 0) return true;
  AlignedBuffer table;
  if (!table.ResizeForOverwrite(kParts * width * sizeof(int64_t), error)) return false;
  std::vector<CountThread> per_thread(static_cast<size_t>(std::max(threads, 1)));
  const bool ok = RunTasks(ctx, threads, kParts, [&](size_t p, int t, std::string* task_error) {
    ScopedSpan span(ctx.profiler, t, "count distinct", "merge");
    CountThread& mine = per_thread[static_cast<size_t>(t)];
    int64_t* row = table.As<int64_t>() + p * width;
    std::fill(row, row + width, 0);
    size_t values = 0;
    for (const DistinctPartitions* side : sides) values += side->PartitionSize(p);
    if (!mine.pairs.Reset(std::min(values, mine.last_distinct + mine.last_distinct / 4), task_error)) {
      return false;
    }
    size_t distinct = 0;
    bool inserted = true;
    for (size_t w = 0; w < sides.size(); ++w) {
      const uint32_t tag_base = static_cast<uint32_t>(first_group[w] + 1);
      int64_t* side_row = row + columns[w];
      inserted = inserted && ForEachHashed(*sides[w], p, mine, [&](uint64_t word, uint32_t group, uint64_t hash) {
        bool added = false;
        const PairSlot pair{word, tag_base + group, 0};
        const bool ok = mine.pairs.Insert(pair, PairSlot::HashOf(hash, pair.tag), &added, task_error);
        side_row[group / kParts] += added ? 1 : 0;
        distinct += added ? 1 : 0;
        return ok;
      });
    }
    if (!inserted) return false;
    mine.last_distinct = distinct;
    span.counters().rows = values;
    span.counters().probes = values;
    return true;
  }, error);
  if (!ok) return false;
  // The table transposed into the merged numbering, in parallel by ranges of groups.
  constexpr size_t kRange = size_t{1} << 16;
  const size_t groups = first_group.back();
  return RunTasks(ctx, threads, (groups + kRange - 1) / kRange, [&](size_t k, int t, std::string*) {
    ScopedSpan span(ctx.profiler, t, "distinct counts by group", "merge");
    const size_t end = std::min(groups, (k + 1) * kRange);
    span.counters().rows = end - k * kRange;
    size_t w = 0;
    for (size_t g = k * kRange; g < end; ++g) {
      while (g >= first_group[w + 1]) ++w;
      const size_t l = g - first_group[w];
      counts[g] += table.As<int64_t>()[(l % kParts) * width + columns[w] + l / kParts];
    }
    return true;
  }, error);
}

}  // namespace exec
}  // namespace laneql
