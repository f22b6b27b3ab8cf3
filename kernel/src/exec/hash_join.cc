// HashJoinPairs: a chained hash table over the build keys, probed by morsels of the probe side
// on the query's threads.
//
// The table. Every build row without a NULL key is in one chain: heads[hash & mask] is the
// chain's first row, next[row] the following one (kNoRow ends it), and each row's 64-bit hash
// is kept so that a chain entry of another key is almost always rejected without reading the
// keys. Rows are inserted from the last to the first, so every chain lists its rows in
// ascending order: walking it gives a probe row's matches already sorted by build row, and no
// sort is needed anywhere. The bucket count is a power of two at least twice the rows inserted
// (chains of about one entry; 20 bytes a build row in all).
//
// The probe. Morsels of whole batches of kJoinBatchRows probe rows, taken from one cursor;
// each morsel's pairs go to its own list, and the lists are concatenated in morsel order, so
// the output is in probe-row order on any thread count. Per batch: hash the keys (kernels),
// find the rows without a NULL key, load every row's chain head (independent loads the CPU
// overlaps, where one chain walk after another would wait for each), then walk the chains.
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
#include "src/exec/morsel.h"

namespace laneql {
namespace exec {
namespace {

// Rows per probe (and build hashing) batch: a multiple of 64 so that batches start on whole
// validity words; small enough that a batch's hashes and chain heads (24 KiB) stay in L1/L2,
// and that a probe side of a few batches already spreads over threads.
constexpr size_t kJoinBatchRows = 2048;
// Build rows inserted between two checks for a stopped query.
constexpr size_t kInsertRowsPerStopCheck = size_t{1} << 20;

size_t JoinBatches(size_t rows) { return (rows + kJoinBatchRows - 1) / kJoinBatchRows; }

class JoinHashTable {
 public:
  // Hashes the build keys (in parallel on up to `threads` threads) and links their rows.
  bool Build(const JoinKeys& keys, size_t rows, const ExecContext& ctx, int threads, std::string* error) {
    const size_t batches = JoinBatches(rows);
    if (!hashes_.ResizeForOverwrite(rows * sizeof(uint64_t), error) ||
        !valid_.ResizeForOverwrite(BitmaskWords(rows) * sizeof(uint64_t), error) ||
        !next_.ResizeForOverwrite(rows * sizeof(uint32_t), error)) {
      return false;
    }
    uint64_t* hashes = hashes_.As<uint64_t>();
    uint64_t* valid = valid_.As<uint64_t>();
    auto hash_batch = [&](size_t b, int, std::string*) {
      const size_t begin = b * kJoinBatchRows, n = std::min(kJoinBatchRows, rows - begin);
      keys.Hash(begin, n, hashes + begin);
      keys.ValidRows(begin, n, valid + begin / 64);
      return true;
    };
    if (!RunTasks(ctx, threads, batches, hash_batch, error)) return false;
    size_t inserted = 0;
    for (size_t w = 0; w < BitmaskWords(rows); ++w) inserted += static_cast<size_t>(__builtin_popcountll(valid[w]));
    inserted_ = inserted;
    if (inserted == 0) return true;
    size_t buckets = 16;
    while (buckets < inserted * 2) buckets *= 2;
    if (!heads_.ResizeForOverwrite(buckets * sizeof(uint32_t), error)) return false;
    std::memset(heads_.data(), 0xFF, buckets * sizeof(uint32_t));  // every chain empty (kNoRow)
    mask_ = buckets - 1;
    uint32_t* heads = heads_.As<uint32_t>();
    uint32_t* next = next_.As<uint32_t>();
    for (size_t row = rows; row-- > 0;) {
      if (row % kInsertRowsPerStopCheck == 0 && ctx.Interrupted()) {
        *error = ctx.StopMessage();
        return false;
      }
      if (!BitmaskGet(valid, row)) continue;
      uint32_t& head = heads[hashes[row] & mask_];
      next[row] = head;
      head = static_cast<uint32_t>(row);
    }
    return true;
  }

