// A join's residual condition over its candidate pairs (query_join.cc): the equi-matches of a
// hash join, or every pair of a nested-loop join (no equality to hash). The pairs are judged a
// block at a time on the query's threads, each block's rows gathered, filtered by the engine's
// WHERE on that thread alone and dropped, so the memory held is the kept pairs, never the
// candidates: `a JOIN b ON a.x BETWEEN b.lo AND b.hi` over 10^6 x 100 rows judges 10^8 pairs
// without making them.
#include <algorithm>
#include <utility>

#include "src/common/query_budget.h"
#include "src/exec/morsel.h"
#include "src/exec/query_tree.h"
#include "src/plan/logical_operator.h"

namespace laneql {
namespace exec {
namespace {

// Candidate pairs a block gathers and filters: a few columns of them stay in L2.
constexpr size_t kResidualBlockPairs = size_t{1} << 16;
// Tasks the blocks are dealt in (contiguous runs, so the kept pairs stay in order): enough for
// the threads to even out, few enough that the per-task lists cost nothing.
constexpr size_t kMaxResidualTasks = 1024;

}  // namespace

bool QueryTreeRunner::KeepPairsPassing(const Relation& left, const Relation& right, const sql::Expr& residual,
                                       bool product, sql::SourcePos pos, std::vector<uint32_t>* left_rows,
                                       std::vector<uint32_t>* right_rows, Result* error) {
  const size_t n_right = right.table->num_rows();
  // 64 bits: a product's pair count passes 2^32 long before its blocks are many (wasm32).
  const uint64_t total = product ? static_cast<uint64_t>(left.table->num_rows()) * n_right : left_rows->size();
  std::string message;
  // A condition holding a subquery (or a name the sides do not resolve alone) is judged over
  // all the pairs at once by this runner, as written: those pairs are made whole, so no more
  // than a relation holds, and their row lists are charged (the gathered columns are charged
  // where they are made).
  bool unknown = false;
  plan::ReadsOf(&residual, {&left.scope, &right.scope}, &unknown);
  size_t held = 0;  // the whole product's candidate row lists, charged while they live
  if (unknown && product) {
    const uint64_t bytes = total * 2 * sizeof(uint32_t);
    if (total >= UINT32_MAX || bytes > SIZE_MAX) {
      *error = ErrorAt(pos, "out of memory", "the join would make " + std::to_string(total) +
                                                 " rows to judge its condition, more than a relation holds");
      return false;
    }
    const ScopedMemoryActivity activity("making the pairs of a join whose condition holds a subquery");
    if (!ChargeQueryMemory(static_cast<size_t>(bytes), &message)) {
      *error = Result::Error(message);
      return false;
    }
    held = static_cast<size_t>(bytes);
  }
  struct Release {
    size_t bytes;
    ~Release() { ReleaseQueryMemory(bytes); }
  } release{held};
  const uint64_t block = unknown ? std::max<uint64_t>(total, 1) : kResidualBlockPairs;
  const size_t blocks = static_cast<size_t>((total + block - 1) / block);
  const size_t tasks = std::min(blocks, kMaxResidualTasks);
  std::vector<std::vector<uint32_t>> kept_left(tasks), kept_right(tasks);
  std::vector<Result> failures(tasks);
  ExecContext single = ctx_;
  single.pool = nullptr;
  single.threads = 1;
  single.profiler = nullptr;
  auto run = [&](size_t t, int, std::string* task_error) {
    QueryTreeRunner local(catalog_, single);
    QueryTreeRunner& runner = unknown ? *this : local;
    std::vector<uint32_t> lrows, rrows, keep;
    for (size_t b = blocks * t / tasks; b < blocks * (t + 1) / tasks; ++b) {
      if (ctx_.Interrupted()) {
        *task_error = ctx_.StopMessage();
        return false;
      }
      const uint64_t begin = b * block;
      const size_t n = static_cast<size_t>(std::min(total, begin + block) - begin);
      lrows.resize(n);
      rrows.resize(n);
      if (product) {
        // Left-major, as a hash join's pairs are sorted: left row, then right row.
        uint32_t l = static_cast<uint32_t>(begin / n_right), r = static_cast<uint32_t>(begin % n_right);
        for (size_t i = 0; i < n; ++i) {
          lrows[i] = l;
          rrows[i] = r;
          if (++r == n_right) {
            r = 0;
            ++l;
          }
        }
      } else {
        std::copy_n(left_rows->begin() + static_cast<std::ptrdiff_t>(begin), n, lrows.begin());
        std::copy_n(right_rows->begin() + static_cast<std::ptrdiff_t>(begin), n, rrows.begin());
      }
      Relation candidates;
      if (!GatherJoinedRows(left, right, lrows, rrows, &candidates, task_error)) return false;
      keep.clear();
      if (!runner.FilterRows(candidates, residual, &keep, &failures[t])) {
        *task_error = failures[t].error();
        return false;
      }
      // The kept pairs are the join's row lists from here on: charged as they grow.
      {
        const ScopedMemoryActivity activity("keeping the pairs a join's condition passes");
        if (!ChargeQueryMemory(2 * keep.size() * sizeof(uint32_t), task_error)) return false;
      }
      for (const uint32_t k : keep) {
        kept_left[t].push_back(lrows[k]);
        kept_right[t].push_back(rrows[k]);
      }
    }
    return true;
  };
  const int threads = unknown ? 1 : ThreadsFor(total, ctx_.ThreadsAvailable(), ctx_.min_parallel_rows);
  if (!RunTasks(ctx_, threads, tasks, run, &message)) {
    for (Result& failure : failures) {
      if (!failure.ok() && !failure.error().empty()) {
        *error = std::move(failure);
        return false;
      }
    }
    *error = Result::Error(message);
    return false;
  }
  size_t kept = 0;
  for (const std::vector<uint32_t>& rows : kept_left) kept += rows.size();
  left_rows->clear();
  right_rows->clear();
  left_rows->reserve(kept);
  right_rows->reserve(kept);
  for (size_t t = 0; t < tasks; ++t) {
    left_rows->insert(left_rows->end(), kept_left[t].begin(), kept_left[t].end());
    right_rows->insert(right_rows->end(), kept_right[t].begin(), kept_right[t].end());
    kept_left[t] = {};
    kept_right[t] = {};
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
