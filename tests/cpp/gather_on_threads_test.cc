// GatherColumnsOnThreads (src/exec/gather_on_threads.h): every column gathered on the threads,
// a long row list cut into slices, equals GatherRows of the whole list: fixed-width and string
// columns, NULLs, kNoRow entries, an empty list, one job and several.
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/result_printers.h"
#include "src/exec/gather_on_threads.h"
#include "src/exec/hash_join.h"
#include "src/exec/thread_pool.h"

namespace laneql::exec {
namespace {

void ExpectSameColumn(const Column& expected, const Column& actual, const std::string& what) {
  ASSERT_EQ(expected.type(), actual.type()) << what;
  ASSERT_EQ(expected.length(), actual.length()) << what;
  EXPECT_EQ(expected.null_count(), actual.null_count()) << what;
  EXPECT_EQ(expected.validity() != nullptr, actual.validity() != nullptr) << what;
  for (size_t r = 0; r < expected.length(); ++r) {
    ASSERT_EQ(FormatValue(expected, r, ValueStyle::kText), FormatValue(actual, r, ValueStyle::kText))
        << what << " row " << r;
  }
}

TEST(GatherColumnsOnThreads, EqualsOneGatherOfTheWholeList) {
  constexpr size_t kSourceRows = 50'000;
  std::mt19937 rng(11);
  Column numbers(TypeId::kInt64), texts(TypeId::kString), dense(TypeId::kFloat64);
  std::string error;
  for (size_t r = 0; r < kSourceRows; ++r) {
    ASSERT_TRUE(r % 13 == 0 ? numbers.AppendNull(&error) : numbers.Append<int64_t>(static_cast<int64_t>(rng()), &error));
    ASSERT_TRUE(r % 17 == 0 ? texts.AppendNull(&error)
                            : texts.AppendString(std::string(rng() % 12, static_cast<char>('a' + r % 26)), &error));
    ASSERT_TRUE(dense.Append<double>(static_cast<double>(r) / 3, &error));
  }
  // Lists long enough to be cut on every thread count, one with kNoRow (a padded outer side).
  std::vector<uint32_t> long_rows(400'000), padded(300'000), empty;
  for (uint32_t& r : long_rows) r = static_cast<uint32_t>(rng() % kSourceRows);
  for (size_t i = 0; i < padded.size(); ++i) padded[i] = i % 9 == 4 ? kNoRow : static_cast<uint32_t>(rng() % kSourceRows);
  const std::vector<std::vector<GatherJob>> job_sets = {
      {GatherJob{&texts, &long_rows}},
      {GatherJob{&numbers, &padded}, GatherJob{&texts, &padded}, GatherJob{&dense, &long_rows}},
      {GatherJob{&numbers, &empty}, GatherJob{&texts, &empty}},
  };
  for (int threads : {1, 2, 5}) {
    ThreadPool pool(threads);
    ExecContext ctx;
    ctx.pool = &pool;
    ctx.threads = threads;
    for (size_t s = 0; s < job_sets.size(); ++s) {
      std::vector<Column> outs;
      ASSERT_TRUE(GatherColumnsOnThreads(ctx, job_sets[s], &outs, &error)) << error;
      ASSERT_EQ(outs.size(), job_sets[s].size());
      for (size_t j = 0; j < outs.size(); ++j) {
        Column expected;
        ASSERT_TRUE(GatherRows(*job_sets[s][j].source, *job_sets[s][j].rows, &expected, &error)) << error;
        ExpectSameColumn(expected, outs[j],
                         "set " + std::to_string(s) + " job " + std::to_string(j) + " on " +
                             std::to_string(threads) + " threads");
      }
    }
  }
}

}  // namespace
}  // namespace laneql::exec
