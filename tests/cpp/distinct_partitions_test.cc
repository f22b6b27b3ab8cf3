// Ungrouped COUNT(DISTINCT) by radix partitions (kernel/src/exec/distinct_partitions.h): the
// partitions' runs against a plain reference, the count against std::unordered_set on several
// threads, and through SQL against the set path for every fixed-width type and edge value.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/bitmask.h"
#include "laneql/database.h"
#include "laneql/hash.h"
#include "laneql/result_printers.h"
#include "profile_spans.h"
#include "src/exec/distinct_partitions.h"
#include "src/exec/thread_pool.h"
#include "test_threads.h"

namespace laneql {
namespace {

using exec::DistinctPartitions;

std::vector<uint64_t> Hashes(const std::vector<uint64_t>& words) {
  std::vector<uint64_t> hashes(words.size());
  HashKeys(words.data(), words.size(), nullptr, hashes.data());
  return hashes;
}

// Every partition's segments, gathered: (partition, word) pairs in run order.
std::vector<std::pair<size_t, uint64_t>> Gathered(const DistinctPartitions& parts) {
  std::vector<std::pair<size_t, uint64_t>> out;
  for (size_t p = 0; p < DistinctPartitions::kPartitions; ++p) {
    size_t n = 0;
    parts.ForEachSegment(p, [&](const uint64_t* words, const uint32_t*, size_t count) {
      EXPECT_GT(count, 0u);  // empty segments are skipped
      for (size_t i = 0; i < count; ++i) out.emplace_back(p, words[i]);
      n += count;
    });
    EXPECT_EQ(n, parts.PartitionSize(p)) << "partition " << p;
  }
  return out;
}

TEST(DistinctPartitions, AppendKeepsTheSelectedWordsEachInItsHashsPartition) {
  std::mt19937_64 rng(7);
  DistinctPartitions parts;
  std::multiset<uint64_t> expected;
  std::string error;
  // Runs of every awkward length (empty, one row, around a 64-row word, a batch, and more than
  // the first chunk holds), each at several selection densities.
  for (size_t n : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{1000}, size_t{16384},
                   size_t{70000}}) {
    for (int density : {0, 3, 50, 100}) {
      std::vector<uint64_t> words(n);
      for (uint64_t& w : words) w = rng() % 4 == 0 ? rng() % 50 : rng();  // repeats and 0 too
      std::vector<uint64_t> selection(BitmaskWords(n) + 1, ~uint64_t{0});  // bits past n set
      for (size_t i = 0; i < n; ++i) {
        if (static_cast<int>(rng() % 100) >= density) selection[i / 64] &= ~(uint64_t{1} << (i % 64));
        else expected.insert(words[i]);
      }
      const std::vector<uint64_t> hashes = Hashes(words);
      ASSERT_TRUE(parts.Append(words.data(), nullptr, hashes.data(), n, selection.data(), &error)) << error;
      ASSERT_EQ(parts.values(), expected.size()) << n << " rows at " << density << " %";
    }
  }
  ASSERT_TRUE(parts.Finish(&error)) << error;
  std::multiset<uint64_t> got;
  for (const auto& [partition, word] : Gathered(parts)) {
    const uint64_t hash = reference::HashWord(word + kHashGamma);
    EXPECT_EQ(partition, DistinctPartitions::PartitionOf(hash)) << word;
    got.insert(word);
  }
  EXPECT_TRUE(got == expected);
}

TEST(DistinctPartitions, AppendKeepsEachValuesGroupBesideIt) {
  std::mt19937_64 rng(5);
  DistinctPartitions parts;
  std::multiset<std::pair<uint64_t, uint32_t>> expected;
  std::string error;
  for (size_t n : {size_t{1}, size_t{64}, size_t{1000}, size_t{16384}, size_t{70000}}) {
    std::vector<uint64_t> words(n);
    std::vector<uint32_t> groups(n);
    for (size_t i = 0; i < n; ++i) {
      words[i] = rng() % 3000;
      groups[i] = static_cast<uint32_t>(rng() % 40);
    }
    std::vector<uint64_t> selection(BitmaskWords(n), 0);
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 3 == 0) continue;
      selection[i / 64] |= uint64_t{1} << (i % 64);
      expected.emplace(words[i], groups[i]);
    }
    const std::vector<uint64_t> hashes = Hashes(words);
    ASSERT_TRUE(parts.Append(words.data(), groups.data(), hashes.data(), n, selection.data(), &error))
        << error;
  }
  ASSERT_TRUE(parts.Finish(&error)) << error;
  std::multiset<std::pair<uint64_t, uint32_t>> got;
  for (size_t p = 0; p < DistinctPartitions::kPartitions; ++p) {
    parts.ForEachSegment(p, [&](const uint64_t* words, const uint32_t* groups, size_t count) {
      ASSERT_NE(groups, nullptr);
      for (size_t i = 0; i < count; ++i) {
        EXPECT_EQ(p, DistinctPartitions::PartitionOf(reference::HashWord(words[i] + kHashGamma)));
        got.emplace(words[i], groups[i]);
      }
    });
  }
  EXPECT_TRUE(got == expected);
}

