// The morsel plan: every batch of [first, end) in exactly one morsel, in row order; one thread
// gets MorselBatches-sized morsels to the end; several threads get morsels that never grow and
// shrink to a single batch at the tail, so no thread runs long after the others. RunTasks
// runs every task once, on no more threads than tasks or logical processors.
#include "src/exec/morsel.h"

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/system_info.h"
#include "src/exec/thread_pool.h"

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

TEST(RunTasksTest, TaskThreadsNeverExceedTasksOrProcessors) {
  const int processors = LogicalProcessors();
  EXPECT_EQ(TaskThreads(1, 100), 1);
  EXPECT_EQ(TaskThreads(0, 100), 1);
  EXPECT_EQ(TaskThreads(64, 0), 1);
  EXPECT_EQ(TaskThreads(64, 1), 1);
  EXPECT_EQ(TaskThreads(64, 3), std::min(3, processors));
  EXPECT_EQ(TaskThreads(64, 1000), std::min(64, processors));
  EXPECT_EQ(TaskThreads(2, 1000), std::min(2, processors));
}

TEST(RunTasksTest, EveryTaskOnceOnThreadsWithinTheCap) {
  for (int threads : {1, 2, 8, 64}) {
    ThreadPool pool(threads);
    ExecContext ctx;
    ctx.pool = &pool;
    ctx.threads = threads;
    for (size_t tasks : {size_t{0}, size_t{1}, size_t{3}, size_t{257}}) {
      SCOPED_TRACE(testing::Message() << threads << " threads, " << tasks << " tasks");
      const int cap = TaskThreads(ctx.ThreadsAvailable(), tasks);
      std::unique_ptr<std::atomic<int>[]> runs(new std::atomic<int>[tasks + 1]);
      for (size_t i = 0; i <= tasks; ++i) runs[i] = 0;
      std::atomic<int> bad_thread{0};
      std::string error;
      ASSERT_TRUE(RunTasks(ctx, ctx.ThreadsAvailable(), tasks, [&](size_t i, int t, std::string*) {
        runs[i].fetch_add(1);
        if (t < 0 || t >= cap) bad_thread.fetch_add(1);
        return true;
      }, &error)) << error;
      for (size_t i = 0; i < tasks; ++i) EXPECT_EQ(runs[i].load(), 1) << "task " << i;
      EXPECT_EQ(bad_thread.load(), 0);
    }
  }
}

// A failing task's error comes back, and RunTasks fails.
TEST(RunTasksTest, AFailingTasksErrorComesBack) {
  ThreadPool pool(2);
  ExecContext ctx;
  ctx.pool = &pool;
  ctx.threads = 2;
  std::string error;
  EXPECT_FALSE(RunTasks(ctx, 2, 50, [&](size_t i, int, std::string* task_error) {
    if (i == 7) {
      *task_error = "task " + std::to_string(i) + " failed";
      return false;
    }
    return true;
  }, &error));
  EXPECT_EQ(error, "task 7 failed");
}

}  // namespace
}  // namespace exec
}  // namespace laneql
