// The morsel plan: every batch of [first, end) in exactly one morsel, in row order; one thread
// gets MorselBatches-sized morsels to the end; several threads get morsels that never grow and
// shrink to a single batch at the tail, so no thread runs long after the others.
#include "src/exec/morsel.h"

#include <cstddef>
#include <vector>

#include <gtest/gtest.h>

namespace laneql {
namespace exec {
namespace {

std::vector<size_t> Sizes(const MorselPlan& plan) {
  std::vector<size_t> sizes;
  for (size_t m = 0; m < plan.size(); ++m) sizes.push_back(plan.End(m) - plan.Begin(m));
  return sizes;
}

// Morsels tile [first, end) in order, none empty.
void ExpectTiles(const MorselPlan& plan, size_t first, size_t end) {
  size_t at = first;
  for (size_t m = 0; m < plan.size(); ++m) {
    EXPECT_EQ(plan.Begin(m), at) << "morsel " << m;
    EXPECT_GT(plan.End(m), plan.Begin(m)) << "morsel " << m;
    at = plan.End(m);
  }
  EXPECT_EQ(at, end);
}

TEST(MorselPlanTest, NoBatchesNoMorsels) {
  for (int threads : {1, 2, 64}) {
    EXPECT_EQ(MorselPlan(0, 0, threads).size(), 0u);
    EXPECT_EQ(MorselPlan(7, 7, threads).size(), 0u);
  }
}

TEST(MorselPlanTest, TilesEveryRangeInOrder) {
  for (int threads : {1, 2, 3, 4, 8, 16, 64}) {
    for (size_t first : {0, 1, 5}) {
      for (size_t batches : {1, 2, 3, 7, 15, 16, 17, 63, 64, 65, 100, 611, 1000, 4097}) {
        SCOPED_TRACE(testing::Message() << threads << " threads, " << batches << " batches from " << first);
        ExpectTiles(MorselPlan(first, first + batches, threads), first, first + batches);
      }
    }
  }
}

TEST(MorselPlanTest, OneThreadTakesEqualMorsels) {
  // 611 batches (10 M rows): 64-batch morsels, the rest in the last.
  const std::vector<size_t> sizes = Sizes(MorselPlan(0, 611, 1));
  ASSERT_EQ(sizes.size(), 10u);
  for (size_t m = 0; m + 1 < sizes.size(); ++m) EXPECT_EQ(sizes[m], 64u);
  EXPECT_EQ(sizes.back(), 611u - 9 * 64);
  // Few batches: morsels of one batch.
  EXPECT_EQ(Sizes(MorselPlan(0, 5, 1)), std::vector<size_t>(5, 1));
}

TEST(MorselPlanTest, SeveralThreadsShrinkToOneBatchAtTheEnd) {
  for (int threads : {2, 3, 4, 8}) {
    for (size_t batches : {100, 611, 4097}) {
      SCOPED_TRACE(testing::Message() << threads << " threads, " << batches << " batches");
      const std::vector<size_t> sizes = Sizes(MorselPlan(0, batches, threads));
      const size_t cap = MorselBatches(batches, threads);
      // Full-size morsels first (the cursor's traffic stays low while much is left)...
      EXPECT_EQ(sizes.front(), cap);
      // ...never growing, and never more than a thread's share of what is left...
      size_t left = batches;
      for (size_t m = 0; m < sizes.size(); ++m) {
        EXPECT_LE(sizes[m], cap) << "morsel " << m;
        if (m > 0) {
          EXPECT_LE(sizes[m], sizes[m - 1]) << "morsel " << m;
        }
        EXPECT_LE(sizes[m], (left + 2 * threads - 1) / (2 * threads)) << "morsel " << m;
        left -= sizes[m];
      }
      // ...down to single batches: the last threads still at work finish within a batch.
      ASSERT_GE(sizes.size(), static_cast<size_t>(threads));
      for (size_t m = sizes.size() - static_cast<size_t>(threads); m < sizes.size(); ++m) {
        EXPECT_EQ(sizes[m], 1u) << "morsel " << m;
      }
      // The tail adds morsels, but (with morsels of several batches) not one per batch.
      if (cap >= 4) {
        EXPECT_LT(sizes.size(), batches / 2);
      }
    }
  }
}

TEST(MorselPlanTest, ManyThreadsOnFewBatches) {
  // 64 threads over 100 batches: MorselBatches gives one batch each.
  EXPECT_EQ(Sizes(MorselPlan(0, 100, 64)), std::vector<size_t>(100, 1));
}

}  // namespace
}  // namespace exec
}  // namespace laneql