// Appended a batch at a time, the values are partitioned kStageValues at a time: a partition
// has a segment per 16,384 values, not one per Append (counting visits every segment).
TEST(DistinctPartitions, SmallAppendsMakeFewRuns) {
  for (const bool grouped : {false, true}) {
    DistinctPartitions parts(/*by_group=*/grouped);
    std::mt19937_64 rng(3);
    std::string error;
    std::multiset<uint64_t> expected;
    for (int append = 0; append < 100; ++append) {
      std::vector<uint64_t> words(1000);
      std::vector<uint32_t> groups(words.size());
      for (size_t i = 0; i < words.size(); ++i) {
        words[i] = rng();
        groups[i] = static_cast<uint32_t>(rng() % 5000);
        expected.insert(words[i]);
      }
      const std::vector<uint64_t> hashes = Hashes(words);
      std::vector<uint64_t> selection(BitmaskWords(words.size()), ~uint64_t{0});
      ASSERT_TRUE(parts.Append(words.data(), grouped ? groups.data() : nullptr, hashes.data(), words.size(),
                               selection.data(), &error)) << error;
    }
    EXPECT_FALSE(parts.finished());
    ASSERT_TRUE(parts.Finish(&error)) << error;
    EXPECT_TRUE(parts.finished());
    ASSERT_TRUE(parts.Finish(&error)) << error;  // again: nothing left to do
    const size_t most_runs = (100000 + DistinctPartitions::kStageValues - 1) / DistinctPartitions::kStageValues;
    std::multiset<uint64_t> got;
    for (size_t p = 0; p < DistinctPartitions::kPartitions; ++p) {
      size_t segments = 0;
      parts.ForEachSegment(p, [&](const uint64_t* words, const uint32_t*, size_t count) {
        ++segments;
        got.insert(words, words + count);
      });
      EXPECT_LE(segments, most_runs) << "partition " << p << (grouped ? ", by group" : "");
    }
    EXPECT_EQ(got.size(), expected.size());
    EXPECT_TRUE(got == expected);
  }
}

// The distinct count of several sides' partitions on `threads` threads.
size_t Count(const std::vector<const DistinctPartitions*>& sides, int threads) {
  exec::ThreadPool pool(threads);
  exec::ExecContext ctx;
  ctx.pool = &pool;
  ctx.threads = threads;
  size_t count = 0;
  std::string error;
  EXPECT_TRUE(exec::CountDistinctPartitions(sides, ctx, threads, &count, &error)) << error;
  return count;
}

TEST(DistinctPartitions, CountIsTheUnionsSizeOnEveryThreadCount) {
  std::mt19937_64 rng(11);
  std::unordered_set<uint64_t> all;
  // Three sides whose values overlap (drawn from one pool), 0 among them.
  std::vector<DistinctPartitions> sides(3);
  std::string error;
  for (DistinctPartitions& side : sides) {
    for (int run = 0; run < 20; ++run) {
      std::vector<uint64_t> words(5000);
      for (uint64_t& w : words) w = rng() % 60000;
      for (uint64_t w : words) all.insert(w);
      const std::vector<uint64_t> hashes = Hashes(words);
      std::vector<uint64_t> selection(BitmaskWords(words.size()), ~uint64_t{0});
      ASSERT_TRUE(side.Append(words.data(), nullptr, hashes.data(), words.size(), selection.data(), &error));
    }
    ASSERT_TRUE(side.Finish(&error)) << error;
  }
  ASSERT_TRUE(all.count(0) == 1);
  const std::vector<const DistinctPartitions*> views = {&sides[0], &sides[1], &sides[2]};
  for (int threads : {1, 2, 3, 8}) EXPECT_EQ(Count(views, threads), all.size()) << threads;
  EXPECT_EQ(Count({}, 2), 0u);  // no side at all
  DistinctPartitions empty;
  EXPECT_EQ(Count({&empty}, 1), 0u);
}

// Per merged group, the distinct values of several sides' (group, value) pairs.
std::vector<int64_t> CountPairs(const std::vector<const DistinctPartitions*>& sides,
                                const std::vector<std::vector<uint32_t>>& targets, size_t groups,
                                int threads) {
  exec::ThreadPool pool(threads);
  exec::ExecContext ctx;
  ctx.pool = &pool;
  ctx.threads = threads;
  std::vector<const uint32_t*> views;
  for (const auto& t : targets) views.push_back(t.data());
  std::vector<int64_t> counts(groups, 0);
  std::string error;
  EXPECT_TRUE(exec::CountDistinctPairPartitions(sides, views, groups, ctx, threads, counts.data(), &error))
      << error;
  return counts;
}

