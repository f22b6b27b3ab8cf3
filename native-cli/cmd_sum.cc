#include "commands.h"

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/result_printers.h"
#include "laneql/sum.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"
#include "laneql/version.h"

namespace laneql::cli {
namespace {

// Parsed `--name value`, `--name=value` and bare `--switch` arguments of one subcommand.
struct Flags {
  std::map<std::string, std::string> values;
  bool Has(const std::string& name) const { return values.count(name) != 0; }
  std::string Get(const std::string& name, const std::string& fallback) const {
    auto it = values.find(name);
    return it == values.end() ? fallback : it->second;
  }
};

// `with_value` and `switches` list the flags the subcommand knows; anything else is an error.
bool ParseFlags(const char* command, const std::vector<std::string>& args,
                const std::vector<std::string>& with_value,
                const std::vector<std::string>& switches, Flags* flags) {
  auto known = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  for (size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i], value;
    const size_t eq = name.find('=');
    const bool inline_value = name.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (known(switches, name) && !inline_value) {
      flags->values[name] = "1";
    } else if (known(with_value, name)) {
      if (!inline_value) {
        if (i + 1 >= args.size()) {
          std::fprintf(stderr, "laneql %s: %s needs a value\n", command, name.c_str());
          return false;
        }
        value = args[++i];
      }
      flags->values[name] = value;
    } else {
      std::fprintf(stderr, "laneql %s: unknown argument '%s' (try laneql --help)\n", command,
                   args[i].c_str());
      return false;
    }
  }
  return true;
}

// A whole number in [min, max], or an error naming the flag.
bool ParseCount(const char* command, const std::string& flag, const std::string& text,
                uint64_t min, uint64_t max, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || *end != '\0' || errno != 0 || v < min || v > max) {
    std::fprintf(stderr, "laneql %s: %s must be a whole number from %llu to %llu, got '%s'\n",
                 command, flag.c_str(), static_cast<unsigned long long>(min),
                 static_cast<unsigned long long>(max), text.c_str());
    return false;
  }
  *out = v;
  return true;
}

