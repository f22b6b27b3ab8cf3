// The .laneql file end to end: writing generated hits rows, opening the file (median of 20), and
// the first and hot runs of two queries on the opened table, with the lazy column check timed
// on its own. The file is written just before, so it is in the page cache: "first" here means
// first touch of the mapping, not a cold disk.
//
//   build/bench/laneql_table_file_bench [--rows N] [--file PATH] [--keep]
//
// Defaults: 10,000,000 rows (about 5 s to generate and several GB of memory), written to
// /tmp/hits_bench.laneql and removed at the end unless --keep.
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <utility>

#include "bench_util.h"
#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/system_info.h"
#include "laneql/table_file.h"

namespace {

using laneql::bench::MedianSeconds;
using laneql::bench::Seconds;
using Clock = std::chrono::steady_clock;

struct Options {
  size_t rows = 10'000'000;
  std::string file = "/tmp/hits_bench.laneql";
  bool keep = false;
};

bool ParseArgs(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--keep") {
      options->keep = true;
    } else if ((arg == "--rows" || arg == "--file") && i + 1 < argc) {
      const std::string value = argv[++i];
      if (arg == "--rows") {
        options->rows = std::strtoull(value.c_str(), nullptr, 10);
      } else {
        options->file = value;
      }
    } else {
      std::fprintf(stderr, "unknown or incomplete argument: %s\n", arg.c_str());
      return false;
    }
  }
  return true;
}

// Runs `sql`, failing the benchmark on an error; returns the seconds it took.
double TimeQuery(const laneql::Database& db, const std::string& sql) {
  const auto start = Clock::now();
  const laneql::Result result = db.Query(sql);
  const double seconds = Seconds(start);
  if (!result.ok()) {
    std::fprintf(stderr, "%s failed: %s\n", sql.c_str(), result.error().c_str());
    std::exit(1);
  }
  laneql::bench::KeepAlive(result.num_rows());
  return seconds;
}

void PrintQuery(const char* label, double seconds) {
  std::printf("  %-44s %10.3f ms\n", label, seconds * 1e3);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!ParseArgs(argc, argv, &options)) {
    std::fprintf(stderr, "usage: laneql_table_file_bench [--rows N] [--file PATH] [--keep]\n");
    return 1;
  }
  std::printf("cpu: %s, %d logical cpus, %zu rows, file %s\n", laneql::CpuModel().c_str(),
              laneql::LogicalProcessors(), options.rows, options.file.c_str());
  std::string error;

  // Generate, then write.
  laneql::HitsOptions hits;
  hits.rows = options.rows;
  hits.threads = static_cast<int>(std::thread::hardware_concurrency());
  auto generated = std::make_unique<laneql::Table>();
  auto start = Clock::now();
  if (!laneql::GenerateHits(hits, generated.get(), &error)) {
    std::fprintf(stderr, "generation failed: %s\n", error.c_str());
    return 1;
  }
  std::printf("generate: %.2f s\n", Seconds(start));
  start = Clock::now();
  if (!laneql::WriteTableFile(*generated, options.file, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  const double write_seconds = Seconds(start);
  generated.reset();  // the mapping below is all the queries use
  laneql::Table probe;
  if (!laneql::OpenTableFile(options.file, &probe, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  struct stat info {};
  ::stat(options.file.c_str(), &info);
  const double file_bytes = static_cast<double>(info.st_size);
  const size_t columns = probe.num_columns();
  std::printf("write:  %.2f s, %.1f MB file, %.0f MB/s (fsync included)\n", write_seconds,
              file_bytes / 1e6,
              file_bytes / 1e6 / write_seconds);
  probe = laneql::Table();

  // Open: header and directory only.
  const double open_seconds = MedianSeconds(20, [&] {
    laneql::Table table;
    if (!laneql::OpenTableFile(options.file, &table, &error)) std::exit(1);
  });
  std::printf("open:   %.1f us (median of 20; %zu columns)\n", open_seconds * 1e6, columns);

  // Queries on a freshly opened table.
  auto table = std::make_shared<laneql::Table>();
  if (!laneql::OpenTableFile(options.file, table.get(), &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  laneql::Database db;
  if (!db.Register("hits", std::shared_ptr<const laneql::Table>(table), &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  const std::string count_sql = "SELECT count(*) FROM hits";
  const std::string sum_sql = "SELECT sum(ResolutionWidth) FROM hits";
  std::printf("queries (%d threads):\n", db.threads());
  PrintQuery("count(*) first", TimeQuery(db, count_sql));
  const laneql::Column* width = table->FindColumn("ResolutionWidth");
  start = Clock::now();
  if (width == nullptr || !width->Verify(&error)) {
    std::fprintf(stderr, "verify failed: %s\n", error.c_str());
    return 1;
  }
  const double verify_seconds = Seconds(start);
  const double width_mb = width->values_buffer().size() / 1e6;
  std::printf("  %-44s %10.3f ms (%.1f MB, %.2f GB/s)\n", "Verify(ResolutionWidth) first",
              verify_seconds * 1e3, width_mb, width_mb / 1e3 / verify_seconds);
  start = Clock::now();
  width->Verify(&error);
  PrintQuery("Verify(ResolutionWidth) again (cached)", Seconds(start));
  PrintQuery("sum(ResolutionWidth) first (after verify)", TimeQuery(db, sum_sql));
  PrintQuery("count(*) hot (median of 10)",
             MedianSeconds(10, [&] { TimeQuery(db, count_sql); }));
  PrintQuery("sum(ResolutionWidth) hot (median of 10)",
             MedianSeconds(10, [&] { TimeQuery(db, sum_sql); }));

  // The whole file's lazy checks at once: the checksum's speed over real columns.
  start = Clock::now();
  if (!laneql::VerifyTableFile(options.file, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    return 1;
  }
  const double verify_all = Seconds(start);
  std::printf("verify every column: %.1f ms, %.2f GB/s\n", verify_all * 1e3,
              file_bytes / 1e9 / verify_all);
  if (!options.keep) ::unlink(options.file.c_str());
  return 0;
}
