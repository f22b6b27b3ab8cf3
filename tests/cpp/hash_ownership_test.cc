// HashOwnership (src/exec/hash_ownership.h): which owner takes each hash. Mark must agree with
// OwnerOf row by row for every owner of 1 to 5 and 8 owners (powers of two go through the
// MaskedEqualToMask kernel, the others a byte table), written or ANDed into existing bits, at
// sizes around the 64-row word and the kernel's chunk; and every hash falls to exactly one owner.
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/bitmask.h"
#include "src/exec/hash_ownership.h"

namespace laneql {
namespace {

using exec::HashOwnership;

TEST(HashOwnership, MarkAgreesWithOwnerOf) {
  std::mt19937_64 rng(11);
  for (size_t n : {0, 1, 63, 64, 65, 4095, 4096, 4097, 16384, 20000}) {
    std::vector<uint64_t> hashes(n);
    for (uint64_t& h : hashes) h = rng();
    std::vector<uint64_t> before(BitmaskWords(n));
    for (uint64_t& w : before) w = rng();
    if (n % 64 != 0) before.back() &= (uint64_t{1} << (n % 64)) - 1;  // no bits past n
    for (uint32_t owners : {1u, 2u, 3u, 4u, 5u, 8u}) {
      std::vector<int> takers(n, 0);
      for (uint32_t owner = 0; owner < owners; ++owner) {
        HashOwnership ownership;
        ownership.Set(owner, owners);
        std::vector<uint64_t> marked(BitmaskWords(n) + 1, ~uint64_t{0});
        ownership.Mark(hashes.data(), n, marked.data(), /*and_into=*/false);
        std::vector<uint64_t> anded = before;
        anded.push_back(~uint64_t{0});
        ownership.Mark(hashes.data(), n, anded.data(), /*and_into=*/true);
        for (size_t i = 0; i < n; ++i) {
          const bool owns = HashOwnership::OwnerOf(hashes[i], owners) == owner;
          ASSERT_EQ(BitmaskGet(marked.data(), i), owns) << "n=" << n << " owners=" << owners << " row " << i;
          ASSERT_EQ(BitmaskGet(anded.data(), i), owns && BitmaskGet(before.data(), i))
              << "and_into, n=" << n << " owners=" << owners << " row " << i;
          takers[i] += owns ? 1 : 0;
        }
        if (n % 64 != 0) {
          EXPECT_EQ(marked[n / 64] >> (n % 64), 0u) << "bits past the rows, n=" << n;
          EXPECT_EQ(anded[n / 64] >> (n % 64), 0u) << "bits past the rows (and_into), n=" << n;
        }
        EXPECT_EQ(marked[BitmaskWords(n)], ~uint64_t{0}) << "wrote past the mask, n=" << n;
        EXPECT_EQ(anded[BitmaskWords(n)], ~uint64_t{0}) << "wrote past the mask (and_into), n=" << n;
      }
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(takers[i], 1) << "owners=" << owners << " row " << i;
    }
  }
}

}  // namespace
}  // namespace laneql
