// TopGroupsByCount: the top N groups by a count, read from the count arrays in place.
#include "src/exec/top_groups.h"

#include <algorithm>

#include "src/common/query_budget.h"
#include "src/exec/profile.h"

namespace laneql {
namespace exec {
namespace {

// Groups scanned between two checks whether the query was stopped: well under a millisecond.
constexpr size_t kStopCheckGroups = size_t{1} << 20;

struct Candidate {
  int64_t count;
  uint32_t group;
};

// The output order: by count (descending or not), then by tiebreak, then by group id. A total
// order, so the merged tops of any split are the one-thread top.
class CountOrder {
 public:
  CountOrder(bool descending, const uint64_t* tiebreak)
      : descending_(descending), tiebreak_(tiebreak) {}
  bool Before(const Candidate& a, const Candidate& b) const {
    if (a.count != b.count) return descending_ ? a.count > b.count : a.count < b.count;
    if (tiebreak_ != nullptr && tiebreak_[a.group] != tiebreak_[b.group]) {
      return tiebreak_[a.group] < tiebreak_[b.group];
    }
    return a.group < b.group;
  }

 private:
  bool descending_;
  const uint64_t* tiebreak_;
};

// Keeps the best `keep` candidates in a heap whose top is the worst of them.
class TopHeap {
 public:
  TopHeap(size_t keep, const CountOrder& order) : keep_(keep), less_{&order} { heap_.reserve(keep); }
  bool full() const { return heap_.size() == keep_; }
  const Candidate& worst() const { return heap_.front(); }
  void Fill(const Candidate& c) {
    heap_.push_back(c);
    if (full()) std::make_heap(heap_.begin(), heap_.end(), less_);
  }
  void Replace(const Candidate& c) {
    std::pop_heap(heap_.begin(), heap_.end(), less_);
    heap_.back() = c;
    std::push_heap(heap_.begin(), heap_.end(), less_);
  }
  void AppendTo(std::vector<Candidate>* out) const { out->insert(out->end(), heap_.begin(), heap_.end()); }

