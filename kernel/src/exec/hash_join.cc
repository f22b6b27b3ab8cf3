// HashJoinPairs: a hash table over the build keys, probed by morsels of the probe side on the
// query's threads.
//
// The table. The build rows without a NULL key are grouped by bucket (hash & mask): bucket b's
// rows are entries [starts[b], starts[b + 1]), each entry a row and its 64-bit hash, so that an
// entry of another key is almost always rejected without reading the keys. The entries are
// placed by a counting sort over the rows in ascending order, so every bucket lists its rows
// in ascending order: scanning it gives a probe row's matches already sorted by build row, and
// no sort is needed anywhere. A bucket's entries are contiguous (where chains through a `next`
// array cost a cache miss per row, and duplicates of one key sit side by side); the bucket
// count is the power of two at or above the rows inserted (about one entry per bucket;
// 20 to 24 bytes a build row in all, and 8 more while it is built). A table past the caches
// is placed by a radix sort into partitions of buckets, each then sorted on its own, in
// parallel (PlaceInPartitions): the same layout, so the output does not depend on the path
// or the thread count.
//
// The probe. Morsels of whole batches of kJoinBatchRows probe rows, taken from one cursor;
// each morsel's pairs go to its own list, and the lists are concatenated in morsel order, so
// the output is in probe-row order on any thread count. Per batch: hash the keys (kernels),
// find the rows without a NULL key (and, for a small build side, those its key filter passes:
// join_key_filter.h), load those rows' bucket bounds (independent loads the CPU overlaps,
// where one lookup after another would wait for each), then scan the buckets, prefetching a
// few rows ahead.
#include "src/exec/hash_join.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <memory>
#include <new>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "src/common/query_budget.h"
#include "src/exec/hash_join_keys.h"
#include "src/exec/join_key_filter.h"
#include "src/exec/morsel.h"
#include "src/exec/profile.h"

namespace laneql {
namespace exec {
namespace {

// Rows per probe (and build hashing) batch: a multiple of 64 so that batches start on whole
// validity words; small enough that a batch's hashes and bucket bounds (32 KiB) stay in L2,
// and that a probe side of a few batches already spreads over threads.
constexpr size_t kJoinBatchRows = 2048;
// Build rows placed between two checks for a stopped query.
constexpr size_t kPlaceRowsPerStopCheck = size_t{1} << 20;
// Parallel placement: at most this many partitions (a partition of 16 M build rows is 16 K
// entries, 256 KiB, sorted within L2), each at least this many buckets.
constexpr size_t kMaxPlacePartitions = 1024;
constexpr size_t kMinBucketsPerPartition = 16;
// From this many buckets on (bounds and entries past the L2 cache), placing by partitions is
// faster even on one thread: 6 M unique keys took 223 ms placed row by row (a cache miss on
// the bounds and one on the entries per row), 48 ms by partitions; at 40 K rows (64 K buckets)
// the extra pass cost more than it saved (laneql_join_build_bench).
constexpr size_t kPartitionedPlaceMinBuckets = size_t{1} << 17;

size_t JoinBatches(size_t rows) { return (rows + kJoinBatchRows - 1) / kJoinBatchRows; }

// Build rows a hashing task takes: 16 batches, so that a profiled build has a span a task
// (category "build", on the thread that ran it) without thousands of them.
constexpr size_t kJoinBuildTaskRows = 16 * kJoinBatchRows;

class JoinHashTable {
 public:
  struct Entry {
    uint64_t hash;
    uint32_t row;
    uint32_t unused;  // 16 bytes: an entry never straddles a cache line
  };

