// Sorting row positions by several typed key vectors, on several threads for large inputs.
#include "src/exec/sort_rows.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "src/exec/expr_eval.h"
#include "src/common/query_budget.h"

namespace laneql {
namespace exec {

namespace {

// Inputs below this many positions are sorted on the calling thread.
constexpr size_t kParallelSortMin = 1 << 16;

// Comparisons between two checks whether the query was stopped (interrupt, timeout): a few
// milliseconds of sorting.
constexpr uint32_t kComparisonsPerStopCheck = 1 << 16;
// Positions between two such checks where a top-N rejects them without the comparator.
constexpr size_t kStopCheckMask = (size_t{1} << 20) - 1;

class PositionLess {
 public:
  PositionLess(const std::vector<SortColumn>& columns, const uint64_t* tiebreak)
      : columns_(columns), tiebreak_(tiebreak) {}
  bool operator()(uint32_t a, uint32_t b) const {
    // A long sort is a loop no morsel boundary interrupts: a stopped query throws out of it
    // (QueryAbort, caught by exec::Execute). Each copy of the comparator counts on its own.
    if (++comparisons_ == kComparisonsPerStopCheck) {
      comparisons_ = 0;
      ThrowIfQueryStopped();
    }
    for (const SortColumn& column : columns_) {
      const Vec& v = *column.keys;
      const bool an = v.IsNull(a), bn = v.IsNull(b);
      if (an || bn) {
        if (an == bn) continue;
        return an == column.nulls_first;
      }
      const int c = CompareRows(v, a, v, b);
      if (c == 0) continue;
      return column.descending ? c > 0 : c < 0;
    }
    return TieLess(a, b);
  }
  // After equal keys: by the tiebreak (a group's first row), then by input order, so the
  // result is deterministic.
  bool TieLess(uint32_t a, uint32_t b) const {
    if (tiebreak_ != nullptr && tiebreak_[a] != tiebreak_[b]) return tiebreak_[a] < tiebreak_[b];
    return a < b;
  }

