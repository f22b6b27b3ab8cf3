// Sorting row positions by several typed key vectors, on several threads for large inputs.
#include "src/exec/sort_rows.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <string_view>
#include <type_traits>
#include <unordered_map>

#include "src/exec/expr_eval.h"
#include "src/common/query_budget.h"

namespace laneql {
namespace exec {

namespace {

// Inputs below this many positions are sorted on the calling thread.
constexpr size_t kParallelSortMin = 1 << 16;
// From this many positions on, a full sort compares keys as order words (OrderWords).
constexpr size_t kWordKeysMin = 1 << 12;

// Positions between two such checks where a top-N rejects them without the comparator.
constexpr size_t kStopCheckMask = (size_t{1} << 20) - 1;

// std::sort by `less`, checking every kComparisonsPerStopCheck comparisons whether the query was
// stopped (a long sort is a loop no morsel boundary interrupts).
template <class It, class Less>
void SortCheckingStops(It begin, It end, const Less& less) {
  uint32_t comparisons = 0;
  std::sort(begin, end, [&](const auto& a, const auto& b) {
    if (++comparisons == kComparisonsPerStopCheck) {
      comparisons = 0;
      ThrowIfQueryStopped();
    }
    return less(a, b);
  });
}

// A key column's values as order words (OrderWordOf), so that comparing two rows is one load
// and one compare each instead of a type dispatch (CompareRows was 75 % of a 10 M-row window
// sort). Empty for the types that do not fit a word (strings, int128, intervals) and constants.
std::vector<uint64_t> OrderWords(const Vec& v, size_t n) {
  std::vector<uint64_t> words;
  if (v.constant || n == 0) return words;
  VisitFixed(v.type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (sizeof(T) <= 8) {
      words.resize(n);
      const T* values = v.Data<T>();
      for (size_t i = 0; i < n; ++i) words[i] = OrderWordOf(values[i]);
    }
  });
  return words;
}

// A string column's first 8 bytes as big-endian words (zero-padded; 0 for a NULL): unequal
// words order two strings as their bytes do, equal ones leave the strings to be compared. The
// ORDER BY of TPC-H Q16's 18,314 groups by count, brand, type and size compared every tie on the
// strings through CompareRows: about 22 of the query's 53 ms at SF 1 on one thread.
std::vector<uint64_t> StringPrefixWords(const Vec& v, size_t n) {
  std::vector<uint64_t> words;
  if (v.constant || n == 0 || !IsString(v.type)) return words;
  words.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (v.IsNull(i)) continue;
    const std::string_view s = v.Str(i);
    uint64_t word = 0;  // the bytes in memory order: big-endian below is byte order
    std::memcpy(&word, s.data(), std::min<size_t>(8, s.size()));
    words[i] = __builtin_bswap64(word);
  }
  return words;
}

// A string column of few distinct values (at most one per kRowsPerDistinctRank rows) as the
// ranks of its values among them: exact order words, so equal words are equal strings. Prefix
// words left Q16's ORDER BY comparing strings on most ties: its brands ("Brand#12") fill the 8
// bytes and its types share them ("STANDARD ..."). Empty when the column has more distinct
// values (its prefix words serve instead).
constexpr size_t kRowsPerDistinctRank = 8;

std::vector<uint64_t> StringRankWords(const Vec& v, size_t n) {
  std::vector<uint64_t> words;
  if (v.constant || n == 0 || !IsString(v.type)) return words;
  const size_t most = std::max<size_t>(16, n / kRowsPerDistinctRank);
  std::unordered_map<std::string_view, uint32_t> ids;
  ids.reserve(std::min<size_t>(most, 1024));
  std::vector<std::string_view> values;
  words.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (v.IsNull(i)) continue;
    const auto [at, added] = ids.emplace(v.Str(i), static_cast<uint32_t>(values.size()));
    if (added) {
      if (values.size() == most) return {};
      values.push_back(at->first);
    }
    words[i] = at->second;
  }
  std::vector<uint32_t> order(values.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return values[a] < values[b]; });
  std::vector<uint64_t> rank(values.size());
  for (size_t r = 0; r < order.size(); ++r) rank[order[r]] = r;
  for (size_t i = 0; i < n; ++i) words[i] = v.IsNull(i) ? 0 : rank[words[i]];
  return words;
}

