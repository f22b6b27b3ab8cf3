// The k-th smallest of many 64-bit order words by radix selection: a count of each value of the
// next 16 bits (below those all candidates share), the bucket holding rank k kept, repeated
// until few candidates are left, which std::nth_element finishes. Two to three passes over the
// words where nth_element's partitions made about five with a branch per word: the median of
// 10 M doubles spent 130 of its 205 ms in nth_element (aggregate_values.cc).
#ifndef LANEQL_EXEC_RADIX_SELECT_H_
#define LANEQL_EXEC_RADIX_SELECT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace laneql {
namespace exec {

// The word of rank k (0-based, k < n) among word(values[i]) for i < n, in ascending order;
// `word` maps a value to its order word (called again on each pass rather than the words
// stored: a copy of 10 M words cost more than the calls). values is not changed.
template <class T, class Word>
uint64_t RadixSelect(const T* values, size_t n, size_t k, const Word& word) {
  constexpr int kBits = 16;
  constexpr size_t kBuckets = size_t{1} << kBits;
  constexpr size_t kFew = 4096;  // candidates left to nth_element
  uint64_t low = word(values[0]), high = low;
  for (size_t i = 1; i < n; ++i) {
    const uint64_t w = word(values[i]);
    low = std::min(low, w);
    high = std::max(high, w);
  }
  if (low == high) return low;
  // The bits above the highest one in which the words differ are every candidate's.
  int top = 63 - __builtin_clzll(low ^ high);
  std::vector<uint32_t> counts(kBuckets);
  // Past the first level the candidates are kept as words.
  std::vector<uint64_t> candidates;
  bool first = true;
  size_t size = n;
  const auto at = [&](size_t i) { return first ? word(values[i]) : candidates[i]; };
  while (true) {
    if (size <= kFew) {
      std::vector<uint64_t> few(size);
      for (size_t i = 0; i < size; ++i) few[i] = at(i);
      std::nth_element(few.begin(), few.begin() + static_cast<std::ptrdiff_t>(k), few.end());
      return few[k];
    }
    const int shift = std::max(0, top + 1 - kBits);
    const uint64_t mask = (uint64_t{1} << (top + 1 - shift)) - 1;
    std::fill(counts.begin(), counts.end(), 0);
    for (size_t i = 0; i < size; ++i) ++counts[(at(i) >> shift) & mask];
    size_t bucket = 0;
    while (k >= counts[bucket]) k -= counts[bucket++];
    if (shift == 0) {  // every bit decided: the bucket's words are equal
      for (size_t i = 0;; ++i) {
        if ((at(i) & mask) == bucket) return at(i);
      }
    }
    if (counts[bucket] != size) {  // else every candidate is in it: nothing to gather
      std::vector<uint64_t> next;
      next.reserve(counts[bucket]);
      for (size_t i = 0; i < size; ++i) {
        const uint64_t w = at(i);
        if (((w >> shift) & mask) == bucket) next.push_back(w);
      }
      candidates.swap(next);
      first = false;
      size = candidates.size();
    }
    top = shift - 1;
  }
}

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_RADIX_SELECT_H_
