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

// alignas(64): each count thread grows its own set's fields.
struct alignas(64) CountThread {
  WordSet set;
  size_t last_distinct = 0;  // of the partition it counted before
  // Hashes of the next words to insert, made by the SIMD kernel a block at a time (a scalar
  // hash per word was a call per word).
  static constexpr size_t kHashBlock = 256;
  uint64_t hashes[kHashBlock];
};
static_assert(alignof(CountThread) == 64, "each count thread writes its own cache lines");

}  // namespace

bool DistinctPartitions::Append(const uint64_t* words, const uint64_t* hashes, size_t n,
                                const uint64_t* selection, std::string* error) {
  Run run;
  uint32_t sizes[kPartitions] = {};
  size_t selected = 0;
  ForEachSelected(selection, n, [&](size_t i) {
    ++sizes[PartitionOf(hashes[i])];
    ++selected;
  });
  if (selected == 0) return true;
  if (chunks_.empty() || chunk_used_ + selected > chunks_.back().size() / sizeof(uint64_t)) {
    size_t values = chunks_.empty() ? kFirstChunkValues
                                    : std::min(2 * chunks_.back().size() / sizeof(uint64_t), kMaxChunkValues);
    values = std::max(values, selected);
    AlignedBuffer chunk;
    if (!chunk.ResizeForOverwrite(values * sizeof(uint64_t), error)) return false;
    chunks_.push_back(std::move(chunk));
    chunk_used_ = 0;
  }
  uint64_t* out = chunks_.back().As<uint64_t>() + chunk_used_;
  run.values = out;
  uint32_t next[kPartitions];
  run.begin[0] = 0;
  for (size_t p = 0; p < kPartitions; ++p) {
    next[p] = run.begin[p];
    run.begin[p + 1] = run.begin[p] + sizes[p];
  }
  ForEachSelected(selection, n, [&](size_t i) { out[next[PartitionOf(hashes[i])]++] = words[i]; });
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
      side->ForEachSegment(p, [&](const uint64_t* words, size_t n) {
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

}  // namespace exec
}  // namespace laneql