// The best `keep` (< end - begin) of positions [begin, end), best first, into *out: a heap of
// the best so far with the worst of them on top. `quick(p, worst)` judges a position against
// the worst kept by the first key alone: < 0 when p is worse, > 0 when better, 0 when the full
// comparison must decide. After the first few thousand positions nearly every one is worse than
// the worst of a short list, so a typed first key rejects it with one load and one compare
// (GROUP BY ... ORDER BY COUNT(*) DESC LIMIT 10 over 10 M groups: the comparator through
// PositionLess cost 9 ns a group).
template <class Quick>
void TopPositions(size_t begin, size_t end, size_t keep, PositionLess less, Quick quick,
                  std::vector<uint32_t>* out) {  // `less` by value: its stop-check count is its own
  std::vector<uint32_t>& heap = *out;
  heap.resize(keep);
  if (keep == 0) return;
  std::iota(heap.begin(), heap.end(), static_cast<uint32_t>(begin));
  std::make_heap(heap.begin(), heap.end(), less);
  for (size_t p = begin + keep; p < end; ++p) {
    // The typed rejections never reach the comparator, which checks for a stopped query.
    if ((p & kStopCheckMask) == 0) ThrowIfQueryStopped();
    const uint32_t position = static_cast<uint32_t>(p);
    const int verdict = quick(position, heap.front());
    if (verdict < 0 || (verdict == 0 && !less(position, heap.front()))) continue;
    std::pop_heap(heap.begin(), heap.end(), less);
    heap.back() = position;
    std::push_heap(heap.begin(), heap.end(), less);
  }
  std::sort_heap(heap.begin(), heap.end(), less);
}

// TopPositions with a typed first key where there is one (fixed-width, not a constant).
void TopPositionsByFirstKey(const std::vector<SortColumn>& columns, size_t begin, size_t end,
                            size_t keep, const PositionLess& less, std::vector<uint32_t>* out) {
  const Vec* first = columns.empty() ? nullptr : columns[0].keys;
  const auto undecided = [](uint32_t, uint32_t) { return 0; };
  if (first == nullptr || first->constant ||
      !VisitFixed(first->type, [&](auto tag) {
        using T = decltype(tag);
        const T* values = first->Data<T>();
        const uint64_t* validity = first->validity;
        const bool descending = columns[0].descending;
        // With one key, equal keys are decided by the tiebreak alone: ORDER BY count(*) DESC
        // LIMIT 10 over a million groups of count 1 otherwise took the full comparator for
        // nearly every group.
        const bool only_key = columns.size() == 1;
        TopPositions(begin, end, keep, less,
                     [values, validity, descending, only_key, &less](uint32_t p, uint32_t worst) {
                       // NULLs are placed by the full comparison.
                       if (validity != nullptr &&
                           (!BitmaskGet(validity, p) || !BitmaskGet(validity, worst))) {
                         return 0;
                       }
                       const int c = TotalCompare(values[p], values[worst]);
                       if (c == 0 && only_key) return less.TieLess(p, worst) ? 1 : -1;
                       return descending ? c : -c;
                     },
                     out);
      })) {
    TopPositions(begin, end, keep, less, undecided, out);
  }
}

// Up to three keys of order words sorted as records that hold them (rank of NULL, word) beside
// the position: the comparisons read adjacent memory instead of each key's array at two random
// positions, which left a 10 M-row window sort waiting on the caches.
constexpr size_t kRecordKeys = 3;
struct SortRecord {
  uint64_t word[kRecordKeys];
  uint8_t rank[kRecordKeys];  // 0: a NULL placed first, 1: a value, 2: a NULL placed last
  uint32_t position;
};

