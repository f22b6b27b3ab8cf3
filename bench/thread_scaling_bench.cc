// Thread scaling of the SQL engine on the 43 ClickBench queries over one generated hits table:
//
//  a) speed-up (--part speedup): per query, a Database with 1 thread and one with 2 threads
//     over the SAME table (Register of one shared_ptr<const Table>), warm-up runs each (two,
//     and more until a run faults almost no page: the "warm" column), then --runs R timed runs
//     interleaved (1 thread, 2 threads, 1 thread, ...) so that drifts of the
//     machine hit both sides alike; the median ms of each side and speed-up = median(1) /
//     median(2), and the page faults of the timed runs. A query is flagged BELOW when it takes
//     over 50 ms on one thread and gains less than 1.8x. Summary: queries over 50 ms, how many
//     of them reach 1.8x, geometric-mean speed-up.
//     --order queries (the default): each query's warm-up and R runs back to back. --order
//     rounds: every query is warmed up, then R rounds each run every query once per side (the
//     side that goes first alternating), so that one query's runs are spread over the whole
//     part. On this VM the host's contention comes in spells of tens of seconds (Q32 in one
//     process, 12 sets of 5 interleaved runs over 3 minutes: 1.61x to 2.03x a set), which
//     query by query weigh on all runs of a query at once; but in rounds the queries between
//     two runs of a big GROUP BY take and reshape its kept blocks, so its timed runs fault
//     again (2026-11-25, --runs 9: Q16 1265 faults, Q31 and Q33 513, Q18 198; Q32 190 ms on
//     2 threads against 160 query by query, Q18 309 against 266).
//  b) determinism (--part determinism): per thread count of --threads-list, every query once
//     on a Database{threads = t, profile = true}; its Result must be bit-identical to the
//     1-thread Result (column names, types, validity and every value's bytes). Prints per
//     thread count the queries identical / total and names any that differ (exit status 1 if
//     any do). From LastProfileJson() it sums the "dur" of the "convert" and "merge" spans over
//     all queries, per thread count, with the ratio to the 2-thread figure: the cost of
//     combining per-thread partial states must not grow faster than the thread count. Those
//     sums are thread time; a "wall ms" column adds the phases' wall time per query (first
//     start to last end), which time slicing does not inflate when threads outnumber cores.
//
//  c) machine (--part machine; also first in speedup and both): what a second thread gains on
//     this machine apart from the engine, for arithmetic, random updates in and out of the
//     caches and sequential reads (machine_scaling.h): the ceiling the speed-ups meet.
//
//   build/native/bench/laneql_thread_scaling_bench [--rows N] [--queries FILE] [--only I]
//       [--threads-list 1,2,4,8,16,64] [--runs R] [--order rounds|queries]
//       [--part speedup|determinism|machine|both] [--group-split auto|rows|keys]
//
// --group-split sets DatabaseOptions::group_split for every database: how a GROUP BY divides
// its work between threads (auto by default), to compare the two splits query by query.
//
// Exit status: 0; 1 when a result differs from the 1-thread one or a query fails; 2 for bad
// arguments. The query index is 0-based, as ClickBench numbers them (and --only takes it).
//
// Defaults: --rows 10000000, ClickBench's queries.sql from ../shared/clickbench (as
// laneql_sql_bench), --threads-list 1,2,4,8,16,64, --runs 3, --part both. Both parts share one
// table: 10 M rows take about 8 GB of memory (about 0.75 KB per row; 1 M rows ran in 0.8 GB of
// resident memory), so mind other programs on a 24 GB machine. Times on the 2-vCPU development
// machine with the single-threaded executor (every thread count costs what 1 thread costs; a
// working 2-thread executor shortens both parts). One pass over the 43 queries is about 42 s at
// 10 M rows on 1 thread (laneql_sql_bench's sum of medians), about 4-6 s at 1 M rows:
//   --rows 10000000 --part speedup       about 6-8 minutes (8 passes: 2 warm-ups, 2 x 3 runs)
//   --rows 10000000 --part determinism   about 4-5 minutes (6 passes: 1, 2, 4, 8, 16, 64 threads)
//   --rows 1000000                       75 s for both parts (measured: 49 s + 23 s + 1 s to
//                                        generate; with the morsel-parallel executor, on the
//                                        same machine busy with other builds: 45 s + 40 s)
//   --rows 200000                        10-13 s for both parts (measured; a smoke test)
// Generating 10 M rows adds about 5-10 s. The command lines:
//   build/native/bench/laneql_thread_scaling_bench                      # both parts, 10 M rows
//   build/native/bench/laneql_thread_scaling_bench --part speedup --runs 5
//   build/native/bench/laneql_thread_scaling_bench --part determinism --rows 1000000
//   build/native/bench/laneql_thread_scaling_bench --rows 200000        # the smoke test
//   build/native/bench/laneql_thread_scaling_bench --rows 1000000 --only 28 --part speedup
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#if defined(__linux__)
#include <sys/resource.h>
#endif