 private:
  struct Less {
    const CountOrder* order;
    bool operator()(const Candidate& a, const Candidate& b) const { return order->Before(a, b); }
  };
  size_t keep_;
  Less less_;
  std::vector<Candidate> heap_;
};

// Groups [begin, end) with counts[g - begin] (`counts` null: all 0) into `heap`. Once the heap
// is full a group is judged by its count against the worst kept one; only a tie can need the
// full order, and with `later_loses_ties` (group ids follow the tiebreak here) not even that.
template <bool kDescending>
void Scan(const int64_t* counts, size_t begin, size_t end, bool later_loses_ties,
          const CountOrder& order, TopHeap* heap) {
  size_t g = begin;
  for (; g < end && !heap->full(); ++g) {
    heap->Fill(Candidate{counts != nullptr ? counts[g - begin] : 0, static_cast<uint32_t>(g)});
  }
  if (g == end) return;
  int64_t worst = heap->worst().count;
  for (size_t chunk = g; chunk < end; chunk += kStopCheckGroups) {
    ThrowIfQueryStopped();
    const size_t chunk_end = std::min(end, chunk + kStopCheckGroups);
    for (g = chunk; g < chunk_end; ++g) {
      const int64_t c = counts != nullptr ? counts[g - begin] : 0;
      if (kDescending ? c < worst : c > worst) continue;
      const Candidate candidate{c, static_cast<uint32_t>(g)};
      if (c == worst && (later_loses_ties || !order.Before(candidate, heap->worst()))) continue;
      heap->Replace(candidate);
      worst = heap->worst().count;
    }
  }
}

// The best `keep` of groups [begin, end), which may cross parts, appended to *out: a heap for
// each part's share, since the order of group ids follows the tiebreak only within a part.
void TopOfSlice(const CountParts& parts, size_t begin, size_t end, size_t keep, bool descending,
                bool later_loses_ties, const CountOrder& order, std::vector<Candidate>* out) {
  for (size_t p = 0; p + 1 < parts.begin.size(); ++p) {
    const size_t from = std::max(begin, parts.begin[p]), to = std::min(end, parts.begin[p + 1]);
    if (from >= to) continue;
    TopHeap heap(keep, order);
    // The stored counts, then the groups past them, which count 0.
    const size_t stored_end = std::min(to, std::max(from, parts.begin[p] + parts.stored[p]));
    const int64_t* counts = stored_end > from ? parts.data[p] + (from - parts.begin[p]) : nullptr;
    if (descending) {
      Scan<true>(counts, from, stored_end, later_loses_ties, order, &heap);
      Scan<true>(nullptr, stored_end, to, later_loses_ties, order, &heap);
    } else {
      Scan<false>(counts, from, stored_end, later_loses_ties, order, &heap);
      Scan<false>(nullptr, stored_end, to, later_loses_ties, order, &heap);
    }
    heap.AppendTo(out);
  }
}

// The first `keep` of the candidates in the order. The threads' tops hold threads * keep
// candidates: sorting all of them was the serial step that grew with the threads (ClickBench's
// LIMIT 10 OFFSET 10000, Q42: 15 ms of 40 at 16 threads), so the best `keep` are picked first
// (linear) and only they are sorted. The order is total, so the result is the same.
std::vector<uint32_t> Best(std::vector<Candidate> candidates, size_t keep, const CountOrder& order) {
  const auto before = [&order](const Candidate& a, const Candidate& b) { return order.Before(a, b); };
  if (keep < candidates.size()) {
    std::nth_element(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(keep), candidates.end(),
                     before);
    candidates.resize(keep);
  }
  std::sort(candidates.begin(), candidates.end(), before);
  std::vector<uint32_t> groups;
  for (size_t i = 0; i < candidates.size() && i < keep; ++i) groups.push_back(candidates[i].group);
  return groups;
}

}  // namespace

std::vector<uint32_t> TopGroupsByCount(const CountParts& counts, bool descending, size_t keep,
                                       const uint64_t* tiebreak, bool ordered_parts,
                                       const ExecContext* ctx) {
  const size_t groups = counts.groups();
  keep = std::min(keep, groups);
  if (keep == 0) return {};
  const CountOrder order(descending, tiebreak);
  const bool later_loses_ties = ordered_parts || tiebreak == nullptr;
  const int threads =
      ctx != nullptr && groups >= kParallelTopGroupsMin ? ctx->ThreadsAvailable() : 1;
  // A heap of `keep` for each slice and part that meet (at most threads + parts - 1 of them)
  // and a copy of all their tops to merge: charged up front (throws QueryAbort over the memory
  // limit) and given back after.
  const size_t heaps = static_cast<size_t>(threads) + counts.begin.size() - 1;
  const size_t heap_bytes = 2 * heaps * keep * sizeof(Candidate);
  ChargeQueryMemoryOrThrow(heap_bytes);
  struct ReleaseHeaps {
    size_t bytes;
    ~ReleaseHeaps() { ReleaseQueryMemory(bytes); }
  } release_heaps{heap_bytes};
  std::vector<std::vector<Candidate>> tops(static_cast<size_t>(threads));
  const auto slice = [&](int t) {
    const size_t begin = groups * static_cast<size_t>(t) / static_cast<size_t>(threads);
    const size_t end = groups * static_cast<size_t>(t + 1) / static_cast<size_t>(threads);
    TopOfSlice(counts, begin, end, keep, descending, later_loses_ties, order,
               &tops[static_cast<size_t>(t)]);
  };
  if (threads > 1) {
    ScopedSpan span(ctx->profiler, 0, "sort", "sort");
    ctx->pool->Run(threads, [&](int t) {
      ScopedSpan run_span(ctx->profiler, t, "sort run", "sort");
      slice(t);
    });
  } else {
    slice(0);
  }
  std::vector<Candidate> all;
  for (const auto& top : tops) all.insert(all.end(), top.begin(), top.end());
  return Best(std::move(all), keep, order);
}

std::vector<uint32_t> TopGroupsByCountReference(const CountParts& counts, bool descending,
                                                size_t keep, const uint64_t* tiebreak) {
  std::vector<Candidate> all;
  for (size_t p = 0; p + 1 < counts.begin.size(); ++p) {
    for (size_t g = counts.begin[p]; g < counts.begin[p + 1]; ++g) {
      const size_t i = g - counts.begin[p];
      all.push_back(Candidate{i < counts.stored[p] ? counts.data[p][i] : 0, static_cast<uint32_t>(g)});
    }
  }
  // A full sort, not Best's selection: the reference must not share what it checks.
  const CountOrder order(descending, tiebreak);
  std::sort(all.begin(), all.end(), [&order](const Candidate& a, const Candidate& b) { return order.Before(a, b); });
  std::vector<uint32_t> groups;
  for (size_t i = 0; i < all.size() && i < keep; ++i) groups.push_back(all[i].group);
  return groups;
}

}  // namespace exec
}  // namespace laneql
