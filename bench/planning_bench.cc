// What a query costs before it reads any data (issue #42 §3: planning stays cheap):
//  1. `SELECT count(*) FROM hits` through Database::Query end to end (statement split, parse,
//     bind, the row count, the Result): median and p99 of many runs (target below 20 µs; the
//     table's size does not matter, count(*) reads no column);
//  2. for a few typical 1-table ClickBench queries: sql::ParseStatement alone, plan::BindSelect
//     with optimize::OptimizeSelect (the single-table path's optimizer: the rules over one bound
//     SELECT), and the two together, median and p99 in µs (target below 50 µs); and
//     `EXPLAIN <query>` end to end, which goes through the tree planner and the optimizer and
//     binds the plan on empty inputs;
//  3. a 3-table join (TPC-H Q3's shape over small customer / orders / lineitem tables made with
//     CREATE TABLE and INSERT): parse alone, and `EXPLAIN <query>` end to end. The tree planner
//     (exec::QueryTreeRunner::PlanSelect) is private, so EXPLAIN stands in for parse + plan +
//     optimize + bind: it plans and optimizes the tree, then runs it on empty inputs so that
//     every operator's expressions are bound, and prints it; it reads no row.
//
//   build/native/bench/laneql_planning_bench [--rows N] [--queries FILE] [--runs N]
//                                            [--plan-runs N] [--threads N]
//
// Defaults: 1,000,000 generated hits rows (count(*) and planning do not depend on the size),
// ClickBench's queries.sql from ../shared/clickbench, 20,000 count(*) runs, 5,000 runs of each
// planning measurement, 1 query thread. About 6 s on the 2-vCPU machine.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "bench_util.h"
#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/system_info.h"
#include "src/optimize/optimizer.h"
#include "src/plan/binder.h"
#include "src/sql/parser.h"

namespace {

constexpr double kCountStarTargetMicros = 20.0;
constexpr double kPlanningTargetMicros = 50.0;
// The 1-table ClickBench queries measured (0-based lines of queries.sql): count(*), sums and an
// average, a filtered GROUP BY ... ORDER BY, a point lookup, a string GROUP BY with LIMIT.
constexpr int kClickBenchQueries[] = {0, 2, 7, 19, 33};

// TPC-H Q3's shape: three tables joined by equalities in WHERE, filters on each, GROUP BY,
// ORDER BY, LIMIT.
const char* const kJoinSetup =
    "CREATE TABLE customer (c_custkey INTEGER, c_name VARCHAR, c_mktsegment VARCHAR);"
    "CREATE TABLE orders (o_orderkey INTEGER, o_custkey INTEGER, o_orderdate DATE, "
    "o_shippriority INTEGER);"
    "CREATE TABLE lineitem (l_orderkey INTEGER, l_extendedprice DOUBLE, l_discount DOUBLE, "
    "l_shipdate DATE);"
    "INSERT INTO customer VALUES (1, 'a', 'BUILDING'), (2, 'b', 'MACHINERY'), (3, 'c', 'BUILDING');"
    "INSERT INTO orders VALUES (10, 1, DATE '1995-03-01', 0), (11, 2, DATE '1995-03-10', 0), "
    "(12, 3, DATE '1995-04-01', 1);"
    "INSERT INTO lineitem VALUES (10, 100.0, 0.05, DATE '1995-03-20'), "
    "(10, 50.0, 0.1, DATE '1995-03-10'), (11, 70.0, 0.0, DATE '1995-03-30'), "
    "(12, 20.0, 0.02, DATE '1995-04-02')";
const char* const kJoinQuery =
    "SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate, "
    "o_shippriority FROM customer, orders, lineitem WHERE c_mktsegment = 'BUILDING' AND "
    "c_custkey = o_custkey AND l_orderkey = o_orderkey AND o_orderdate < DATE '1995-03-15' AND "
    "l_shipdate > DATE '1995-03-15' GROUP BY l_orderkey, o_orderdate, o_shippriority "
    "ORDER BY revenue DESC, o_orderdate LIMIT 10";

struct Options {
  size_t rows = 1'000'000;
  std::string queries_path = LANEQL_CLICKBENCH_DIR "/queries.sql";
  int runs = 20'000;
  int plan_runs = 5'000;
  int threads = 1;  // DatabaseOptions::threads: 0 = the physical cores
};

bool ParseArgs(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; i += 2) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "error: %s needs a value\n", arg.c_str());
      return false;
    }
    const char* value = argv[i + 1];
    char* end = nullptr;
    const long long number = std::strtoll(value, &end, 10);
    const bool is_number = *value != '\0' && *end == '\0' && number >= 0;
    if (arg == "--queries") {
      options->queries_path = value;
    } else if (arg != "--rows" && arg != "--runs" && arg != "--plan-runs" && arg != "--threads") {
      std::fprintf(stderr, "error: unknown option '%s'\n", arg.c_str());
      return false;
    } else if (!is_number) {
      std::fprintf(stderr, "error: %s wants a non-negative integer, got '%s'\n", arg.c_str(),
                   value);
      return false;
    } else if (arg == "--rows") {
      options->rows = static_cast<size_t>(number);
    } else if (arg == "--runs") {
      options->runs = std::max<int>(1, static_cast<int>(std::min<long long>(number, 10'000'000)));
    } else if (arg == "--plan-runs") {
      options->plan_runs =
          std::max<int>(1, static_cast<int>(std::min<long long>(number, 10'000'000)));
    } else {
      options->threads = static_cast<int>(std::min<long long>(number, 1024));
    }
  }
  return true;
}