  // Hashes the build keys (in parallel on up to `threads` threads) and places their rows.
  // `direct`: the keys hash to their offsets from the smallest key (JoinKeys::OffsetsFrom),
  // `span` of them at most: a bucket per key value and no key filter (a bucket's bounds are as
  // cheap to read).
  bool Build(const JoinKeys& keys, size_t rows, const ExecContext& ctx, int threads, std::string* error,
             bool direct = false, size_t span = 0) {
    AlignedBuffer hashes_buffer, valid_buffer;  // per build row, for the placement only
    if (!hashes_buffer.ResizeForOverwrite(rows * sizeof(uint64_t), error) ||
        !valid_buffer.ResizeForOverwrite(BitmaskWords(rows) * sizeof(uint64_t), error)) {
      return false;
    }
    uint64_t* hashes = hashes_buffer.As<uint64_t>();
    uint64_t* valid = valid_buffer.As<uint64_t>();
    auto hash_task = [&](size_t task, int t, std::string*) {
      ScopedSpan span(ctx.profiler, t, "join build hash", "build");
      const size_t first = task * kJoinBuildTaskRows, last = std::min(rows, first + kJoinBuildTaskRows);
      for (size_t begin = first; begin < last; begin += kJoinBatchRows) {
        const size_t n = std::min(kJoinBatchRows, last - begin);
        keys.Hash(begin, n, hashes + begin);
        keys.ValidRows(begin, n, valid + begin / 64);
      }
      span.counters().rows = last - first;
      return true;
    };
    if (!RunTasks(ctx, threads, (rows + kJoinBuildTaskRows - 1) / kJoinBuildTaskRows, hash_task, error)) return false;
    size_t inserted = 0;
    for (size_t w = 0; w < BitmaskWords(rows); ++w) inserted += static_cast<size_t>(__builtin_popcountll(valid[w]));
    inserted_ = inserted;
    if (inserted == 0) return true;
    if (!direct) {
      ScopedSpan span(ctx.profiler, 0, "join key filter", "build");
      if (!filter_.Build(hashes, valid, rows, inserted, error)) return false;
    }
    size_t buckets = 16;
    while (buckets < (direct ? span : inserted)) buckets *= 2;
    mask_ = buckets - 1;
    // starts gets two leading slots: counts go to starts[b + 2], a prefix sum makes starts[b + 1]
    // bucket b's first entry, and placing each row through starts[b + 1]++ leaves starts[b]
    // = bucket b's first entry and starts[b + 1] its end.
    if (!starts_.Resize((buckets + 2) * sizeof(uint32_t), error) ||
        !entries_.ResizeForOverwrite(inserted * sizeof(Entry), error)) {
      return false;
    }
    if (buckets >= kPartitionedPlaceMinBuckets) {
      return PlaceInPartitions(hashes, valid, rows, buckets, ctx, threads, error);
    }
    return Place(hashes, valid, rows, buckets, ctx, error);
  }

  bool empty() const { return inserted_ == 0; }
  size_t mask() const { return mask_; }
  const uint32_t* starts() const { return starts_.As<uint32_t>(); }
  const Entry* entries() const { return entries_.As<Entry>(); }
  const JoinKeyFilter& filter() const { return filter_; }
  size_t partitions() const { return partitions_; }

  // A table that fits the caches: a counting sort over all rows.
  bool Place(const uint64_t* hashes, const uint64_t* valid, size_t rows, size_t buckets, const ExecContext& ctx,
             std::string* error) {
    ScopedSpan span(ctx.profiler, 0, "join build place", "build");
    span.counters().rows = rows;
    uint32_t* starts = starts_.As<uint32_t>();
    Entry* entries = entries_.As<Entry>();
    for (size_t row = 0; row < rows; ++row) {
      if (BitmaskGet(valid, row)) ++starts[(hashes[row] & mask_) + 2];
    }
    for (size_t b = 2; b < buckets + 2; ++b) starts[b] += starts[b - 1];
    if (ctx.Interrupted()) {
      *error = ctx.StopMessage();
      return false;
    }
    for (size_t row = 0; row < rows; ++row) {
      if (row % kPlaceRowsPerStopCheck == 0 && row != 0 && ctx.Interrupted()) {
        *error = ctx.StopMessage();
        return false;
      }
      if (!BitmaskGet(valid, row)) continue;
      const uint64_t hash = hashes[row];
      entries[starts[(hash & mask_) + 1]++] = Entry{hash, static_cast<uint32_t>(row), 0};
    }
    return true;
  }

