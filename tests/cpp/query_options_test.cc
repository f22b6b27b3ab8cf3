// QueryOptions: per-query thread count, per-query profile, and GROUP BY on small keys through
// the hash table instead of the lookup table (what the web demo compares). Each changes how a
// query runs, never what it answers.
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"
#include "src/exec/grouping.h"

namespace laneql {
namespace {

// Small keys of every direct type with NULLs and a wide key, 100,000 rows in random order.
std::shared_ptr<const Table> SmallKeys() {
  std::mt19937_64 rng(11);
  Column i8(TypeId::kInt8), i16(TypeId::kInt16), u8(TypeId::kUInt8), b(TypeId::kBool),
      v(TypeId::kInt64);
  std::string error;
  for (int i = 0; i < 100'000; ++i) {
    const uint64_t r = rng();
    EXPECT_TRUE(r % 50 == 0 ? i8.AppendNull(&error)
                            : i8.Append<int8_t>(static_cast<int8_t>(r % 256 - 128), &error));
    EXPECT_TRUE(i16.Append<int16_t>(static_cast<int16_t>((r >> 8) % 65536 - 32768), &error));
    EXPECT_TRUE(u8.Append<uint8_t>(static_cast<uint8_t>((r >> 24) % 7), &error));
    EXPECT_TRUE(r % 31 == 0 ? b.AppendNull(&error) : b.Append<bool>(((r >> 32) & 1) != 0, &error));
    EXPECT_TRUE(v.Append<int64_t>(static_cast<int64_t>(r >> 40), &error));
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("i8", std::move(i8), &error)) << error;
  EXPECT_TRUE(table->AddColumn("i16", std::move(i16), &error)) << error;
  EXPECT_TRUE(table->AddColumn("u8", std::move(u8), &error)) << error;
  EXPECT_TRUE(table->AddColumn("b", std::move(b), &error)) << error;
  EXPECT_TRUE(table->AddColumn("v", std::move(v), &error)) << error;
  return table;
}

DatabaseOptions Threads(int threads) {
  DatabaseOptions options;
  options.threads = threads;
  options.min_parallel_rows = 0;  // the parallel paths, too
  return options;
}

std::string Csv(const Result& result) {
  EXPECT_TRUE(result.ok()) << result.error();
  return PrintCsv(result);
}

TEST(QueryOptionsTest, GrouperTakesTheHashTableWhenTheLookupTableIsOff) {
  std::string error;
  for (TypeId type : {TypeId::kInt8, TypeId::kUInt16, TypeId::kBool}) {
    for (bool nullable : {false, true}) {
      exec::Grouper lookup, hashed;
      ASSERT_TRUE(lookup.Init({type}, {nullable}, /*lookup_table=*/true, &error)) << error;
      ASSERT_TRUE(hashed.Init({type}, {nullable}, /*lookup_table=*/false, &error)) << error;
      EXPECT_EQ(lookup.strategy(), exec::Grouper::Strategy::kDirect);
      EXPECT_EQ(hashed.strategy(), nullable ? exec::Grouper::Strategy::kWide
                                            : exec::Grouper::Strategy::kPacked);
    }
  }
  // Keys the lookup table never takes are unaffected.
  exec::Grouper wide;
  ASSERT_TRUE(wide.Init({TypeId::kInt64}, {false}, /*lookup_table=*/true, &error)) << error;
  EXPECT_EQ(wide.strategy(), exec::Grouper::Strategy::kPacked);
}

TEST(QueryOptionsTest, SmallKeysGiveTheSameAnswerThroughTheHashTable) {
  const auto table = SmallKeys();
  const char* queries[] = {
      "SELECT i8, count(*), sum(v), min(v) FROM t GROUP BY i8 ORDER BY i8",
      "SELECT i16, count(*) FROM t GROUP BY i16 ORDER BY 2 DESC, 1 LIMIT 20",
      "SELECT u8, count(*), avg(v) FROM t WHERE v > 1000 GROUP BY u8",  // first-appearance order
      "SELECT b, count(*), count(DISTINCT u8) FROM t GROUP BY b ORDER BY b",
      "SELECT i8, count(*) FROM t GROUP BY i8 LIMIT 5",  // the group cap
  };
  std::string error;
  for (int threads : {1, 3}) {
    Database db(Threads(threads));
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    QueryOptions hashed;
    hashed.small_key_lookup = false;
    for (const char* sql : queries) {
      const std::string expected = Csv(db.Query(sql));
      EXPECT_GT(expected.size(), 20u) << sql;
      EXPECT_EQ(expected, Csv(db.Query(sql, hashed))) << sql << " at " << threads << " threads";
    }
  }
}

TEST(QueryOptionsTest, ThreadsAreClampedToTheDatabaseAndRecordedInTheProfile) {
  const auto table = SmallKeys();
  std::string error;
  Database db(Threads(4));
  ASSERT_TRUE(db.Register("t", table, &error)) << error;
  const int most = db.threads();  // 4, or 1 in a build without threads
  const std::string sql = "SELECT i16, sum(v) FROM t GROUP BY i16 ORDER BY 2 DESC, 1 LIMIT 10";
  const std::string expected = Csv(db.Query(sql));
  const struct {
    int asked, recorded;
  } cases[] = {{1, 1}, {0, most}, {2, std::min(2, most)}, {99, most}};
  for (const auto& c : cases) {
    QueryOptions options;
    options.threads = c.asked;
    options.profile = true;
    EXPECT_EQ(expected, Csv(db.Query(sql, options))) << c.asked << " threads";
    const std::string profile = db.LastProfileJson();
    EXPECT_NE(profile.find("\"threads\": " + std::to_string(c.recorded) + "}"), std::string::npos)
        << c.asked << " threads: " << profile.substr(profile.size() - 200);
    // One thread asked: no span on any worker's track.
    if (c.recorded == 1) {
      EXPECT_EQ(profile.find("\"ph\": \"X\", \"pid\": 1, \"tid\": 1"), std::string::npos);
    }
  }
}

TEST(QueryOptionsTest, ProfileOneQueryOfADatabaseThatDoesNotProfile) {
  const auto table = SmallKeys();
  std::string error;
  Database db(Threads(2));
  ASSERT_TRUE(db.Register("t", table, &error)) << error;
  ASSERT_TRUE(db.Query("SELECT count(*) FROM t WHERE v > 5").ok());
  EXPECT_EQ(db.LastProfileJson(), "");
  QueryOptions profiled;
  profiled.profile = true;
  ASSERT_TRUE(db.Query("SELECT u8, count(*) FROM t GROUP BY u8", profiled).ok());
  const std::string profile = db.LastProfileJson();
  EXPECT_NE(profile.find("\"query\": \"SELECT u8, count(*) FROM t GROUP BY u8\""), std::string::npos)
      << profile;
  EXPECT_NE(profile.find("\"name\": \"scan\""), std::string::npos) << profile;
  // A query that is not profiled leaves the last profile alone.
  ASSERT_TRUE(db.Query("SELECT count(*) FROM t WHERE v > 6").ok());
  EXPECT_EQ(db.LastProfileJson(), profile);
}

// The bytes a filter's spans read: its WHERE columns' widths for every row, as aggregate scans
// count them (the demo's GB/s divides these by the time).
TEST(QueryOptionsTest, FilterSpansCountTheBytesOfTheirColumns) {
  const auto table = SmallKeys();
  std::string error;
  Database db(Threads(2));
  ASSERT_TRUE(db.Register("t", table, &error)) << error;
  QueryOptions profiled;
  profiled.profile = true;
  ASSERT_TRUE(db.Query("SELECT v, i16 FROM t WHERE v > 5 AND i16 < 0 ORDER BY v LIMIT 3", profiled)
                  .ok());
  const std::string profile = db.LastProfileJson();
  uint64_t rows = 0, bytes = 0;
  size_t spans = 0;
  for (size_t at = profile.find("\"name\": \"filter\""); at != std::string::npos;
       at = profile.find("\"name\": \"filter\"", at + 1)) {
    const size_t r = profile.find("\"rows\": ", at), b = profile.find("\"bytes\": ", at);
    ASSERT_NE(r, std::string::npos);
    ASSERT_NE(b, std::string::npos);
    rows += std::stoull(profile.substr(r + 8));
    bytes += std::stoull(profile.substr(b + 9));
    ++spans;
  }
  EXPECT_GT(spans, 0u) << profile;
  EXPECT_EQ(rows, 100'000u);
  EXPECT_EQ(bytes, 100'000u * (8 + 2));  // v BIGINT and i16 SMALLINT
}

}  // namespace
}  // namespace laneql