SortRecord MakeRecord(const std::vector<SortColumn>& columns, const std::vector<std::vector<uint64_t>>& words,
                      uint32_t position) {
  SortRecord r;
  r.position = position;
  for (size_t k = 0; k < kRecordKeys; ++k) {
    r.word[k] = 0;
    r.rank[k] = 1;
    if (k >= columns.size()) continue;
    if (columns[k].keys->IsNull(position)) {
      r.rank[k] = columns[k].nulls_first ? 0 : 2;
    } else {
      r.word[k] = columns[k].descending ? ~words[k][position] : words[k][position];
    }
  }
  return r;
}

// Whether SortRecords can take these keys: at most kRecordKeys, each with order words.
bool RecordsFit(const std::vector<SortColumn>& columns, const std::vector<std::vector<uint64_t>>& words) {
  if (columns.size() > kRecordKeys || words.size() != columns.size()) return false;
  for (const std::vector<uint64_t>& w : words) {
    if (w.empty()) return false;
  }
  return true;
}

// Records of exact order words sorted by them, ties by position.
void SortRecordList(std::vector<SortRecord>* records) {
  SortCheckingStops(records->begin(), records->end(), [](const SortRecord& a, const SortRecord& b) {
    for (size_t k = 0; k < kRecordKeys; ++k) {
      if (a.rank[k] != b.rank[k]) return a.rank[k] < b.rank[k];
      if (a.word[k] != b.word[k]) return a.word[k] < b.word[k];
    }
    return a.position < b.position;
  });
}

// Positions [begin, end) sorted as records of their first (up to kRecordKeys) keys' words when
// each of those keys has words: equal string prefixes are decided by the strings, and keys past
// the records' by `less`. False when the keys do not allow it (or with a tiebreak).
bool SortRecords(const std::vector<SortColumn>& columns, const std::vector<std::vector<uint64_t>>& words,
                 const std::vector<uint8_t>& prefixes, const uint64_t* tiebreak, size_t begin, size_t end,
                 const PositionLess& less, std::vector<uint32_t>* out) {
  if (tiebreak != nullptr || words.size() != columns.size()) return false;
  const size_t held = std::min(columns.size(), kRecordKeys);
  for (size_t k = 0; k < held; ++k) {
    if (words[k].empty()) return false;
  }
  bool exact = columns.size() <= kRecordKeys;
  for (size_t k = 0; k < held && k < prefixes.size(); ++k) exact = exact && prefixes[k] == 0;
  std::vector<SortRecord> records(end - begin);
  for (size_t p = begin; p < end; ++p) records[p - begin] = MakeRecord(columns, words, static_cast<uint32_t>(p));
  if (exact) {
    SortRecordList(&records);
  } else {
    SortCheckingStops(records.begin(), records.end(), [&](const SortRecord& a, const SortRecord& b) {
      for (size_t k = 0; k < held; ++k) {
        if (a.rank[k] != b.rank[k]) return a.rank[k] < b.rank[k];
        if (a.word[k] != b.word[k]) return a.word[k] < b.word[k];
        if (a.rank[k] == 1 && k < prefixes.size() && prefixes[k]) {
          const Vec& v = *columns[k].keys;
          const int c = CompareRows(v, a.position, v, b.position);
          if (c != 0) return columns[k].descending ? c > 0 : c < 0;
        }
      }
      const int c = less.CompareKeysFrom(held, a.position, b.position);
      return c != 0 ? c < 0 : a.position < b.position;
    });
  }
  out->resize(end - begin);
  for (size_t i = 0; i < records.size(); ++i) (*out)[i] = records[i].position;
  return true;
}