TEST(DistinctPartitions, PairCountsPerMergedGroupOnEveryThreadCount) {
  // Three sides, each with its own group numbering: 50 local groups mapped onto 30 merged ones
  // (several local groups of one side may not share a merged one, as after a real merge: the
  // mapping is a permutation of part of the merged ids).
  std::mt19937_64 rng(13);
  const size_t merged_groups = 60;
  std::vector<DistinctPartitions> sides(3);
  std::vector<std::vector<uint32_t>> targets(3);
  std::set<std::pair<uint32_t, uint64_t>> pairs;
  std::string error;
  for (size_t w = 0; w < sides.size(); ++w) {
    std::vector<uint32_t> ids(merged_groups);
    for (size_t g = 0; g < merged_groups; ++g) ids[g] = static_cast<uint32_t>(g);
    std::shuffle(ids.begin(), ids.end(), rng);
    targets[w].assign(ids.begin(), ids.begin() + 50);
    for (int run = 0; run < 10; ++run) {
      std::vector<uint64_t> words(3000);
      std::vector<uint32_t> groups(words.size());
      for (size_t i = 0; i < words.size(); ++i) {
        words[i] = rng() % 5 == 0 ? 0 : rng() % 4000;  // the word 0 is an ordinary value here
        groups[i] = static_cast<uint32_t>(rng() % 50);
        pairs.emplace(targets[w][groups[i]], words[i]);
      }
      const std::vector<uint64_t> hashes = Hashes(words);
      std::vector<uint64_t> selection(BitmaskWords(words.size()), ~uint64_t{0});
      ASSERT_TRUE(sides[w].Append(words.data(), groups.data(), hashes.data(), words.size(), selection.data(),
                                  &error));
    }
    ASSERT_TRUE(sides[w].Finish(&error)) << error;
  }
  std::vector<int64_t> expected(merged_groups, 0);
  for (const auto& pair : pairs) ++expected[pair.first];
  const std::vector<const DistinctPartitions*> views = {&sides[0], &sides[1], &sides[2]};
  for (int threads : {1, 2, 3, 8}) {
    EXPECT_EQ(CountPairs(views, targets, merged_groups, threads), expected) << threads;
  }
}

TEST(DistinctPartitions, ByGroupEachPairIsInItsGroupsPartition) {
  std::mt19937_64 rng(17);
  DistinctPartitions parts(/*by_group=*/true);
  ASSERT_TRUE(parts.by_group());
  std::multiset<std::pair<uint64_t, uint32_t>> expected;
  std::string error;
  for (size_t n : {size_t{0}, size_t{1}, size_t{65}, size_t{16384}, size_t{70000}}) {
    std::vector<uint64_t> words(n);
    std::vector<uint32_t> groups(n);
    for (size_t i = 0; i < n; ++i) {
      words[i] = rng() % 3000;
      groups[i] = static_cast<uint32_t>(rng() % 5000);
    }
    std::vector<uint64_t> selection(BitmaskWords(n), 0);
    for (size_t i = 0; i < n; ++i) {
      if (rng() % 4 == 0) continue;
      selection[i / 64] |= uint64_t{1} << (i % 64);
      expected.emplace(words[i], groups[i]);
    }
    // No hashes: by group the values are hashed only when counted.
    ASSERT_TRUE(parts.Append(words.data(), groups.data(), nullptr, n, selection.data(), &error)) << error;
  }
  ASSERT_TRUE(parts.Finish(&error)) << error;
  std::multiset<std::pair<uint64_t, uint32_t>> got;
  for (size_t p = 0; p < DistinctPartitions::kPartitions; ++p) {
    parts.ForEachSegment(p, [&](const uint64_t* words, const uint32_t* groups, size_t count) {
      ASSERT_NE(groups, nullptr);
      for (size_t i = 0; i < count; ++i) {
        EXPECT_EQ(p, groups[i] % 256);
        got.emplace(words[i], groups[i]);
      }
    });
  }
  EXPECT_EQ(got.size(), parts.values());
  EXPECT_TRUE(got == expected);
}