  // A larger table, on any number of threads: the same layout by a two-pass radix sort. Partitions are ranges of
  // buckets (a bucket's top bits). Each thread counts, then scatters, its own range of rows
  // into the partitions (ranges in row order, so each partition lists its rows ascending);
  // then each partition, a cache-sized part, is counting-sorted into its buckets on its own.
  // No two threads write one slot, so no lock and no atomic.
  bool PlaceInPartitions(const uint64_t* hashes, const uint64_t* valid, size_t rows, size_t buckets,
                         const ExecContext& ctx, int threads, std::string* error) {
    size_t partitions = 1;
    while (partitions < kMaxPlacePartitions && partitions * kMinBucketsPerPartition < buckets) partitions *= 2;
    int shift = 0;
    while ((buckets >> shift) > partitions) ++shift;
    // Row ranges of whole validity words.
    const size_t words = BitmaskWords(rows);
    const size_t ranges = std::min<size_t>(static_cast<size_t>(threads), words);
    auto range_begin = [&](size_t r) { return std::min(rows, words * r / ranges * 64); };
    std::vector<size_t> counts(ranges * partitions, 0);  // [range][partition], then write offsets
    auto count_range = [&](size_t r, int t, std::string*) {
      ScopedSpan span(ctx.profiler, t, "join build count", "build");
      size_t* count = counts.data() + r * partitions;
      for (size_t row = range_begin(r), end = range_begin(r + 1); row < end; ++row) {
        if (BitmaskGet(valid, row)) ++count[(hashes[row] & mask_) >> shift];
      }
      return true;
    };
    if (!RunTasks(ctx, threads, ranges, count_range, error)) return false;
    std::vector<size_t> partition_starts(partitions + 1, 0);
    size_t at = 0;
    for (size_t p = 0; p < partitions; ++p) {
      partition_starts[p] = at;
      for (size_t r = 0; r < ranges; ++r) {
        const size_t n = counts[r * partitions + p];
        counts[r * partitions + p] = at;
        at += n;
      }
    }
    partition_starts[partitions] = at;
    Entry* entries = entries_.As<Entry>();  // first by partition, then by bucket
    auto scatter_range = [&](size_t r, int t, std::string*) {
      ScopedSpan span(ctx.profiler, t, "join build scatter", "build");
      size_t* next = counts.data() + r * partitions;
      for (size_t row = range_begin(r), end = range_begin(r + 1); row < end; ++row) {
        if (!BitmaskGet(valid, row)) continue;
        const uint64_t hash = hashes[row];
        entries[next[(hash & mask_) >> shift]++] = Entry{hash, static_cast<uint32_t>(row), 0};
      }
      return true;
    };
    if (!RunTasks(ctx, threads, ranges, scatter_range, error)) return false;
    uint32_t* starts = starts_.As<uint32_t>();
    partitions_ = partitions;
    const size_t per_partition = size_t{1} << shift;
    // Each thread's copy of the partition it sorts (a few hundred KiB at most, in its cache),
    // made here: a task must not allocate (an allocation failure on a worker is no error).
    size_t largest = 0;
    for (size_t p = 0; p < partitions; ++p) largest = std::max(largest, partition_starts[p + 1] - partition_starts[p]);
    std::vector<std::vector<Entry>> copies(static_cast<size_t>(threads), std::vector<Entry>(largest));
    std::vector<std::vector<uint32_t>> counts_of(static_cast<size_t>(threads), std::vector<uint32_t>(per_partition));
    // Partition p writes starts[b + 1] for its buckets b only, and starts[0] stays 0.
    auto sort_partition = [&](size_t p, int t, std::string*) {
      ScopedSpan span(ctx.profiler, t, "join build sort", "build");
      const size_t first = p * per_partition;
      const size_t size = partition_starts[p + 1] - partition_starts[p];
      Entry* copy = copies[static_cast<size_t>(t)].data();
      std::copy(entries + partition_starts[p], entries + partition_starts[p + 1], copy);
      std::vector<uint32_t>& count = counts_of[static_cast<size_t>(t)];
      std::fill(count.begin(), count.end(), 0);
      for (size_t i = 0; i < size; ++i) ++count[(copy[i].hash & mask_) - first];
      uint32_t offset = static_cast<uint32_t>(partition_starts[p]);
      for (size_t b = 0; b < per_partition; ++b) {
        starts[first + b + 1] = offset;
        offset += count[b];
      }
      for (size_t i = 0; i < size; ++i) entries[starts[(copy[i].hash & mask_) + 1]++] = copy[i];
      return true;
    };
    return RunTasks(ctx, threads, partitions, sort_partition, error);
  }

