// Parallel SUM: contiguous runs of whole blocks per thread, block sums combined in block order,
// so the float64 result does not depend on the thread count. Threads are started per call for
// now; the morsel scheduler with a reused pool replaces this (issue: many-core execution).
#include <algorithm>
#include <thread>
#include <vector>

#include "laneql/sum.h"

namespace laneql {
namespace {

// Runs fn(part) for part in [0, parts) with part 0 on the calling thread.
template <class Fn>
void RunParts(int parts, const Fn& fn) {
  std::vector<std::thread> workers;
  workers.reserve(parts - 1);
  for (int p = 1; p < parts; ++p) workers.emplace_back(fn, p);
  fn(0);
  for (std::thread& t : workers) t.join();
}

// First block of part p when `blocks` blocks are split as evenly as possible into `parts`.
size_t PartBegin(size_t blocks, int parts, int p) { return blocks * p / parts; }

}  // namespace

double SumFloat64Parallel(const double* data, size_t n, int threads) {
  const size_t blocks = (n + kSumBlockRows - 1) / kSumBlockRows;
  const int parts = static_cast<int>(std::min<size_t>(std::max(threads, 1), blocks));
  if (parts <= 1) return SumFloat64(data, n);
  std::vector<double> block_sums(blocks);
  RunParts(parts, [&](int p) {
    const size_t first = PartBegin(blocks, parts, p), last = PartBegin(blocks, parts, p + 1);
    const size_t begin = first * kSumBlockRows;
    const size_t end = std::min(n, last * kSumBlockRows);
    SumFloat64Blocks(data + begin, end - begin, block_sums.data() + first);
  });
  double total = 0.0;  // same fold as SumFloat64: block order, from +0.0
  for (double s : block_sums) total += s;
  return total;
}

Int128 SumInt64Parallel(const int64_t* data, size_t n, int threads) {
  const size_t blocks = (n + kSumBlockRows - 1) / kSumBlockRows;
  const int parts = static_cast<int>(std::min<size_t>(std::max(threads, 1), blocks));
  if (parts <= 1) return SumInt64(data, n);
  // One cache line per thread's result, so no two threads write to the same line.
  struct alignas(64) Partial {
    Int128 sum = 0;
  };
  static_assert(sizeof(Partial) == 64, "each partial sum must own one cache line");
  std::vector<Partial> partials(parts);
  RunParts(parts, [&](int p) {
    const size_t begin = PartBegin(blocks, parts, p) * kSumBlockRows;
    const size_t end = std::min(n, PartBegin(blocks, parts, p + 1) * kSumBlockRows);
    partials[p].sum = SumInt64(data + begin, end - begin);
  });
  Int128 total = 0;  // integer addition is associative: any order gives the exact sum
  for (const Partial& p : partials) total += p.sum;
  return total;
}

}  // namespace laneql