// A side still holding staged values is refused by every count, not counted without them.
TEST(DistinctPartitions, CountsRefuseSidesNotFinished) {
  const std::vector<uint64_t> words = {5, 6, 7};
  const std::vector<uint32_t> groups = {0, 1, 0};
  const std::vector<uint64_t> hashes = Hashes(words);
  const std::vector<uint64_t> selection = {~uint64_t{0}};
  std::string error;
  DistinctPartitions values, pairs, by_group(/*by_group=*/true);
  ASSERT_TRUE(values.Append(words.data(), nullptr, hashes.data(), 3, selection.data(), &error));
  ASSERT_TRUE(pairs.Append(words.data(), groups.data(), hashes.data(), 3, selection.data(), &error));
  ASSERT_TRUE(by_group.Append(words.data(), groups.data(), nullptr, 3, selection.data(), &error));
  exec::ThreadPool pool(2);
  exec::ExecContext ctx;
  ctx.pool = &pool;
  ctx.threads = 2;
  size_t count = 0;
  EXPECT_FALSE(exec::CountDistinctPartitions({&values}, ctx, 2, &count, &error));
  EXPECT_NE(error.find("staged"), std::string::npos) << error;
  error.clear();
  std::vector<int64_t> counts(2, 0);
  const std::vector<uint32_t> target = {0, 1};
  EXPECT_FALSE(exec::CountDistinctPairPartitions({&pairs}, {target.data()}, 2, ctx, 2, counts.data(), &error));
  EXPECT_NE(error.find("staged"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(exec::CountDistinctPairsByGroup({&by_group}, {2}, ctx, 2, counts.data(), &error));
  EXPECT_NE(error.find("staged"), std::string::npos) << error;
  EXPECT_EQ(counts, std::vector<int64_t>(2, 0));
  // Finished, the same sides count.
  for (DistinctPartitions* side : {&values, &pairs, &by_group}) ASSERT_TRUE(side->Finish(&error)) << error;
  EXPECT_TRUE(exec::CountDistinctPartitions({&values}, ctx, 2, &count, &error)) << error;
  EXPECT_EQ(count, 3u);
  EXPECT_TRUE(exec::CountDistinctPairsByGroup({&by_group}, {2}, ctx, 2, counts.data(), &error)) << error;
  EXPECT_EQ(counts, (std::vector<int64_t>{2, 1}));
}

// Per merged group, the distinct values of sides partitioned by group: side w's groups follow
// those of the sides before it.
std::vector<int64_t> CountPairsByGroup(const std::vector<const DistinctPartitions*>& sides,
                                       const std::vector<size_t>& side_groups, int threads) {
  exec::ThreadPool pool(threads);
  exec::ExecContext ctx;
  ctx.pool = &pool;
  ctx.threads = threads;
  size_t groups = 0;
  for (size_t n : side_groups) groups += n;
  std::vector<int64_t> counts(groups, 0);
  std::string error;
  EXPECT_TRUE(exec::CountDistinctPairsByGroup(sides, side_groups, ctx, threads, counts.data(), &error))
      << error;
  return counts;
}

TEST(DistinctPartitions, PairCountsByGroupOnEveryThreadCount) {
  // Sides of every awkward size around the 256 partitions (none, one group, a partition's
  // worth and one either side, several rows of the count table), their groups disjoint as an
  // owned scan's; values repeat within and across groups, the word 0 among them.
  std::mt19937_64 rng(19);
  const std::vector<size_t> side_groups = {0, 1, 255, 256, 257, 3000};
  std::vector<DistinctPartitions> sides;
  for (size_t w = 0; w < side_groups.size(); ++w) sides.emplace_back(/*by_group=*/true);
  std::set<std::pair<size_t, uint64_t>> pairs;
  std::string error;
  size_t first = 0;
  for (size_t w = 0; w < sides.size(); ++w) {
    for (int run = 0; run < 6 && side_groups[w] > 0; ++run) {
      std::vector<uint64_t> words(4000);
      std::vector<uint32_t> groups(words.size());
      for (size_t i = 0; i < words.size(); ++i) {
        words[i] = rng() % 7 == 0 ? 0 : (rng() % 3 == 0 ? rng() : rng() % 500);
        groups[i] = static_cast<uint32_t>(rng() % side_groups[w]);
      }
      std::vector<uint64_t> selection(BitmaskWords(words.size()), 0);
      for (size_t i = 0; i < words.size(); ++i) {
        if (rng() % 5 == 0) continue;
        selection[i / 64] |= uint64_t{1} << (i % 64);
        pairs.emplace(first + groups[i], words[i]);
      }
      ASSERT_TRUE(sides[w].Append(words.data(), groups.data(), nullptr, words.size(), selection.data(), &error));
    }
    ASSERT_TRUE(sides[w].Finish(&error)) << error;
    first += side_groups[w];
  }
  std::vector<int64_t> expected(first, 0);
  for (const auto& pair : pairs) ++expected[pair.first];
  std::vector<const DistinctPartitions*> views;
  for (const DistinctPartitions& side : sides) views.push_back(&side);
  for (int threads : {1, 2, 3, 8}) EXPECT_EQ(CountPairsByGroup(views, side_groups, threads), expected) << threads;
  // One side alone (one thread's), and nothing at all.
  std::vector<int64_t> last(expected.end() - 3000, expected.end());
  EXPECT_EQ(CountPairsByGroup({&sides.back()}, {3000}, 2), last);
  EXPECT_TRUE(CountPairsByGroup({}, {}, 2).empty());
}

TEST(DistinctPartitions, ASetSizedForTheLastPartitionGrows) {
  // On one thread the partitions are counted in order, each set sized as the one before
  // ended: partition 0 holds one value, partition 1 fifty thousand, which must grow it many
  // times over.
  std::mt19937_64 rng(3);
  std::vector<uint64_t> words;
  size_t in_first = 0, in_second = 0;
  while (in_first < 3 || in_second < 50000) {
    const uint64_t w = rng();
    const size_t p = DistinctPartitions::PartitionOf(reference::HashWord(w + kHashGamma));
    if (p == 0 && in_first < 3) {
      words.push_back(words.empty() ? w : words.front());  // one value, three times
      ++in_first;
    } else if (p == 1 && in_second < 50000) {
      words.push_back(w);
      words.push_back(w);  // each twice
      ++in_second;
    }
  }
  DistinctPartitions parts;
  std::string error;
  const std::vector<uint64_t> hashes = Hashes(words);
  std::vector<uint64_t> selection(BitmaskWords(words.size()), ~uint64_t{0});
  ASSERT_TRUE(parts.Append(words.data(), nullptr, hashes.data(), words.size(), selection.data(), &error));
  ASSERT_TRUE(parts.Finish(&error)) << error;
  EXPECT_EQ(parts.PartitionSize(0), 3u);
  EXPECT_EQ(parts.PartitionSize(1), 100000u);
  EXPECT_EQ(Count({&parts}, 1), 50001u);
  // The pair set the same way, the rows in groups 0 and 1 by turns.
  std::vector<uint32_t> groups(words.size());
  std::set<std::pair<uint32_t, uint64_t>> distinct;
  std::vector<int64_t> expected(2, 0);
  for (size_t i = 0; i < words.size(); ++i) {
    groups[i] = static_cast<uint32_t>((i / 3) % 2);
    if (distinct.emplace(groups[i], words[i]).second) ++expected[groups[i]];
  }
  ASSERT_GT(expected[0] + expected[1], 50001);  // values in both groups
  DistinctPartitions pairs;
  ASSERT_TRUE(
      pairs.Append(words.data(), groups.data(), hashes.data(), words.size(), selection.data(), &error));
  ASSERT_TRUE(pairs.Finish(&error)) << error;
  EXPECT_EQ(CountPairs({&pairs}, {{0, 1}}, 2, 1), expected);
}

// A table of every fixed-width type with the values that test a COUNT(DISTINCT)'s equality:
// NULLs, 0, -0.0 against 0.0, NaNs of several payloads, infinities, extremes. The distinct
// non-NULL values of i64 and of f64 (by definition: -0.0 is 0.0, every NaN one value) are
// counted into *i64_count / *f64_count when given.
std::shared_ptr<Table> EdgeTable(size_t rows, size_t* i64_count = nullptr, size_t* f64_count = nullptr) {
  std::set<int64_t> i64_seen;
  std::set<double> f64_seen;  // NaN apart: std::set cannot hold it
  bool nan_seen = false;
  Column i64(TypeId::kInt64), i32(TypeId::kInt32), i16(TypeId::kInt16), i8(TypeId::kInt8);
  Column f64(TypeId::kFloat64), f32(TypeId::kFloat32), b(TypeId::kBool), s(TypeId::kString);
  std::string error;
  const double nan2 = -std::numeric_limits<double>::quiet_NaN();
  const double specials[] = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(), nan2,
                             std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                             std::numeric_limits<double>::max(), std::numeric_limits<double>::denorm_min()};
  for (size_t r = 0; r < rows; ++r) {
    const uint64_t k = r * 2654435761u % 1000003u;
    if (r % 11 == 0) {
      for (Column* c : {&i64, &i32, &i16, &i8, &f64, &f32, &b, &s}) EXPECT_TRUE(c->AppendNull(&error));
      continue;
    }
    const int64_t extreme = r % 2 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
    const int64_t big = r % 13 == 0 ? extreme : static_cast<int64_t>(k) - 500000;
    EXPECT_TRUE(i64.Append<int64_t>(big, &error));
    i64_seen.insert(big);
    EXPECT_TRUE(i32.Append<int32_t>(static_cast<int32_t>(k % 70000) - 35000, &error));
    EXPECT_TRUE(i16.Append<int16_t>(static_cast<int16_t>(k % 65536 - 32768), &error));
    EXPECT_TRUE(i8.Append<int8_t>(static_cast<int8_t>(k % 256 - 128), &error));
    const double d = r % 7 == 0 ? specials[(r / 7) % 8] : static_cast<double>(k) / 8.0;
    EXPECT_TRUE(f64.Append<double>(d, &error));
    if (std::isnan(d)) nan_seen = true;
    else f64_seen.insert(d == 0 ? 0.0 : d);
    EXPECT_TRUE(f32.Append<float>(static_cast<float>(d), &error));
    EXPECT_TRUE(b.Append<bool>(k % 2 == 0, &error));
    EXPECT_TRUE(s.AppendString("s" + std::to_string(k % 999), &error));
  }
  if (i64_count != nullptr) *i64_count = i64_seen.size();
  if (f64_count != nullptr) *f64_count = f64_seen.size() + (nan_seen ? 1 : 0);
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("i64", std::move(i64), &error)) << error;
  EXPECT_TRUE(table->AddColumn("i32", std::move(i32), &error)) << error;
  EXPECT_TRUE(table->AddColumn("i16", std::move(i16), &error)) << error;
  EXPECT_TRUE(table->AddColumn("i8", std::move(i8), &error)) << error;
  EXPECT_TRUE(table->AddColumn("f64", std::move(f64), &error)) << error;
  EXPECT_TRUE(table->AddColumn("f32", std::move(f32), &error)) << error;
  EXPECT_TRUE(table->AddColumn("b", std::move(b), &error)) << error;
  EXPECT_TRUE(table->AddColumn("s", std::move(s), &error)) << error;
  return table;
}