 private:
  AlignedBuffer starts_;   // buckets + 1 bounds (and one spare slot)
  AlignedBuffer entries_;  // the rows without a NULL key, bucket by bucket
  JoinKeyFilter filter_;   // for small build sides (join_key_filter.h)
  size_t mask_ = 0;
  size_t inserted_ = 0;
  size_t partitions_ = 1;  // the radix placement's partitions (PlaceInPartitions), else 1
};

struct Pair {
  uint32_t probe;
  uint32_t build;
};

// One morsel's pairs, its growth charged to the query's budget and given back when freed.
class PairList {
 public:
  PairList() = default;
  PairList(const PairList&) = delete;
  PairList& operator=(const PairList&) = delete;
  ~PairList() { ReleaseQueryMemory(capacity_ * sizeof(Pair)); }

  bool Push(uint32_t probe, uint32_t build, std::string* error) {
    if (size_ == capacity_ && !Grow(error)) return false;
    data_[size_++] = Pair{probe, build};
    return true;
  }
  size_t size() const { return size_; }
  const Pair* data() const { return data_.get(); }

 private:
  bool Grow(std::string* error) {
    const size_t capacity = std::max<size_t>(capacity_ * 2, 1024);
    if (!ChargeQueryMemory((capacity - capacity_) * sizeof(Pair), error)) return false;
    std::unique_ptr<Pair[]> grown(new (std::nothrow) Pair[capacity]);
    if (grown == nullptr) {
      ReleaseQueryMemory((capacity - capacity_) * sizeof(Pair));
      *error = "out of memory collecting the pairs of a hash join";
      return false;
    }
    if (size_ != 0) std::memcpy(grown.get(), data_.get(), size_ * sizeof(Pair));
    data_ = std::move(grown);
    capacity_ = capacity;
    return true;
  }

