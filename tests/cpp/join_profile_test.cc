// A join's counters in the profile (exec/profile.h's build, partitions, filtered, matches; rows and
// probes): a query joins a fact table to a small and to a large build side with profiling on, and
// the counters of its "hash join build" / "hash join probe" (and a semi join's "mark join probe")
// spans must equal counts made by plain loops over the same generated rows.
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"

namespace laneql {
namespace {

constexpr size_t kFactRows = 200000;        // about six probe morsels of 32,768 rows
constexpr int64_t kKeys = 100000;           // fact's keys: 0 .. kKeys - 1, each twice
constexpr int64_t kSmallRows = 500;         // a key filter's build side (at most 2^18 rows)
constexpr int64_t kSmallStride = 200;       // its keys: 0, 200, ..., so 1 fact row in 200 matches
constexpr int64_t kLargeRows = 100000;      // large enough for the partitioned placement

bool FactKeyNull(size_t i) { return i % 97 == 5; }
int64_t FactKey(size_t i) { return static_cast<int64_t>(i) % kKeys; }

std::shared_ptr<const Table> KeyTable(const std::vector<int64_t>& keys, const std::vector<bool>& nulls) {
  auto table = std::make_shared<Table>();
  Column k(TypeId::kInt64);
  std::string error;
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_TRUE(nulls[i] ? k.AppendNull(&error) : k.Append(keys[i], &error)) << error;
  }
  EXPECT_TRUE(table->AddColumn("k", std::move(k), &error)) << error;
  return table;
}

std::unique_ptr<Database> Open() {
  DatabaseOptions options;
  options.threads = 2;
  options.min_parallel_rows = 0;  // the parallel paths, so morsels' counts are added up
  auto db = std::make_unique<Database>(options);
  std::vector<int64_t> fact(kFactRows), small(kSmallRows), large(kLargeRows);
  std::vector<bool> fact_nulls(kFactRows), small_nulls(kSmallRows, false), large_nulls(kLargeRows, false);
  for (size_t i = 0; i < kFactRows; ++i) {
    fact[i] = FactKey(i);
    fact_nulls[i] = FactKeyNull(i);
  }
  for (int64_t r = 0; r < kSmallRows; ++r) small[static_cast<size_t>(r)] = r * kSmallStride;
  for (int64_t r = 0; r < kLargeRows; ++r) large[static_cast<size_t>(r)] = r * 3;  // a third of fact's keys
  std::string error;
  EXPECT_TRUE(db->Register("fact", KeyTable(fact, fact_nulls), &error) &&
              db->Register("small", KeyTable(small, small_nulls), &error) &&
              db->Register("large", KeyTable(large, large_nulls), &error))
      << error;
  return db;
}

// Fact rows whose key is in `keys` (NULL keys never match).
uint64_t Matches(const std::set<int64_t>& keys) {
  uint64_t n = 0;
  for (size_t i = 0; i < kFactRows; ++i) n += !FactKeyNull(i) && keys.count(FactKey(i)) != 0;
  return n;
}

std::set<int64_t> Multiples(int64_t stride, int64_t count) {
  std::set<int64_t> keys;
  for (int64_t r = 0; r < count; ++r) keys.insert(r * stride);
  return keys;
}

// The args of every span named `name` in a trace (one event per line), as name -> value.
struct SpanArgs {
  uint64_t Get(const std::string& key) const {
    const std::string quoted = "\"" + key + "\": ";
    const size_t at = line.find(quoted, line.find("\"args\""));
    return at == std::string::npos ? 0 : std::stoull(line.substr(at + quoted.size()));
  }
  bool Has(const std::string& key) const { return line.find("\"" + key + "\": ", line.find("\"args\"")) != std::string::npos; }
  std::string line;
};

std::vector<SpanArgs> Spans(const std::string& json, const std::string& name) {
  std::vector<SpanArgs> spans;
  const std::string quoted = "{\"name\": \"" + name + "\", ";
  for (size_t at = json.find(quoted); at != std::string::npos; at = json.find(quoted, at + 1)) {
    spans.push_back({json.substr(at, json.find('\n', at) - at)});
  }
  return spans;
}

uint64_t CountOf(const Result& r) {
  EXPECT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.num_rows(), 1u);
  return r.ok() && r.num_rows() == 1 ? static_cast<uint64_t>(r.column(0).Values<int64_t>()[0]) : 0;
}

TEST(ProfileJoinCountersTest, SmallBuildSideFiltersMostProbeRows) {
  std::unique_ptr<Database> db = Open();
  QueryOptions profiled;
  profiled.profile = true;
  const uint64_t expected = Matches(Multiples(kSmallStride, kSmallRows));
  ASSERT_GT(expected, 0u);
  EXPECT_EQ(CountOf(db->Query("SELECT count(*) FROM fact JOIN small ON fact.k = small.k", profiled)), expected);
  const std::string json = db->LastProfileJson();
  const std::vector<SpanArgs> builds = Spans(json, "hash join build");
  const std::vector<SpanArgs> probes = Spans(json, "hash join probe");
  ASSERT_EQ(builds.size(), 1u) << json;
  ASSERT_EQ(probes.size(), 1u) << json;
  EXPECT_EQ(builds[0].Get("rows"), static_cast<uint64_t>(kSmallRows)) << builds[0].line;
  EXPECT_EQ(builds[0].Get("partitions"), 1u) << builds[0].line;
  const SpanArgs& probe = probes[0];
  EXPECT_EQ(probe.Get("rows"), kFactRows) << probe.line;
  EXPECT_EQ(probe.Get("build"), static_cast<uint64_t>(kSmallRows)) << probe.line;
  EXPECT_EQ(probe.Get("partitions"), 1u) << probe.line;
  EXPECT_EQ(probe.Get("matches"), expected) << probe.line;
  // The filter drops most of the 199 in 200 non-matching rows; NULL keys are not its doing, and
  // every row it passes reads the table.
  uint64_t null_keys = 0;
  for (size_t i = 0; i < kFactRows; ++i) null_keys += FactKeyNull(i);
  EXPECT_GT(probe.Get("filtered"), (kFactRows - null_keys - expected) / 2) << probe.line;
  EXPECT_LE(probe.Get("filtered"), kFactRows - null_keys - expected) << probe.line;
  EXPECT_EQ(probe.Get("filtered") + probe.Get("probes"), kFactRows - null_keys) << probe.line;

  // Without profiling: the same answer, and the last profile is left as it was.
  EXPECT_EQ(CountOf(db->Query("SELECT count(*) FROM fact JOIN small ON fact.k = small.k")), expected);
  EXPECT_EQ(db->LastProfileJson(), json);
}

