// The built-in aggregates over one partition's frames (less their EXCLUDE rows, at most three
// ranges each). Counts and integer sums read prefix sums (exact, in 128 bits); float sums, min
// and max fold a segment tree whose shape depends on the partition's size alone, range by
// range in order, so every thread count gives the same bits. The DISTINCT forms of count, sum
// and avg are window_distinct.cc's.
#include <vector>

#include "src/common/decimal.h"
#include "src/exec/expr_eval.h"
#include "src/exec/relation.h"
#include "src/exec/window_evaluation.h"

namespace laneql {
namespace exec {

bool AggregatePartition(Evaluation* ev, const PartitionFrames& frames, std::string* error) {
  const WindowCall& call = *ev->call;
  const Vec* arg = ev->args.empty() ? nullptr : &ev->args[0];
  const uint32_t* prow = frames.prow;
  const size_t n = frames.n;
  // Counts of the rows each one reads, as prefix sums.
  std::vector<int64_t> counted(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    bool counts = true;
    if (call.fn == WindowFn::kCountIf || call.fn == WindowFn::kBoolOr) {
      counts = !arg->IsNull(prow[i]) && arg->Get<uint8_t>(prow[i]) != 0;
    } else if (call.fn == WindowFn::kBoolAnd) {
      counts = !arg->IsNull(prow[i]) && arg->Get<uint8_t>(prow[i]) == 0;  // the false ones
    } else if (call.fn != WindowFn::kCountStar) {
      counts = !arg->IsNull(prow[i]);
    }
    counted[i + 1] = counted[i] + (counts ? 1 : 0);
  }
  // The sum of prefix differences over a row's frame ranges.
  const auto over = [](const std::vector<int64_t>& prefix, const FrameSegments& s) {
    int64_t total = 0;
    for (int k = 0; k < s.count; ++k) total += prefix[s.end[k]] - prefix[s.begin[k]];
    return total;
  };
  std::vector<int64_t> non_null;
  // count_if, bool_and and bool_or are NULL over a frame without a non-NULL b (DuckDB's count_if
  // sums its argument as integers).
  const bool null_when_empty =
      call.fn == WindowFn::kBoolAnd || call.fn == WindowFn::kBoolOr || call.fn == WindowFn::kCountIf;
  if (null_when_empty) {
    non_null.assign(n + 1, 0);
    for (size_t i = 0; i < n; ++i) non_null[i + 1] = non_null[i] + (arg->IsNull(prow[i]) ? 0 : 1);
  }
  const bool float_sum = (call.fn == WindowFn::kSum || call.fn == WindowFn::kAvg) && IsFloat(arg->type);
  const bool int_sum = (call.fn == WindowFn::kSum || call.fn == WindowFn::kAvg) && !float_sum;
  std::vector<Int128> prefix;
  if (int_sum) {
    prefix.assign(n + 1, 0);
    const bool wide = PhysicalType(arg->type) == TypeId::kInt128;
    for (size_t i = 0; i < n; ++i) {
      const Int128 v = arg->IsNull(prow[i]) ? 0 : IntAt(*arg, prow[i]);
      if (wide && __builtin_add_overflow(prefix[i], v, &prefix[i + 1])) {
        *error = "Overflow in HUGEINT addition";
        return false;
      }
      if (!wide) prefix[i + 1] = prefix[i] + v;
    }
  }
  if (float_sum) {
    std::vector<double> leaves(n);
    for (size_t i = 0; i < n; ++i) leaves[i] = arg->IsNull(prow[i]) ? 0.0 : RealAt(*arg, prow[i]);
    const auto tree = MakeSegmentTree(leaves, 0.0, [](double a, double b) { return a + b; });
    for (size_t i = 0; i < n; ++i) {
      const uint32_t r = prow[i];
      const FrameSegments segments = frames.Segments(i);
      const int64_t c = over(counted, segments);
      if (c == 0) {
        ev->valid[r] = 0;
        continue;
      }
      double sum = 0.0;  // the tree's folds start from 0.0 too, so one range adds nothing here
      for (int k = 0; k < segments.count; ++k) sum += tree.Fold(segments.begin[k], segments.end[k]);
      ev->reals[r] = call.fn == WindowFn::kAvg ? sum / static_cast<double>(c) : sum;
    }
    return true;
  }
  if (call.fn == WindowFn::kMin || call.fn == WindowFn::kMax) {
    const bool is_min = call.fn == WindowFn::kMin;
    std::vector<uint32_t> leaves(n);
    for (size_t i = 0; i < n; ++i) leaves[i] = arg->IsNull(prow[i]) ? kMissingRow : prow[i];
    // The first of equal values wins, as a scan in frame order keeps it.
    const auto pick = [arg, is_min](uint32_t a, uint32_t b) {
      if (a == kMissingRow) return b;
      if (b == kMissingRow) return a;
      const int c = CompareRows(*arg, a, *arg, b);
      return (is_min ? c <= 0 : c >= 0) ? a : b;
    };
    const auto tree = MakeSegmentTree(leaves, kMissingRow, pick);
    for (size_t i = 0; i < n; ++i) {
      const FrameSegments segments = frames.Segments(i);
      uint32_t best = kMissingRow;
      for (int k = 0; k < segments.count; ++k) best = pick(best, tree.Fold(segments.begin[k], segments.end[k]));
      ev->sources[prow[i]] = best;
    }
    return true;
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = prow[i];
    const FrameSegments segments = frames.Segments(i);
    const int64_t c = over(counted, segments);
    switch (call.fn) {
      case WindowFn::kCountStar:
      case WindowFn::kCount: ev->ints[r] = c; break;
      // count_if(DISTINCT b) counts the distinct true values: one where there is any.
      case WindowFn::kCountIf:
        if (over(non_null, segments) == 0) {
          ev->valid[r] = 0;
        } else {
          ev->wides[r] = call.distinct ? (c > 0 ? 1 : 0) : c;
        }
        break;
      case WindowFn::kBoolAnd:
      case WindowFn::kBoolOr:
        if (over(non_null, segments) == 0) {
          ev->valid[r] = 0;
        } else {
          ev->bools[r] = call.fn == WindowFn::kBoolAnd ? (c == 0) : (c > 0);
        }
        break;
      case WindowFn::kSum:
      case WindowFn::kAvg: {
        if (c == 0) {
          ev->valid[r] = 0;
          break;
        }
        Int128 sum = 0;
        for (int k = 0; k < segments.count; ++k) sum += prefix[segments.end[k]] - prefix[segments.begin[k]];
        if (call.fn == WindowFn::kSum) {
          ev->wides[r] = sum;
        } else {
          ev->reals[r] = IsDecimal(arg->type) ? decimal::Average(sum, c, DecimalScale(arg->type))
                                              : Int128ToDouble(sum) / static_cast<double>(c);
        }
        break;
      }
      default: break;
    }
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