  std::unique_ptr<Pair[]> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// A thread's batch buffers, and what the key filter has passed so far.
struct ProbeScratch {
  std::vector<uint64_t> hashes = std::vector<uint64_t>(kJoinBatchRows);
  std::vector<uint64_t> valid = std::vector<uint64_t>(BitmaskWords(kJoinBatchRows));
  std::vector<uint32_t> rows = std::vector<uint32_t>(kJoinBatchRows);
  std::vector<uint32_t> begin = std::vector<uint32_t>(kJoinBatchRows);
  std::vector<uint32_t> end = std::vector<uint32_t>(kJoinBatchRows);
  size_t filter_in = 0, filter_out = 0;
  bool use_filter = true;
  // For the profile: rows with a non-NULL key the filter dropped, and rows that read buckets.
  JoinProbeCounts counts;
};

// The key filter is asked until it has seen this many rows and passed more than half of them.
constexpr size_t kFilterTrialRows = 4 * kJoinBatchRows;

// Rows ahead whose first bucket entry is prefetched: enough misses in flight to cover the
// latency of one, few enough that the lines are still in L1 when their row comes.
constexpr size_t kPrefetchRows = 16;

// Probe rows [first_row, end_row) against the table; `equal(build_row, probe_row)` compares
// keys; match(probe_row, build_row) for every match, in probe-row then build-row order, says
// what next: kNextMatch, kNextRow (this probe row is done) or kFail.
enum class AfterMatch { kNextMatch, kNextRow, kFail };
template <class Equal, class Match>
bool ScanMatches(const JoinHashTable& table, const JoinKeys& probe, size_t first_row, size_t end_row,
                 const Equal& equal, ProbeScratch* scratch, const Match& match) {
  const uint32_t* starts = table.starts();
  const JoinHashTable::Entry* entries = table.entries();
  const size_t mask = table.mask();
  for (size_t at = first_row; at < end_row; at += kJoinBatchRows) {
    const size_t n = std::min(kJoinBatchRows, end_row - at);
    uint64_t* hashes = scratch->hashes.data();
    uint32_t* begin = scratch->begin.data();
    uint32_t* end = scratch->end.data();
    uint32_t* rows = scratch->rows.data();
    const uint64_t* valid = scratch->valid.data();
    probe.Hash(at, n, hashes);
    probe.ValidRows(at, n, scratch->valid.data());
    // The rows that may match: those the key filter passes, or every row without a NULL key.
    size_t k = 0;
    const JoinKeyFilter& filter = table.filter();
    if (filter.enabled() && scratch->use_filter) {
      k = filter.Candidates(hashes, valid, n, rows);
      scratch->filter_in += n;
      scratch->filter_out += k;
      // Rows with a NULL key never match: only the valid rows the filter dropped count as its.
      size_t valid_rows = 0;
      for (size_t w = 0; w < n / 64; ++w) valid_rows += static_cast<size_t>(__builtin_popcountll(valid[w]));
      if (n % 64 != 0) {
        valid_rows += static_cast<size_t>(__builtin_popcountll(valid[n / 64] & ((uint64_t{1} << (n % 64)) - 1)));
      }
      scratch->counts.filtered += valid_rows - k;
      if (scratch->filter_in >= kFilterTrialRows && 2 * scratch->filter_out > scratch->filter_in) {
        scratch->use_filter = false;
      }
    } else {
      for (size_t i = 0; i < n; ++i) {
        rows[k] = static_cast<uint32_t>(i);
        k += (valid[i / 64] >> (i % 64)) & 1;
      }
    }
    scratch->counts.looked_up += k;
    for (size_t j = 0; j < k; ++j) {
      const size_t bucket = hashes[rows[j]] & mask;
      begin[j] = starts[bucket];
      end[j] = starts[bucket + 1];
    }
    for (size_t j = 0; j < k; ++j) {
      if (j + kPrefetchRows < k) __builtin_prefetch(entries + begin[j + kPrefetchRows]);
      const uint64_t hash = hashes[rows[j]];
      const uint32_t probe_row = static_cast<uint32_t>(at + rows[j]);
      for (uint32_t e = begin[j]; e < end[j]; ++e) {
        if (entries[e].hash != hash || !equal(entries[e].row, probe_row)) continue;
        const AfterMatch next = match(probe_row, entries[e].row);
        if (next == AfterMatch::kFail) return false;
        if (next == AfterMatch::kNextRow) break;
      }
    }
  }
  return true;
}

template <class Equal>
bool ProbeRows(const JoinHashTable& table, const JoinKeys& probe, size_t first_row, size_t end_row,
               const Equal& equal, ProbeScratch* scratch, PairList* out, std::string* error) {
  return ScanMatches(table, probe, first_row, end_row, equal, scratch, [&](uint32_t probe_row, uint32_t build_row) {
    return out->Push(probe_row, build_row, error) ? AfterMatch::kNextMatch : AfterMatch::kFail;
  });
}

// Probes the probe side morsel by morsel on `threads` threads; parts[m] gets morsel m's pairs.
template <class Equal>
bool ProbeMorsels(const JoinHashTable& table, const JoinKeys& probe, size_t rows, const ExecContext& ctx,
                  int threads, const Equal& equal, std::vector<PairList>* parts, std::string* error) {
  const MorselPlan morsels(0, JoinBatches(rows), threads);
  *parts = std::vector<PairList>(morsels.size());
  std::vector<std::string> errors(static_cast<size_t>(threads));
  MorselCursor cursor;
  std::atomic<bool> failed{false};
  RunThreads(ctx, threads, [&](int t) {
    const ScopedMemoryActivity activity("probing the hash join table");
    ProbeScratch scratch;
    while (!failed.load(std::memory_order_relaxed) && !ctx.Interrupted()) {
      const size_t m = cursor.Take();
      if (m >= morsels.size()) break;
      const size_t begin = morsels.Begin(m) * kJoinBatchRows;
      const size_t end = std::min(rows, morsels.End(m) * kJoinBatchRows);
      if (!ProbeRows(table, probe, begin, end, equal, &scratch, &(*parts)[m], &errors[static_cast<size_t>(t)])) {
        failed.store(true, std::memory_order_relaxed);
        return;
      }
    }
  });
  if (FirstError(errors, error)) return false;
  if (ctx.Interrupted()) {  // morsels were skipped
    *error = ctx.StopMessage();
    return false;
  }
  return true;
}

// run(equal) with the key comparison chosen once: one 4- or 8-byte key (integers, dates,
// timestamps) compares as one load each, without the general per-column switch.
template <class Run>
bool WithKeyEqual(const std::vector<const Column*>& build_keys, const std::vector<const Column*>& probe_keys,
                  const Run& run) {
  const KeyMatcher matcher(build_keys, probe_keys);
  if (matcher.pairs().size() == 1) {
    const KeyMatcher::Pair& key = matcher.pairs()[0];
    if (key.compare == KeyCompare::kBits4 || key.compare == KeyCompare::kBits8) {
      const uint8_t* b = key.build_values;
      const uint8_t* p = key.probe_values;
      if (key.compare == KeyCompare::kBits4) {
        return run([b, p](size_t x, size_t y) { return KeyMatcher::SameBits<uint32_t>(b + x * 4, p + y * 4); });
      }
      return run([b, p](size_t x, size_t y) { return KeyMatcher::SameBits<uint64_t>(b + x * 8, p + y * 8); });
    }
  }
  return run([&matcher](size_t x, size_t y) { return matcher.Equal(x, y); });
}

bool Probe(const JoinHashTable& table, const std::vector<const Column*>& build_keys,
           const std::vector<const Column*>& probe_keys, size_t rows, const ExecContext& ctx, int threads,
           std::vector<PairList>* parts, std::string* error) {
  const JoinKeys probe(probe_keys);
  return WithKeyEqual(build_keys, probe_keys, [&](const auto& equal) {
    return ProbeMorsels(table, probe, rows, ctx, threads, equal, parts, error);
  });
}

// out = the parts' pairs in part order, copied on up to `threads` threads.
bool Concatenate(const std::vector<PairList>& parts, const ExecContext& ctx, int threads, MatchPairs* out,
                 std::string* error) {
  std::vector<size_t> offsets(parts.size() + 1, 0);
  for (size_t m = 0; m < parts.size(); ++m) offsets[m + 1] = offsets[m] + parts[m].size();
  const size_t total = offsets.back();
  // The output is the query's from here on: charged, not given back (see hash_join.h).
  if (!ChargeQueryMemory(total * 2 * sizeof(uint32_t), error)) return false;
  try {
    out->probe_rows.resize(total);
    out->build_rows.resize(total);
  } catch (const std::bad_alloc&) {
    ReleaseQueryMemory(total * 2 * sizeof(uint32_t));
    throw;
  }
  auto copy_part = [&](size_t m, int, std::string*) {
    const Pair* pairs = parts[m].data();
    uint32_t* probe = out->probe_rows.data() + offsets[m];
    uint32_t* build = out->build_rows.data() + offsets[m];
    for (size_t i = 0; i < parts[m].size(); ++i) {
      probe[i] = pairs[i].probe;
      build[i] = pairs[i].build;
    }
    return true;
  };
  if (!RunTasks(ctx, threads, parts.size(), copy_part, error)) {  // stopped part-way
    ReleaseQueryMemory(total * 2 * sizeof(uint32_t));
    return false;
  }
  return true;
}

bool JoinPairs(const std::vector<const Column*>& build_keys, const std::vector<const Column*>& probe_keys,
               const ExecContext& ctx, MatchPairs* out, std::string* error) {
  size_t build_rows = 0, probe_rows = 0;
  if (!CheckJoinKeys(build_keys, probe_keys, &build_rows, &probe_rows, error)) return false;
  if (build_rows == 0 || probe_rows == 0) return true;
  const int available = ctx.ThreadsAvailable();
  JoinHashTable table;
  {
    const ScopedMemoryActivity activity("building the hash join table");
    const int threads = build_rows < ctx.min_parallel_rows ? 1 : available;
    if (!table.Build(JoinKeys(build_keys), build_rows, ctx, threads, error)) return false;
  }
  if (table.empty()) return true;  // every build row has a NULL key
  const int threads = probe_rows < ctx.min_parallel_rows
                          ? 1
                          : static_cast<int>(std::min<size_t>(static_cast<size_t>(available), JoinBatches(probe_rows)));
  std::vector<PairList> parts;
  if (!Probe(table, build_keys, probe_keys, probe_rows, ctx, threads, &parts, error)) return false;
  const ScopedMemoryActivity activity("collecting the pairs of a hash join");
  return Concatenate(parts, ctx, threads, out, error);
}

}  // namespace

// A single integer key whose values span at most this many times the build rows (and at most
// kMaxDirectSpan values) gets a direct table: the bounds array then costs at most 16 bytes a
// row, as the entries do, and a probe neither hashes nor compares keys (TPC-H's keys are dense:
// custkey, partkey, suppkey, and orderkey with its 4 to 1 gaps).
constexpr uint64_t kDirectSpanPerRow = 4;
constexpr uint64_t kMaxDirectSpan = uint64_t{1} << 30;

struct JoinBuildTable::Impl {
  std::vector<const Column*> keys;
  size_t rows = 0;
  JoinHashTable table;
  bool direct = false;  // a direct table over key - direct_min
  int64_t direct_min = 0;