// Median and 99th percentile, in µs, of `runs` timed calls of fn (after a few untimed ones).
// fn returns false on failure, which stops the measurement.
struct Micros {
  double median = 0;
  double p99 = 0;
  bool ok = true;
};

template <class Fn>
Micros Measure(int runs, const Fn& fn) {
  Micros out;
  for (int r = 0; r < std::min(runs, 100); ++r) {
    if (!fn()) {
      out.ok = false;
      return out;
    }
  }
  std::vector<double> us;
  us.reserve(static_cast<size_t>(runs));
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = fn();
    us.push_back(laneql::bench::Seconds(t0) * 1e6);
    if (!ok) {
      out.ok = false;
      return out;
    }
  }
  std::sort(us.begin(), us.end());
  out.median = us[us.size() / 2];
  out.p99 = us[std::min(us.size() - 1, us.size() * 99 / 100)];
  return out;
}

std::string Cell(const Micros& m) {
  if (!m.ok) return "failed";
  char text[64];
  std::snprintf(text, sizeof(text), "%.2f / %.2f", m.median, m.p99);
  return text;
}

bool Parse(const std::string& sql, laneql::sql::Statement* statement) {
  *statement = laneql::sql::Statement();
  laneql::sql::ParseError error;
  if (!laneql::sql::ParseStatement(sql, statement, &error)) {
    std::fprintf(stderr, "parse failed: %s\n", error.message.c_str());
    return false;
  }
  return true;
}

// The single-table SELECT a statement holds, or null.
const laneql::sql::SelectStatement* PlainSelect(const laneql::sql::Statement& statement) {
  if (statement.kind != laneql::sql::StatementKind::kSelect || statement.query == nullptr ||
      statement.query->kind != laneql::sql::QueryKind::kSelect || !statement.query->ctes.empty()) {
    return nullptr;
  }
  return &statement.query->select;
}

bool Bind(const laneql::sql::SelectStatement& select, const laneql::plan::TableResolver& tables) {
  laneql::plan::Plan plan;
  laneql::plan::BindError error;
  if (!laneql::plan::BindSelect(select, tables, &plan, &error)) {
    std::fprintf(stderr, "bind failed: %s\n", error.message.c_str());
    return false;
  }
  laneql::optimize::OptimizeSelect(&plan);
  laneql::bench::KeepAlive(plan.table);
  return true;
}

bool QueryOk(const laneql::Database& db, const std::string& sql) {
  const laneql::Result result = db.Query(sql);
  if (!result.ok()) std::fprintf(stderr, "%s: %s\n", sql.c_str(), result.error().c_str());
  laneql::bench::KeepAlive(result.num_rows());
  return result.ok();
}

