// TopGroupsByCount against its reference (a full sort of every group): parts, counts stored
// for only some of a part's groups, ties decided by a tiebreak or by group id, ascending and
// descending, on 1, 2 and 3 threads.
#include "src/exec/top_groups.h"

#include <algorithm>
#include <cstdint>
#include <atomic>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "src/common/query_budget.h"
#include "src/exec/thread_pool.h"

namespace laneql {
namespace exec {
namespace {

// Groups in parts of the given sizes; each part stores counts for `stored_share` of its groups
// (the rest count 0), drawn from [0, max_count] so that ties are plentiful.
struct Groups {
  std::vector<std::vector<int64_t>> arrays;
  CountParts parts;
};

Groups MakeGroups(const std::vector<size_t>& sizes, double stored_share, int64_t max_count,
                  std::mt19937_64* rng) {
  Groups g;
  std::uniform_int_distribution<int64_t> count(0, max_count);
  for (size_t size : sizes) {
    const size_t stored = static_cast<size_t>(static_cast<double>(size) * stored_share);
    g.arrays.emplace_back(stored);
    for (int64_t& c : g.arrays.back()) c = count(*rng);
  }
  for (size_t p = 0; p < sizes.size(); ++p) {
    g.parts.data.push_back(g.arrays[p].empty() ? nullptr : g.arrays[p].data());
    g.parts.stored.push_back(g.arrays[p].size());
    g.parts.begin.push_back(g.parts.begin.back() + sizes[p]);
  }
  return g;
}

// First rows that rise within each part (an owned scan's), and rows in random order.
std::vector<uint64_t> RisingWithinParts(const CountParts& parts, std::mt19937_64* rng) {
  std::vector<uint64_t> rows(parts.groups());
  std::iota(rows.begin(), rows.end(), uint64_t{0});
  std::shuffle(rows.begin(), rows.end(), *rng);
  for (size_t p = 0; p + 1 < parts.begin.size(); ++p) {
    std::sort(rows.begin() + static_cast<std::ptrdiff_t>(parts.begin[p]),
              rows.begin() + static_cast<std::ptrdiff_t>(parts.begin[p + 1]));
  }
  return rows;
}

std::vector<uint64_t> Shuffled(size_t n, std::mt19937_64* rng) {
  std::vector<uint64_t> rows(n);
  std::iota(rows.begin(), rows.end(), uint64_t{100});
  std::shuffle(rows.begin(), rows.end(), *rng);
  return rows;
}

// TopGroupsByCount on 1, 2 and 3 threads and without a context, against `order` (the
// reference's full order of every group) cut to `keep`.
void ExpectTop(const CountParts& parts, bool descending, size_t keep, const uint64_t* tiebreak,
               bool ordered_parts, const std::vector<uint32_t>& order, const std::string& what) {
  const std::vector<uint32_t> expected(order.begin(),
                                       order.begin() + static_cast<std::ptrdiff_t>(std::min(keep, order.size())));
  static ThreadPool pools[] = {ThreadPool{1}, ThreadPool{2}, ThreadPool{3}};
  for (int threads : {1, 2, 3}) {
    ExecContext ctx;
    ctx.pool = &pools[threads - 1];
    ctx.threads = threads;
    EXPECT_EQ(TopGroupsByCount(parts, descending, keep, tiebreak, ordered_parts, &ctx), expected)
        << what << ", " << threads << " threads";
  }
  EXPECT_EQ(TopGroupsByCount(parts, descending, keep, tiebreak, ordered_parts, nullptr), expected)
      << what << ", no context";
}

TEST(TopGroupsTest, MatchesTheReferenceOverPartsAndTies) {
  std::mt19937_64 rng(20261125);
  // Past kParallelTopGroupsMin groups in all, so that the threads take slices, which cross parts.
  const std::vector<std::vector<size_t>> layouts = {
      {1}, {5}, {70000}, {40000, 40000}, {30001, 3, 39999}, {0, 70000, 0}};
  for (const auto& sizes : layouts) {
    for (double stored_share : {1.0, 0.6, 0.0}) {
      for (int64_t max_count : {int64_t{1}, int64_t{3}, int64_t{1} << 40}) {
        const Groups g = MakeGroups(sizes, stored_share, max_count, &rng);
        const size_t groups = g.parts.groups();
        const std::vector<uint64_t> rising = RisingWithinParts(g.parts, &rng);
        const std::vector<uint64_t> shuffled = Shuffled(groups, &rng);
        struct Ties {
          const uint64_t* tiebreak;
          bool ordered_parts;
          const char* name;
        };
        const Ties ties[] = {{nullptr, false, "by group id"},
                             {rising.data(), true, "first rows rising within parts"},
                             {shuffled.data(), false, "first rows in any order"}};
        for (const Ties& t : ties) {
          for (bool descending : {true, false}) {
            const std::vector<uint32_t> order =
                TopGroupsByCountReference(g.parts, descending, groups, t.tiebreak);
            ASSERT_EQ(order.size(), groups);
            // More than every group only for the small layouts: a full sort, the costly case.
            for (size_t keep : {size_t{0}, size_t{1}, size_t{10}, size_t{1000},
                                groups < 100 ? groups + 1 : 0}) {
              ExpectTop(g.parts, descending, keep, t.tiebreak, t.ordered_parts, order,
                        std::to_string(sizes.size()) + " parts, " + std::to_string(groups) +
                            " groups, stored " + std::to_string(stored_share) + ", counts to " +
                            std::to_string(max_count) + ", keep " + std::to_string(keep) +
                            (descending ? " desc, " : " asc, ") + t.name);
            }
          }
        }
      }
    }
  }
}

TEST(TopGroupsTest, ExtremeCountsAndEveryGroupTied) {
  // The largest and smallest counts, and a run of equal counts where only the tiebreak decides.
  std::vector<int64_t> counts = {INT64_MAX, 0, INT64_MIN, 7, 7, 7, INT64_MAX, -1};
  counts.resize(100000, 7);
  CountParts parts;
  parts.data = {counts.data(), counts.data() + 50000};
  parts.stored = {50000, 50000};
  parts.begin = {0, 50000, 100000};
  std::vector<uint64_t> rows(100000);
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = i < 50000 ? 2 * i + 1 : 2 * (i - 50000);
  for (bool descending : {true, false}) {
    ExpectTop(parts, descending, 5, nullptr, true,
              TopGroupsByCountReference(parts, descending, 100000, nullptr), "extremes, by group id");
    ExpectTop(parts, descending, 5, rows.data(), true,
              TopGroupsByCountReference(parts, descending, 100000, rows.data()),
              "extremes, interleaved first rows");
  }
  const std::vector<uint32_t> top = TopGroupsByCountReference(parts, true, 4, rows.data());
  // INT64_MAX twice (groups 0 and 6, rows 1 and 13), then the 7s with the smallest first rows:
  // groups 50000 (row 0) and 50001 (row 2).
  EXPECT_EQ(top, (std::vector<uint32_t>{0, 6, 50000, 50001}));
}

// Inside a query, the heaps are charged to its memory limit and given back after, and an
// interrupted query stops in the scan of the counts.
TEST(TopGroupsTest, ChargesItsHeapsAndStopsWhenInterrupted) {
  std::vector<int64_t> counts(300000, 1);
  CountParts parts;
  parts.data = {counts.data()};
  parts.stored = {counts.size()};
  parts.begin = {0, counts.size()};
  std::atomic<uint64_t> interrupts{0};
  {
    QueryBudget budget(1 << 20, &interrupts, 0);
    const ScopedQueryBudget scope(&budget);
    EXPECT_EQ(TopGroupsByCount(parts, true, 3, nullptr, true, nullptr),
              (std::vector<uint32_t>{0, 1, 2}));
    EXPECT_EQ(budget.used_bytes(), 0u) << "the heaps were not given back";
    bool refused = false;
    try {
      TopGroupsByCount(parts, true, 60000, nullptr, true, nullptr);  // 3.8 MB of heaps
    } catch (...) {  // not by type: the wasm pthread runtime matches only catch (...)
      refused = true;
    }
    EXPECT_TRUE(refused) << "heaps over the memory limit were not refused";
    EXPECT_EQ(budget.used_bytes(), 0u);
  }
  QueryBudget budget(0, &interrupts, 0);
  const ScopedQueryBudget scope(&budget);
  interrupts.fetch_add(1);
  bool stopped = false;
  try {
    TopGroupsByCount(parts, true, 3, nullptr, true, nullptr);
  } catch (...) {
    stopped = true;
  }
  EXPECT_TRUE(stopped) << "the top did not stop";
  EXPECT_EQ(budget.AbortMessage(), "query interrupted");
}

}  // namespace
}  // namespace exec
}  // namespace laneql