bool ApplyTarget(const char* command, const Flags& flags) {
  if (!flags.Has("--target")) return true;
  std::string error;
  if (ForceTarget(flags.Get("--target", ""), &error)) return true;
  std::fprintf(stderr, "laneql %s: %s\n", command, error.c_str());
  return false;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string JsonNames(const std::vector<SimdTarget>& targets) {
  std::string out = "[";
  for (size_t i = 0; i < targets.size(); ++i) out += (i ? ", " : "") + JsonString(targets[i].name);
  return out + "]";
}

std::string PlainNames(const std::vector<SimdTarget>& targets) {
  std::string out;
  for (const SimdTarget& t : targets) out += (out.empty() ? "" : " ") + t.name;
  return out;
}

// splitmix64: tiny, fast, and the same sequence on every platform for a given seed.
struct SplitMix64 {
  uint64_t state;
  uint64_t Next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
};

template <class Fn>
double MedianMs(int runs, const Fn& fn) {
  std::vector<double> ms;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

void PrintTiming(const char* what, size_t bytes, double ms) {
  std::printf("  %-22s %9.3f ms  %7.2f GB/s\n", what, ms, bytes / (ms * 1e6));
}

}  // namespace

int RunInfo(const std::vector<std::string>& args) {
  Flags flags;
  if (!ParseFlags("info", args, {"--target"}, {"--json"}, &flags)) return kExitUsage;
  if (!ApplyTarget("info", flags)) return kExitUsage;
  const std::string cpu = CpuModel();
  const std::vector<SimdTarget> compiled = CompiledTargets(), supported = SupportedTargets();
  const SimdTarget dispatched = DispatchedTarget();
  if (flags.Has("--json")) {
    std::printf(
        "{\"version\": %s, \"cpu\": %s, \"compiled_targets\": %s, \"supported_targets\": %s, "
        "\"dispatched_target\": %s, \"logical_processors\": %d, \"threads\": %d}\n",
        JsonString(Version()).c_str(), JsonString(cpu).c_str(), JsonNames(compiled).c_str(),
        JsonNames(supported).c_str(), JsonString(dispatched.name).c_str(), LogicalProcessors(),
        DefaultThreads());
  } else {
    std::printf("laneql            %s\n", Version());
    std::printf("cpu               %s\n", cpu.c_str());
    std::printf("compiled targets  %s\n", PlainNames(compiled).c_str());
    std::printf("supported targets %s\n", PlainNames(supported).c_str());
    std::printf("dispatched target %s%s\n", dispatched.name.c_str(),
                flags.Has("--target") ? " (forced by --target)" : "");
    std::printf("logical cpus      %d\n", LogicalProcessors());
    std::printf("threads           %d (default: physical cores)\n", DefaultThreads());
  }
  return kExitOk;
}

int RunSum(const std::vector<std::string>& args) {
  Flags flags;
  if (!ParseFlags("sum", args, {"--rows", "--type", "--threads", "--seed", "--runs", "--target"},
                  {}, &flags)) {
    return kExitUsage;
  }
  uint64_t rows = 0, threads = 0, seed = 0, runs = 0;
  if (!ParseCount("sum", "--rows", flags.Get("--rows", "10000000"), 0, uint64_t{1} << 34, &rows) ||
      !ParseCount("sum", "--threads", flags.Get("--threads", std::to_string(DefaultThreads())), 1,
                  1024, &threads) ||
      !ParseCount("sum", "--seed", flags.Get("--seed", "42"), 0, UINT64_MAX, &seed) ||
      !ParseCount("sum", "--runs", flags.Get("--runs", "5"), 1, 1000, &runs)) {
    return kExitUsage;
  }
  const std::string type = flags.Get("--type", "both");
  if (type != "float64" && type != "int64" && type != "both") {
    std::fprintf(stderr, "laneql sum: --type must be float64, int64 or both, got '%s'\n",
                 type.c_str());
    return kExitUsage;
  }
  if (!ApplyTarget("sum", flags)) return kExitUsage;

  const int t = static_cast<int>(threads), r = static_cast<int>(runs);
  std::printf("SUM over %llu generated rows, seed %llu, target %s, %d thread%s, median of %d\n",
              static_cast<unsigned long long>(rows), static_cast<unsigned long long>(seed),
              DispatchedTarget().name.c_str(), t, t == 1 ? "" : "s", r);
  bool all_match = true;
  if (type != "int64") {
    std::vector<double> column(rows);
    SplitMix64 rng{seed};
    // Prices-like values with a sign and four decimal digits of magnitude spread.
    for (double& v : column) v = (static_cast<int64_t>(rng.Next() % 2000001) - 1000000) / 100.0;
    double simd = 0, scalar = 0;
    const double simd_ms = MedianMs(r, [&] { simd = SumFloat64Parallel(column.data(), rows, t); });
    const double ref_ms = MedianMs(r, [&] { scalar = reference::SumFloat64(column.data(), rows); });
    const bool match = std::memcmp(&simd, &scalar, sizeof(double)) == 0;
    all_match &= match;
    std::printf("float64  sum = %.17g  (scalar reference %.17g: %s)\n", simd, scalar,
                match ? "bit-identical" : "MISMATCH");
    PrintTiming("SIMD kernel", rows * sizeof(double), simd_ms);
    PrintTiming("scalar ref (1 thread)", rows * sizeof(double), ref_ms);
    std::printf("  SIMD kernel vs scalar reference: %.2fx\n", ref_ms / simd_ms);
  }
  if (type != "float64") {
    std::vector<int64_t> column(rows);
    SplitMix64 rng{seed ^ 0x5EEDull};
    // The whole int64 range: the sum overflows 64 bits, which SUM(BIGINT) must survive.
    for (int64_t& v : column) v = static_cast<int64_t>(rng.Next());
    Int128 simd = 0, scalar = 0;
    const double simd_ms = MedianMs(r, [&] { simd = SumInt64Parallel(column.data(), rows, t); });
    const double ref_ms = MedianMs(r, [&] { scalar = reference::SumInt64(column.data(), rows); });
    const bool match = simd == scalar;
    all_match &= match;
    std::printf("int64    sum = %s  (scalar reference %s: %s)\n", Int128ToString(simd).c_str(),
                Int128ToString(scalar).c_str(), match ? "equal" : "MISMATCH");
    PrintTiming("SIMD kernel", rows * sizeof(int64_t), simd_ms);
    PrintTiming("scalar ref (1 thread)", rows * sizeof(int64_t), ref_ms);
    std::printf("  SIMD kernel vs scalar reference: %.2fx\n", ref_ms / simd_ms);
  }
  return all_match ? kExitOk : kExitDataError;
}

int RunSql(const std::vector<std::string>& args) {
  if (args.empty()) {
    std::fprintf(stderr, "laneql -c: missing SQL (laneql -c \"SELECT ...\"; try laneql --help)\n");
    return kExitUsage;
  }
  const std::string& sql = args[0];
  if (sql.find_first_not_of(" \t\r\n") == std::string::npos) {
    std::fprintf(stderr, "laneql -c: the SQL text is empty\n");
    return kExitUsage;
  }
  Flags flags;
  if (!ParseFlags("-c", std::vector<std::string>(args.begin() + 1, args.end()),
                  {"--rows", "--seed", "--threads", "--profile", "--format"}, {}, &flags)) {
    return kExitUsage;
  }
  uint64_t rows = 0, seed = 0, threads = 0;
  if (!ParseCount("-c", "--rows", flags.Get("--rows", "1000000"), 0, uint64_t{1} << 34, &rows) ||
      !ParseCount("-c", "--seed", flags.Get("--seed", std::to_string(HitsOptions().seed)), 0,
                  UINT64_MAX, &seed) ||
      !ParseCount("-c", "--threads", flags.Get("--threads", "0"), 0, 1024, &threads)) {
    return kExitUsage;
  }
  // Without --format: the aligned table for a person at a terminal, TSV for a pipe or a file.
  const std::string format = flags.Get("--format", isatty(STDOUT_FILENO) ? "table" : "tsv");
  if (format != "table" && format != "csv" && format != "tsv" && format != "json" &&
      format != "markdown") {
    std::fprintf(stderr,
                 "laneql -c: --format must be table, csv, tsv, json or markdown, got '%s'\n",
                 format.c_str());
    return kExitUsage;
  }
  const std::string profile_path = flags.Get("--profile", "");
  if (flags.Has("--profile") && profile_path.empty()) {
    std::fprintf(stderr, "laneql -c: --profile needs a file name\n");
    return kExitUsage;
  }

  DatabaseOptions db_options;
  db_options.threads = static_cast<int>(threads);  // 0: the physical cores
  db_options.profile = !profile_path.empty();
  db_options.profile_path = profile_path;
  Database db(db_options);
  HitsOptions hits;
  hits.rows = static_cast<size_t>(rows);
  hits.seed = seed;
  hits.threads = db.threads();  // the bytes are the same for every thread count
  Table table;
  std::string error;
  if (!GenerateHits(hits, &table, &error) || !db.Register("hits", std::move(table), &error)) {
    std::fprintf(stderr, "laneql -c: generating the hits table failed: %s\n", error.c_str());
    return kExitDataError;
  }
  const Result result = db.Query(sql);
  if (!result.ok()) {
    // The message says where in the SQL text the problem is (line and column) when it can.
    std::fprintf(stderr, "laneql: %s\n", result.error().c_str());
    return kExitDataError;
  }
  std::string out;
  if (format == "table") {
    out = PrintTable(result);
  } else if (format == "csv") {
    out = PrintCsv(result);
  } else if (format == "tsv") {
    out = PrintTsv(result);
  } else if (format == "json") {
    out = PrintJson(result);
  } else {
    out = PrintMarkdown(result);
  }
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "laneql -c: writing the result failed: %s\n", std::strerror(errno));
    return kExitDataError;
  }
  if (db_options.profile && db.LastProfileJson().empty()) {
    std::fprintf(stderr, "laneql -c: this build records no query profile; %s was not written\n",
                 profile_path.c_str());
  }
  return kExitOk;
}

}  // namespace laneql::cli