std::string Shorten(const std::string& sql) {
  std::string text = sql;
  if (!text.empty() && text.back() == ';') text.pop_back();
  return text.size() > 60 ? text.substr(0, 57) + "..." : text;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, &options)) {
    std::fprintf(stderr,
                 "usage: laneql_planning_bench [--rows N] [--queries FILE] [--runs N] "
                 "[--plan-runs N] [--threads N]\n");
    return 2;
  }
  std::vector<std::string> queries;
  if (!laneql::bench::ReadQueries(options.queries_path, &queries)) return 2;

  laneql::DatabaseOptions db_options;
  db_options.threads = options.threads;
  laneql::Database db(db_options);
  std::printf("cpu: %s, %d logical cpus; hits: %zu rows; queries run on %d thread%s\n",
              laneql::CpuModel().c_str(), laneql::LogicalProcessors(), options.rows, db.threads(),
              db.threads() == 1 ? "" : "s");
  laneql::HitsOptions hits;
  hits.rows = options.rows;
  hits.threads = laneql::LogicalProcessors();  // only the generation; it is not timed
  laneql::Table table;
  std::string error;
  if (!laneql::GenerateHits(hits, &table, &error) ||
      !db.Register("hits", std::move(table), &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 1;
  }
  const std::shared_ptr<const laneql::Table> hits_table = db.FindTableShared("hits");
  const laneql::plan::TableResolver resolver =
      [&hits_table](std::string_view name) -> const laneql::Table* {
    return name == "hits" ? hits_table.get() : nullptr;
  };
  bool all_ok = true;

  // 1. count(*) end to end.
  const std::string count_sql = "SELECT count(*) FROM hits";
  const Micros count = Measure(options.runs, [&] { return QueryOk(db, count_sql); });
  all_ok &= count.ok;
  std::printf("\n%s through Database::Query, %d runs: median %.2f us, p99 %.2f us "
              "(target < %.0f us: %s)\n\n",
              count_sql.c_str(), options.runs, count.median, count.p99, kCountStarTargetMicros,
              !count.ok ? "FAILED" : count.median < kCountStarTargetMicros ? "met" : "MISSED");

  // 2. 1-table ClickBench queries; 3. the join.
  std::printf("median / p99 in us of %d runs each\n\n", options.plan_runs);
  std::printf("| query | parse | bind + optimize | parse + bind + optimize | EXPLAIN end to end | sql |\n");
  std::printf("|---|---:|---:|---:|---:|---|\n");
  for (const int q : kClickBenchQueries) {
    if (static_cast<size_t>(q) >= queries.size()) continue;
    const std::string& sql = queries[static_cast<size_t>(q)];
    laneql::sql::Statement parsed;
    if (!Parse(sql, &parsed) || PlainSelect(parsed) == nullptr) {
      std::printf("| Q%d | failed | | | | %s |\n", q, Shorten(sql).c_str());
      all_ok = false;
      continue;
    }
    const Micros parse = Measure(options.plan_runs, [&] {
      laneql::sql::Statement statement;
      return Parse(sql, &statement);
    });
    const Micros bind =
        Measure(options.plan_runs, [&] { return Bind(*PlainSelect(parsed), resolver); });
    const Micros both = Measure(options.plan_runs, [&] {
      laneql::sql::Statement statement;
      return Parse(sql, &statement) && Bind(*PlainSelect(statement), resolver);
    });
    const std::string explain_sql = "EXPLAIN " + sql;
    const Micros explain = Measure(options.plan_runs, [&] { return QueryOk(db, explain_sql); });
    all_ok &= parse.ok && bind.ok && both.ok && explain.ok;
    std::printf("| Q%d | %s | %s | %s | %s | `%s` |\n", q, Cell(parse).c_str(), Cell(bind).c_str(),
                Cell(both).c_str(), Cell(explain).c_str(), Shorten(sql).c_str());
    std::fflush(stdout);
  }

  const laneql::Result setup = db.Query(kJoinSetup);
  if (!setup.ok()) {
    std::fprintf(stderr, "join tables: %s\n", setup.error().c_str());
    return 1;
  }
  const std::string join_sql = kJoinQuery;
  const Micros join_parse = Measure(options.plan_runs, [&] {
    laneql::sql::Statement statement;
    return Parse(join_sql, &statement);
  });
  const std::string join_explain_sql = "EXPLAIN " + join_sql;
  const Micros join_explain =
      Measure(options.plan_runs, [&] { return QueryOk(db, join_explain_sql); });
  const Micros join_run = Measure(options.plan_runs, [&] { return QueryOk(db, join_sql); });
  all_ok &= join_parse.ok && join_explain.ok && join_run.ok;
  std::printf("| 3-table join | %s | - | - | %s | TPC-H Q3's shape on 3 / 3 / 4 rows |\n",
              Cell(join_parse).c_str(), Cell(join_explain).c_str());
  std::printf("\nthe 3-table join run end to end on those rows: median %.2f us, p99 %.2f us\n",
              join_run.median, join_run.p99);
  return all_ok ? 0 : 1;
}
