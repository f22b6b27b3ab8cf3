// The frame machinery of window functions, over one partition whose rows are numbered 0..n-1
// in the window's ORDER BY order: each row's frame as a range [begin, end) of those numbers,
// and a segment tree that folds any such range. The tree's shape depends on n alone, so a fold
// adds the same values in the same order on every thread count (float sums are bit-identical).
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
