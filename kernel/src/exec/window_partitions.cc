#include "src/exec/window_partitions.h"

#include <algorithm>
#include <memory>
#include <numeric>
#include <type_traits>

#include "src/common/query_budget.h"
#include "src/exec/grouping.h"
#include "src/exec/expr_eval.h"
#include "src/exec/morsel.h"
#include "src/exec/window_functions.h"

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

// Keys of one integer column spanning at most this many values take a direct table.
constexpr uint64_t kDirectSpan = uint64_t{1} << 20;

// One integer key whose values span little (PARTITION BY a small id): each row's id from a
// table indexed by value - min (NULL the slot past the span), ids in order of value, with no
// hashing. False (nothing written) when the key is not so; *ok false when it failed.
template <class T>
bool DirectPartitionIds(const Vec& key, size_t rows, const ExecContext& ctx, PartitionIdList* ids,
                        size_t* partitions, bool* ok, std::string* error) {
  const T* values = key.Data<T>();
  T low = 0, high = 0;
  bool any = false;
  for (size_t r = 0; r < rows; ++r) {
    if (key.IsNull(r)) continue;
    const T v = values[r];
    if (!any || v < low) low = v;
    if (!any || v > high) high = v;
    any = true;
  }
  const uint64_t width = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);  // mod 2^64
  if (any && width >= kDirectSpan) return false;
  const uint64_t span = any ? width + 1 : 0;
  // Which slots occur (NULL at `span`), then dense ids in slot order.
  std::vector<uint32_t> slot_id(span + 1, 0);
  const auto slot = [&](size_t r) {
    return key.IsNull(r) ? span : static_cast<uint64_t>(values[r]) - static_cast<uint64_t>(low);
  };
  for (size_t r = 0; r < rows; ++r) slot_id[slot(r)] = 1;
  uint32_t next = 0;
  for (uint32_t& id : slot_id) id = id != 0 ? next++ : 0;
  const size_t morsels = Morsels(rows);
  *ok = RunTasks(ctx, TaskThreads(ctx.ThreadsAvailable(), morsels), morsels,
                 [&](size_t m, int, std::string*) {
                   const size_t begin = m * kMorselRows, end = std::min(rows, begin + kMorselRows);
                   for (size_t r = begin; r < end; ++r) (*ids)[r] = slot_id[slot(r)];
                   return true;
                 },
                 error);
  *partitions = next;
  return true;
}

}  // namespace

