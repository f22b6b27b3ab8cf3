// RadixSelect (exec/radix_select.h) against std::nth_element: random words, words that share
// their top bits, many duplicates, every word equal, the extremes, sizes around the point where
// it hands over to nth_element, and every rank of a small set.
#include "src/exec/radix_select.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace laneql {
namespace exec {
namespace {

uint64_t Expected(std::vector<uint64_t> words, size_t k) {
  std::nth_element(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(k), words.end());
  return words[k];
}

uint64_t Select(const std::vector<uint64_t>& words, size_t k) {
  return RadixSelect(words.data(), words.size(), k, [](uint64_t w) { return w; });
}

TEST(RadixSelect, MatchesNthElementOnManyShapes) {
  std::mt19937_64 rng(11);
  const uint64_t kMax = std::numeric_limits<uint64_t>::max();
  const std::vector<size_t> sizes = {1, 2, 4095, 4096, 4097, 70'000, 300'001};
  for (size_t n : sizes) {
    std::vector<std::vector<uint64_t>> shapes(6, std::vector<uint64_t>(n));
    for (size_t i = 0; i < n; ++i) {
      shapes[0][i] = rng();                                    // random
      shapes[1][i] = 0x7FFF'F000'0000'0000ull + rng() % 5000;  // top bits shared
      shapes[2][i] = rng() % 7;                                // many duplicates
      shapes[3][i] = 42;                                       // all equal
      shapes[4][i] = rng() % 2 == 0 ? 0 : kMax;                // the extremes
      // One bucket of the first level holds nearly all: a long tail beside a dense core.
      shapes[5][i] = i % 1000 == 0 ? rng() : (uint64_t{1} << 40) + rng() % 100'000;
    }
    for (size_t s = 0; s < shapes.size(); ++s) {
      for (size_t k : {size_t{0}, n / 3, n / 2, n - 1}) {
        EXPECT_EQ(Select(shapes[s], k), Expected(shapes[s], k)) << "n " << n << " shape " << s << " k " << k;
      }
    }
  }
}

TEST(RadixSelect, EveryRankOfASmallSetPastTheHandOver) {
  std::mt19937_64 rng(3);
  std::vector<uint64_t> words(5000);
  for (uint64_t& w : words) w = rng() % 3000 * 0x1'0000'0001ull;
  std::vector<uint64_t> sorted = words;
  std::sort(sorted.begin(), sorted.end());
  for (size_t k = 0; k < words.size(); k += 7) EXPECT_EQ(Select(words, k), sorted[k]) << k;
}

TEST(RadixSelect, WordsMadeByTheCallerLeaveTheValuesAlone) {
  const std::vector<double> values = {3.5, -1.0, 2.0, -0.5};
  const std::vector<double> before = values;
  // Complemented words order the values from the largest: rank 0 is 3.5's word.
  const auto word = [](double v) { return ~static_cast<uint64_t>(v * 2 + 100); };
  EXPECT_EQ(~RadixSelect(values.data(), values.size(), 0, word), static_cast<uint64_t>(3.5 * 2 + 100));
  EXPECT_EQ(values, before);
}

}  // namespace
}  // namespace exec
}  // namespace laneql