// Positions [begin, end) sorted, or only the best `keep` of them (top-N) when fewer.
void SortRange(const std::vector<SortColumn>& columns, size_t begin, size_t end, size_t keep,
               const PositionLess& less, std::vector<uint32_t>* out,
               const std::vector<std::vector<uint64_t>>* words = nullptr, const uint64_t* tiebreak = nullptr,
               const std::vector<uint8_t>& prefixes = {}) {
  if (keep < end - begin) {
    TopPositionsByFirstKey(columns, begin, end, keep, less, out);
    return;
  }
  if (words != nullptr && SortRecords(columns, *words, prefixes, tiebreak, begin, end, less, out)) return;
  out->resize(end - begin);
  std::iota(out->begin(), out->end(), static_cast<uint32_t>(begin));
  std::sort(out->begin(), out->end(), less);
}

// Positions ordered by tiebreak alone (no columns: the groups of a GROUP BY without ORDER BY
// put in the order of their first rows), ties by position, when every tiebreak value is below
// 2^32: a stable LSD radix sort over the values' significant bits, 11 at a time, of
// (value << 32 | position) words. 1.5 M groups: a few ms, where the comparison sort on two
// threads took 65 ms per half. False when a value is too large (the caller sorts).
bool SortByTiebreak(const uint64_t* tiebreak, size_t n, std::vector<uint32_t>* out) {
  uint64_t largest = 0;
  for (size_t i = 0; i < n; ++i) largest = std::max(largest, tiebreak[i]);
  if (largest >> 32 != 0) return false;
  const ScopedQueryCharge charge(2 * n * sizeof(uint64_t));
  std::vector<uint64_t> items(n), other(n);
  for (size_t i = 0; i < n; ++i) items[i] = tiebreak[i] << 32 | i;
  constexpr int kDigitBits = 11;
  constexpr size_t kBuckets = size_t{1} << kDigitBits;
  int bits = 0;
  while (bits < 32 && (largest >> bits) != 0) ++bits;
  std::vector<size_t> count(kBuckets);
  for (int shift = 32; shift < 32 + bits; shift += kDigitBits) {
    ThrowIfQueryStopped();
    std::fill(count.begin(), count.end(), 0);
    for (size_t i = 0; i < n; ++i) ++count[(items[i] >> shift) & (kBuckets - 1)];
    size_t at = 0;
    for (size_t& c : count) {
      const size_t here = c;
      c = at;
      at += here;
    }
    for (size_t i = 0; i < n; ++i) other[count[(items[i] >> shift) & (kBuckets - 1)]++] = items[i];
    items.swap(other);
  }
  out->resize(n);
  for (size_t i = 0; i < n; ++i) (*out)[i] = static_cast<uint32_t>(items[i]);
  return true;
}

}  // namespace

