// `laneql bench --queries FILE --table NAME=PATH [--runs N] [--threads N] [--json OUT]
// [--profile-dir DIR] [--target NAME]`: each query once as a warm-up, then N timed runs; per
// query the rows, the minimum and the median wall time, and the median CPU time of the process
// (all threads: work that grows with the thread count shows there even on few cores). With
// --profile-dir, one more run per query with profiling on writes its trace to DIR/q<N>.json.
// A failing query is reported in its row, not fatal.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "flags.h"
#include "laneql/database.h"
#include "laneql/targets.h"
#include "laneql/version.h"
#include "script.h"
#include "table_loader.h"

namespace laneql::cli {
namespace {

struct QueryTiming {
  std::string sql;
  size_t rows = 0;
  double min_ms = 0;
  double median_ms = 0;
  double cpu_min_ms = 0;     // CPU time of the whole process during a run (every thread)
  double cpu_median_ms = 0;
  std::string error;  // empty: it ran
};

// The process's CPU time (all threads, user and system) in milliseconds.
double ProcessCpuMs() {
  timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// `;`-separated when the file has a ';' outside strings and comments, else one per line.
std::vector<std::string> SplitQueries(const std::string& text) {
  const std::vector<ScriptItem> items = SplitScript(text);
  const bool separated = std::any_of(items.begin(), items.end(),
                                     [](const ScriptItem& item) { return item.terminated; });
  std::vector<std::string> queries;
  if (separated) {
    for (const ScriptItem& item : items) queries.push_back(item.text);
    return queries;
  }
  size_t begin = 0;
  while (begin <= text.size()) {
    size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    // SplitScript drops blank and comment-only lines and trims each one.
    for (const ScriptItem& item : SplitScript(text.substr(begin, end - begin))) {
      queries.push_back(item.text);
    }
    begin = end + 1;
  }
  return queries;
}

QueryTiming Time(const Database& db, const std::string& sql, int runs) {
  QueryTiming timing;
  timing.sql = sql;
  const Result warm = db.Query(sql);
  if (!warm.ok()) {
    timing.error = warm.error();
    return timing;
  }
  timing.rows = warm.num_rows();
  std::vector<double> ms, cpu_ms;
  for (int r = 0; r < runs; ++r) {
    const double cpu_start = ProcessCpuMs();
    const auto start = std::chrono::steady_clock::now();
    const Result result = db.Query(sql);
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    cpu_ms.push_back(ProcessCpuMs() - cpu_start);
    if (!result.ok()) {  // it ran once; a later failure (out of memory) is still reported
      timing.error = result.error();
      return timing;
    }
  }
  timing.min_ms = *std::min_element(ms.begin(), ms.end());
  timing.median_ms = Median(ms);
  timing.cpu_min_ms = *std::min_element(cpu_ms.begin(), cpu_ms.end());
  timing.cpu_median_ms = Median(cpu_ms);
  return timing;
}

std::string Milliseconds(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3f", ms);  // µs resolution
  return buf;
}

std::string Json(const std::vector<QueryTiming>& timings, int threads, size_t table_rows) {
  std::string out = "{\"version\": " + JsonString(Version()) +
                    ", \"target\": " + JsonString(DispatchedTarget().name) +
                    ", \"threads\": " + std::to_string(threads) +
                    ", \"table_rows\": " + std::to_string(table_rows) + ", \"queries\": [";
  for (size_t i = 0; i < timings.size(); ++i) {
    const QueryTiming& t = timings[i];
    const bool ok = t.error.empty();
    out += std::string(i ? "," : "") + "\n  {\"index\": " + std::to_string(i + 1) +
           ", \"sql\": " + JsonString(t.sql) +
           ", \"rows\": " + (ok ? std::to_string(t.rows) : "null") +
           ", \"min_ms\": " + (ok ? Milliseconds(t.min_ms) : "null") +
           ", \"median_ms\": " + (ok ? Milliseconds(t.median_ms) : "null") +
           ", \"cpu_min_ms\": " + (ok ? Milliseconds(t.cpu_min_ms) : "null") +
           ", \"cpu_median_ms\": " + (ok ? Milliseconds(t.cpu_median_ms) : "null") +
           ", \"error\": " + (ok ? "null" : JsonString(t.error)) + "}";
  }
  return out + "\n]}\n";
}

}  // namespace

int RunBench(const std::vector<std::string>& args) {
  Flags flags;
  if (!ParseFlags("bench", args, {{"--queries", "--table", "--runs", "--threads", "--json", "--profile-dir", "--target"}, {}, 0},
                  &flags)) {
    return kExitUsage;
  }
  if (!flags.Has("--queries") || !flags.Has("--table")) {
    std::fprintf(stderr, "laneql bench: --queries FILE and --table NAME=PATH are required\n");
    return kExitUsage;
  }
  uint64_t runs = 0, threads = 0;
  if (!ParseCount("bench", "--runs", flags.Get("--runs", "3"), 1, 100000, &runs) ||
      !ParseCount("bench", "--threads", flags.Get("--threads", "0"), 0, 1024, &threads)) {
    return kExitUsage;
  }
  std::vector<TableSpec> specs;
  std::string error, text;
  if (!ParseTableSpecs(flags.All("--table"), &specs, &error)) {
    std::fprintf(stderr, "laneql bench: %s\n", error.c_str());
    return kExitUsage;
  }
  if (!ApplyTarget("bench", flags)) return kExitUsage;
  if (!ReadTextFile(flags.Get("--queries", ""), &text, &error)) {
    std::fprintf(stderr, "laneql bench: %s\n", error.c_str());
    return kExitDataError;
  }
  const std::vector<std::string> queries = SplitQueries(text);

  DatabaseOptions db_options;
  db_options.threads = static_cast<int>(threads);
  Database db(db_options);
  size_t table_rows = 0;
  for (size_t i = 0; i < specs.size(); ++i) {
    std::shared_ptr<const Table> table;
    if (!LoadTable(specs[i].path, db.threads(), {}, 0, &table, &error)) {
      std::fprintf(stderr, "laneql bench: --table %s: %s\n", specs[i].name.c_str(), error.c_str());
      return kExitDataError;
    }
    if (i == 0) table_rows = table->num_rows();
    db.Register(specs[i].name, std::move(table), &error);
  }

  std::printf("laneql %s bench: %zu queries, %llu runs each after a warm-up, target %s, %d threads, "
              "%zu rows in %s\n",
              Version(), queries.size(), static_cast<unsigned long long>(runs),
              DispatchedTarget().name.c_str(), db.threads(), table_rows, specs[0].name.c_str());
  std::printf("%5s %12s %12s %12s %12s  %s\n", "query", "rows", "min ms", "median ms", "cpu ms", "sql");
  std::vector<QueryTiming> timings;
  for (size_t i = 0; i < queries.size(); ++i) {
    timings.push_back(Time(db, queries[i], static_cast<int>(runs)));
    const QueryTiming& t = timings.back();
    std::string sql = t.sql;
    for (char& c : sql) c = (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    if (sql.size() > 60) sql = sql.substr(0, 57) + "...";
    if (t.error.empty()) {
      std::printf("%5zu %12zu %12.3f %12.3f %12.3f  %s\n", i + 1, t.rows, t.min_ms, t.median_ms, t.cpu_median_ms,
                  sql.c_str());
    } else {
      std::printf("%5zu %12s %12s %12s %12s  %s\n        error: %s\n", i + 1, "-", "-", "-", "-", sql.c_str(),
                  t.error.c_str());
    }
    if (flags.Has("--profile-dir") && t.error.empty()) {
      QueryOptions profiled;
      profiled.profile = true;
      const Result traced = db.Query(queries[i], profiled);
      const std::string path = flags.Get("--profile-dir", "") + "/q" + std::to_string(i + 1) + ".json";
      std::ofstream trace(path, std::ios::binary | std::ios::trunc);
      trace << db.LastProfileJson();
      if (!traced.ok() || !trace.flush()) {
        std::fprintf(stderr, "laneql bench: cannot write the profile '%s'%s%s\n", path.c_str(),
                     traced.ok() ? "" : ": ", traced.ok() ? "" : traced.error().c_str());
        return kExitDataError;
      }
    }
    std::fflush(stdout);
  }
  if (flags.Has("--json")) {
    const std::string json_path = flags.Get("--json", "");
    std::ofstream out(json_path, std::ios::binary | std::ios::trunc);
    out << Json(timings, db.threads(), table_rows);
    if (!out.flush()) {
      std::fprintf(stderr, "laneql bench: cannot write '%s'\n", json_path.c_str());
      return kExitDataError;
    }
  }
  return kExitOk;
}

}  // namespace laneql::cli