bool PartitionIds(const std::vector<Vec>& keys, size_t rows, const ExecContext& ctx, PartitionIdList* ids,
                  size_t* partitions, std::string* error) {
  ids->resize(rows);
  if (keys.empty() || rows == 0) {
    std::fill(ids->begin(), ids->end(), 0u);
    *partitions = rows > 0 ? 1 : 0;
    return true;
  }
  if (keys.size() == 1 && !keys[0].constant) {
    bool direct = false;
    bool ok = true;
    VisitFixed(keys[0].type, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_integral_v<T> && sizeof(T) <= 8) {
        direct = DirectPartitionIds<T>(keys[0], rows, ctx, ids, partitions, &ok, error);
      }
    });
    if (!ok) return false;
    if (direct) return true;
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
  std::vector<uint16_t> side(morsels);  // the thread that grouped each morsel
  const bool grouped = RunTasks(ctx, threads, morsels,
                                [&](size_t m, int t, std::string* task_error) {
                                  const size_t begin = m * kMorselRows;
                                  const size_t count = std::min(kMorselRows, rows - begin);
                                  std::vector<Vec> view;
                                  for (const Vec& key : keys) view.push_back(RowsOf(key, begin, count));
                                  side[m] = static_cast<uint16_t>(t);
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

bool ColumnPartitionIds(const std::vector<const Column*>& columns, const ExecContext& ctx, PartitionIdList* ids,
                        size_t* partitions, std::string* error) {
  std::vector<Vec> keys(columns.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    if (!BorrowVec(*columns[c], &keys[c], error)) return false;
  }
  return PartitionIds(keys, columns.empty() ? 0 : columns[0]->length(), ctx, ids, partitions, error);
}

bool SortWithinPartitions(const PartitionIdList& ids, size_t rows, size_t partitions,
                          const std::vector<SortColumn>& order_by, const std::vector<std::vector<uint64_t>>& words,
                          const ExecContext& ctx, std::vector<uint32_t>* order, std::vector<size_t>* starts,
                          KeyRecordList* records, std::string* error) {
  if (records != nullptr && (partitions <= 1 || ids.empty() || !OneWordKey(order_by))) records = nullptr;
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
  // A counting sort by partition id, stable: each partition's rows in row order (or, with one
  // word key, their records, made as the rows are read in order, not gathered afterwards).
  starts->assign(partitions + 1, 0);
  for (const uint32_t id : ids) ++(*starts)[id + 1];
  for (size_t p = 0; p < partitions; ++p) (*starts)[p + 1] += (*starts)[p];
  order->resize(rows);
  {
    std::vector<size_t> fill(starts->begin(), starts->end() - 1);
    if (records != nullptr) {
      records->resize(rows);
      VisitFixed(order_by[0].keys->type, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (sizeof(T) <= 8) {
          for (size_t r = 0; r < rows; ++r) (*records)[fill[ids[r]]++] = MakeKeyRecord<T>(order_by[0], r);
        }
      });
    } else {
      for (size_t r = 0; r < rows; ++r) (*order)[fill[ids[r]]++] = static_cast<uint32_t>(r);
    }
  }
  if (order_by.empty()) return true;
  std::vector<size_t> task_starts{0};  // partitions [task_starts[i], task_starts[i + 1]) per task
  for (size_t p = 1; p < partitions; ++p) {
    if ((*starts)[p] - (*starts)[task_starts.back()] >= kSortTaskRows) task_starts.push_back(p);
  }
  task_starts.push_back(partitions);
  return RunTasks(ctx, ctx.ThreadsAvailable(), task_starts.size() - 1,
                  [&](size_t task, int, std::string*) {
                    for (size_t p = task_starts[task]; p < task_starts[task + 1]; ++p) {
                      const size_t begin = (*starts)[p], end = (*starts)[p + 1];
                      if (records == nullptr) {
                        SortPositionList(order_by, words, order->data() + begin, end - begin);
                        continue;
                      }
                      SortKeyRecords(records->data() + begin, records->data() + end);
                      for (size_t i = begin; i < end; ++i) (*order)[i] = (*records)[i].position;
                    }
                    return true;
                  },
                  error);
}

namespace {

// Per thread, per partition: a heap of the best `keep` records, the worst on top.
struct TopHeaps {
  std::vector<KeyRecord> entries;
  std::vector<uint32_t> sizes;
  template <class Less>
  void Offer(size_t partition, size_t keep, const KeyRecord& e, const Less& less) {
    KeyRecord* heap = entries.data() + partition * keep;
    uint32_t& size = sizes[partition];
    if (size < keep) {
      heap[size++] = e;
      std::push_heap(heap, heap + size, less);
    } else if (less(e, heap[0])) {
      std::pop_heap(heap, heap + keep, less);
      heap[keep - 1] = e;
      std::push_heap(heap, heap + keep, less);
    }
  }
};

}  // namespace

bool TopRowsPerPartition(const uint32_t* ids, size_t rows, size_t partitions, size_t keep,
                         const std::vector<SortColumn>& order_by, const ExecContext& ctx, int64_t* numbers,
                         std::string* error) {
  // Without a one-word key: the keys' order words (where they have them) and the full
  // comparison of rows, the records' words left 0.
  const bool typed = OneWordKey(order_by);
  const size_t word_bytes = typed ? 0 : order_by.size() * rows * sizeof(uint64_t);
  if (!ChargeQueryMemory(word_bytes, error)) return false;
  const std::vector<std::vector<uint64_t>> words = typed ? std::vector<std::vector<uint64_t>>()
                                                         : ColumnOrderWords(order_by, rows);
  const PositionLess rows_less(order_by, nullptr, &words);
  const auto less = [&](const KeyRecord& a, const KeyRecord& b) {
    return typed ? KeyRecordLess(a, b) : rows_less(a.position, b.position);
  };
  const size_t morsels = Morsels(rows);
  const int threads = TaskThreads(ctx.ThreadsAvailable(), morsels);
  std::vector<TopHeaps> heaps(static_cast<size_t>(threads));
  for (TopHeaps& h : heaps) {
    h.entries.resize(partitions * keep);
    h.sizes.assign(partitions, 0);
  }
  const bool kept = RunTasks(ctx, threads, morsels,
                             [&](size_t m, int t, std::string*) {
                               TopHeaps& h = heaps[static_cast<size_t>(t)];
                               const size_t begin = m * kMorselRows;
                               const size_t end = std::min(rows, begin + kMorselRows);
                               // Every row past its partition's top: numbered here, by the
                               // thread that reads the morsel (one thread filling 10 M numbers
                               // after the scan was a fifth of the query, most of it faulting
                               // the pages in); the kept rows are renumbered after.
                               std::fill(numbers + begin, numbers + end, static_cast<int64_t>(keep) + 1);
                               if (typed) {
                                 VisitFixed(order_by[0].keys->type, [&](auto tag) {
                                   using T = decltype(tag);
                                   if constexpr (sizeof(T) <= 8) {
                                     // The order words of a block of rows first, in a loop of
                                     // their own without a branch a row; then most rows lose
                                     // to their full heap's worst value by one compare (a
                                     // thread's rows come in increasing positions, so an
                                     // equal word loses too). A NULL row, or a heap whose
                                     // worst is a NULL, takes the full record.
                                     const Vec& v = *order_by[0].keys;
                                     const T* values = v.Data<T>();
                                     const uint64_t flip = order_by[0].descending ? ~uint64_t{0} : 0;
                                     constexpr size_t kBlock = 1024;
                                     uint64_t words[kBlock];
                                     for (size_t at = begin; at < end; at += kBlock) {
                                       const size_t n = std::min(kBlock, end - at);
                                       for (size_t i = 0; i < n; ++i) words[i] = OrderWordOf(values[at + i]) ^ flip;
                                       for (size_t i = 0; i < n; ++i) {
                                         const size_t r = at + i;
                                         const uint32_t p = ids[r];
                                         if (v.validity == nullptr || BitmaskGet(v.validity, r)) {
                                           const KeyRecord& worst = h.entries[p * keep];
                                           if (h.sizes[p] == keep && worst.rank == 1 && words[i] >= worst.word) continue;
                                           h.Offer(p, keep, KeyRecord{words[i], static_cast<uint32_t>(r), 1}, KeyRecordLess);
                                           continue;
                                         }
                                         const KeyRecord e = MakeKeyRecord<T>(order_by[0], r);
                                         if (h.sizes[p] == keep && !KeyRecordLess(e, h.entries[p * keep])) continue;
                                         h.Offer(p, keep, e, KeyRecordLess);
                                       }
                                     }
                                   }
                                 });
                                 return true;
                               }
                               const PositionLess task_less = rows_less;  // counts its own comparisons
                               const auto record_less = [&](const KeyRecord& a, const KeyRecord& b) {
                                 return task_less(a.position, b.position);
                               };
                               for (size_t r = begin; r < end; ++r) {
                                 h.Offer(ids[r], keep, KeyRecord{0, static_cast<uint32_t>(r), 1}, record_less);
                               }
                               return true;
                             },
                             error);
  if (kept) {
    // Each partition's candidates from every thread, sorted: the first `keep` are its top rows.
    std::vector<KeyRecord> candidates;
    for (size_t p = 0; p < partitions; ++p) {
      candidates.clear();
      for (const TopHeaps& h : heaps) {
        candidates.insert(candidates.end(), h.entries.begin() + static_cast<std::ptrdiff_t>(p * keep),
                          h.entries.begin() + static_cast<std::ptrdiff_t>(p * keep + h.sizes[p]));
      }
      std::sort(candidates.begin(), candidates.end(), less);
      for (size_t i = 0; i < candidates.size() && i < keep; ++i) {
        numbers[candidates[i].position] = static_cast<int64_t>(i + 1);
      }
    }
  }
  ReleaseQueryMemory(word_bytes);
  return kept;
}

}  // namespace exec
}  // namespace laneql
