// DISTINCT inside window aggregates. The partition's argument values get ids (equal values,
// one id), so a frame's distinct values are the ids with a row in it. count, sum and avg keep
// a multiset of the ids of one range [wb, we) of positions, moved to each row's frame by adding
// and removing the rows between the two (a frame that slides or grows costs its change; one
// that jumps, its size), then take out the row's EXCLUDE rows for its answer and put them
// back. Integer sums are exact under removal; a float sum is the running sum while the range
// has only grown at its end (the default frame), else summed afresh over the frame's distinct
// values in the order of their first rows, the same order the running sum adds them in, so the
// bits never depend on the path to a frame.
#include <algorithm>
#include <numeric>
#include <vector>

#include "src/common/decimal.h"
#include "src/exec/expr_eval.h"
#include "src/exec/window_evaluation.h"

namespace laneql {
namespace exec {
namespace {

// Rows a and b of `args` compared, NULLs last and equal to each other.
int CompareTuples(const std::vector<const Vec*>& args, uint32_t a, uint32_t b) {
  for (const Vec* arg : args) {
    const Vec& v = *arg;
    const bool an = v.IsNull(a), bn = v.IsNull(b);
    if (an || bn) {
      if (an != bn) return an ? 1 : -1;
      continue;
    }
    const int c = CompareRows(v, a, v, b);
    if (c != 0) return c;
  }
  return 0;
}

// The multiset of the distinct values of a range of partition positions, with their count and
// sum.
class DistinctRange {
 public:
  DistinctRange(const Vec& value, const uint32_t* prow, const std::vector<uint32_t>& ids, bool floats)
      : value_(value), prow_(prow), ids_(ids), floats_(floats), copies_(ids.size(), 0) {}

  // Moves the range to [b, e).
  bool MoveTo(uint32_t b, uint32_t e, std::string* error) {
    if (b >= we_ || e <= wb_ || wb_ == we_) {  // nothing kept: start over
      for (uint32_t p = wb_; p < we_; ++p) Remove(p);
      float_sum_ = 0;
      grown_only_ = true;
      wb_ = we_ = b;
    }
    for (uint32_t p = wb_; p < std::min(b, we_); ++p) Remove(p);
    for (uint32_t p = std::max(e, wb_); p < we_; ++p) Remove(p);
    for (uint32_t p = b; p < std::min(wb_, e); ++p) {
      grown_only_ = false;  // added before the others: the running float sum's order breaks
      if (!Add(p, error)) return false;
    }
    for (uint32_t p = std::max(we_, b); p < e; ++p) {
      if (!Add(p, error)) return false;
    }
    wb_ = b;
    we_ = e;
    return true;
  }

  bool Add(uint32_t p, std::string* error) {
    const uint32_t r = prow_[p];
    if (value_.IsNull(r) || copies_[ids_[p]]++ != 0) return true;
    ++distinct_;
    if (floats_) {
      if (grown_only_) float_sum_ += RealAt(value_, r);
    } else if (__builtin_add_overflow(int_sum_, IntAt(value_, r), &int_sum_)) {
      *error = "Overflow in HUGEINT addition";
      return false;
    }
    return true;
  }

  void Remove(uint32_t p) {
    const uint32_t r = prow_[p];
    if (value_.IsNull(r) || --copies_[ids_[p]] != 0) return;
    --distinct_;
    if (floats_) {
      grown_only_ = false;
    } else {
      int_sum_ -= IntAt(value_, r);
    }
  }

  int64_t distinct() const { return distinct_; }
  Int128 int_sum() const { return int_sum_; }
  bool grown_only() const { return grown_only_; }
  double float_sum() const { return float_sum_; }

  // The state's scalars, to restore after a row's EXCLUDE rows are taken out and put back.
  struct Saved {
    int64_t distinct;
    Int128 int_sum;
    double float_sum;
    bool grown_only;
  };
  Saved Save() const { return Saved{distinct_, int_sum_, float_sum_, grown_only_}; }
  void Restore(const Saved& saved) {
    distinct_ = saved.distinct;
    int_sum_ = saved.int_sum;
    float_sum_ = saved.float_sum;
    grown_only_ = saved.grown_only;
  }