#include "bench_util.h"
#include "machine_scaling.h"
#include "laneql/column.h"
#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/result.h"
#include "laneql/system_info.h"
#include "laneql/types.h"

namespace {

constexpr double kSlowQueryMs = 50.0;    // queries slower than this on 1 thread must scale
constexpr double kTargetSpeedup = 1.8;   // ... by at least this much on 2 threads
// Untimed runs per side before the timed ones: a big GROUP BY's first run notes its group
// counts (group_size_hints.h), and only the second one sizes its tables by them, mapping
// blocks of the new sizes that the runs after it find kept. With one warm-up run, the first
// timed 2-thread run of Q18 took 1048 ms (984 ms of it system time, mapping 512 MB afresh)
// against 465 ms for the runs after it, and the second one 609 ms: both weighed on the median.
// Two were not always enough either: a kept block is reused for a request that writes more of
// it than the run before did, and each page written for the first time is a fault and the
// kernel's zeroing of it (2 MiB at a time with huge pages). Q32 on 2 threads faulted 20389,
// 724, 121 and 96 times in its first four runs (3766, 930, 437, 336 ms) and then never
// (336-346 ms); the 1-thread side the same. So the warm-up goes on, up to kMaxWarmRuns, until
// a run of each side faults at most kWarmFaults pages (a handful of stray 4 KiB faults, which
// cost microseconds, went on for every run of some queries late in the process).
constexpr int kWarmRuns = 2;
constexpr int kMaxWarmRuns = 8;
constexpr long kWarmFaults = 16;

// Page faults of this process so far (every thread's); 0 where not known, which ends the
// warm-up after kWarmRuns.
long PageFaults() {
#if defined(__linux__)
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) return usage.ru_minflt + usage.ru_majflt;
#endif
  return 0;
}

struct Options {
  size_t rows = 10'000'000;
  std::string queries_path = LANEQL_CLICKBENCH_DIR "/queries.sql";
  int only = -1;  // run only this query of the file (0-based); -1 = all
  std::vector<int> threads_list = {1, 2, 4, 8, 16, 64};
  int runs = 3;
  bool rounds = false;  // --order rounds or queries (the default): see RunSpeedup
  bool machine = true;  // the machine's own gains (machine_scaling.h), before the speed-ups
  bool speedup = true;
  bool determinism = true;
  laneql::DatabaseOptions::GroupSplit group_split = laneql::DatabaseOptions::GroupSplit::kAuto;
};

Options g_options;  // what MakeDatabase reads: the parsed command line

bool ParseNumber(const std::string& flag, const std::string& text, long long min, long long max,
                 long long* out) {
  char* end = nullptr;
  const long long number = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || number < min || number > max) {
    std::fprintf(stderr, "error: %s wants a whole number from %lld to %lld, got '%s'\n",
                 flag.c_str(), min, max, text.c_str());
    return false;
  }
  *out = number;
  return true;
}

