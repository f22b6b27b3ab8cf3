// The Bloom filter test kernel (laneql/bloom_filter.h) against its scalar reference on every
// compiled target, with random and edge data (empty, tails, all bits set, none set, extreme
// hashes), and the filter's promises: no inserted hash is ever rejected, and few others pass.
#include "laneql/bloom_filter.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "target_param.h"

namespace laneql {
namespace {

LANEQL_PER_TARGET_SUITE(BloomFilterKernel);

std::vector<uint64_t> Tested(const std::vector<uint64_t>& words, int shift, const std::vector<uint64_t>& hashes,
                             bool reference) {
  std::vector<uint64_t> hits((hashes.size() + 63) / 64 + 1, ~uint64_t{0});  // one guard word
  if (reference) {
    BloomFilterTestReference(words.data(), shift, hashes.data(), hashes.size(), hits.data());
  } else {
    BloomFilterTest(words.data(), shift, hashes.data(), hashes.size(), hits.data());
  }
  EXPECT_EQ(hits.back(), ~uint64_t{0}) << "wrote past (n + 63) / 64 words";
  if (hashes.size() % 64 != 0) {
    EXPECT_EQ(hits[hashes.size() / 64] >> (hashes.size() % 64), 0u) << "bits past n set";
  }
  hits.pop_back();
  return hits;
}

TEST_P(BloomFilterKernel, MatchesTheReference) {
  std::mt19937_64 rng(42);
  for (int log2_words : {3, 4, 10, 16}) {
    const int shift = 64 - log2_words;
    std::vector<uint64_t> words(size_t{1} << log2_words);
    for (const char* fill : {"random", "sparse", "zero", "ones"}) {
      for (uint64_t& w : words) {
        w = fill[0] == 'r' ? rng() : fill[0] == 's' ? (rng() & rng() & rng()) : fill[0] == 'z' ? 0 : ~uint64_t{0};
      }
      for (size_t n : {0, 1, 2, 3, 7, 8, 15, 63, 64, 65, 127, 1000, 1024, 1031}) {
        std::vector<uint64_t> hashes(n);
        for (size_t i = 0; i < n; ++i) {
          hashes[i] = i % 7 == 0 ? (i % 2 ? ~uint64_t{0} : 0) : rng();  // extremes among random ones
        }
        EXPECT_EQ(Tested(words, shift, hashes, false), Tested(words, shift, hashes, true))
            << fill << " words, 2^" << log2_words << " of them, n = " << n;
      }
    }
  }
}

TEST_P(BloomFilterKernel, PassesEveryInsertedHashAndFewOthers) {
  std::mt19937_64 rng(7);
  const size_t keys = 4096;
  const int log2_words = 10;  // 64 Ki bits: 16 a key, as the join's filter sizes it
  const int shift = 64 - log2_words;
  std::vector<uint64_t> words(size_t{1} << log2_words, 0);
  std::vector<uint64_t> inserted(keys);
  for (uint64_t& h : inserted) {
    h = rng();
    BloomInsert(words.data(), shift, h);
  }
  const std::vector<uint64_t> in = Tested(words, shift, inserted, false);
  for (size_t i = 0; i < keys; ++i) ASSERT_TRUE((in[i / 64] >> (i % 64)) & 1) << "inserted hash " << i << " rejected";
  std::vector<uint64_t> others(100000);
  for (uint64_t& h : others) h = rng();
  const std::vector<uint64_t> out = Tested(words, shift, others, false);
  size_t passed = 0;
  for (uint64_t w : out) passed += static_cast<size_t>(__builtin_popcountll(w));
  // Three bits in a 64-bit block at 16 bits a key: about 1 % (a one-bit filter: about 6 %).
  EXPECT_LT(passed, others.size() * 2 / 100);
}

}  // namespace
}  // namespace laneql
