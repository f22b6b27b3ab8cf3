// Database::Interrupt (the CLI's Ctrl-C) and Database::SetTableProvider (the CLI's `hits`
// generated on first use). The interrupt is raised from inside the table provider, which runs
// after the query has started and before it executes: deterministic, and on one thread, so the
// test also runs in wasm builds without threads.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"

namespace laneql {
namespace {

std::shared_ptr<const Table> Numbers(size_t rows) {
  std::vector<int64_t> values(rows);
  for (size_t i = 0; i < rows; ++i) values[i] = static_cast<int64_t>(i % 1000);
  Column column;
  std::string error;
  EXPECT_TRUE(Column::FromFixed(TypeId::kInt64, values.data(), rows, nullptr, &column, &error)) << error;
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("n", std::move(column), &error)) << error;
  return table;
}

DatabaseOptions Threads(int threads) {
  DatabaseOptions options;
  options.threads = threads;
  options.min_parallel_rows = 0;  // the parallel paths, too
  return options;
}

TEST(DatabaseProviderTest, AsksOnlyForNamesNotRegistered) {
  Database db;
  std::string error;
  ASSERT_TRUE(db.Register("registered", Numbers(10), &error)) << error;
  std::vector<std::string> asked;
  db.SetTableProvider([&](std::string_view name) -> std::shared_ptr<const Table> {
    asked.emplace_back(name);
    return name == "made" ? Numbers(25) : nullptr;
  });
  Result r = db.Query("SELECT count(*) FROM registered");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_TRUE(asked.empty());
  r = db.Query("SELECT count(*), sum(n) FROM made");
  ASSERT_TRUE(r.ok()) << r.error();
  EXPECT_EQ(r.column(0).Values<int64_t>()[0], 25);
  EXPECT_EQ(asked, std::vector<std::string>{"made"});
  // Nothing provided: the usual unknown-table error, at the name.
  r = db.Query("SELECT 1 FROM nowhere");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().find("nowhere"), std::string::npos) << r.error();
  EXPECT_EQ(r.error_column(), 15);
  // A provided table is not registered: the provider is asked again next time.
  asked.clear();
  ASSERT_TRUE(db.Query("SELECT count(*) FROM made").ok());
  EXPECT_EQ(asked, std::vector<std::string>{"made"});
  EXPECT_EQ(db.FindTable("made"), nullptr);
}

TEST(DatabaseInterruptTest, StopsTheRunningQueryOnly) {
  for (int threads : {1, 2}) {
    Database db(Threads(threads));
    std::string error;
    ASSERT_TRUE(db.Register("t", Numbers(200000), &error)) << error;
    bool interrupt = true;
    db.SetTableProvider([&](std::string_view) -> std::shared_ptr<const Table> {
      if (interrupt) db.Interrupt();  // the query asking has already started
      return Numbers(200000);
    });
    for (const char* sql : {"SELECT n, count(*) FROM p GROUP BY n ORDER BY n",
                            "SELECT sum(n), count(DISTINCT n) FROM p",
                            "SELECT n FROM p WHERE n > 990 ORDER BY n LIMIT 3",
                            "COPY (SELECT n FROM p) TO '/nonexistent-dir/x.csv'"}) {
      const Result r = db.Query(sql);
      ASSERT_FALSE(r.ok()) << sql;
      EXPECT_EQ(r.error(), "query interrupted") << sql;
    }
    // Later queries are not affected by the interrupts before them.
    interrupt = false;
    const Result r = db.Query("SELECT sum(n) FROM p");
    ASSERT_TRUE(r.ok()) << r.error();
    const Result expected = db.Query("SELECT sum(n) FROM t");
    ASSERT_TRUE(expected.ok()) << expected.error();
    EXPECT_EQ(PrintTsv(r), PrintTsv(expected));
  }
}

}  // namespace
}  // namespace laneql
