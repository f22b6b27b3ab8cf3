// The hash join's key filter (src/exec/join_key_filter.h): it never drops a row whose hash was
// built (no false negatives), never passes a row with a NULL key, rejects most other hashes,
// and is not made for build sides above its size limit. The joins that use it are checked
// against nested loops in hash_join_test.cc, on selective and all-matching probes.
#include "src/exec/join_key_filter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace laneql {
namespace exec {
namespace {

std::vector<uint64_t> AllValid(size_t rows) {
  std::vector<uint64_t> valid(BitmaskWords(rows), ~uint64_t{0});
  return valid;
}

TEST(JoinKeyFilter, PassesEveryBuiltHashAndFewOthers) {
  for (const size_t rows : {size_t{1}, size_t{63}, size_t{204}, size_t{5000}, JoinKeyFilter::kMaxRows}) {
    SCOPED_TRACE(rows);
    std::mt19937_64 rng(rows);
    std::vector<uint64_t> hashes(rows);
    for (uint64_t& h : hashes) h = rng();
    std::vector<uint64_t> valid = AllValid(rows);
    // Every third build row has a NULL key: not inserted.
    size_t inserted = 0;
    for (size_t r = 0; r < rows; ++r) {
      if (r % 3 == 2) valid[r / 64] &= ~(uint64_t{1} << (r % 64));
      inserted += BitmaskGet(valid.data(), r);
    }
    JoinKeyFilter filter;
    std::string error;
    ASSERT_TRUE(filter.Build(hashes.data(), valid.data(), rows, inserted, &error)) << error;
    ASSERT_EQ(filter.enabled(), inserted != 0);
    if (!filter.enabled()) continue;
    // The inserted rows' hashes all pass, in order; probing with the build's own validity.
    std::vector<uint32_t> out(rows);
    const size_t passed = filter.Candidates(hashes.data(), valid.data(), rows, out.data());
    ASSERT_EQ(passed, inserted);
    size_t k = 0;
    for (size_t r = 0; r < rows; ++r) {
      if (BitmaskGet(valid.data(), r)) {
        EXPECT_EQ(out[k++], r);
      }
    }
    // Other hashes: about 1 % pass (three bits of a 64-bit block per key, at least kBitsPerRow
    // bits a key; a one-bit filter passed about 6 %); NULL probe keys never.
    const size_t n = 100000;
    std::vector<uint64_t> others(n);
    for (uint64_t& h : others) h = rng();
    std::vector<uint64_t> probe_valid = AllValid(n);
    std::vector<uint32_t> candidates(std::max(n, rows));
    const size_t false_positives = filter.Candidates(others.data(), probe_valid.data(), n, candidates.data());
    EXPECT_LT(false_positives, n / 50);
    std::vector<uint64_t> none(BitmaskWords(rows), 0);
    EXPECT_EQ(filter.Candidates(hashes.data(), none.data(), rows, candidates.data()), 0u);
  }
}

TEST(JoinKeyFilter, NotMadeForLargeBuildSides) {
  const size_t rows = JoinKeyFilter::kMaxRows + 1;
  std::vector<uint64_t> hashes(rows, 7);
  std::vector<uint64_t> valid = AllValid(rows);
  JoinKeyFilter filter;
  std::string error;
  ASSERT_TRUE(filter.Build(hashes.data(), valid.data(), rows, rows, &error)) << error;
  EXPECT_FALSE(filter.enabled());
}

}  // namespace
}  // namespace exec
}  // namespace laneql
