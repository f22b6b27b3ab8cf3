// The SQL engine end to end (Database::Query: parse, bind, plan, run, Result), on --threads
// threads (default 1; 0 = the physical cores):
//  1. `SELECT count(*) FROM hits`: the fixed cost of a query, median over many runs (target
//     below 20 µs; the table's size must not matter, count(*) reads no column);
//  2. the 43 ClickBench queries on a generated hits table: one warm-up run, then min and median
//     of 3 timed runs, rows returned, and the error of a query that fails.
//
//   build/native/bench/laneql_sql_bench [--rows N] [--queries FILE] [--count-runs N] [--only I]
//                                       [--threads N]
//
// Defaults: 10,000,000 rows, ClickBench's queries.sql from ../shared/clickbench, 20,000 runs.
// 10 M rows take about 8 GB of memory (the table is about 0.75 KB per row) and about 4 minutes on
// the 2-vCPU machine; --rows 1000000 runs in about 25 s.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "bench_util.h"
#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/system_info.h"

namespace {

constexpr double kCountStarTargetMicros = 20.0;
constexpr int kTimedRuns = 3;

struct Options {
  size_t rows = 10'000'000;
  std::string queries_path = LANEQL_CLICKBENCH_DIR "/queries.sql";
  int count_runs = 20'000;
  int only = -1;  // run only this query of the file (0-based); -1 = all
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
    } else if (arg != "--rows" && arg != "--count-runs" && arg != "--only" &&
               arg != "--threads") {
      std::fprintf(stderr, "error: unknown option '%s'\n", arg.c_str());
      return false;
    } else if (!is_number) {
      std::fprintf(stderr, "error: %s wants a non-negative integer, got '%s'\n", arg.c_str(),
                   value);
      return false;
    } else if (arg == "--rows") {
      options->rows = static_cast<size_t>(number);
    } else if (arg == "--count-runs") {
      options->count_runs = std::max<int>(1, static_cast<int>(number));
    } else if (arg == "--threads") {
      options->threads = static_cast<int>(std::min<long long>(number, 1024));
    } else {
      options->only = static_cast<int>(number);
    }
  }
  return true;
}

// The first line of an error message, cut so the table stays readable.
std::string ShortError(const std::string& message) {
  std::string text = message.substr(0, message.find('\n'));
  if (text.size() > 90) text = text.substr(0, 87) + "...";
  return text;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, &options)) {
    std::fprintf(stderr,
                 "usage: laneql_sql_bench [--rows N] [--queries FILE] [--count-runs N] "
                 "[--only I] [--threads N]\n");
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
  auto start = std::chrono::steady_clock::now();
  laneql::HitsOptions hits;
  hits.rows = options.rows;
  hits.threads = laneql::LogicalProcessors();  // only the generation; it is not timed
  laneql::Table table;
  std::string error;
  if (!laneql::GenerateHits(hits, &table, &error)) {
    std::fprintf(stderr, "error: generating hits failed: %s\n", error.c_str());
    return 1;
  }
  if (!db.Register("hits", std::move(table), &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 1;
  }
  std::printf("generated in %.1f s\n\n", laneql::bench::Seconds(start));

  // 1. The fixed cost of a query.
  const std::string count_sql = "SELECT count(*) FROM hits";
  bool count_ok = true;
  const double count_s = laneql::bench::MedianSeconds(options.count_runs, [&] {
    const laneql::Result result = db.Query(count_sql);
    count_ok &= result.ok() && result.num_rows() == 1;
    laneql::bench::KeepAlive(result.num_rows());
  });
  if (!count_ok) {
    std::printf("%s: FAILED: %s\n\n", count_sql.c_str(), db.Query(count_sql).error().c_str());
  } else {
    const double micros = count_s * 1e6;
    std::printf("%s end to end: %.2f us median of %d runs (target < %.0f us: %s)\n\n",
                count_sql.c_str(), micros, options.count_runs, kCountStarTargetMicros,
                micros < kCountStarTargetMicros ? "met" : "MISSED");
  }

  // 2. The ClickBench queries.
  std::printf("%-4s %10s %10s %10s  %s\n", "Q", "min ms", "median ms", "rows", "error");
  double total_median_ms = 0;
  int failed = 0;
  for (size_t i = 0; i < queries.size(); ++i) {
    if (options.only >= 0 && static_cast<size_t>(options.only) != i) continue;
    laneql::Result warm_up = db.Query(queries[i]);
    if (!warm_up.ok()) {
      ++failed;
      std::printf("Q%-3zu %10s %10s %10s  %s\n", i, "-", "-", "-",
                  ShortError(warm_up.error()).c_str());
      continue;
    }
    const size_t rows = warm_up.num_rows();
    warm_up = laneql::Result();  // free it before the timed runs
    std::vector<double> ms;
    for (int run = 0; run < kTimedRuns; ++run) {
      start = std::chrono::steady_clock::now();
      const laneql::Result result = db.Query(queries[i]);
      ms.push_back(laneql::bench::Seconds(start) * 1e3);
      laneql::bench::KeepAlive(result.num_rows());
    }
    std::sort(ms.begin(), ms.end());
    total_median_ms += ms[kTimedRuns / 2];
    std::printf("Q%-3zu %10.2f %10.2f %10zu\n", i, ms.front(), ms[kTimedRuns / 2], rows);
    std::fflush(stdout);
  }
  std::printf("\nsum of medians: %.1f ms; %d of %zu queries failed\n", total_median_ms, failed,
              options.only >= 0 ? size_t{1} : queries.size());
  return 0;
}