TEST(ProfileJoinCountersTest, LargeBuildSideIsPartitionedAndEachJoinOfAChainHasItsSpan) {
  std::unique_ptr<Database> db = Open();
  QueryOptions profiled;
  profiled.profile = true;
  const uint64_t expected_large = Matches(Multiples(3, kLargeRows));
  std::set<int64_t> both;
  for (int64_t k : Multiples(kSmallStride, kSmallRows)) {
    if (k % 3 == 0) both.insert(k);
  }
  const uint64_t expected_both = Matches(both);
  EXPECT_EQ(CountOf(db->Query("SELECT count(*) FROM fact JOIN large ON fact.k = large.k", profiled)),
            expected_large);
  std::vector<SpanArgs> probes = Spans(db->LastProfileJson(), "hash join probe");
  ASSERT_EQ(probes.size(), 1u) << db->LastProfileJson();
  EXPECT_EQ(probes[0].Get("build"), static_cast<uint64_t>(kLargeRows)) << probes[0].line;
  EXPECT_GT(probes[0].Get("partitions"), 1u) << probes[0].line;
  EXPECT_EQ(probes[0].Get("rows"), kFactRows) << probes[0].line;
  EXPECT_EQ(probes[0].Get("matches"), expected_large) << probes[0].line;

  // Two joins: whichever order the planner picks (it may join small to large through fact's
  // key), each side of each join is a table or the other join's output, and the join that runs
  // last (its span is written last) matches the answer's rows.
  EXPECT_EQ(CountOf(db->Query("SELECT count(*) FROM fact JOIN large ON fact.k = large.k "
                              "JOIN small ON fact.k = small.k",
                              profiled)),
            expected_both);
  probes = Spans(db->LastProfileJson(), "hash join probe");
  ASSERT_EQ(probes.size(), 2u) << db->LastProfileJson();
  const std::set<uint64_t> tables = {kFactRows, static_cast<uint64_t>(kLargeRows), static_cast<uint64_t>(kSmallRows)};
  for (size_t j = 0; j < probes.size(); ++j) {
    const SpanArgs& probe = probes[j];
    const uint64_t other = probes[1 - j].Get("matches");
    // (rows the min/max runtime filters left unread are counted apart: fact's keys are in
    // order, and small's span a fifth of them)
    EXPECT_TRUE(tables.count(probe.Get("rows") + probe.Get("skipped")) != 0 || probe.Get("rows") == other)
        << probe.line;
    EXPECT_TRUE(tables.count(probe.Get("build")) != 0 || probe.Get("build") == other) << probe.line;
    EXPECT_LE(probe.Get("filtered") + probe.Get("probes"), probe.Get("rows")) << probe.line;
  }
  EXPECT_EQ(probes[1].Get("matches"), expected_both) << probes[1].line;
}

TEST(ProfileJoinCountersTest, SemiJoinCountsItsMatchedRows) {
  std::unique_ptr<Database> db = Open();
  QueryOptions profiled;
  profiled.profile = true;
  const uint64_t expected = Matches(Multiples(kSmallStride, kSmallRows));
  EXPECT_EQ(CountOf(db->Query("SELECT count(*) FROM fact WHERE k IN (SELECT k FROM small)", profiled)), expected);
  const std::vector<SpanArgs> probes = Spans(db->LastProfileJson(), "mark join probe");
  ASSERT_EQ(probes.size(), 1u) << db->LastProfileJson();
  EXPECT_EQ(probes[0].Get("rows"), kFactRows) << probes[0].line;
  EXPECT_EQ(probes[0].Get("build"), static_cast<uint64_t>(kSmallRows)) << probes[0].line;
  EXPECT_EQ(probes[0].Get("matches"), expected) << probes[0].line;
  EXPECT_GT(probes[0].Get("filtered"), 0u) << probes[0].line;
}

TEST(ProfileJoinCountersTest, OtherSpansKeepTheirThreeArgs) {
  std::unique_ptr<Database> db = Open();
  QueryOptions profiled;
  profiled.profile = true;
  ASSERT_TRUE(db->Query("SELECT k % 7, count(*) FROM fact GROUP BY 1", profiled).ok());
  const std::string json = db->LastProfileJson();
  for (const std::string key : {"build", "partitions", "filtered", "matches"}) {
    EXPECT_EQ(json.find("\"" + key + "\": "), std::string::npos) << key << ": " << json;
  }
}

}  // namespace
}  // namespace laneql
