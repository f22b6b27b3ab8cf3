// Window functions: the rows sorted by (PARTITION BY keys, ORDER BY keys) in one stable
// parallel sort (SortPositions: runs on the context's threads, then merged; ties keep the
// relation's row order, so every thread count gives the same order), partitions cut where the
// partition keys change, then the partitions evaluated in parallel, a task per group of
// partitions, each partition on one thread: peers (rows equal on the ORDER BY keys), frames
// (ROWS, RANGE, GROUPS), and the function: the ranking functions here, the value functions in
// window_value_functions.cc, the aggregates in window_framed_aggregates.cc (DISTINCT:
// window_distinct.cc) and window_aggregates.cc (the library's).
#include "src/common/decimal.h"
#include "src/exec/window_functions.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <string_view>
#include <type_traits>

#include "laneql/bitmask.h"
#include "laneql/int128.h"
#include "src/common/query_budget.h"
#include "src/exec/expr_eval.h"
#include "src/exec/morsel.h"
#include "src/exec/relation.h"
#include "src/exec/sort_rows.h"
#include "src/exec/window_aggregates.h"
#include "src/exec/window_evaluation.h"
#include "src/exec/window_frames.h"
#include "src/exec/window_partitions.h"

namespace laneql {
namespace exec {
namespace {

using sql::FrameBoundKind;
using sql::FrameUnit;

struct FnEntry {
  const char* name;
  WindowFn fn;
  size_t min_args, max_args;
};

constexpr FnEntry kWindowFns[] = {
    {"row_number", WindowFn::kRowNumber, 0, 0}, {"rank", WindowFn::kRank, 0, 0},
    {"dense_rank", WindowFn::kDenseRank, 0, 0}, {"percent_rank", WindowFn::kPercentRank, 0, 0},
    {"cume_dist", WindowFn::kCumeDist, 0, 0},   {"ntile", WindowFn::kNtile, 1, 1},
    {"lag", WindowFn::kLag, 1, 3},              {"lead", WindowFn::kLead, 1, 3},
    {"first_value", WindowFn::kFirstValue, 1, 1}, {"last_value", WindowFn::kLastValue, 1, 1},
    {"nth_value", WindowFn::kNthValue, 2, 2},   {"count", WindowFn::kCount, 0, 1},
    {"sum", WindowFn::kSum, 1, 1},              {"avg", WindowFn::kAvg, 1, 1},
    {"mean", WindowFn::kAvg, 1, 1},             {"min", WindowFn::kMin, 1, 1},
    {"max", WindowFn::kMax, 1, 1},              {"count_if", WindowFn::kCountIf, 1, 1},
    {"bool_and", WindowFn::kBoolAnd, 1, 1},     {"bool_or", WindowFn::kBoolOr, 1, 1},
};

// Partitions are handed to tasks in groups of at least this many rows.
constexpr size_t kRowsPerTask = 16384;

OutKind OutKindOf(WindowFn fn, TypeId result_type) {
  switch (fn) {
    case WindowFn::kRowNumber:
    case WindowFn::kRank:
    case WindowFn::kDenseRank:
    case WindowFn::kNtile:
    case WindowFn::kCountStar:
    case WindowFn::kCount: return OutKind::kInt64;
    case WindowFn::kPercentRank:
    case WindowFn::kCumeDist:
    case WindowFn::kAvg: return OutKind::kDouble;
    case WindowFn::kSum: return result_type == TypeId::kFloat64 ? OutKind::kDouble : OutKind::kInt128;
    case WindowFn::kCountIf: return OutKind::kInt128;
    case WindowFn::kBoolAnd:
    case WindowFn::kBoolOr: return OutKind::kBool;
    case WindowFn::kLibrary: return OutKind::kSlots;
    default: return OutKind::kSource;
  }
}


// Rows a and b equal on every key (NULLs equal), by the keys' order words where they have them
// (equal words are equal values under TotalCompare).
bool SameKeys(const std::vector<Vec>& keys, const std::vector<std::vector<uint64_t>>& words, uint32_t a, uint32_t b) {
  for (size_t k = 0; k < keys.size(); ++k) {
    const Vec& v = keys[k];
    const bool an = v.IsNull(a), bn = v.IsNull(b);
    if (an || bn) {
      if (an != bn) return false;
      continue;
    }
    if (!words[k].empty() ? words[k][a] != words[k][b] : CompareRows(v, a, v, b) != 0) return false;
  }
  return true;
}

// Frame offsets: a bound's n for row r, checked as DuckDB checks it.
bool RowsOffset(const Vec& offsets, uint32_t r, bool preceding, uint64_t* out, std::string* error) {
  const char* which = preceding ? "PRECEDING" : "FOLLOWING";
  if (offsets.IsNull(r)) {
    *error = std::string("Window ROWS ") + which + " expression cannot be NULL";
    return false;
  }
  const Int128 value = IntAt(offsets, r);
  if (value < 0) {
    *error = std::string("Window ROWS ") + which + " expression cannot be negative";
    return false;
  }
  *out = value > static_cast<Int128>(UINT32_MAX) ? UINT32_MAX : static_cast<uint64_t>(value);
  return true;
}

// RANGE n PRECEDING / FOLLOWING over one partition: its single ORDER BY key's non-NULL values
// in order, searched for each row's bounds. Integer and date keys widen to long double (exact
// for 64-bit values), float keys stay double (DuckDB subtracts in the key's type).
template <class Key>
class RangeFrames {
 public:
  RangeFrames(const Vec& key, const uint32_t* rows, size_t begin, size_t end, bool descending)
      : key_(key), first_(begin), descending_(descending) {
    keys_.reserve(end - begin);
    for (size_t i = begin; i < end; ++i) keys_.push_back(At(rows[i]));
  }
  Key At(uint32_t r) const {
    if constexpr (std::is_same_v<Key, double>) {
      return RealAt(key_, r);
    } else {
      return static_cast<Key>(IntAt(key_, r));
    }
  }
  // The bound of row r's frame for `offset` toward preceding rows (or following ones), as a
  // start (first row within) or an end (one past the last within).
  size_t Bound(uint32_t r, Key offset, bool preceding, bool is_end) const {
    const Key k = At(r);
    // Preceding rows hold smaller keys in ascending order, larger in descending order.
    const bool smaller = preceding != descending_;
    const Key bound = smaller ? k - offset : k + offset;
    return RangeSearch(keys_, first_, descending_, bound, is_end);
  }