  bool empty() const { return inserted_ == 0; }
  uint32_t Head(uint64_t hash) const { return heads_.As<uint32_t>()[hash & mask_]; }
  const uint32_t* next() const { return next_.As<uint32_t>(); }
  const uint64_t* hashes() const { return hashes_.As<uint64_t>(); }

 private:
  AlignedBuffer hashes_;  // per build row (also NULL rows', never read)
  AlignedBuffer valid_;   // build rows without a NULL key
  AlignedBuffer next_;    // per build row: the next row of its chain
  AlignedBuffer heads_;   // per bucket: the chain's first row
  size_t mask_ = 0;
  size_t inserted_ = 0;
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

// A thread's batch buffers.
struct ProbeScratch {
  std::vector<uint64_t> hashes = std::vector<uint64_t>(kJoinBatchRows);
  std::vector<uint64_t> valid = std::vector<uint64_t>(BitmaskWords(kJoinBatchRows));
  std::vector<uint32_t> first = std::vector<uint32_t>(kJoinBatchRows);
};

// Probe rows [begin, end) against the table; `equal(build_row, probe_row)` compares keys.
template <class Equal>
bool ProbeRows(const JoinHashTable& table, const JoinKeys& probe, size_t begin, size_t end, const Equal& equal,
               ProbeScratch* scratch, PairList* out, std::string* error) {
  const uint32_t* next = table.next();
  const uint64_t* build_hashes = table.hashes();
  for (size_t at = begin; at < end; at += kJoinBatchRows) {
    const size_t n = std::min(kJoinBatchRows, end - at);
    uint64_t* hashes = scratch->hashes.data();
    uint32_t* first = scratch->first.data();
    probe.Hash(at, n, hashes);
    probe.ValidRows(at, n, scratch->valid.data());
    for (size_t i = 0; i < n; ++i) {
      first[i] = BitmaskGet(scratch->valid.data(), i) ? table.Head(hashes[i]) : kNoRow;
    }
    for (size_t i = 0; i < n; ++i) {
      const uint64_t hash = hashes[i];
      const uint32_t probe_row = static_cast<uint32_t>(at + i);
      for (uint32_t row = first[i]; row != kNoRow; row = next[row]) {
        if (build_hashes[row] == hash && equal(row, probe_row) && !out->Push(probe_row, row, error)) return false;
      }
    }
  }
  return true;
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

// The probe with the key comparison chosen once: one 4- or 8-byte key (integers, dates,
// timestamps) compares as one load each, without the general per-column switch.
bool Probe(const JoinHashTable& table, const std::vector<const Column*>& build_keys,
           const std::vector<const Column*>& probe_keys, size_t rows, const ExecContext& ctx, int threads,
           std::vector<PairList>* parts, std::string* error) {
  const JoinKeys probe(probe_keys);
  const KeyMatcher matcher(build_keys, probe_keys);
  if (matcher.pairs().size() == 1) {
    const KeyMatcher::Pair& key = matcher.pairs()[0];
    if (key.compare == KeyCompare::kBits4 || key.compare == KeyCompare::kBits8) {
      const uint8_t* b = key.build_values;
      const uint8_t* p = key.probe_values;
      if (key.compare == KeyCompare::kBits4) {
        auto equal = [b, p](size_t x, size_t y) { return KeyMatcher::SameBits<uint32_t>(b + x * 4, p + y * 4); };
        return ProbeMorsels(table, probe, rows, ctx, threads, equal, parts, error);
      }
      auto equal = [b, p](size_t x, size_t y) { return KeyMatcher::SameBits<uint64_t>(b + x * 8, p + y * 8); };
      return ProbeMorsels(table, probe, rows, ctx, threads, equal, parts, error);
    }
  }
  auto equal = [&matcher](size_t x, size_t y) { return matcher.Equal(x, y); };
  return ProbeMorsels(table, probe, rows, ctx, threads, equal, parts, error);
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
