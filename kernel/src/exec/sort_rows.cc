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
    if (tiebreak_ != nullptr && tiebreak_[a] != tiebreak_[b]) return tiebreak_[a] < tiebreak_[b];
    return a < b;  // ties: input order, so the result is deterministic
  }

 private:
  const std::vector<SortColumn>& columns_;
  const uint64_t* tiebreak_;
  mutable uint32_t comparisons_ = 0;
};

// Sorts positions [begin, end) in place, keeping only the first `keep` (top-N) when fewer.
void SortRange(std::vector<uint32_t>* order, size_t begin, size_t end, size_t keep,
               const PositionLess& less, std::vector<uint32_t>* out) {
  auto first = order->begin() + static_cast<std::ptrdiff_t>(begin);
  auto last = order->begin() + static_cast<std::ptrdiff_t>(end);
  if (keep < end - begin) {
    std::partial_sort(first, first + static_cast<std::ptrdiff_t>(keep), last, less);
    last = first + static_cast<std::ptrdiff_t>(keep);
  } else {
    std::sort(first, last, less);
  }
  out->assign(first, last);
}

}  // namespace

std::vector<uint32_t> SortPositions(const std::vector<SortColumn>& columns, size_t n, size_t keep,
                                    const uint64_t* tiebreak, const ExecContext* ctx) {
  // The permutation, the threads' runs and the merged result: three lists of n positions at
  // most, charged up front (throws QueryAbort over the memory limit) and given back after.
  const size_t list_bytes = 3 * n * sizeof(uint32_t);
  ChargeQueryMemoryOrThrow(list_bytes);
  struct ReleaseLists {
    size_t bytes;
    ~ReleaseLists() { ReleaseQueryMemory(bytes); }
  } release_lists{list_bytes};
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  const PositionLess less(columns, tiebreak);
  const int threads = ctx != nullptr && n >= kParallelSortMin ? ctx->ThreadsAvailable() : 1;
  std::vector<uint32_t> result;
  if (threads <= 1) {
    SortRange(&order, 0, n, keep, less, &result);
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
    SortRange(&order, begin, end, keep, less, &runs[static_cast<size_t>(t)]);
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
