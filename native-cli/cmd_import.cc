// `laneql import IN OUT.laneql [--schema create.sql] [--delimiter C] [--threads N]`: reads a
// CSV/TSV (or Parquet, or another .laneql) file and writes it as a .laneql file, which later
// opens in microseconds and is queried without parsing.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "commands.h"
#include "flags.h"
#include "laneql/csv.h"
#include "laneql/table_file.h"
#include "script.h"
#include "table_loader.h"

namespace laneql::cli {
namespace {

// --delimiter: one character, or "\t" / "tab" for a tab.
bool ParseDelimiter(const std::string& text, char* delimiter) {
  if (text == "\\t" || text == "tab") {
    *delimiter = '\t';
    return true;
  }
  if (text.size() != 1 || text[0] == '\n' || text[0] == '\r' || text[0] == '"') return false;
  *delimiter = text[0];
  return true;
}

}  // namespace

int RunImport(const std::vector<std::string>& args) {
  Flags flags;
  if (!ParseFlags("import", args, {{"--schema", "--delimiter", "--threads"}, {}, 2}, &flags)) {
    return kExitUsage;
  }
  if (flags.positionals.size() != 2) {
    std::fprintf(stderr, "laneql import: usage: laneql import IN.csv OUT.laneql [--schema create.sql]\n");
    return kExitUsage;
  }
  const std::string in = flags.positionals[0], out = flags.positionals[1];
  if (!HasExtension(out, ".laneql")) {
    std::fprintf(stderr, "laneql import: the output must be a .laneql file, got '%s'\n", out.c_str());
    return kExitUsage;
  }
  uint64_t threads = 0;
  if (!ParseCount("import", "--threads", flags.Get("--threads", "0"), 0, 1024, &threads)) {
    return kExitUsage;
  }
  char delimiter = 0;
  if (flags.Has("--delimiter") && !ParseDelimiter(flags.Get("--delimiter", ""), &delimiter)) {
    std::fprintf(stderr, "laneql import: --delimiter takes one character (or \\t), got '%s'\n",
                 flags.Get("--delimiter", "").c_str());
    return kExitUsage;
  }
  std::vector<ColumnSpec> schema;
  if (flags.Has("--schema")) {
    const std::string schema_path = flags.Get("--schema", "");
    std::string sql, table_name, error;
    if (!ReadTextFile(schema_path, &sql, &error)) {
      std::fprintf(stderr, "laneql import: --schema: %s\n", error.c_str());
      return kExitDataError;
    }
    if (!ParseCreateTable(sql, &table_name, &schema, &error)) {
      std::fprintf(stderr, "laneql import: %s: %s\n", schema_path.c_str(), error.c_str());
      return kExitDataError;
    }
  }

  const auto start = std::chrono::steady_clock::now();
  std::shared_ptr<const Table> table;
  std::string error;
  if (!LoadTable(in, static_cast<int>(threads), schema, delimiter, &table, &error) ||
      !WriteTableFile(*table, out, &error)) {
    std::fprintf(stderr, "laneql import: %s\n", error.c_str());
    return kExitDataError;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::error_code size_error;
  const uint64_t in_bytes = std::filesystem::file_size(in, size_error);
  const uint64_t out_bytes = std::filesystem::file_size(out, size_error);
  std::printf("imported %zu rows, %zu columns from %s (%.1f MB) to %s (%.1f MB) in %.2f s\n",
              table->num_rows(), table->num_columns(), in.c_str(), in_bytes / 1e6, out.c_str(),
              out_bytes / 1e6, seconds);
  return kExitOk;
}

}  // namespace laneql::cli
