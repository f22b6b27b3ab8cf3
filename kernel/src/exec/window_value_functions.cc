// The value window functions over one partition: lag and lead (offsets from the row, the frame
// not read) and first_value, last_value and nth_value (positions in the frame less its
// EXCLUDE rows). Each writes the relation row whose value is the answer (Evaluation::sources).
// Under IGNORE NULLS the positions count only the rows whose value is not NULL: `present` lists
// those rows' partition positions and before[i] how many of them precede position i, so a
// row's k-th such neighbour, or a frame range's first, last or k-th, is one lookup.
#include <vector>

#include "src/exec/relation.h"
#include "src/exec/window_evaluation.h"

namespace laneql {
namespace exec {
namespace {

// The partition position of lag / lead's source for row i at signed distance `delta` (negative:
// earlier rows), or -1 where there is none.
Int128 OffsetPosition(size_t i, Int128 delta, size_t n, bool ignore_nulls, const std::vector<uint32_t>& present,
                      const std::vector<uint32_t>& before) {
  if (!ignore_nulls) {
    const Int128 j = static_cast<Int128>(i) + delta;
    return j >= 0 && j < static_cast<Int128>(n) ? j : -1;
  }
  if (delta == 0) return static_cast<Int128>(i);  // the row itself, NULL or not (as DuckDB)
  // The non-NULL rows before i are present[0 .. before[i]), those after it from before[i + 1].
  const Int128 m = delta < 0 ? static_cast<Int128>(before[i]) + delta : static_cast<Int128>(before[i + 1]) + delta - 1;
  return m >= 0 && m < static_cast<Int128>(present.size()) ? static_cast<Int128>(present[static_cast<size_t>(m)]) : -1;
}

}  // namespace

void ValueFunctionPartition(Evaluation* ev, const PartitionFrames& frames) {
  const WindowCall& call = *ev->call;
  const Vec& value = ev->args[0];
  const uint32_t* prow = frames.prow;
  const size_t n = frames.n;
  const bool ignore_nulls = call.ignore_nulls;
  std::vector<uint32_t> present, before;
  if (ignore_nulls) {
    before.resize(n + 1);
    for (size_t i = 0; i < n; ++i) {
      before[i] = static_cast<uint32_t>(present.size());
      if (!value.IsNull(prow[i])) present.push_back(static_cast<uint32_t>(i));
    }
    before[n] = static_cast<uint32_t>(present.size());
  }
  if (call.fn == WindowFn::kLag || call.fn == WindowFn::kLead) {
    for (size_t i = 0; i < n; ++i) {
      const uint32_t r = prow[i];
      Int128 offset = 1;
      if (ev->args.size() > 1) {
        if (ev->args[1].IsNull(r)) {
          ev->sources[r] = kMissingRow;
          continue;
        }
        offset = IntAt(ev->args[1], r);
      }
      const Int128 j = OffsetPosition(i, call.fn == WindowFn::kLag ? -offset : offset, n, ignore_nulls, present, before);
      if (j >= 0) {
        ev->sources[r] = prow[static_cast<size_t>(j)];
      } else {
        ev->sources[r] = ev->args.size() > 2 ? static_cast<uint32_t>(ev->rows + r) : kMissingRow;
      }
    }
    return;
  }
  // Rows in [b, e) that count, and the k-th of them (from 0).
  const auto count_in = [&](uint32_t b, uint32_t e) -> size_t { return ignore_nulls ? before[e] - before[b] : e - b; };
  const auto kth_in = [&](uint32_t b, size_t k) -> uint32_t {
    return ignore_nulls ? present[before[b] + k] : static_cast<uint32_t>(b + k);
  };
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = prow[i];
    const FrameSegments segments = frames.Segments(i);
    uint32_t source = kMissingRow;
    if (call.fn == WindowFn::kFirstValue) {
      for (int s = 0; s < segments.count && source == kMissingRow; ++s) {
        if (count_in(segments.begin[s], segments.end[s]) > 0) source = prow[kth_in(segments.begin[s], 0)];
      }
    } else if (call.fn == WindowFn::kLastValue) {
      for (int s = segments.count; s-- > 0 && source == kMissingRow;) {
        const size_t c = count_in(segments.begin[s], segments.end[s]);
        if (c > 0) source = prow[kth_in(segments.begin[s], c - 1)];
      }
    } else if (!ev->args[1].IsNull(r)) {  // nth_value
      Int128 k = IntAt(ev->args[1], r);
      for (int s = 0; s < segments.count && k >= 1; ++s) {
        const size_t c = count_in(segments.begin[s], segments.end[s]);
        if (k <= static_cast<Int128>(c)) {
          source = prow[kth_in(segments.begin[s], static_cast<size_t>(k) - 1)];
          break;
        }
        k -= static_cast<Int128>(c);
      }
    }
    ev->sources[r] = source;
  }
}

}  // namespace exec
}  // namespace laneql