  // The probe side's view of its keys, as the table was built.
  JoinKeys ProbeKeys(const std::vector<const Column*>& probe_keys) const {
    JoinKeys probe(probe_keys);
    if (direct) probe.OffsetsFrom(direct_min);
    return probe;
  }
  // run(equal): a direct table's hit is already an equal key.
  template <class Run>
  bool WithEqual(const std::vector<const Column*>& probe_keys, const Run& run) const {
    if (direct) return run([](size_t, size_t) { return true; });
    return WithKeyEqual(keys, probe_keys, run);
  }
};

JoinBuildTable::JoinBuildTable() = default;
JoinBuildTable::~JoinBuildTable() = default;
JoinBuildTable::JoinBuildTable(JoinBuildTable&&) noexcept = default;
JoinBuildTable& JoinBuildTable::operator=(JoinBuildTable&&) noexcept = default;

bool JoinBuildTable::Build(const std::vector<const Column*>& build_keys, const ExecContext& ctx, std::string* error) {
  impl_ = std::make_unique<Impl>();
  impl_->keys = build_keys;
  size_t rows = 0, unused = 0;
  if (!CheckJoinKeys(build_keys, build_keys, &rows, &unused, error)) return false;
  impl_->rows = rows;
  if (rows == 0) return true;
  const ScopedQueryBudget budget(ctx.budget != nullptr ? ctx.budget : CurrentQueryBudget(), CurrentMemoryActivity());
  const ScopedMemoryActivity activity("building the hash join table");
  const int threads = rows < ctx.min_parallel_rows ? 1 : ctx.ThreadsAvailable();
  int64_t min = 0, max = 0;
  size_t span = 0;
  // (A column of a table keeps its range: a second join on it does not scan it again.)
  if (build_keys.size() == 1 && build_keys[0]->IntegerRange(&min, &max)) {
    const size_t valid = rows - build_keys[0]->null_count();
    const uint64_t width = static_cast<uint64_t>(max) - static_cast<uint64_t>(min);  // max - min, no overflow
    if (width < kMaxDirectSpan && width + 1 <= kDirectSpanPerRow * valid) {
      impl_->direct = true;
      impl_->direct_min = min;
      span = static_cast<size_t>(width + 1);
    }
  }
  try {
    return impl_->table.Build(impl_->ProbeKeys(impl_->keys), rows, ctx, threads, error, impl_->direct, span);
  } catch (const std::bad_alloc&) {
    *error = "out of memory in a hash join";
    return false;
  }
}

bool JoinBuildTable::CheckProbe(const std::vector<const Column*>& probe_keys, size_t begin, size_t end, bool* any,
                                std::string* error) const {
  size_t build_rows = 0, probe_rows = 0;
  if (impl_ == nullptr || !CheckJoinKeys(impl_->keys, probe_keys, &build_rows, &probe_rows, error)) {
    if (impl_ == nullptr) *error = "internal error: a hash join table probed before it was built";
    return false;
  }
  if (begin % 64 != 0 || begin > end || end > probe_rows) {
    *error = "internal error: a hash join probed outside its rows";
    return false;
  }
  *any = build_rows != 0 && begin != end && !impl_->table.empty();
  return true;
}

size_t JoinBuildTable::rows() const { return impl_ == nullptr ? 0 : impl_->rows; }

bool JoinBuildTable::direct() const { return impl_ != nullptr && impl_->direct; }

size_t JoinBuildTable::partitions() const { return impl_ == nullptr ? 1 : impl_->table.partitions(); }

bool JoinBuildTable::Probe(const std::vector<const Column*>& probe_keys, MatchPairs* out, std::string* error) const {
  return Probe(probe_keys, 0, probe_keys.empty() ? 0 : probe_keys[0]->length(), out, error);
}

bool JoinBuildTable::Probe(const std::vector<const Column*>& probe_keys, size_t begin, size_t end, MatchPairs* out,
                           std::string* error, JoinProbeCounts* counts) const {
  out->probe_rows.clear();
  out->build_rows.clear();
  bool any = false;
  if (!CheckProbe(probe_keys, begin, end, &any, error)) return false;
  if (!any) return true;
  const JoinKeys probe = impl_->ProbeKeys(probe_keys);
  PairList pairs;
  ProbeScratch scratch;
  const bool ok = impl_->WithEqual(probe_keys, [&](const auto& equal) {
    return ProbeRows(impl_->table, probe, begin, end, equal, &scratch, &pairs, error);
  });
  if (!ok) return false;
  if (counts != nullptr) {
    counts->filtered += scratch.counts.filtered;
    counts->looked_up += scratch.counts.looked_up;
  }
  out->probe_rows.resize(pairs.size());
  out->build_rows.resize(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    out->probe_rows[i] = pairs.data()[i].probe - static_cast<uint32_t>(begin);
    out->build_rows[i] = pairs.data()[i].build;
  }
  return true;
}

bool JoinBuildTable::MarkMatches(const std::vector<const Column*>& probe_keys, size_t begin, size_t end,
                                 std::atomic<uint8_t>* build_matched, uint8_t* probe_matched,
                                 std::string* error, JoinProbeCounts* counts) const {
  bool any = false;
  if (!CheckProbe(probe_keys, begin, end, &any, error)) return false;
  if (!any) return true;
  const JoinKeys probe = impl_->ProbeKeys(probe_keys);
  ProbeScratch scratch;
  const bool ok = impl_->WithEqual(probe_keys, [&](const auto& equal) {
    return ScanMatches(impl_->table, probe, begin, end, equal, &scratch, [&](uint32_t probe_row, uint32_t build_row) {
      if (probe_matched != nullptr) probe_matched[probe_row - begin] = 1;
      if (build_matched == nullptr) return AfterMatch::kNextRow;  // one match is enough
      build_matched[build_row].store(1, std::memory_order_relaxed);
      return AfterMatch::kNextMatch;
    });
  });
  if (counts != nullptr) {
    counts->filtered += scratch.counts.filtered;
    counts->looked_up += scratch.counts.looked_up;
  }
  return ok;
}

bool HashJoinPairs(const std::vector<const Column*>& build_keys, const std::vector<const Column*>& probe_keys,
                   const ExecContext& ctx, MatchPairs* out, std::string* error) {
  out->probe_rows.clear();
  out->build_rows.clear();
  // The query's budget on this thread too (the pool installs it on the workers from here).
  const ScopedQueryBudget budget(ctx.budget != nullptr ? ctx.budget : CurrentQueryBudget(), CurrentMemoryActivity());
  bool ok = false;
  try {
    ok = JoinPairs(build_keys, probe_keys, ctx, out, error);
  } catch (const std::bad_alloc&) {
    *error = "out of memory in a hash join";
  }
  if (!ok) {
    out->probe_rows = {};
    out->build_rows = {};
  }
  return ok;
}

}  // namespace exec
}  // namespace laneql
