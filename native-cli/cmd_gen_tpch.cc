// `laneql gen tpch --sf SF --out DIR [--seed S] [--threads N]`: TPC-H's 8 tables from the
// kernel's generator, written as DIR/<table>.laneql. One table is in memory at a time (built,
// written, dropped), so the largest, lineitem, bounds the memory.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <system_error>
#include <vector>

#include "commands.h"
#include "flags.h"
#include "laneql/system_info.h"
#include "laneql/table_file.h"
#include "laneql/tpch_generator.h"
#include "progress.h"

namespace laneql::cli {
namespace {

// A positive finite number, the whole text (strtod alone would take "0.1x" as 0.1).
bool ParseScaleFactor(const std::string& text, double* out) {
  if (text.empty()) return false;
  errno = 0;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value) ||
      !(value > 0)) {
    return false;
  }
  *out = value;
  return true;
}

// DIR, created with its parents if need be; false with the reason if it cannot be written to.
bool PrepareDirectory(const std::string& dir, std::string* error) {
  std::error_code code;
  std::filesystem::create_directories(dir, code);
  if (code) {
    *error = "cannot create directory '" + dir + "': " + code.message();
    return false;
  }
  if (!std::filesystem::is_directory(dir, code)) {
    *error = "'" + dir + "' is not a directory";
    return false;
  }
  if (access(dir.c_str(), W_OK) != 0) {
    *error = "cannot write into '" + dir + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

// Builds and writes one table under one progress bar: generating the rows is its first half,
// writing the columns the second (as for gen hits).
bool WriteTable(TpchOptions options, const std::string& name, const std::string& path,
                uint64_t* rows, std::string* error) {
  *rows = TpchTableRows(options, name);
  ProgressBar bar("generating " + path, 2 * *rows);
  Table table;
  std::function<void(size_t)> written;
  if (bar.enabled()) {
    options.progress = [&bar](size_t done) { bar.Update(done, done, 0); };
    const uint64_t n = *rows;
    written = [&bar, &table, n](size_t columns) {
      bar.Update(n + n * columns / std::max<size_t>(table.num_columns(), 1), n, 0);
    };
  }
  const bool ok = GenerateTpchTable(options, name, &table, error) &&
                  WriteTableFile(table, path, error, written);
  bar.Finish();
  return ok;
}

}  // namespace

int RunGenTpch(const std::vector<std::string>& args) {
  Flags flags;
  if (!ParseFlags("gen tpch", args, {{"--sf", "--out", "--seed", "--threads"}, {}, 0}, &flags)) {
    return kExitUsage;
  }
  if (!flags.Has("--sf") || !flags.Has("--out")) {
    std::fprintf(stderr, "laneql gen tpch: --sf SF and --out DIR are required\n");
    return kExitUsage;
  }
  TpchOptions options;
  const std::string sf_text = flags.Get("--sf", "");
  if (!ParseScaleFactor(sf_text, &options.scale_factor)) {
    std::fprintf(stderr,
                 "laneql gen tpch: --sf must be a scale factor > 0 such as 0.01 or 1, got '%s'\n",
                 sf_text.c_str());
    return kExitUsage;
  }
  uint64_t seed = 0, threads = 0;
  if (!ParseCount("gen tpch", "--seed", flags.Get("--seed", std::to_string(options.seed)), 0,
                  UINT64_MAX, &seed) ||
      !ParseCount("gen tpch", "--threads", flags.Get("--threads", "0"), 0, 1024, &threads)) {
    return kExitUsage;
  }
  options.seed = seed;
  options.threads = threads == 0 ? DefaultThreads() : static_cast<int>(threads);

  // Refused before anything is written: a scale too large for memory, an unusable DIR.
  const std::string dir = flags.Get("--out", "");
  std::string error;
  if (!CheckTpchScale(options.scale_factor, false, &error) || !PrepareDirectory(dir, &error)) {
    std::fprintf(stderr, "laneql gen tpch: %s\n", error.c_str());
    return kExitDataError;
  }
  const auto start = std::chrono::steady_clock::now();
  uint64_t total_rows = 0, total_bytes = 0;
  for (const std::string& name : TpchTableNames()) {
    const std::string path = (std::filesystem::path(dir) / (name + ".laneql")).string();
    const auto table_start = std::chrono::steady_clock::now();
    uint64_t rows = 0;
    if (!WriteTable(options, name, path, &rows, &error)) {
      std::fprintf(stderr, "laneql gen tpch: %s\n", error.c_str());
      return kExitDataError;
    }
    std::error_code size_error;
    const uint64_t bytes = std::filesystem::file_size(path, size_error);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - table_start).count();
    std::printf("wrote %llu rows to %s (%.1f MB) in %.2f s\n",
                static_cast<unsigned long long>(rows), path.c_str(), bytes / 1e6, seconds);
    total_rows += rows;
    total_bytes += bytes;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("wrote TPC-H SF %g (seed %llu): %llu rows in 8 tables to %s (%.1f MB) in %.2f s, "
              "%d threads\n",
              options.scale_factor, static_cast<unsigned long long>(options.seed),
              static_cast<unsigned long long>(total_rows), dir.c_str(), total_bytes / 1e6,
              seconds, options.threads);
  return kExitOk;
}

}  // namespace laneql::cli
