#include "src/exec/window_partitions.h"

#include <algorithm>
#include <memory>
#include <numeric>

#include "src/common/query_budget.h"
#include "src/exec/grouping.h"
#include "src/exec/morsel.h"

namespace laneql {
namespace exec {
namespace {

// Rows a task groups at a time: a multiple of 64, so a morsel's NULL bits start a word.
constexpr size_t kMorselRows = 65536;
// Partitions are sorted by tasks of at least this many rows.
constexpr size_t kSortTaskRows = 16384;

// Rows [begin, begin + count) of `v` as a Vec of their own (no copy); begin is a multiple of 64.
Vec RowsOf(const Vec& v, size_t begin, size_t count) {
  Vec view;
  view.type = v.type;
  view.count = count;
  view.ascii = v.ascii;
  if (IsString(v.type)) {
    view.values = v.values;
    view.offsets = v.offsets + begin;
  } else {
    view.values = v.values + begin * TypeByteWidth(v.type);
  }
  view.validity = v.validity != nullptr ? v.validity + begin / 64 : nullptr;
  return view;
}

size_t Morsels(size_t rows) { return (rows + kMorselRows - 1) / kMorselRows; }

}  // namespace

bool PartitionIds(const std::vector<Vec>& keys, size_t rows, const ExecContext& ctx, std::vector<uint32_t>* ids,
                  size_t* partitions, std::string* error) {
  ids->resize(rows);
  if (keys.empty() || rows == 0) {
    std::fill(ids->begin(), ids->end(), 0u);
    *partitions = rows > 0 ? 1 : 0;
    return true;
  }
  std::vector<TypeId> types;
  std::vector<bool> nullable;
  for (const Vec& key : keys) {
    types.push_back(key.type);
    nullable.push_back(key.validity != nullptr);
  }
  const size_t morsels = Morsels(rows);
  const int threads = TaskThreads(ctx.ThreadsAvailable(), morsels);
  std::vector<std::unique_ptr<Grouper>> groupers;
  for (int t = 0; t < threads; ++t) {
    groupers.push_back(std::make_unique<Grouper>());
    if (!groupers.back()->Init(types, nullable, /*lookup_table=*/true, error)) return false;
  }
  std::vector<uint8_t> side(morsels);  // the thread that grouped each morsel
  const bool grouped = RunTasks(ctx, threads, morsels,
                                [&](size_t m, int t, std::string* task_error) {
                                  const size_t begin = m * kMorselRows;
                                  const size_t count = std::min(kMorselRows, rows - begin);
                                  std::vector<Vec> view;
                                  for (const Vec& key : keys) view.push_back(RowsOf(key, begin, count));
                                  side[m] = static_cast<uint8_t>(t);
                                  return groupers[static_cast<size_t>(t)]->Assign(view, count, ids->data() + begin,
                                                                                  task_error);
                                },
                                error);
  if (!grouped) return false;
  if (threads > 1) {
    std::vector<std::vector<uint32_t>> mappings(static_cast<size_t>(threads));
    for (int t = 1; t < threads; ++t) {
      if (!groupers[0]->Merge(*groupers[static_cast<size_t>(t)], &mappings[static_cast<size_t>(t)], error)) {
        return false;
      }
    }
    const bool mapped = RunTasks(ctx, threads, morsels,
                                 [&](size_t m, int, std::string*) {
                                   if (side[m] == 0) return true;
                                   const std::vector<uint32_t>& mapping = mappings[side[m]];
                                   const size_t begin = m * kMorselRows;
                                   const size_t end = std::min(rows, begin + kMorselRows);
                                   for (size_t r = begin; r < end; ++r) (*ids)[r] = mapping[(*ids)[r]];
                                   return true;
                                 },
                                 error);
    if (!mapped) return false;
  }
  *partitions = groupers[0]->size();
  return true;
}

bool SortWithinPartitions(const std::vector<uint32_t>& ids, size_t rows, size_t partitions,
                          const std::vector<SortColumn>& order_by, const ExecContext& ctx,
                          std::vector<uint32_t>* order, std::vector<size_t>* starts, std::string* error) {
  if (partitions <= 1 || ids.empty()) {
    // One partition: the parallel sort of all rows (its runs merged) is the faster way.
    if (order_by.empty()) {
      order->resize(rows);
      std::iota(order->begin(), order->end(), 0u);
    } else {
      *order = SortPositions(order_by, rows, rows, nullptr, &ctx);
    }
    *starts = {0, rows};
    return true;
  }
  // A counting sort by partition id, stable: each partition's rows in row order.
  starts->assign(partitions + 1, 0);
  for (const uint32_t id : ids) ++(*starts)[id + 1];
  for (size_t p = 0; p < partitions; ++p) (*starts)[p + 1] += (*starts)[p];
  order->resize(rows);
  {
    std::vector<size_t> fill(starts->begin(), starts->end() - 1);
    for (size_t r = 0; r < rows; ++r) (*order)[fill[ids[r]]++] = static_cast<uint32_t>(r);
  }
  if (order_by.empty()) return true;
  const size_t word_bytes = order_by.size() * rows * sizeof(uint64_t);
  if (!ChargeQueryMemory(word_bytes, error)) return false;
  const std::vector<std::vector<uint64_t>> words = ColumnOrderWords(order_by, rows);
  std::vector<size_t> task_starts{0};  // partitions [task_starts[i], task_starts[i + 1]) per task
  for (size_t p = 1; p < partitions; ++p) {
    if ((*starts)[p] - (*starts)[task_starts.back()] >= kSortTaskRows) task_starts.push_back(p);
  }
  task_starts.push_back(partitions);
  const bool sorted = RunTasks(ctx, ctx.ThreadsAvailable(), task_starts.size() - 1,
                               [&](size_t task, int, std::string*) {
                                 for (size_t p = task_starts[task]; p < task_starts[task + 1]; ++p) {
                                   SortPositionList(order_by, words, order->data() + (*starts)[p],
                                                    (*starts)[p + 1] - (*starts)[p]);
                                 }
                                 return true;
                               },
                               error);
  ReleaseQueryMemory(word_bytes);
  return sorted;
}

bool TopRowsPerPartition(const std::vector<uint32_t>& ids, size_t partitions, size_t keep,
                         const std::vector<SortColumn>& order_by, const ExecContext& ctx, int64_t* numbers,
                         std::string* error) {
  const size_t rows = ids.size();
  const size_t word_bytes = order_by.size() * rows * sizeof(uint64_t);
  if (!ChargeQueryMemory(word_bytes, error)) return false;
  const std::vector<std::vector<uint64_t>> words = ColumnOrderWords(order_by, rows);
  const PositionLess less(order_by, nullptr, &words);
  const size_t morsels = Morsels(rows);
  const int threads = TaskThreads(ctx.ThreadsAvailable(), morsels);
  // Per thread, per partition: a heap of the best `keep` rows of its morsels, the worst on top.
  struct Heaps {
    std::vector<uint32_t> rows, sizes;
  };
  std::vector<Heaps> heaps(static_cast<size_t>(threads));
  for (Heaps& h : heaps) {
    h.rows.resize(partitions * keep);
    h.sizes.assign(partitions, 0);
  }
  const bool kept = RunTasks(ctx, threads, morsels,
                             [&](size_t m, int t, std::string*) {
                               Heaps& h = heaps[static_cast<size_t>(t)];
                               const PositionLess task_less = less;
                               const size_t begin = m * kMorselRows;
                               const size_t end = std::min(rows, begin + kMorselRows);
                               for (size_t r = begin; r < end; ++r) {
                                 const uint32_t p = ids[r], row = static_cast<uint32_t>(r);
                                 uint32_t* heap = h.rows.data() + p * keep;
                                 uint32_t& size = h.sizes[p];
                                 if (size < keep) {
                                   heap[size++] = row;
                                   std::push_heap(heap, heap + size, task_less);
                                 } else if (task_less(row, heap[0])) {
                                   std::pop_heap(heap, heap + keep, task_less);
                                   heap[keep - 1] = row;
                                   std::push_heap(heap, heap + keep, task_less);
                                 }
                               }
                               return true;
                             },
                             error);
  if (kept) {
    // Each partition's candidates from every thread, sorted: the first `keep` are its top rows.
    std::fill(numbers, numbers + rows, static_cast<int64_t>(keep) + 1);
    std::vector<uint32_t> candidates;
    for (size_t p = 0; p < partitions; ++p) {
      candidates.clear();
      for (const Heaps& h : heaps) {
        candidates.insert(candidates.end(), h.rows.begin() + p * keep, h.rows.begin() + p * keep + h.sizes[p]);
      }
      std::sort(candidates.begin(), candidates.end(), less);
      for (size_t i = 0; i < candidates.size() && i < keep; ++i) numbers[candidates[i]] = static_cast<int64_t>(i + 1);
    }
  }
  ReleaseQueryMemory(word_bytes);
  return kept;
}

}  // namespace exec
}  // namespace laneql