 private:
  const Vec& key_;
  size_t first_;
  bool descending_;
  std::vector<Key> keys_;
};

bool RangeOffset(const Vec& offsets, uint32_t r, bool preceding, double* out, std::string* error) {
  const char* which = preceding ? "PRECEDING" : "FOLLOWING";
  if (offsets.IsNull(r)) {
    *error = std::string("Window RANGE ") + which + " expression cannot be NULL";
    return false;
  }
  *out = RealAt(offsets, r);
  if (*out < 0) {
    *error = std::string("Invalid RANGE ") + which + " value";
    return false;
  }
  return true;
}

// GROUPS offsets: a bound's n for row r, as DuckDB reads it (NULL is 0).
bool GroupsOffset(const Vec& offsets, uint32_t r, bool preceding, uint64_t* out, std::string* error) {
  if (offsets.IsNull(r)) {
    *out = 0;
    return true;
  }
  const Int128 value = IntAt(offsets, r);
  if (value < 0) {
    *error = std::string("Invalid GROUPS ") + (preceding ? "PRECEDING" : "FOLLOWING") + " value";
    return false;
  }
  *out = value > static_cast<Int128>(UINT32_MAX) ? UINT32_MAX : static_cast<uint64_t>(value);
  return true;
}

// Each row's frame [frame_begin[i], frame_end[i]) in partition [begin, begin + n) of ev->order,
// before EXCLUDE.
template <class Key>
bool ComputeFrames(const Evaluation& ev, size_t begin, size_t n, const std::vector<uint32_t>& peer_begin,
                   const std::vector<uint32_t>& peer_end, std::vector<uint32_t>* frame_begin,
                   std::vector<uint32_t>* frame_end, std::string* error) {
  const WindowCall& call = *ev.call;
  const uint32_t* rows = ev.order->data();
  const uint32_t* prow = rows + begin;
  frame_begin->resize(n);
  frame_end->resize(n);
  const bool range_offsets =
      call.unit == FrameUnit::kRange &&
      (call.start == FrameBoundKind::kPreceding || call.start == FrameBoundKind::kFollowing ||
       call.end == FrameBoundKind::kPreceding || call.end == FrameBoundKind::kFollowing);
  size_t valid_begin = 0, valid_end = n;  // the rows whose key is not NULL
  std::unique_ptr<RangeFrames<Key>> range;
  if (range_offsets) {
    const Vec& key = ev.order_keys[0];
    while (valid_begin < n && key.IsNull(prow[valid_begin])) ++valid_begin;
    while (valid_end > valid_begin && key.IsNull(prow[valid_end - 1])) --valid_end;
    range = std::make_unique<RangeFrames<Key>>(key, rows, begin + valid_begin, begin + valid_end, call.descending[0]);
  }
  // GROUPS: each row's peer group (numbered from 0) and where each group starts (one past the
  // last: n).
  std::vector<uint32_t> group_of, group_start;
  if (call.unit == FrameUnit::kGroups) {
    group_of.resize(n);
    for (size_t i = 0; i < n; ++i) {
      if (peer_begin[i] == i) group_start.push_back(static_cast<uint32_t>(i));
      group_of[i] = static_cast<uint32_t>(group_start.size() - 1);
    }
    group_start.push_back(static_cast<uint32_t>(n));
  }
  const uint64_t groups = group_start.empty() ? 0 : group_start.size() - 1;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = prow[i];
    size_t b = 0, e = n;
    for (int side = 0; side < 2; ++side) {
      const bool is_end = side == 1;
      const FrameBoundKind kind = is_end ? call.end : call.start;
      const bool offset_bound = kind == FrameBoundKind::kPreceding || kind == FrameBoundKind::kFollowing;
      const bool preceding = kind == FrameBoundKind::kPreceding;
      const Vec& offsets = is_end ? ev.end_offset : ev.start_offset;
      size_t at;
      if (call.unit == FrameUnit::kRows) {
        uint64_t offset = 0;
        if (offset_bound && !RowsOffset(offsets, r, preceding, &offset, error)) return false;
        at = is_end ? RowsFrameEnd(kind, offset, i, n) : RowsFrameBegin(kind, offset, i, n);
      } else if (kind == FrameBoundKind::kUnboundedPreceding) {
        at = 0;
      } else if (kind == FrameBoundKind::kUnboundedFollowing) {
        at = n;
      } else if (kind == FrameBoundKind::kCurrentRow) {
        at = is_end ? peer_end[i] : peer_begin[i];
      } else if (call.unit == FrameUnit::kGroups) {
        // The start (or end) of the group `offset` groups away, clamped to the partition.
        uint64_t offset = 0;
        if (!GroupsOffset(offsets, r, preceding, &offset, error)) return false;
        const uint64_t g = group_of[i];
        if (preceding) {
          at = offset > g ? 0 : group_start[g - offset + (is_end ? 1 : 0)];
        } else {
          at = offset >= groups - g ? n : group_start[g + offset + (is_end ? 1 : 0)];
        }
      } else if (i < valid_begin || i >= valid_end) {
        at = is_end ? peer_end[i] : peer_begin[i];  // a NULL key's RANGE frame is its peers
      } else {
        double offset = 0;
        if (!RangeOffset(offsets, r, preceding, &offset, error)) return false;
        at = range->Bound(r, static_cast<Key>(offset), preceding, is_end) - begin;
      }
      (is_end ? e : b) = at;
    }
    (*frame_begin)[i] = static_cast<uint32_t>(b);
    (*frame_end)[i] = static_cast<uint32_t>(std::max(b, e));
  }
  return true;
}

// Partition [begin, end) of ev->order: every row's value.
template <class Key>
bool EvaluatePartition(Evaluation* ev, size_t begin, size_t end, std::string* error) {
  const WindowCall& call = *ev->call;
  const size_t n = end - begin;
  const uint32_t* prow = ev->order->data() + begin;  // prow[i]: the relation row of the partition's i-th
  // Peers: rows equal on every ORDER BY key (without ORDER BY, the whole partition).
  std::vector<uint32_t> peer_begin(n), peer_end(n);
  for (size_t i = 0; i < n; ++i) {
    const bool peer = i > 0 && (ev->records.empty() ? SameKeys(ev->order_keys, ev->order_words, prow[i - 1], prow[i])
                                                    : SameKey(ev->records[begin + i - 1], ev->records[begin + i]));
    peer_begin[i] = peer ? peer_begin[i - 1] : static_cast<uint32_t>(i);
  }
  for (size_t i = n; i-- > 0;) {
    peer_end[i] = i + 1 < n && peer_begin[i + 1] == peer_begin[i] ? peer_end[i + 1] : static_cast<uint32_t>(i + 1);
  }
  // Frames, for the functions that read one.
  std::vector<uint32_t> frame_begin, frame_end;
  if (UsesFrame(call.fn) &&
      !ComputeFrames<Key>(*ev, begin, n, peer_begin, peer_end, &frame_begin, &frame_end, error)) {
    return false;
  }
  PartitionFrames frames;
  frames.prow = prow;
  frames.n = n;
  frames.peer_begin = peer_begin.data();
  frames.peer_end = peer_end.data();
  frames.frame_begin = frame_begin.data();
  frames.frame_end = frame_end.data();
  frames.exclude = call.exclude;
  const Vec* arg = ev->args.empty() ? nullptr : &ev->args[0];
  auto set_int = [ev](uint32_t r, int64_t v) { ev->ints[r] = v; };
  switch (call.fn) {
    case WindowFn::kLibrary: {
      std::vector<uint32_t> ids;
      if (call.distinct) {
        std::vector<const Vec*> args;
        for (const Vec& v : ev->args) args.push_back(&v);
        ids = DistinctValueIds(args, prow, n);
      }
      std::vector<SortColumn> feed_order;
      for (size_t k = 0; k < ev->arg_order_keys.size(); ++k) {
        feed_order.push_back(SortColumn{&ev->arg_order_keys[k], call.arg_descending[k], call.arg_nulls_first[k]});
      }
      return LibraryWindowPartition(*call.library, call.args, feed_order, frames, call.distinct ? ids.data() : nullptr,
                                    &ev->slots, error);
    }
    case WindowFn::kRowNumber:
      for (size_t i = 0; i < n; ++i) set_int(prow[i], static_cast<int64_t>(i + 1));
      return true;
    case WindowFn::kRank:
      for (size_t i = 0; i < n; ++i) set_int(prow[i], static_cast<int64_t>(peer_begin[i]) + 1);
      return true;
    case WindowFn::kDenseRank: {
      int64_t dense = 0;
      for (size_t i = 0; i < n; ++i) {
        if (peer_begin[i] == i) ++dense;
        set_int(prow[i], dense);
      }
      return true;
    }
    case WindowFn::kPercentRank:
      for (size_t i = 0; i < n; ++i) {
        ev->reals[prow[i]] = n > 1 ? static_cast<double>(peer_begin[i]) / static_cast<double>(n - 1) : 0.0;
      }
      return true;
    case WindowFn::kCumeDist:
      for (size_t i = 0; i < n; ++i) ev->reals[prow[i]] = static_cast<double>(peer_end[i]) / static_cast<double>(n);
      return true;
    case WindowFn::kNtile:
      for (size_t i = 0; i < n; ++i) {
        const uint32_t r = prow[i];
        if (arg->IsNull(r)) {
          ev->valid[r] = 0;
          continue;
        }
        Int128 buckets = IntAt(*arg, r);
        if (buckets <= 0) {
          *error = "Argument for ntile must be greater than zero";
          return false;
        }
        // DuckDB's split: the first n % buckets buckets hold one row more.
        const int64_t total = static_cast<int64_t>(n);
        const int64_t count = buckets > total ? total : static_cast<int64_t>(buckets);
        const int64_t size = total / count, large = total - count * size, small_start = large * (size + 1);
        const int64_t at = static_cast<int64_t>(i);
        set_int(r, at < small_start ? 1 + at / (size + 1) : 1 + large + (at - small_start) / size);
      }
      return true;
    case WindowFn::kLag:
    case WindowFn::kLead:
    case WindowFn::kFirstValue:
    case WindowFn::kLastValue:
    case WindowFn::kNthValue:
      ValueFunctionPartition(ev, frames);
      return true;
    case WindowFn::kCount:
    case WindowFn::kSum:
    case WindowFn::kAvg:
      if (call.distinct) return DistinctAggregatePartition(ev, frames, error);
      return AggregatePartition(ev, frames, error);
    default:
      return AggregatePartition(ev, frames, error);
  }
}

// The validity bytes as a bitmap (null when every row is valid).
std::vector<uint64_t> ValidityBits(const std::vector<uint8_t>& valid, bool* any_null) {
  std::vector<uint64_t> bits(BitmaskWords(valid.size()), 0);
  *any_null = false;
  for (size_t r = 0; r < valid.size(); ++r) {
    if (valid[r]) {
      bits[r / 64] |= uint64_t{1} << (r % 64);
    } else {
      *any_null = true;
    }
  }
  return bits;
}

bool Finish(Evaluation* ev, Column* out, std::string* error) {
  const WindowCall& call = *ev->call;
  if (ev->out_kind == OutKind::kSource) {
    if (call.args.size() > 2 && (call.fn == WindowFn::kLag || call.fn == WindowFn::kLead)) {
      Column both;  // args[0]'s rows, then the default's
      return CopyColumn(*call.args[0], &both, error) && AppendColumn(*call.args[2], &both, error) &&
             TakeRows(both, ev->sources, out, error);
    }
    return TakeRows(*call.args[0], ev->sources, out, error);
  }
  if (ev->out_kind == OutKind::kSlots) {
    Column column(call.result_type);
    for (const Slot& slot : ev->slots) {
      if (!AppendSlot(slot, call.result_type, &column, error)) return false;
    }
    *out = std::move(column);
    return true;
  }
  bool any_null = false;
  const std::vector<uint64_t> bits = ValidityBits(ev->valid, &any_null);
  const uint64_t* validity = any_null ? bits.data() : nullptr;
  switch (ev->out_kind) {
    case OutKind::kInt64: return Column::FromFixed(TypeId::kInt64, ev->ints.data(), ev->rows, validity, out, error);
    case OutKind::kDouble:
      return Column::FromFixed(TypeId::kFloat64, ev->reals.data(), ev->rows, validity, out, error);
    case OutKind::kInt128:
      // HUGEINT, or sum's DECIMAL(38, s)
      return Column::FromFixed(PhysicalType(ev->call->result_type) == TypeId::kInt128 ? ev->call->result_type
                                                                                       : TypeId::kInt128,
                               ev->wides.data(), ev->rows, validity, out, error);
    case OutKind::kBool: return Column::FromFixed(TypeId::kBool, ev->bools.data(), ev->rows, validity, out, error);
    case OutKind::kSource:
    case OutKind::kSlots: break;
  }
  return false;
}

bool KeyIsFloat(const WindowCall& call) { return !call.order.empty() && IsFloat(call.order[0]->type()); }

bool Compute(const WindowCall& call, size_t rows, const ExecContext& ctx, Column* out, std::string* error) {
  Evaluation ev;
  ev.call = &call;
  ev.rows = rows;
  ev.out_kind = OutKindOf(call.fn, call.result_type);
  ev.args.resize(call.args.size());
  for (size_t a = 0; a < call.args.size(); ++a) {
    if (!BorrowVec(*call.args[a], &ev.args[a], error)) return false;
  }
  std::vector<Vec> partition_keys(call.partition.size());
  ev.order_keys.resize(call.order.size());
  std::vector<SortColumn> order_by;
  for (size_t k = 0; k < call.partition.size(); ++k) {
    if (!BorrowVec(*call.partition[k], &partition_keys[k], error)) return false;
  }
  for (size_t k = 0; k < call.order.size(); ++k) {
    if (!BorrowVec(*call.order[k], &ev.order_keys[k], error)) return false;
    order_by.push_back(SortColumn{&ev.order_keys[k], call.descending[k], call.nulls_first[k]});
  }
  if (call.start_offset != nullptr && !BorrowVec(*call.start_offset, &ev.start_offset, error)) return false;
  if (call.end_offset != nullptr && !BorrowVec(*call.end_offset, &ev.end_offset, error)) return false;
  ev.arg_order_keys.resize(call.arg_order.size());
  for (size_t k = 0; k < call.arg_order.size(); ++k) {
    if (!BorrowVec(*call.arg_order[k], &ev.arg_order_keys[k], error)) return false;
  }
  if (rows == 0) return NullColumn(call.result_type, 0, out, error);
  const ScopedMemoryActivity activity("evaluating window functions");
  if (!ChargeQueryMemory(rows * 28, error)) return false;  // ids, positions, frames, one result array
  struct Release {
    size_t bytes;
    ~Release() { ReleaseQueryMemory(bytes); }
  } release{rows * 28};
  PartitionIdList ids;
  size_t partitions = 1;
  if (!partition_keys.empty() && !PartitionIds(partition_keys, rows, ctx, &ids, &partitions, error)) return false;
  const size_t keep = call.top_rows;
  if (call.fn == WindowFn::kRowNumber && keep > 0 && keep < rows &&
      partitions * keep * static_cast<size_t>(ctx.ThreadsAvailable()) <= rows) {
    if (ids.empty()) ids.assign(rows, 0);
    AlignedBuffer numbers;
    return numbers.ResizeForOverwrite(rows * sizeof(int64_t), error) &&
           TopRowsPerPartition(ids.data(), rows, partitions, keep, order_by, ctx, numbers.As<int64_t>(), error) &&
           Column::FromBuffers(TypeId::kInt64, rows, std::move(numbers), AlignedBuffer(), AlignedBuffer(), out, error);
  }
  // The ORDER BY keys as order words for the sort and the peers, or as records sorted in the
  // partitions (one key, several partitions); either is charged as the lists are.
  const bool records = !ids.empty() && partitions > 1 && OneWordKey(order_by);
  const size_t key_bytes = records ? rows * sizeof(KeyRecord) : order_by.size() * rows * sizeof(uint64_t);
  if (!ChargeQueryMemory(key_bytes, error)) return false;
  struct ReleaseKeys {
    size_t bytes;
    ~ReleaseKeys() { ReleaseQueryMemory(bytes); }
  } release_keys{key_bytes};
  if (!records) ev.order_words = ColumnOrderWords(order_by, rows);
  std::vector<uint32_t> order;
  std::vector<size_t> starts;
  if (!SortWithinPartitions(ids, rows, partitions, order_by, ev.order_words, ctx, &order, &starts,
                            records ? &ev.records : nullptr, error)) {
    return false;
  }
  ev.order = &order;
  // Tasks: consecutive partitions of at least kRowsPerTask rows together.
  std::vector<size_t> task_starts{0};  // indexes into `starts`
  for (size_t p = 1; p + 1 < starts.size(); ++p) {
    if (starts[p] - starts[task_starts.back()] >= kRowsPerTask) task_starts.push_back(p);
  }
  task_starts.push_back(starts.size() - 1);
  switch (ev.out_kind) {
    case OutKind::kInt64: ev.ints.assign(rows, 0); break;
    case OutKind::kDouble: ev.reals.assign(rows, 0); break;
    case OutKind::kInt128: ev.wides.assign(rows, 0); break;
    case OutKind::kBool: ev.bools.assign(rows, 0); break;
    case OutKind::kSource: ev.sources.assign(rows, kMissingRow); break;
    case OutKind::kSlots: ev.slots.resize(rows); break;
  }
  ev.valid.assign(ev.out_kind == OutKind::kSource || ev.out_kind == OutKind::kSlots ? 0 : rows, 1);
  const bool float_key = KeyIsFloat(call);
  const bool ok = RunTasks(ctx, ctx.threads, task_starts.size() - 1,
                           [&](size_t task, int, std::string* task_error) {
                             for (size_t p = task_starts[task]; p < task_starts[task + 1]; ++p) {
                               const bool done = float_key
                                   ? EvaluatePartition<double>(&ev, starts[p], starts[p + 1], task_error)
                                   : EvaluatePartition<long double>(&ev, starts[p], starts[p + 1], task_error);
                               if (!done) return false;
                             }
                             return true;
                           },
                           error);
  return ok && Finish(&ev, out, error);
}

}  // namespace

Int128 IntAt(const Vec& v, size_t r) {
  Int128 out = 0;
  VisitFixed(v.type, [&](auto tag) {
    using T = decltype(tag);
    out = static_cast<Int128>(v.Get<T>(r));
  });
  return out;
}

double RealAt(const Vec& v, size_t r) {
  double out = 0;
  VisitFixed(v.type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, Int128>) {
      out = IsDecimal(v.type) ? decimal::ToDouble(v.Get<T>(r), DecimalScale(v.type)) : Int128ToDouble(v.Get<T>(r));
    } else {
      out = static_cast<double>(v.Get<T>(r));
    }
  });
  return out;
}

