// The frame machinery of window functions, over one partition whose rows are numbered 0..n-1
// in the window's ORDER BY order: each row's frame as a range [begin, end) of those numbers,
// its EXCLUDE clause applied (FrameSegments), and a segment tree that folds any such range.
// The tree's shape depends on n alone, so a fold adds the same values in the same order on
// every thread count (float sums are bit-identical).
#ifndef LANEQL_EXEC_WINDOW_FRAMES_H_
#define LANEQL_EXEC_WINDOW_FRAMES_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "src/sql/ast.h"

namespace laneql {
namespace exec {

using sql::FrameBoundKind;

// The first row of row i's frame under a ROWS bound (offset for n PRECEDING / FOLLOWING,
// never negative), clamped to [0, n].
inline size_t RowsFrameBegin(FrameBoundKind kind, uint64_t offset, size_t i, size_t n) {
  switch (kind) {
    case FrameBoundKind::kUnboundedPreceding: return 0;
    case FrameBoundKind::kPreceding: return offset >= i ? 0 : i - offset;
    case FrameBoundKind::kCurrentRow: return i;
    case FrameBoundKind::kFollowing: return offset >= n - i ? n : i + offset;
    case FrameBoundKind::kUnboundedFollowing: return n;
  }
  return i;
}

// One past the last row of row i's frame under a ROWS bound, clamped to [0, n].
inline size_t RowsFrameEnd(FrameBoundKind kind, uint64_t offset, size_t i, size_t n) {
  switch (kind) {
    case FrameBoundKind::kUnboundedPreceding: return 0;
    case FrameBoundKind::kPreceding: return offset > i ? 0 : i - offset + 1;
    case FrameBoundKind::kCurrentRow: return i + 1;
    case FrameBoundKind::kFollowing: return offset >= n - i ? n : i + offset + 1;
    case FrameBoundKind::kUnboundedFollowing: return n;
  }
  return i + 1;
}

// The rows of a partition whose (single, sorted) ORDER BY key lies within an offset of row i's
// key, for RANGE n PRECEDING / FOLLOWING. `keys` are the partition's non-NULL keys in order
// (ascending, or descending when `descending`); `first` the number of the first of them. The
// lowest row whose key is at least key - offset (ascending), or at most key + offset
// (descending), for a PRECEDING start; the row past the last within key + offset (ascending)
// for a FOLLOWING end; and so on. `Key` is any type with < (integers widened, doubles).
template <class Key>
size_t RangeSearch(const std::vector<Key>& keys, size_t first, bool descending, Key bound, bool upper) {
  // Ascending keys: lower_bound (first >= bound) for a start, upper_bound (first > bound) for
  // an end. Descending keys: the same with the order reversed.
  size_t at;
  if (!descending) {
    at = upper ? static_cast<size_t>(std::upper_bound(keys.begin(), keys.end(), bound) - keys.begin())
               : static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), bound) - keys.begin());
  } else {
    const auto greater = [](const Key& a, const Key& b) { return b < a; };
    at = upper ? static_cast<size_t>(std::upper_bound(keys.begin(), keys.end(), bound, greater) - keys.begin())
               : static_cast<size_t>(std::lower_bound(keys.begin(), keys.end(), bound, greater) - keys.begin());
  }
  return first + at;
}

// A frame less its EXCLUDE rows: up to three ranges [begin, end) of partition positions, in
// order, none empty.
struct FrameSegments {
  uint32_t begin[3] = {0, 0, 0};
  uint32_t end[3] = {0, 0, 0};
  int count = 0;
  void Add(uint32_t b, uint32_t e) {
    if (b >= e) return;
    begin[count] = b;
    end[count] = e;
    ++count;
  }
  bool operator==(const FrameSegments& o) const {
    if (count != o.count) return false;
    for (int k = 0; k < count; ++k) {
      if (begin[k] != o.begin[k] || end[k] != o.end[k]) return false;
    }
    return true;
  }
};

// Row i's frame [b, e) less what `exclude` names: the row (CURRENT ROW), its peers [pb, pe)
// (GROUP), or its peers but itself (TIES).
inline FrameSegments SplitFrame(sql::FrameExclude exclude, uint32_t i, uint32_t b, uint32_t e, uint32_t pb,
                                uint32_t pe) {
  FrameSegments out;
  if (exclude == sql::FrameExclude::kNone) {
    out.Add(b, e);
    return out;
  }
  const uint32_t xb = exclude == sql::FrameExclude::kCurrentRow ? i : pb;
  const uint32_t xe = exclude == sql::FrameExclude::kCurrentRow ? i + 1 : pe;
  out.Add(b, std::min(e, xb));
  if (exclude == sql::FrameExclude::kTies && b <= i && i < e) out.Add(i, i + 1);
  out.Add(std::max(b, xe), e);
  return out;
}

// One partition's rows and frames, as the functions that read frames see them.
struct PartitionFrames {
  const uint32_t* prow = nullptr;  // prow[i]: the relation row of the partition's i-th row
  size_t n = 0;
  const uint32_t* peer_begin = nullptr;  // the peers of row i: [peer_begin[i], peer_end[i])
  const uint32_t* peer_end = nullptr;
  const uint32_t* frame_begin = nullptr;  // row i's frame before EXCLUDE
  const uint32_t* frame_end = nullptr;
  sql::FrameExclude exclude = sql::FrameExclude::kNone;
  FrameSegments Segments(size_t i) const {
    return SplitFrame(exclude, static_cast<uint32_t>(i), frame_begin[i], frame_end[i], peer_begin[i], peer_end[i]);
  }
};

// A segment tree over n leaves for an associative `combine` (not necessarily commutative):
// Fold(begin, end) combines leaves [begin, end) left to right in a grouping fixed by n, begin
// and end alone. 2n entries, built bottom-up (Al. Cash's iterative layout).
template <class T, class Combine>
class SegmentTree {
 public:
  SegmentTree(const std::vector<T>& leaves, T identity, Combine combine)
      : n_(leaves.size()), identity_(identity), combine_(std::move(combine)), tree_(2 * leaves.size(), identity) {
    std::copy(leaves.begin(), leaves.end(), tree_.begin() + static_cast<std::ptrdiff_t>(n_));
    for (size_t i = n_; i-- > 1;) tree_[i] = combine_(tree_[2 * i], tree_[2 * i + 1]);
  }
  T Fold(size_t begin, size_t end) const {
    T left = identity_, right = identity_;
    for (size_t l = begin + n_, r = end + n_; l < r; l >>= 1, r >>= 1) {
      if (l & 1) left = combine_(left, tree_[l++]);
      if (r & 1) right = combine_(tree_[--r], right);
    }
    return combine_(left, right);
  }

 private:
  size_t n_;
  T identity_;
  Combine combine_;
  std::vector<T> tree_;
};

template <class T, class Combine>
SegmentTree<T, Combine> MakeSegmentTree(const std::vector<T>& leaves, T identity, Combine combine) {
  return SegmentTree<T, Combine>(leaves, identity, std::move(combine));
}

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_WINDOW_FRAMES_H_