bool ParseArgs(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; i += 2) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) {
      std::fprintf(stderr, "error: %s needs a value\n", arg.c_str());
      return false;
    }
    const std::string value = argv[i + 1];
    long long number = 0;
    if (arg == "--queries") {
      options->queries_path = value;
    } else if (arg == "--rows") {
      if (!ParseNumber(arg, value, 0, 1LL << 34, &number)) return false;
      options->rows = static_cast<size_t>(number);
    } else if (arg == "--only") {
      if (!ParseNumber(arg, value, 0, 1 << 20, &number)) return false;
      options->only = static_cast<int>(number);
    } else if (arg == "--runs") {
      if (!ParseNumber(arg, value, 1, 1000, &number)) return false;
      options->runs = static_cast<int>(number);
    } else if (arg == "--order") {
      if (value != "rounds" && value != "queries") {
        std::fprintf(stderr, "error: --order wants rounds or queries, got '%s'\n", value.c_str());
        return false;
      }
      options->rounds = value == "rounds";
    } else if (arg == "--threads-list") {
      options->threads_list.clear();
      size_t start = 0;
      while (start <= value.size()) {
        const size_t comma = std::min(value.find(',', start), value.size());
        if (!ParseNumber(arg, value.substr(start, comma - start), 1, 1024, &number)) return false;
        options->threads_list.push_back(static_cast<int>(number));
        start = comma + 1;
      }
    } else if (arg == "--part") {
      if (value != "speedup" && value != "determinism" && value != "machine" && value != "both") {
        std::fprintf(stderr,
                     "error: --part wants speedup, determinism, machine or both, got '%s'\n",
                     value.c_str());
        return false;
      }
      options->machine = value != "determinism";
      options->speedup = value == "speedup" || value == "both";
      options->determinism = value == "determinism" || value == "both";
    } else if (arg == "--group-split") {
      using Split = laneql::DatabaseOptions::GroupSplit;
      if (value == "auto") {
        options->group_split = Split::kAuto;
      } else if (value == "rows") {
        options->group_split = Split::kRows;
      } else if (value == "keys") {
        options->group_split = Split::kKeys;
      } else {
        std::fprintf(stderr, "error: --group-split wants auto, rows or keys, got '%s'\n",
                     value.c_str());
        return false;
      }
    } else {
      std::fprintf(stderr, "error: unknown option '%s'\n", arg.c_str());
      return false;
    }
  }
  return true;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

// The first line of an error message, cut so the table stays readable.
std::string ShortError(const std::string& message) {
  std::string text = message.substr(0, message.find('\n'));
  if (text.size() > 90) text = text.substr(0, 87) + "...";
  return text;
}