DatabaseOptions Options(int threads, size_t min_values) {
  DatabaseOptions options;
  options.threads = threads;
  options.min_parallel_rows = 0;
  options.profile = true;
  options.partitioned_distinct_min_values = min_values;
  return options;
}

using testing::ExpectSamePathAnswer;
using testing::HasSpan;

TEST(PartitionedDistinct, SqlMatchesTheSetPathForEveryTypeAndEdgeValue) {
  size_t i64_count = 0, f64_count = 0;
  auto table = EdgeTable(100'003, &i64_count, &f64_count);  // six batches and a tail
  auto empty = EdgeTable(0);
  const char* queries[] = {
      "SELECT count(DISTINCT i64), count(DISTINCT i32), count(DISTINCT i16), count(DISTINCT i8) FROM t",
      "SELECT count(DISTINCT f64), count(DISTINCT f32), count(DISTINCT b) FROM t",
      // Beside other aggregates (a string COUNT(DISTINCT) keeps its set), under WHEREs that keep
      // some rows, none, or every row; of expressions and a constant.
      "SELECT count(*), sum(i32), count(DISTINCT i64), count(DISTINCT s), min(f64) FROM t WHERE i8 > 0",
      "SELECT count(DISTINCT i64) FROM t WHERE i32 > 1000000",
      "SELECT count(DISTINCT i64 % 1000), count(DISTINCT i32 * 2), count(DISTINCT 7) FROM t WHERE b",
      "SELECT count(DISTINCT f64 * 0.0) FROM t",  // -0.0 * 0.0, NaN * 0.0 and 0.0 among them
  };
  std::string error;
  Database reference_db(Options(1, SIZE_MAX));
  ASSERT_TRUE(reference_db.Register("t", table, &error)) << error;
  ASSERT_TRUE(reference_db.Register("e", empty, &error)) << error;
  for (int threads : {1, 2, 3}) {
    Database db(Options(threads, 0));
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    ASSERT_TRUE(db.Register("e", empty, &error)) << error;
    // (A WHERE that keeps no row leaves nothing to count, but the step still runs.)
    for (const char* sql : queries) ExpectSamePathAnswer(reference_db, db, sql, "count distinct", threads);
    // An empty table (with min_parallel_rows 0 it once got no thread at all).
    const Result none = db.Query("SELECT count(DISTINCT i64), count(DISTINCT f64) FROM e");
    ASSERT_TRUE(none.ok()) << none.error();
    EXPECT_EQ(PrintCsv(none), "count(DISTINCT i64),count(DISTINCT f64)\n0,0\n");
    const Result no_groups = db.Query("SELECT i8, count(DISTINCT i64) FROM e GROUP BY i8");
    ASSERT_TRUE(no_groups.ok()) << no_groups.error();
    EXPECT_EQ(no_groups.num_rows(), 0u);
    // The answers themselves, from the definition.
    const Result defined = db.Query("SELECT count(DISTINCT i64), count(DISTINCT f64) FROM t");
    ASSERT_TRUE(defined.ok()) << defined.error();
    EXPECT_EQ(defined.column(0).Values<int64_t>()[0], static_cast<int64_t>(i64_count));
    EXPECT_EQ(defined.column(1).Values<int64_t>()[0], static_cast<int64_t>(f64_count));
  }
}

TEST(PartitionedDistinct, GroupedSqlMatchesTheSetPathOnEveryMerge) {
  LANEQL_SKIP_WITHOUT_THREADS();
  auto table = EdgeTable(100'003);
  const char* queries[] = {
      "SELECT i8, count(DISTINCT i64), count(*), sum(i32) FROM t GROUP BY i8 ORDER BY i8",
      "SELECT b, count(DISTINCT f64), count(DISTINCT f32), count(DISTINCT s) FROM t GROUP BY b ORDER BY b",
      // Many groups (the two-level merge below its threshold of 1,000), a WHERE, HAVING and
      // ORDER BY on the count, a key of two columns, a grouped constant.
      "SELECT i32, count(DISTINCT i16) AS u FROM t WHERE i8 > -100 GROUP BY i32 ORDER BY u DESC, i32 LIMIT 20",
      "SELECT i16 % 50 AS k, count(DISTINCT i64 % 977) AS u FROM t GROUP BY k "
      "HAVING count(DISTINCT i64 % 977) > 100 ORDER BY k",
      "SELECT i8, b, count(DISTINCT i32), count(DISTINCT 1) FROM t GROUP BY i8, b ORDER BY i8, b",
      "SELECT i8, count(DISTINCT i64) FROM t WHERE i32 > 1000000 GROUP BY i8",
      // Last: a float sum, added in row order, so on several threads split by keys.
      "SELECT i32 % 1000 AS k, count(DISTINCT i64), sum(f64) FROM t GROUP BY k ORDER BY k",
  };
  std::string error;
  Database reference_db(Options(1, SIZE_MAX));
  ASSERT_TRUE(reference_db.Register("t", table, &error)) << error;
  for (int threads : {1, 2, 3}) {
    for (size_t two_level : {size_t{1000}, size_t{1} << 30}) {
      DatabaseOptions options = Options(threads, 0);
      options.two_level_min_groups = two_level;
      Database db(options);
      ASSERT_TRUE(db.Register("t", table, &error)) << error;
      for (const char* sql : queries) ExpectSamePathAnswer(reference_db, db, sql, "count distinct", threads);
      // The float sum's split by keys ("prepare keys": each thread folds the groups hashing to
      // it) partitions the pairs too, counted under the groups' places after the merge.
      EXPECT_EQ(HasSpan(db.LastProfileJson(), "prepare keys"), threads > 1) << threads;
    }
  }
}

TEST(PartitionedDistinct, ChosenFromASampleOnOneThreadAsOnSeveral) {
  // 40 batches: u nearly unique (the sample expects 655,360 values, over the default 2^16), m
  // 100 values (a small set: no partitions).
  const size_t rows = 40 * 16384;
  Column u(TypeId::kInt64), m(TypeId::kInt32);
  std::unordered_set<int64_t> seen;
  std::string error;
  for (size_t r = 0; r < rows; ++r) {
    const int64_t v = static_cast<int64_t>(r * 2654435761u % 1000000007u);
    seen.insert(v);
    ASSERT_TRUE(u.Append<int64_t>(v, &error));
    ASSERT_TRUE(m.Append<int32_t>(static_cast<int32_t>(r % 100), &error));
  }
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("u", std::move(u), &error)) << error;
  ASSERT_TRUE(table->AddColumn("m", std::move(m), &error)) << error;
  for (int threads : {1, 2}) {
    DatabaseOptions options;
    options.threads = threads;
    options.profile = true;
    Database db(options);
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    Result r = db.Query("SELECT count(DISTINCT u), count(DISTINCT m) FROM t");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(PrintCsv(r), "count(DISTINCT u),count(DISTINCT m)\n" + std::to_string(seen.size()) + ",100\n");
    EXPECT_TRUE(HasSpan(db.LastProfileJson(), "count distinct")) << threads;
    r = db.Query("SELECT count(DISTINCT m) FROM t");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_FALSE(HasSpan(db.LastProfileJson(), "count distinct")) << threads;
    // Grouped by 100 values of m, nearly every (m, u) pair is new: partitioned; (m, m % 7)
    // pairs are 100. GROUP BY ... LIMIT without ORDER BY keeps its first groups: never.
    r = db.Query("SELECT m, count(DISTINCT u) AS n FROM t GROUP BY m ORDER BY m LIMIT 2");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(PrintCsv(r), "m,n\n0,6554\n1,6554\n");
    EXPECT_TRUE(HasSpan(db.LastProfileJson(), "count distinct")) << threads;
    // Behind a WHERE that keeps 12 % of the rows too (7,864 of the sample's 65,536: fewer than
    // an ungrouped sample asks for).
    r = db.Query("SELECT m, count(DISTINCT u) AS n FROM t WHERE m < 12 GROUP BY m ORDER BY m LIMIT 2");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(PrintCsv(r), "m,n\n0,6554\n1,6554\n");
    EXPECT_TRUE(HasSpan(db.LastProfileJson(), "count distinct")) << threads;
    r = db.Query("SELECT m, count(DISTINCT m % 7) AS n FROM t GROUP BY m ORDER BY m LIMIT 2");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(PrintCsv(r), "m,n\n0,1\n1,1\n");
    EXPECT_FALSE(HasSpan(db.LastProfileJson(), "count distinct")) << threads;
    r = db.Query("SELECT m, count(DISTINCT u) AS n FROM t GROUP BY m LIMIT 2");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(r.num_rows(), 2u);
    EXPECT_FALSE(HasSpan(db.LastProfileJson(), "count distinct")) << threads;
    // A split by keys, asked for, keeps the threads' own sets of the values hashing to them.
    options.group_split = DatabaseOptions::GroupSplit::kKeys;
    Database keys(options);
    ASSERT_TRUE(keys.Register("t", table, &error)) << error;
    r = keys.Query("SELECT count(DISTINCT u) FROM t");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(PrintCsv(r), "count(DISTINCT u)\n" + std::to_string(seen.size()) + "\n");
    EXPECT_FALSE(HasSpan(keys.LastProfileJson(), "count distinct")) << threads;
  }
}

// Many groups, each with many values: the pairs are partitioned by group on one thread (from
// the sample) and in an owned scan, where each group's pairs all come from one thread; by value
// where a group's pairs come from every thread or the groups are few. The answers are the set
// path's.
TEST(PartitionedDistinct, PairsOfManyGroupsArePartitionedByGroup) {
  LANEQL_SKIP_WITHOUT_THREADS();
  const size_t rows = 40 * 16384;
  Column k(TypeId::kInt64), u(TypeId::kInt64), m(TypeId::kInt32);
  std::string error;
  for (size_t r = 0; r < rows; ++r) {
    ASSERT_TRUE(k.Append<int64_t>(static_cast<int64_t>(r / 2 * 7919 % 400009), &error));  // 2 rows a group
    ASSERT_TRUE(u.Append<int64_t>(static_cast<int64_t>(r * 2654435761u % 1000000007u % 3), &error));
    ASSERT_TRUE(m.Append<int32_t>(static_cast<int32_t>(r % 100), &error));
  }
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("k", std::move(k), &error)) << error;
  ASSERT_TRUE(table->AddColumn("u", std::move(u), &error)) << error;
  ASSERT_TRUE(table->AddColumn("m", std::move(m), &error)) << error;
  const char* many = "SELECT k, count(DISTINCT u) AS n, count(*) FROM t WHERE m <> 5 GROUP BY k "
                     "ORDER BY n DESC, k LIMIT 50";
  const char* few = "SELECT m, count(DISTINCT u * 1000 + k) AS n FROM t GROUP BY m ORDER BY m";
  DatabaseOptions set_options;
  set_options.threads = 1;
  set_options.partitioned_distinct_min_values = SIZE_MAX;
  Database reference_db(set_options);
  ASSERT_TRUE(reference_db.Register("t", table, &error)) << error;
  for (int threads : {1, 2}) {
    for (auto split : {DatabaseOptions::GroupSplit::kAuto, DatabaseOptions::GroupSplit::kRows}) {
      DatabaseOptions options;
      options.threads = threads;
      options.profile = true;
      options.group_split = split;
      // (Integer keys that repeat would otherwise be aggregated by radix partitions of rows,
      // group_partitions.h, which take no COUNT(DISTINCT) partitions; string keys are not.)
      options.partitioned_group_min_rows = SIZE_MAX;
      Database db(options);
      ASSERT_TRUE(db.Register("t", table, &error)) << error;
      // A split by rows on two threads gives each thread part of every group: by value.
      const bool by_group = threads == 1 || split == DatabaseOptions::GroupSplit::kAuto;
      ExpectSamePathAnswer(reference_db, db, many, "count distinct", threads);
      EXPECT_EQ(HasSpan(db.LastProfileJson(), "distinct counts by group"), by_group) << threads;
      ExpectSamePathAnswer(reference_db, db, few, "count distinct", threads);
      EXPECT_FALSE(HasSpan(db.LastProfileJson(), "distinct counts by group")) << threads;
    }
  }
}