// A relation column read as a Vec over all its rows (no copy).
bool BorrowVec(const Column& column, Vec* out, std::string* error) {
  Evaluator evaluator({&column});
  plan::BoundExpr ref;
  ref.kind = plan::BoundKind::kColumn;
  ref.column = 0;
  ref.type = column.type();
  RowSet rows;
  rows.count = column.length();
  return evaluator.Eval(ref, rows, out, error);
}

bool FindWindowFn(const std::string& name, WindowFn* fn, size_t* min_args, size_t* max_args) {
  for (const FnEntry& entry : kWindowFns) {
    if (name == entry.name) {
      *fn = entry.fn;
      *min_args = entry.min_args;
      *max_args = entry.max_args;
      return true;
    }
  }
  return false;
}

bool UsesFrame(WindowFn fn) {
  switch (fn) {
    case WindowFn::kRowNumber:
    case WindowFn::kRank:
    case WindowFn::kDenseRank:
    case WindowFn::kPercentRank:
    case WindowFn::kCumeDist:
    case WindowFn::kNtile:
    case WindowFn::kLag:
    case WindowFn::kLead: return false;
    default: return true;
  }
}

bool WindowResultType(WindowFn fn, const std::string& name, TypeId arg_type, TypeId* out, std::string* error) {
  const auto refuse = [&](const char* expected) {
    *error = "No function matches the given name and argument types '" + name + "(" + DuckDbTypeName(arg_type) +
             ")'. " + expected;
    return false;
  };
  switch (fn) {
    case WindowFn::kRowNumber:
    case WindowFn::kRank:
    case WindowFn::kDenseRank:
    case WindowFn::kNtile:
    case WindowFn::kCountStar:
    case WindowFn::kCount: *out = TypeId::kInt64; return true;
    case WindowFn::kPercentRank:
    case WindowFn::kCumeDist: *out = TypeId::kFloat64; return true;
    case WindowFn::kSum:
    case WindowFn::kAvg:
      if (IsFloat(arg_type)) {
        *out = TypeId::kFloat64;
        return true;
      }
      if (IsInteger(arg_type) || arg_type == TypeId::kBool) {
        *out = fn == WindowFn::kSum ? TypeId::kInt128 : TypeId::kFloat64;
        return true;
      }
      if (IsDecimal(arg_type)) {  // summed on the scaled integers, as SUM
        *out = fn == WindowFn::kSum ? DecimalType(kMaxDecimalPrecision, DecimalScale(arg_type)) : TypeId::kFloat64;
        return true;
      }
      return refuse("You might need to add explicit type casts.");
    case WindowFn::kCountIf:
    case WindowFn::kBoolAnd:
    case WindowFn::kBoolOr:
      if (arg_type != TypeId::kBool) return refuse("You might need to add explicit type casts.");
      *out = fn == WindowFn::kCountIf ? TypeId::kInt128 : TypeId::kBool;
      return true;
    default:  // the value functions, min and max: the argument's type
      // A list is stored as a string is: min and max would compare its bytes.
      if (IsList(arg_type) && (fn == WindowFn::kMin || fn == WindowFn::kMax)) {
        return refuse("Lists are not compared in laneql.");
      }
      *out = arg_type == TypeId::kLargeString ? TypeId::kString : arg_type;
      return true;
  }
}

bool ComputeWindow(const WindowCall& call, size_t rows, const ExecContext& ctx, Column* out, std::string* error) {
  try {
    return Compute(call, rows, ctx, out, error);
  } catch (...) {  // a stopped query or a refused sort buffer (QueryAbort; wasm matches only ...)
    *error = CurrentQueryAbortMessage();
    if (error->empty()) *error = "query interrupted";
    return false;
  }
}

}  // namespace exec
}  // namespace laneql