std::unique_ptr<laneql::Database> MakeDatabase(int threads, bool profile,
                                               const std::shared_ptr<const laneql::Table>& table) {
  laneql::DatabaseOptions options;
  options.threads = threads;
  options.profile = profile;
  options.group_split = g_options.group_split;
  auto db = std::make_unique<laneql::Database>(options);
  std::string error;
  if (!db->Register("hits", table, &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    std::exit(1);
  }
  return db;
}

// ---- (a) speed-up ----

// One query's runs on both sides.
struct QueryRuns {
  std::string error;          // the first failure; empty when every run succeeded
  int warm = 0;               // untimed runs per side
  std::vector<double> ms1, ms2;
  long faults = 0;            // page faults during the timed runs, both sides
};

// Untimed runs of both sides until a run of each faults at most kWarmFaults pages (at least
// kWarmRuns, at most kMaxWarmRuns).
void WarmUp(laneql::Database* db1, laneql::Database* db2, const std::string& query,
            QueryRuns* runs) {
  bool faulted = true;
  for (; runs->error.empty() && runs->warm < kMaxWarmRuns && (runs->warm < kWarmRuns || faulted);
       ++runs->warm) {
    const long before = PageFaults();
    const laneql::Result warm1 = db1->Query(query);
    const long between = PageFaults();
    const laneql::Result warm2 = db2->Query(query);
    faulted = between - before > kWarmFaults || PageFaults() - between > kWarmFaults;
    if (!warm1.ok()) runs->error = warm1.error();
    if (runs->error.empty() && !warm2.ok()) runs->error = "2 threads: " + warm2.error();
  }
}

// One timed run of each side, `first` (0: 1 thread, 1: 2 threads) first.
void TimedPair(laneql::Database* db1, laneql::Database* db2, const std::string& query, int first,
               QueryRuns* runs) {
  for (int k = 0; k < 2; ++k) {
    const int side = (first + k) % 2;
    const long faults = PageFaults();
    const auto start = std::chrono::steady_clock::now();
    const laneql::Result result = (side == 0 ? db1 : db2)->Query(query);
    (side == 0 ? runs->ms1 : runs->ms2).push_back(laneql::bench::Seconds(start) * 1e3);
    runs->faults += PageFaults() - faults;
    if (!result.ok() && runs->error.empty()) {
      runs->error = (side == 0 ? "" : "2 threads: ") + result.error();
    }
    laneql::bench::KeepAlive(result.num_rows());
  }
}

// Returns false if any query failed.
bool RunSpeedup(const Options& options, const std::vector<std::string>& queries,
                const std::shared_ptr<const laneql::Table>& table) {
  const auto db1 = MakeDatabase(1, false, table);
  const auto db2 = MakeDatabase(2, false, table);
  std::printf("== speed-up: 1 vs 2 threads (the databases resolve to %d and %d), median of %d "
              "interleaved runs, %s\n\n",
              db1->threads(), db2->threads(), options.runs,
              options.rounds ? "in rounds over the queries" : "query by query");
  std::vector<size_t> chosen;
  for (size_t i = 0; i < queries.size(); ++i) {
    if (options.only < 0 || static_cast<size_t>(options.only) == i) chosen.push_back(i);
  }
  std::vector<QueryRuns> runs(queries.size());
  if (options.rounds) {
    // Every query warmed up first, then round r runs each query once per side: a query's runs
    // are spread over the whole part, so a spell of the host's contention (tens of seconds on
    // this VM) weighs on one or two of them instead of on all. The side that goes first
    // alternates between rounds.
    for (size_t i : chosen) WarmUp(db1.get(), db2.get(), queries[i], &runs[i]);
    for (int round = 0; round < options.runs; ++round) {
      for (size_t i : chosen) {
        if (runs[i].error.empty()) TimedPair(db1.get(), db2.get(), queries[i], round % 2, &runs[i]);
      }
      std::fprintf(stderr, "round %d of %d done\n", round + 1, options.runs);
    }
  }
  std::printf("%-4s %11s %11s %9s %5s %7s\n", "Q", "ms 1 thr", "ms 2 thr", "speed-up", "warm",
              "faults");
  int failed = 0, slow = 0, slow_fast_enough = 0, measured = 0;
  double log_sum = 0, slow_log_sum = 0;
  for (size_t i : chosen) {
    QueryRuns& q = runs[i];
    if (!options.rounds) {
      // Query by query: its runs one after the other, 1 thread first in each pair.
      WarmUp(db1.get(), db2.get(), queries[i], &q);
      for (int run = 0; run < options.runs && q.error.empty(); ++run) {
        TimedPair(db1.get(), db2.get(), queries[i], 0, &q);
      }
    }
    if (!q.error.empty()) {
      ++failed;
      std::printf("Q%-3zu %11s %11s %9s  %s\n", i, "-", "-", "-", ShortError(q.error).c_str());
      continue;
    }
    const double median1 = Median(q.ms1), median2 = Median(q.ms2);
    const double speedup = median1 / std::max(median2, 1e-9);
    const bool is_slow = median1 > kSlowQueryMs;
    ++measured;
    log_sum += std::log(speedup);
    if (is_slow) {
      ++slow;
      slow_log_sum += std::log(speedup);
      if (speedup >= kTargetSpeedup) ++slow_fast_enough;
    }
    std::printf("Q%-3zu %11.2f %11.2f %8.2fx %5d %7ld%s\n", i, median1, median2, speedup, q.warm,
                q.faults, is_slow && speedup < kTargetSpeedup ? "  BELOW" : "");
    std::fflush(stdout);
  }
  std::printf("\n%d queries over %.0f ms on 1 thread, %d of them reach %.1fx on 2 threads; "
              "geometric-mean speed-up %.2fx over %d queries",
              slow, kSlowQueryMs, slow_fast_enough, kTargetSpeedup,
              measured > 0 ? std::exp(log_sum / measured) : 0.0, measured);
  if (slow > 0) std::printf(" (%.2fx over the %d slow ones)", std::exp(slow_log_sum / slow), slow);
  std::printf("; %d failed\n\n", failed);
  return failed == 0;
}

// ---- (b) determinism ----

std::string Describe(const laneql::Column& column, size_t row) {
  if (!column.IsValid(row)) return "NULL";
  std::string text = laneql::FormatValue(column, row, laneql::ValueStyle::kText);
  if (text.size() > 40) text = text.substr(0, 37) + "...";
  return text;
}

// Whether two results are bit-identical: status (and error text), column names and types, row
// count, and per row validity and the value's bytes (fixed-width types: the TypeByteWidth bytes
// of the slot, so -0.0 vs 0.0 or two NaN payloads differ; strings: the bytes of the row).
// *why names the first difference.
bool SameResult(const laneql::Result& a, const laneql::Result& b, std::string* why) {
  if (a.ok() != b.ok() || a.error() != b.error()) {
    *why = a.ok() ? "error: " + ShortError(b.error())
                  : b.ok() ? "1 thread failed, this one did not"
                           : "another error: " + ShortError(b.error());
    return false;
  }
  if (a.num_columns() != b.num_columns() || a.num_rows() != b.num_rows()) {
    *why = std::to_string(b.num_columns()) + " columns x " + std::to_string(b.num_rows()) +
           " rows, 1 thread: " + std::to_string(a.num_columns()) + " x " +
           std::to_string(a.num_rows());
    return false;
  }
  for (size_t c = 0; c < a.num_columns(); ++c) {
    const std::string where = "column " + std::to_string(c) + " (" + a.name(c) + ")";
    if (a.name(c) != b.name(c) || a.type(c) != b.type(c)) {
      *why = where + ": named " + b.name(c) + " of type " + laneql::TypeName(b.type(c)) +
             ", 1 thread: " + a.name(c) + " of type " + laneql::TypeName(a.type(c));
      return false;
    }
    const laneql::Column& x = a.column(c);
    const laneql::Column& y = b.column(c);
    const size_t width = laneql::TypeByteWidth(x.type());
    for (size_t row = 0; row < x.length(); ++row) {
      bool same = x.IsValid(row) == y.IsValid(row);
      if (same && x.IsValid(row)) {
        same = laneql::IsString(x.type())
                   ? x.StringAt(row) == y.StringAt(row)
                   : std::memcmp(x.values_buffer().data() + row * width,
                                 y.values_buffer().data() + row * width, width) == 0;
      }
      if (!same) {
        *why = where + " row " + std::to_string(row) + ": " + Describe(y, row) +
               ", 1 thread: " + Describe(x, row);
        return false;
      }
    }
  }
  return true;
}

// The string value of `"key": "..."` in one line of trace-event JSON, or "".
std::string_view StringField(std::string_view line, std::string_view key) {
  const std::string quoted = "\"" + std::string(key) + "\"";
  size_t pos = line.find(quoted);
  if (pos == std::string_view::npos) return {};
  pos = line.find_first_not_of(" \t", pos + quoted.size());
  if (pos == std::string_view::npos || line[pos] != ':') return {};
  pos = line.find_first_not_of(" \t", pos + 1);
  if (pos == std::string_view::npos || line[pos] != '"') return {};
  const size_t end = line.find('"', pos + 1);
  return end == std::string_view::npos ? std::string_view() : line.substr(pos + 1, end - pos - 1);
}

// The number of `"key": 12.5` in one line, or 0.
double NumberField(std::string_view line, std::string_view key) {
  const std::string quoted = "\"" + std::string(key) + "\"";
  size_t pos = line.find(quoted);
  if (pos == std::string_view::npos) return 0;
  pos = line.find_first_not_of(" \t", pos + quoted.size());
  if (pos == std::string_view::npos || line[pos] != ':') return 0;
  const std::string rest(line.substr(pos + 1, 40));
  return std::strtod(rest.c_str(), nullptr);
}

struct ThreadCountStats {
  int threads = 0;
  int identical = 0;
  int total = 0;
  std::vector<std::string> differences;  // "Q5: column 0 ..."
  double convert_us = 0;  // summed over every thread's spans: thread time
  double merge_us = 0;
  // Per query, from the first convert/merge span's start to the last one's end, summed over the
  // queries: the wall time of those phases. Where threads outnumber cores, time slicing
  // stretches every span, so the summed thread time grows with the thread count even when
  // this does not.
  double wall_us = 0;
  int spans = 0;  // "X" events of any category
};

// Adds the convert and merge spans of one query's profile (one event per line; tolerates a
// profile with no such spans, or an empty one).
void AddProfile(const std::string& json, ThreadCountStats* stats) {
  double first = 0, last = 0;
  bool any = false;
  size_t start = 0;
  while (start < json.size()) {
    size_t end = json.find('\n', start);
    if (end == std::string::npos) end = json.size();
    const std::string_view line(json.data() + start, end - start);
    start = end + 1;
    if (StringField(line, "ph") != "X") continue;
    ++stats->spans;
    const std::string_view category = StringField(line, "cat");
    if (category != "convert" && category != "merge") continue;
    const double ts = NumberField(line, "ts"), dur = NumberField(line, "dur");
    (category == "convert" ? stats->convert_us : stats->merge_us) += dur;
    first = any ? std::min(first, ts) : ts;
    last = any ? std::max(last, ts + dur) : ts + dur;
    any = true;
  }
  if (any) stats->wall_us += last - first;
}

// Returns false if any result differs from the 1-thread one.
bool RunDeterminism(const Options& options, const std::vector<std::string>& queries,
                    const std::shared_ptr<const laneql::Table>& table) {
  std::vector<ThreadCountStats> stats;
  std::vector<std::unique_ptr<laneql::Database>> dbs;
  for (int t : options.threads_list) {
    stats.emplace_back();
    stats.back().threads = t;
    dbs.push_back(MakeDatabase(t, true, table));
  }
  // The reference: the 1-thread database of the list, or one of its own.
  std::unique_ptr<laneql::Database> own_reference;
  const auto one = std::find(options.threads_list.begin(), options.threads_list.end(), 1);
  const size_t reference_index = static_cast<size_t>(one - options.threads_list.begin());
  if (one == options.threads_list.end()) own_reference = MakeDatabase(1, true, table);
  const laneql::Database& reference =
      own_reference ? *own_reference : *dbs[reference_index];
  std::printf("== determinism: every query on every thread count vs 1 thread, profiled\n");
  std::printf("(databases resolve to");
  for (const auto& db : dbs) std::printf(" %d", db->threads());
  std::printf(" threads)\n\n");

  for (size_t i = 0; i < queries.size(); ++i) {
    if (options.only >= 0 && static_cast<size_t>(options.only) != i) continue;
    const laneql::Result expected = reference.Query(queries[i]);
    const std::string reference_profile = reference.LastProfileJson();
    for (size_t k = 0; k < dbs.size(); ++k) {
      ThreadCountStats& s = stats[k];
      ++s.total;
      if (!own_reference && k == reference_index) {  // the reference itself
        ++s.identical;
        AddProfile(reference_profile, &s);
        continue;
      }
      const laneql::Result result = dbs[k]->Query(queries[i]);
      AddProfile(dbs[k]->LastProfileJson(), &s);
      std::string why;
      if (SameResult(expected, result, &why)) {
        ++s.identical;
      } else {
        s.differences.push_back("Q" + std::to_string(i) + ": " + why);
      }
    }
    std::printf(".");
    std::fflush(stdout);
  }
  std::printf("\n\n");

  const ThreadCountStats* two = nullptr;
  for (const ThreadCountStats& s : stats) {
    if (s.threads == 2) two = &s;
  }
  const double two_ms = two != nullptr ? (two->convert_us + two->merge_us) / 1e3 : 0;
  // "vs 2 thr" next to "linear" (threads / 2): the first must stay well below the second.
  // "wall ms": the phases' wall time (see ThreadCountStats::wall_us).
  std::printf("%7s %15s %11s %9s %16s %9s %7s %9s %8s\n", "threads", "identical", "convert ms",
              "merge ms", "convert+merge ms", "vs 2 thr", "linear", "wall ms", "spans");
  bool all_identical = true;
  int spans = 0;
  for (const ThreadCountStats& s : stats) {
    const double ms = (s.convert_us + s.merge_us) / 1e3;
    char ratio[32] = "-";
    if (two_ms > 0) std::snprintf(ratio, sizeof(ratio), "%.2fx", ms / two_ms);
    const std::string identical = std::to_string(s.identical) + " / " + std::to_string(s.total);
    std::printf("%7d %15s %11.2f %9.2f %16.2f %9s %6.1fx %9.2f %8d\n", s.threads,
                identical.c_str(), s.convert_us / 1e3, s.merge_us / 1e3, ms, ratio,
                s.threads / 2.0, s.wall_us / 1e3, s.spans);
    all_identical &= s.differences.empty();
    spans += s.spans;
  }
  for (const ThreadCountStats& s : stats) {
    for (const std::string& d : s.differences) {
      std::printf("DIFFERS at %d threads: %s\n", s.threads, d.c_str());
    }
  }
  if (spans == 0) {
    std::printf("(the profiles hold no spans: this build's executor records none, so the "
                "convert and merge totals are 0)\n");
  }
  std::printf("\n%s\n", all_identical ? "every thread count gives the 1-thread results"
                                       : "SOME RESULTS DIFFER from the 1-thread results");
  return all_identical;
}

}  // namespace

