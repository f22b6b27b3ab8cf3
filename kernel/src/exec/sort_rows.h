// ORDER BY over evaluated key vectors: an index permutation, full (stable) or top-N.
#ifndef LANEQL_EXEC_SORT_ROWS_H_
#define LANEQL_EXEC_SORT_ROWS_H_

#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "src/common/query_budget.h"
#include "src/exec/exec_context.h"
#include "src/exec/expr_eval.h"
#include "src/exec/vector.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

struct SortColumn {
  const Vec* keys;
  bool descending;
  bool nulls_first;
};

// A value as a word whose unsigned order is the value's order (TotalCompare's: -0 as 0, NaN
// largest and equal to itself), for the fixed-width types of 8 bytes or fewer.
template <class T>
uint64_t OrderWordOf(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    // Selects rather than branches, so that a loop of them vectorises (a sign that is random
    // from row to row mispredicted every other branch).
    const double d = static_cast<double>(value);
    uint64_t bits;
    std::memcpy(&bits, &d, 8);
    bits = d == 0 ? 0 : bits;                                // -0 as +0
    bits = d != d ? uint64_t{0x7FF8000000000000} : bits;     // one NaN, the positive quiet one
    const uint64_t negative = static_cast<uint64_t>(static_cast<int64_t>(bits) >> 63);
    return bits ^ (negative | (uint64_t{1} << 63));          // negative: all bits flipped
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<uint64_t>(static_cast<int64_t>(value)) ^ (uint64_t{1} << 63);
  } else {
    return static_cast<uint64_t>(value);
  }
}

// A row under a single ORDER BY key: its order word (flipped when descending) and where a NULL
// goes, beside its position, so that sorting and comparing rows reads 16 adjacent bytes with no
// type dispatch and no gather from an array of words.
struct KeyRecord {
  uint64_t word;
  uint32_t position;
  uint8_t rank;  // 0: a NULL placed first, 1: a value, 2: a NULL placed last
};

inline bool KeyRecordLess(const KeyRecord& a, const KeyRecord& b) {
  if (a.rank != b.rank) return a.rank < b.rank;
  if (a.word != b.word) return a.word < b.word;
  return a.position < b.position;
}

// Equal keys (peers), NULLs equal.
inline bool SameKey(const KeyRecord& a, const KeyRecord& b) { return a.rank == b.rank && a.word == b.word; }

// Whether `columns` is one key that KeyRecords hold: fixed-width of 8 bytes or fewer, not a
// constant.
bool OneWordKey(const std::vector<SortColumn>& columns);

// Row r's record under `column`, whose values are of type T (OneWordKey).
template <class T>
KeyRecord MakeKeyRecord(const SortColumn& column, size_t r);

// Comparisons between two checks whether the query was stopped (interrupt, timeout): a few
// milliseconds of sorting.
constexpr uint32_t kComparisonsPerStopCheck = 1 << 16;