TEST(PartitionedDistinct, TheMemoryLimitStopsItWithAnErrorAndTheDatabaseStaysUsable) {
  auto table = EdgeTable(300'000);
  for (int threads : {1, 2}) {
    DatabaseOptions options = Options(threads, 0);
    options.memory_limit_bytes = 1 << 20;
    Database db(options);
    std::string error;
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    const Result r = db.Query("SELECT count(DISTINCT i64) FROM t");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error(), "out of memory: the query needs more than the memory limit of 1 MiB (while growing a "
                         "COUNT(DISTINCT) set)");
    // Grouped: whichever of the groups' table, the pairs' partitions or the counts crosses
    // the limit first.
    const Result grouped = db.Query("SELECT i32, count(DISTINCT i64) FROM t GROUP BY i32");
    ASSERT_FALSE(grouped.ok());
    EXPECT_EQ(grouped.error().rfind("out of memory: the query needs more than the memory limit of 1 MiB (while ", 0),
              0u)
        << grouped.error();
    const Result small = db.Query("SELECT count(*), count(i8) FROM t WHERE i8 IS NULL");
    ASSERT_TRUE(small.ok()) << small.error();
    EXPECT_EQ(PrintCsv(small), "count_star(),count(i8)\n27273,0\n");
  }
}

}  // namespace
}  // namespace laneql