int main(int argc, char** argv) {
  Options& options = g_options;
  if (!ParseArgs(argc, argv, &options)) {
    std::fprintf(stderr,
                 "usage: laneql_thread_scaling_bench [--rows N] [--queries FILE] [--only I]\n"
                 "           [--threads-list 1,2,4,8,16,64] [--runs R] [--order rounds|queries]\n"
                 "           [--part speedup|determinism|machine|both] [--group-split auto|rows|keys]\n");
    return 2;
  }
  if (options.machine) laneql::bench::PrintMachineScaling();
  if (!options.speedup && !options.determinism) return 0;
  std::vector<std::string> queries;
  if (!laneql::bench::ReadQueries(options.queries_path, &queries)) return 2;

  std::printf("cpu: %s, %d logical cpus, default threads %d; hits: %zu rows\n",
              laneql::CpuModel().c_str(), laneql::LogicalProcessors(), laneql::DefaultThreads(),
              options.rows);
  const auto start = std::chrono::steady_clock::now();
  laneql::HitsOptions hits;
  hits.rows = options.rows;
  hits.threads = laneql::LogicalProcessors();  // only the generation; it is not timed
  auto generated = std::make_shared<laneql::Table>();
  std::string error;
  if (!laneql::GenerateHits(hits, generated.get(), &error)) {
    std::fprintf(stderr, "error: generating hits failed: %s\n", error.c_str());
    return 1;
  }
  const std::shared_ptr<const laneql::Table> table = std::move(generated);
  std::printf("generated in %.1f s\n\n", laneql::bench::Seconds(start));

  bool ok = true;
  if (options.speedup) {
    const auto part_start = std::chrono::steady_clock::now();
    ok &= RunSpeedup(options, queries, table);
    std::printf("speed-up part took %.1f s\n\n", laneql::bench::Seconds(part_start));
  }
  if (options.determinism) {
    const auto part_start = std::chrono::steady_clock::now();
    ok &= RunDeterminism(options, queries, table);
    std::printf("determinism part took %.1f s\n", laneql::bench::Seconds(part_start));
  }
  return ok ? 0 : 1;
}