 private:
  const std::vector<SortColumn>& columns_;
  const uint64_t* tiebreak_;
  mutable uint32_t comparisons_ = 0;
};

// The best `keep` (< end - begin) of positions [begin, end), best first, into *out: a heap of
// the best so far with the worst of them on top. `quick(p, worst)` judges a position against
// the worst kept by the first key alone: < 0 when p is worse, > 0 when better, 0 when the full
// comparison must decide. After the first few thousand positions nearly every one is worse than
// the worst of a short list, so a typed first key rejects it with one load and one compare
// (GROUP BY ... ORDER BY COUNT(*) DESC LIMIT 10 over 10 M groups: the comparator through
// PositionLess cost 9 ns a group).
template <class Quick>
void TopPositions(size_t begin, size_t end, size_t keep, PositionLess less, Quick quick,
                  std::vector<uint32_t>* out) {  // `less` by value: its stop-check count is its own
  std::vector<uint32_t>& heap = *out;
  heap.resize(keep);
  if (keep == 0) return;
  std::iota(heap.begin(), heap.end(), static_cast<uint32_t>(begin));
  std::make_heap(heap.begin(), heap.end(), less);
  for (size_t p = begin + keep; p < end; ++p) {
    // The typed rejections never reach the comparator, which checks for a stopped query.
    if ((p & kStopCheckMask) == 0) ThrowIfQueryStopped();
    const uint32_t position = static_cast<uint32_t>(p);
    const int verdict = quick(position, heap.front());
    if (verdict < 0 || (verdict == 0 && !less(position, heap.front()))) continue;
    std::pop_heap(heap.begin(), heap.end(), less);
    heap.back() = position;
    std::push_heap(heap.begin(), heap.end(), less);
  }
  std::sort_heap(heap.begin(), heap.end(), less);
}

// TopPositions with a typed first key where there is one (fixed-width, not a constant).
void TopPositionsByFirstKey(const std::vector<SortColumn>& columns, size_t begin, size_t end,
                            size_t keep, const PositionLess& less, std::vector<uint32_t>* out) {
  const Vec* first = columns.empty() ? nullptr : columns[0].keys;
  const auto undecided = [](uint32_t, uint32_t) { return 0; };
  if (first == nullptr || first->constant ||
      !VisitFixed(first->type, [&](auto tag) {
        using T = decltype(tag);
        const T* values = first->Data<T>();
        const uint64_t* validity = first->validity;
        const bool descending = columns[0].descending;
        // With one key, equal keys are decided by the tiebreak alone: ORDER BY count(*) DESC
        // LIMIT 10 over a million groups of count 1 otherwise took the full comparator for
        // nearly every group.
        const bool only_key = columns.size() == 1;
        TopPositions(begin, end, keep, less,
                     [values, validity, descending, only_key, &less](uint32_t p, uint32_t worst) {
                       // NULLs are placed by the full comparison.
                       if (validity != nullptr &&
                           (!BitmaskGet(validity, p) || !BitmaskGet(validity, worst))) {
                         return 0;
                       }
                       const int c = TotalCompare(values[p], values[worst]);
                       if (c == 0 && only_key) return less.TieLess(p, worst) ? 1 : -1;
                       return descending ? c : -c;
                     },
                     out);
      })) {
    TopPositions(begin, end, keep, less, undecided, out);
  }
}

// Positions [begin, end) sorted, or only the best `keep` of them (top-N) when fewer.
void SortRange(const std::vector<SortColumn>& columns, size_t begin, size_t end, size_t keep,
               const PositionLess& less, std::vector<uint32_t>* out) {
  if (keep < end - begin) {
    TopPositionsByFirstKey(columns, begin, end, keep, less, out);
    return;
  }
  out->resize(end - begin);
  std::iota(out->begin(), out->end(), static_cast<uint32_t>(begin));
  std::sort(out->begin(), out->end(), less);
}

}  // namespace

std::vector<uint32_t> SortPositions(const std::vector<SortColumn>& columns, size_t n, size_t keep,
                                    const uint64_t* tiebreak, const ExecContext* ctx) {
  // The threads' runs and the merged result: two lists of n positions at most, charged up
  // front (throws QueryAbort over the memory limit) and given back after.
  const size_t list_bytes = 2 * n * sizeof(uint32_t);
  ChargeQueryMemoryOrThrow(list_bytes);
  struct ReleaseLists {
    size_t bytes;
    ~ReleaseLists() { ReleaseQueryMemory(bytes); }
  } release_lists{list_bytes};
  const PositionLess less(columns, tiebreak);
  const int threads = ctx != nullptr && n >= kParallelSortMin ? ctx->ThreadsAvailable() : 1;
  std::vector<uint32_t> result;
  if (threads <= 1) {
    SortRange(columns, 0, n, keep, less, &result);
    return result;
  }
  // Each thread sorts (or takes the top `keep` of) a contiguous run; the runs are then merged
  // (full sort) or their tops sorted again (top-N). The comparison is a total order, so the
  // result is the one-thread result.
  std::vector<std::vector<uint32_t>> runs(static_cast<size_t>(threads));
  ScopedSpan span(ctx->profiler, 0, "sort", "sort");
  ctx->pool->Run(threads, [&](int t) {
    ScopedSpan run_span(ctx->profiler, t, "sort run", "sort");
    const size_t begin = n * static_cast<size_t>(t) / static_cast<size_t>(threads);
    const size_t end = n * static_cast<size_t>(t + 1) / static_cast<size_t>(threads);
    SortRange(columns, begin, end, keep, less, &runs[static_cast<size_t>(t)]);
    run_span.counters().rows = end - begin;
  });
  for (const auto& run : runs) {
    const size_t middle = result.size();
    result.insert(result.end(), run.begin(), run.end());
    std::inplace_merge(result.begin(), result.begin() + static_cast<std::ptrdiff_t>(middle), result.end(), less);
  }
  if (result.size() > keep) result.resize(keep);
  return result;
}

}  // namespace exec
}  // namespace laneql