// Position a before position b in the order of `columns`, ties by the tiebreak, then by position.
class PositionLess {
 public:
  // `words[k]`: column k's order words (ColumnOrderWords; empty: compared through CompareRows).
  // `prefixes[k]` != 0: column k's words are its strings' first bytes (StringPrefixWords), so
  // equal words are decided by comparing the strings.
  PositionLess(const std::vector<SortColumn>& columns, const uint64_t* tiebreak,
               const std::vector<std::vector<uint64_t>>* words = nullptr,
               const std::vector<uint8_t>* prefixes = nullptr)
      : columns_(columns), tiebreak_(tiebreak), words_(words), prefixes_(prefixes) {}
  bool operator()(uint32_t a, uint32_t b) const {
    // A long sort is a loop no morsel boundary interrupts: a stopped query throws out of it
    // (QueryAbort, caught by exec::Execute). Each copy of the comparator counts on its own.
    if (++comparisons_ == kComparisonsPerStopCheck) {
      comparisons_ = 0;
      ThrowIfQueryStopped();
    }
    const int c = CompareKeys(a, b);
    return c != 0 ? c < 0 : TieLess(a, b);
  }
  // -1, 0 or 1: a before, tied with or after b by the columns alone (NULLs per nulls_first,
  // descending columns flipped).
  int CompareKeys(uint32_t a, uint32_t b) const { return CompareKeysFrom(0, a, b); }
  // The same by the columns from `first` on.
  int CompareKeysFrom(size_t first, uint32_t a, uint32_t b) const {
    for (size_t k = first; k < columns_.size(); ++k) {
      const SortColumn& column = columns_[k];
      const Vec& v = *column.keys;
      const bool an = v.IsNull(a), bn = v.IsNull(b);
      if (an || bn) {
        if (an == bn) continue;
        return an == column.nulls_first ? -1 : 1;
      }
      int c;
      if (words_ != nullptr && !(*words_)[k].empty()) {
        const uint64_t x = (*words_)[k][a], y = (*words_)[k][b];
        c = x < y ? -1 : (x > y ? 1 : 0);
        if (c == 0 && prefixes_ != nullptr && (*prefixes_)[k]) c = CompareRows(v, a, v, b);
      } else {
        c = CompareRows(v, a, v, b);
      }
      if (c == 0) continue;
      return column.descending ? -c : c;
    }
    return 0;
  }
  // After equal keys: by the tiebreak (a group's first row), then by input order, so the
  // result is deterministic.
  bool TieLess(uint32_t a, uint32_t b) const {
    if (tiebreak_ != nullptr && tiebreak_[a] != tiebreak_[b]) return tiebreak_[a] < tiebreak_[b];
    return a < b;
  }

 private:
  const std::vector<SortColumn>& columns_;
  const uint64_t* tiebreak_;
  const std::vector<std::vector<uint64_t>>* words_;
  const std::vector<uint8_t>* prefixes_;
  mutable uint32_t comparisons_ = 0;
};

// Positions 0..n-1 ordered by `columns` (NULLs placed per nulls_first; floats in DuckDB's
// order, NaN largest; strings byte-wise). Ties are ordered by tiebreak[position] when given
// (groups by the row they first appeared in, so any thread count gives the one-thread order),
// then by position. When `keep` < n only the first `keep` positions are sorted and returned
// (top-N). With `ctx`, large inputs are split among its threads: each sorts (or takes the top
// N of) a run, and the runs are merged. Inside a query it throws QueryAbort (query_budget.h)
// when the query is stopped or its memory limit refuses the position lists.
std::vector<uint32_t> SortPositions(const std::vector<SortColumn>& columns, size_t n, size_t keep,
                                    const uint64_t* tiebreak = nullptr,
                                    const ExecContext* ctx = nullptr);

// Sorting one subset of the positions (a window partition) on the calling thread: each
// column's order words over n rows, computed once for all subsets (empty for a column that has
// none: strings, int128), then `positions` sorted in place by the columns, ties by position.
// Records sorted by KeyRecordLess, checking now and then whether the query was stopped.
void SortKeyRecords(KeyRecord* begin, KeyRecord* end);

std::vector<std::vector<uint64_t>> ColumnOrderWords(const std::vector<SortColumn>& columns, size_t n);
void SortPositionList(const std::vector<SortColumn>& columns, const std::vector<std::vector<uint64_t>>& words,
                      uint32_t* positions, size_t count);

template <class T>
__attribute__((always_inline)) inline KeyRecord MakeKeyRecord(const SortColumn& column, size_t r) {
  const Vec& v = *column.keys;
  if (v.IsNull(r)) return KeyRecord{0, static_cast<uint32_t>(r), static_cast<uint8_t>(column.nulls_first ? 0 : 2)};
  const uint64_t word = OrderWordOf(v.Data<T>()[r]);
  return KeyRecord{column.descending ? ~word : word, static_cast<uint32_t>(r), 1};
}

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_SORT_ROWS_H_
