// `laneql gen hits --rows N --out PATH [--seed S] [--threads N]`: the ClickBench-like table our
// generator makes, written as .laneql (the whole table built in memory, then written; past a
// third of the memory, a few columns of every row at a time) or as CSV/TSV (a slice of rows at
// a time: memory stays bounded for any row count either way).
// `laneql gen tpch ...` is cmd_gen_tpch.cc's.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "commands.h"
#include "flags.h"
#include "laneql/csv.h"
#include "laneql/hits_generator.h"
#include "laneql/system_info.h"
#include "laneql/table_file.h"
#include "progress.h"
#include "query_limits.h"
#include "table_loader.h"

namespace laneql::cli {
namespace {

constexpr size_t kCsvSliceRows = size_t{1} << 18;

enum class OutFormat { kLaneql, kCsv, kTsv, kUnknown };

OutFormat FormatOf(const std::string& path) {
  if (HasExtension(path, ".laneql")) return OutFormat::kLaneql;
  if (HasExtension(path, ".csv")) return OutFormat::kCsv;
  if (HasExtension(path, ".tsv")) return OutFormat::kTsv;
  return OutFormat::kUnknown;
}

// `slice` as CSV, formatted by `threads` threads in row ranges
// and concatenated in order (the bytes do not depend on the thread count).
// The hits columns in groups of about `budget` bytes of table each (a column larger alone
// makes a group of its own), in the schema's order.
std::vector<std::vector<std::string>> ColumnGroups(size_t rows, uint64_t budget) {
  std::vector<std::vector<std::string>> groups(1);
  uint64_t group_bytes = 0;
  for (const HitsColumnSpec& spec : HitsSchema()) {
    const uint64_t bytes = static_cast<uint64_t>(EstimateHitsRowBytes({spec.name})) * rows;
    if (!groups.back().empty() && group_bytes + bytes > budget) {
      groups.emplace_back();
      group_bytes = 0;
    }
    groups.back().push_back(spec.name);
    group_bytes += bytes;
  }
  return groups;
}

// The .laneql file of `hits`. A table of over `budget` bytes (0: no limit) is generated a group
// of columns at a time, each group written before the next is made: the generator's columns of a
// subset hold the whole table's values (tests/cpp/hits_generator_test.cc), so the file is the
// same, and a 100 M-row table (about 61 GB) is written on a machine with 24 GB.
bool WriteLaneqlFile(HitsOptions hits, uint64_t budget, const std::string& path, ProgressBar* bar,
                     std::string* error) {
  const uint64_t table_bytes = static_cast<uint64_t>(EstimateHitsRowBytes({})) * hits.rows;
  const std::vector<std::vector<std::string>> groups =
      budget == 0 || table_bytes <= budget ? std::vector<std::vector<std::string>>{{}} : ColumnGroups(hits.rows, budget);
  // The bar (2 n units, as for one group): a column counts 2 n / 105, half for making it (as
  // its group's rows are made), half for writing it.
  const uint64_t n = hits.rows, total_columns = HitsSchema().size();
  size_t group = 0;
  uint64_t columns_before = 0, group_columns = 0;
  if (bar->enabled()) {
    hits.progress = [&](size_t done) {
      bar->Update((2 * n * columns_before + done * group_columns) / total_columns, done, 0);
    };
  }
  auto written = [&](size_t columns) {
    if (!bar->enabled()) return;
    bar->Update((2 * n * columns_before + n * group_columns + n * (columns - columns_before)) / total_columns, n, 0);
  };
  auto next_part = [&](Table* part, std::string* why) {
    if (group == groups.size()) return true;  // an empty part ends the file
    hits.columns = groups[group];
    columns_before += group_columns;
    group_columns = groups[group].empty() ? total_columns : groups[group].size();
    ++group;
    return GenerateHits(hits, part, why);
  };
  return WriteTableFileInParts(next_part, path, error, written);
}

std::string FormatSlice(const Table& slice, const CsvWriteOptions& options, int threads) {
  const size_t rows = slice.num_rows();
  const size_t parts = std::max<size_t>(1, std::min<size_t>(threads, rows / 4096));
  std::vector<std::string> texts(parts);
  auto format_part = [&](size_t p) {
    CsvWriteOptions part_options = options;
    part_options.header = options.header && p == 0;
    AppendCsv(slice, part_options, &texts[p], rows * p / parts, rows * (p + 1) / parts);
  };
  std::vector<std::thread> workers;
  for (size_t p = 1; p < parts; ++p) workers.emplace_back(format_part, p);
  format_part(0);
  for (std::thread& worker : workers) worker.join();
  std::string out;
  for (const std::string& text : texts) out += text;
  return out;
}

bool WriteDelimited(const HitsOptions& hits, const std::string& path, char delimiter,
                    ProgressBar* bar, uint64_t* bytes, std::string* error) {
  const std::string temp = path + ".tmp-gen-" + std::to_string(static_cast<long>(getpid()));
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (file == nullptr) {
    *error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  const auto fail = [&](const std::string& message) {
    std::fclose(file);
    std::remove(temp.c_str());
    *error = message;
    return false;
  };
  CsvWriteOptions options;
  options.delimiter = delimiter;
  for (size_t first = 0; first < hits.rows || first == 0; first += kCsvSliceRows) {
    const size_t count = std::min(kCsvSliceRows, hits.rows - first);
    Table slice;
    if (!GenerateHitsRange(hits, first, count, &slice, error)) return fail(*error);
    options.header = first == 0;
    const std::string text = FormatSlice(slice, options, hits.threads);
    if (std::fwrite(text.data(), 1, text.size(), file) != text.size()) {
      return fail("cannot write '" + path + "': " + std::strerror(errno));
    }
    *bytes += text.size();
    bar->Update(first + count, first + count, *bytes);
    if (hits.rows == 0) break;
  }
  if (std::fclose(file) != 0) {
    std::remove(temp.c_str());
    *error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    std::remove(temp.c_str());
    *error = "cannot rename into '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

void PrintGenUsage() {
  std::printf(
      "usage:\n"
      "  laneql gen hits --rows N --out PATH [--seed S] [--threads N] [--memory SIZE]\n"
      "      the ClickBench-like table hits, N rows, into PATH: .laneql, .csv or .tsv;\n"
      "      a .laneql table over SIZE (default a third of the RAM) is made a few columns\n"
      "      at a time, so 100 M rows (61 GB) fit a machine of 24 GB\n"
      "  laneql gen tpch --sf SF --out DIR [--seed S] [--threads N]\n"
      "      TPC-H's 8 tables at scale factor SF (1 = 6 M lineitem rows, 0.01 and up) into\n"
      "      DIR/<table>.laneql, creating DIR\n"
      "  --seed S picks other data (default %llu); --threads N (default: the physical cores)\n"
      "  changes only the speed: the bytes are the same for every N.\n",
      static_cast<unsigned long long>(HitsOptions().seed));
}

}  // namespace

int RunGen(const std::vector<std::string>& args) {
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") {
      PrintGenUsage();
      return kExitOk;
    }
  }
  if (!args.empty() && args[0] == "tpch") {
    return RunGenTpch(std::vector<std::string>(args.begin() + 1, args.end()));
  }
  Flags flags;
  if (!ParseFlags("gen", args, {{"--rows", "--out", "--seed", "--threads", "--memory"}, {}, 1}, &flags)) {
    return kExitUsage;
  }
  if (flags.positionals.empty()) {
    std::fprintf(stderr,
                 "laneql gen: say which data: laneql gen hits --rows N --out PATH, or "
                 "laneql gen tpch --sf SF --out DIR (laneql gen --help)\n");
    return kExitUsage;
  }
  if (flags.positionals[0] != "hits") {
    std::fprintf(stderr, "laneql gen: no generator for a table '%s' (there are hits and tpch)\n",
                 flags.positionals[0].c_str());
    return kExitUsage;
  }
  if (!flags.Has("--rows") || !flags.Has("--out")) {
    std::fprintf(stderr, "laneql gen: --rows N and --out PATH are required\n");
    return kExitUsage;
  }
  const std::string path = flags.Get("--out", "");
  const OutFormat format = FormatOf(path);
  if (format == OutFormat::kUnknown) {
    std::fprintf(stderr, "laneql gen: --out must end in .laneql, .csv or .tsv, got '%s'\n",
                 path.c_str());
    return kExitUsage;
  }
  uint64_t rows = 0, seed = 0, threads = 0;
  if (!ParseCount("gen", "--rows", flags.Get("--rows", ""), 0, uint64_t{1} << 34, &rows) ||
      !ParseCount("gen", "--seed", flags.Get("--seed", std::to_string(HitsOptions().seed)), 0,
                  UINT64_MAX, &seed) ||
      !ParseCount("gen", "--threads", flags.Get("--threads", "0"), 0, 1024, &threads)) {
    return kExitUsage;
  }
  int64_t budget = static_cast<int64_t>(PhysicalMemoryBytes() / 3);
  if (flags.Has("--memory")) {
    std::string why;
    if (!ParseMemoryLimit(flags.Get("--memory", ""), &budget, &why)) {
      std::fprintf(stderr, "laneql gen: --memory: %s\n", why.c_str());
      return kExitUsage;
    }
  }
  HitsOptions hits;
  hits.rows = static_cast<size_t>(rows);
  hits.seed = seed;
  hits.threads = threads == 0 ? DefaultThreads() : static_cast<int>(threads);

  const auto start = std::chrono::steady_clock::now();
  std::string error;
  uint64_t bytes = 0;
  {
    // A .laneql file: one bar over generating the rows (the first half) and writing the
    // columns (the second, which takes longer).
    const bool laneql_file = format == OutFormat::kLaneql;
    ProgressBar bar("generating " + path, laneql_file ? 2 * hits.rows : hits.rows);
    if (laneql_file) {
      if (!WriteLaneqlFile(hits, static_cast<uint64_t>(budget), path, &bar, &error)) {
        bar.Finish();
        std::fprintf(stderr, "laneql gen: %s\n", error.c_str());
        return kExitDataError;
      }
    } else if (!WriteDelimited(hits, path, format == OutFormat::kTsv ? '\t' : ',', &bar, &bytes,
                               &error)) {
      bar.Finish();
      std::fprintf(stderr, "laneql gen: %s\n", error.c_str());
      return kExitDataError;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::error_code size_error;
  bytes = std::filesystem::file_size(path, size_error);
  std::printf("wrote %llu rows to %s (%.1f MB) in %.2f s: %.2f M rows/s, %d threads\n",
              static_cast<unsigned long long>(rows), path.c_str(), bytes / 1e6, seconds,
              seconds > 0 ? rows / seconds / 1e6 : 0.0, hits.threads);
  return kExitOk;
}

}  // namespace laneql::cli