std::vector<uint32_t> SortPositions(const std::vector<SortColumn>& columns, size_t n, size_t keep,
                                    const uint64_t* tiebreak, const ExecContext* ctx) {
  if (columns.empty() && tiebreak != nullptr && n <= size_t{0xFFFFFFFFu}) {
    std::vector<uint32_t> sorted;
    if (SortByTiebreak(tiebreak, n, &sorted)) {
      if (sorted.size() > keep) sorted.resize(keep);
      return sorted;
    }
  }
  // The threads' runs and the merged result: two lists of n positions at most, charged up
  // front (throws QueryAbort over the memory limit) and given back after.
  const ScopedQueryCharge lists(2 * n * sizeof(uint32_t));
  // A full sort of many rows compares each row log n times: its keys as order words first
  // (charged as the lists are). A top-N compares most rows once and keeps its typed first key.
  const bool with_words = keep >= n && n >= kWordKeysMin;
  const ScopedQueryCharge word_charge(with_words ? columns.size() * n * sizeof(uint64_t) + n * sizeof(SortRecord)
                                                 : 0);
  std::vector<std::vector<uint64_t>> words;
  std::vector<uint8_t> prefixes;  // column k's words are string prefixes
  if (with_words) {
    words = ColumnOrderWords(columns, n);
    prefixes.assign(columns.size(), 0);
    for (size_t k = 0; k < columns.size(); ++k) {
      if (!words[k].empty()) continue;
      words[k] = StringRankWords(*columns[k].keys, n);
      if (!words[k].empty()) continue;
      words[k] = StringPrefixWords(*columns[k].keys, n);
      prefixes[k] = !words[k].empty();
    }
  }
  const PositionLess less(columns, tiebreak, words.empty() ? nullptr : &words, prefixes.empty() ? nullptr : &prefixes);
  const int threads = ctx != nullptr && n >= kParallelSortMin ? ctx->ThreadsAvailable() : 1;
  std::vector<uint32_t> result;
  const std::vector<std::vector<uint64_t>>* word_keys = words.empty() ? nullptr : &words;
  if (threads <= 1) {
    SortRange(columns, 0, n, keep, less, &result, word_keys, tiebreak, prefixes);
    return result;
  }
  // Each thread sorts (or takes the top `keep` of) a contiguous run; the runs are then merged
  // (full sort) or their tops sorted again (top-N). The comparison is a total order, so the
  // result is the one-thread result.
  std::vector<std::vector<uint32_t>> runs(static_cast<size_t>(threads));
  ScopedSpan span(ctx->profiler, 0, "sort", "sort");
  ctx->pool->Run(threads, [&](int t) {
    ScopedSpan run_span(ctx->profiler, t, "sort run", "sort");
    const size_t begin = n * static_cast<size_t>(t) / static_cast<size_t>(threads);
    const size_t end = n * static_cast<size_t>(t + 1) / static_cast<size_t>(threads);
    SortRange(columns, begin, end, keep, less, &runs[static_cast<size_t>(t)], word_keys, tiebreak, prefixes);
    run_span.counters().rows = end - begin;
  });
  for (const auto& run : runs) {
    const size_t middle = result.size();
    result.insert(result.end(), run.begin(), run.end());
    std::inplace_merge(result.begin(), result.begin() + static_cast<std::ptrdiff_t>(middle), result.end(), less);
  }
  if (result.size() > keep) result.resize(keep);
  return result;
}

bool OneWordKey(const std::vector<SortColumn>& columns) {
  if (columns.size() != 1 || columns[0].keys->constant) return false;
  bool fits = false;
  VisitFixed(columns[0].keys->type, [&](auto tag) { fits = sizeof(tag) <= 8; });
  return fits;
}

void SortKeyRecords(KeyRecord* begin, KeyRecord* end) {
  SortCheckingStops(begin, end, [](const KeyRecord& a, const KeyRecord& b) { return KeyRecordLess(a, b); });
}

std::vector<std::vector<uint64_t>> ColumnOrderWords(const std::vector<SortColumn>& columns, size_t n) {
  std::vector<std::vector<uint64_t>> words;
  for (const SortColumn& column : columns) words.push_back(OrderWords(*column.keys, n));
  return words;
}

void SortPositionList(const std::vector<SortColumn>& columns, const std::vector<std::vector<uint64_t>>& words,
                      uint32_t* positions, size_t count) {
  if (count < 2) return;
  if (columns.size() == 1 && RecordsFit(columns, words)) {
    const SortColumn& column = columns[0];
    std::vector<KeyRecord> records(count);
    for (size_t i = 0; i < count; ++i) {
      const uint32_t p = positions[i];
      const bool null = column.keys->IsNull(p);
      records[i] = null ? KeyRecord{0, p, static_cast<uint8_t>(column.nulls_first ? 0 : 2)}
                        : KeyRecord{column.descending ? ~words[0][p] : words[0][p], p, 1};
    }
    SortKeyRecords(records.data(), records.data() + count);
    for (size_t i = 0; i < count; ++i) positions[i] = records[i].position;
    return;
  }
  if (RecordsFit(columns, words)) {
    std::vector<SortRecord> records(count);
    for (size_t i = 0; i < count; ++i) records[i] = MakeRecord(columns, words, positions[i]);
    SortRecordList(&records);
    for (size_t i = 0; i < count; ++i) positions[i] = records[i].position;
    return;
  }
  std::sort(positions, positions + count, PositionLess(columns, nullptr, &words));
}

}  // namespace exec
}  // namespace laneql
