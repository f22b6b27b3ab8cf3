#include "src/exec/order_chunks.h"

#include <algorithm>

#include "src/common/query_budget.h"
#include "src/exec/output_stage.h"
#include "src/exec/sort_rows.h"

namespace laneql {
namespace exec {
namespace {

// Candidates [first, first + count) of `candidates`.
RowSet Slice(const RowSet& candidates, size_t first, size_t count) {
  RowSet chunk;
  chunk.count = count;
  if (candidates.ids != nullptr) {
    chunk.ids = candidates.ids + first;
  } else {
    chunk.begin = candidates.begin + first;
  }
  return chunk;
}

// One chunk: its ORDER BY keys and its positions sorted.
struct Run {
  size_t first = 0;  // its first candidate position
  std::vector<Vec> keys;
  std::vector<SortColumn> columns;
  std::vector<uint32_t> sorted;
  size_t next = 0;  // the merge's place in `sorted`
};

// -1, 0 or 1: row a of run x before, tied with or after row b of run y, by the keys (NULLs per
// nulls_first, descending flipped), the tiebreak, then the candidate position.
int CompareAcross(const Run& x, uint32_t a, const Run& y, uint32_t b, const uint64_t* tiebreak) {
  for (size_t k = 0; k < x.columns.size(); ++k) {
    const Vec& va = x.keys[k];
    const Vec& vb = y.keys[k];
    const bool an = va.IsNull(a), bn = vb.IsNull(b);
    if (an || bn) {
      if (an == bn) continue;
      return an == x.columns[k].nulls_first ? -1 : 1;
    }
    const int c = CompareRows(va, a, vb, b);
    if (c != 0) return x.columns[k].descending ? -c : c;
  }
  const size_t pa = x.first + a, pb = y.first + b;
  if (tiebreak != nullptr && tiebreak[pa] != tiebreak[pb]) return tiebreak[pa] < tiebreak[pb] ? -1 : 1;
  return pa < pb ? -1 : (pa > pb ? 1 : 0);
}

}  // namespace

bool TopCandidatesByChunks(const plan::Plan& plan, const ExecContext& ctx, Evaluator* evaluator,
                           const RowSet& candidates, const uint64_t* tiebreak, size_t keep,
                           std::vector<uint32_t>* positions, std::string* error) {
  positions->clear();
  for (size_t first = 0; first < candidates.count; first += kMaxChunkRows) {
    const RowSet chunk = Slice(candidates, first, std::min(kMaxChunkRows, candidates.count - first));
    std::vector<Vec> keys;
    std::vector<SortColumn> columns;
    if (!EvalOrderKeys(plan, evaluator, chunk, &keys, &columns, error)) return false;
    std::vector<uint32_t> top =
        SortPositions(columns, chunk.count, std::min(keep, chunk.count), tiebreak ? tiebreak + first : nullptr, &ctx);
    std::sort(top.begin(), top.end());
    for (uint32_t p : top) positions->push_back(static_cast<uint32_t>(first + p));
  }
  return true;
}

bool SortByChunks(const plan::Plan& plan, const ExecContext& ctx, Evaluator* evaluator, const RowSet& candidates,
                  const uint64_t* tiebreak, size_t keep, std::vector<uint32_t>* positions, std::string* error) {
  const size_t m = candidates.count;
  std::vector<Run> runs((m + kMaxChunkRows - 1) / kMaxChunkRows);  // sized once: keys do not move
  for (size_t r = 0; r < runs.size(); ++r) {
    Run& run = runs[r];
    run.first = r * kMaxChunkRows;
    const RowSet chunk = Slice(candidates, run.first, std::min(kMaxChunkRows, m - run.first));
    if (!EvalOrderKeys(plan, evaluator, chunk, &run.keys, &run.columns, error)) return false;
    run.sorted = SortPositions(run.columns, chunk.count, std::min(keep, chunk.count),
                               tiebreak ? tiebreak + run.first : nullptr, &ctx);
  }
  // A heap of the runs by their next row, the first in the order on top.
  auto after = [&](size_t x, size_t y) {
    return CompareAcross(runs[x], runs[x].sorted[runs[x].next], runs[y], runs[y].sorted[runs[y].next], tiebreak) > 0;
  };
  std::vector<size_t> heap;
  for (size_t r = 0; r < runs.size(); ++r) {
    if (!runs[r].sorted.empty()) heap.push_back(r);
  }
  std::make_heap(heap.begin(), heap.end(), after);
  positions->clear();
  positions->reserve(std::min(keep, m));
  uint32_t comparisons = 0;
  while (!heap.empty() && positions->size() < keep) {
    std::pop_heap(heap.begin(), heap.end(), after);
    Run& run = runs[heap.back()];
    positions->push_back(static_cast<uint32_t>(run.first + run.sorted[run.next]));
    if (++run.next < run.sorted.size()) {
      std::push_heap(heap.begin(), heap.end(), after);
    } else {
      heap.pop_back();
    }
    if (++comparisons == kComparisonsPerStopCheck) {
      comparisons = 0;
      ThrowIfQueryStopped();
    }
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
