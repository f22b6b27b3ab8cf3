// CSV ingest speed: generates hits rows, writes them as CSV, then reads the file back with the
// create.sql schema (the generator's schema, the same types) and once more with type inference,
// at 1 and 2 threads; prints the median MB/s (file bytes) and rows/s per thread count.
//
//   build/bench/laneql_csv_ingest_bench [--rows N] [--file PATH] [--runs R] [--keep]
//
// bench/csv_ingest_duckdb.py times DuckDB's read_csv on the same file for comparison.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bench_util.h"
#include "laneql/csv.h"
#include "laneql/hits_generator.h"
#include "laneql/system_info.h"

int main(int argc, char** argv) {
  size_t rows = 1000000;
  std::string path = "/tmp/laneql_csv_ingest_bench.csv";
  int runs = 3;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--rows" && i + 1 < argc) {
      rows = std::strtoull(argv[++i], nullptr, 10);
    } else if (arg == "--file" && i + 1 < argc) {
      path = argv[++i];
    } else if (arg == "--runs" && i + 1 < argc) {
      runs = std::atoi(argv[++i]);
    } else if (arg == "--keep") {
      keep = true;
    } else {
      std::fprintf(stderr, "usage: %s [--rows N] [--file PATH] [--runs R] [--keep]\n", argv[0]);
      return 2;
    }
  }
  std::string error;
  {
    laneql::HitsOptions options;
    options.rows = rows;
    options.threads = 2;
    laneql::Table table;
    if (!laneql::GenerateHits(options, &table, &error) ||
        !laneql::WriteCsvFile(table, path, {}, &error)) {
      std::fprintf(stderr, "%s\n", error.c_str());
      return 1;
    }
  }
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return 1;
  std::fseek(f, 0, SEEK_END);
  const double mb = static_cast<double>(std::ftell(f)) / 1e6;
  std::fclose(f);
  std::printf("cpu: %s, %d logical cpus; %zu rows, %.1f MB CSV at %s; median of %d runs\n",
              laneql::CpuModel().c_str(), laneql::LogicalProcessors(), rows, mb, path.c_str(),
              runs);
  std::printf("%-10s %8s %10s %12s\n", "schema", "threads", "MB/s", "rows/s");
  for (const bool inferred : {false, true}) {
    for (int threads : {1, 2}) {
      laneql::CsvReadOptions options;
      options.threads = threads;
      if (!inferred) {
        for (const laneql::HitsColumnSpec& spec : laneql::HitsSchema()) {
          options.schema.push_back({spec.name, spec.type});
        }
      }
      bool ok = true;
      const double seconds = laneql::bench::MedianSeconds(runs, [&] {
        laneql::Table table;
        laneql::CsvReadStats stats;
        if (!laneql::ReadCsvFile(path, options, &table, &stats, &error) || stats.rows != rows) {
          ok = false;
        }
      });
      if (!ok) {
        std::fprintf(stderr, "read failed: %s\n", error.c_str());
        return 1;
      }
      std::printf("%-10s %8d %10.1f %12.0f\n", inferred ? "inferred" : "create.sql", threads,
                  mb / seconds, static_cast<double>(rows) / seconds);
    }
  }
  if (!keep) std::remove(path.c_str());
  return 0;
}