 private:
  const Vec& value_;
  const uint32_t* prow_;
  const std::vector<uint32_t>& ids_;
  bool floats_;
  std::vector<uint32_t> copies_;  // rows of each id in the range
  uint32_t wb_ = 0, we_ = 0;
  int64_t distinct_ = 0;
  Int128 int_sum_ = 0;
  double float_sum_ = 0;
  bool grown_only_ = true;  // float_sum_ holds the range's distinct values summed in order
};

}  // namespace

std::vector<uint32_t> DistinctValueIds(const std::vector<const Vec*>& args, const uint32_t* prow, size_t n) {
  std::vector<uint32_t> sorted(n);
  std::iota(sorted.begin(), sorted.end(), 0u);
  std::sort(sorted.begin(), sorted.end(), [&](uint32_t a, uint32_t b) {
    const int c = CompareTuples(args, prow[a], prow[b]);
    return c != 0 ? c < 0 : a < b;
  });
  std::vector<uint32_t> ids(n);
  for (size_t k = 0; k < n; ++k) {
    const bool same = k > 0 && CompareTuples(args, prow[sorted[k - 1]], prow[sorted[k]]) == 0;
    ids[sorted[k]] = same ? ids[sorted[k - 1]] : static_cast<uint32_t>(k);
  }
  return ids;
}

bool DistinctAggregatePartition(Evaluation* ev, const PartitionFrames& frames, std::string* error) {
  const WindowCall& call = *ev->call;
  const Vec& value = ev->args[0];
  const uint32_t* prow = frames.prow;
  const size_t n = frames.n;
  const std::vector<uint32_t> ids = DistinctValueIds({&value}, prow, n);
  const bool floats = IsFloat(value.type);
  DistinctRange range(value, prow, ids, floats);
  std::vector<uint32_t> seen(n, 0);  // a fresh float sum's marks: the row number + 1 that saw the id
  const bool keep_row = frames.exclude == sql::FrameExclude::kTies;
  uint32_t last[4] = {0, 0, 0, 0};  // the previous row's frame and excluded range
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = prow[i];
    const uint32_t b = frames.frame_begin[i], e = frames.frame_end[i];
    // EXCLUDE: the frame's rows that the clause names, taken out for this row's answer.
    uint32_t xb = 0, xe = 0;
    if (frames.exclude == sql::FrameExclude::kCurrentRow) {
      xb = static_cast<uint32_t>(i);
      xe = xb + 1;
    } else if (frames.exclude != sql::FrameExclude::kNone) {
      xb = frames.peer_begin[i];
      xe = frames.peer_end[i];
    }
    xb = std::max(xb, b);
    xe = std::min(xe, e);
    // The rows the previous row read (peers under EXCLUDE GROUP, a whole partition): its answer.
    if (i > 0 && !keep_row && b == last[0] && e == last[1] && xb == last[2] && xe == last[3]) {
      const uint32_t before = prow[i - 1];
      ev->valid[r] = ev->valid[before];
      if (call.fn == WindowFn::kCount) {
        ev->ints[r] = ev->ints[before];
      } else if (call.fn == WindowFn::kSum && !floats) {
        ev->wides[r] = ev->wides[before];
      } else {
        ev->reals[r] = ev->reals[before];
      }
      continue;
    }
    last[0] = b;
    last[1] = e;
    last[2] = xb;
    last[3] = xe;
    if (!range.MoveTo(b, e, error)) return false;
    const DistinctRange::Saved saved = range.Save();
    bool excluded = false;
    for (uint32_t p = xb; p < xe; ++p) {
      if (keep_row && p == i) continue;
      range.Remove(p);
      excluded = true;
    }
    const int64_t c = range.distinct();
    if (call.fn == WindowFn::kCount) {
      ev->ints[r] = c;
    } else if (c == 0) {
      ev->valid[r] = 0;
    } else if (!floats) {
      const Int128 sum = range.int_sum();
      if (call.fn == WindowFn::kSum) {
        ev->wides[r] = sum;
      } else {
        ev->reals[r] = IsDecimal(value.type) ? decimal::Average(sum, c, DecimalScale(value.type))
                                             : Int128ToDouble(sum) / static_cast<double>(c);
      }
    } else {
      double sum = 0;
      if (range.grown_only() && !excluded) {
        sum = range.float_sum();
      } else {
        const FrameSegments segments = frames.Segments(i);
        const uint32_t mark = static_cast<uint32_t>(i) + 1;
        for (int k = 0; k < segments.count; ++k) {
          for (uint32_t p = segments.begin[k]; p < segments.end[k]; ++p) {
            if (value.IsNull(prow[p]) || seen[ids[p]] == mark) continue;
            seen[ids[p]] = mark;
            sum += RealAt(value, prow[p]);
          }
        }
      }
      ev->reals[r] = call.fn == WindowFn::kAvg ? sum / static_cast<double>(c) : sum;
    }
    for (uint32_t p = xb; p < xe; ++p) {
      if (keep_row && p == i) continue;
      if (!range.Add(p, error)) return false;
    }
    range.Restore(saved);
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
