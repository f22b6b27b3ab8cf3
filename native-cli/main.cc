// laneql: the command-line front end of the kernel.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "commands.h"
#include "laneql/hits_generator.h"
#include "laneql/version.h"
#ifdef LANEQL_HAVE_PARQUET
#include "laneql/parquet.h"
#endif

namespace {

void PrintUsage(FILE* out) {
  std::fprintf(out,
               "laneql %s: a columnar analytical query kernel (C++ on Google Highway)\n\n"
               "usage:\n"
               "  laneql -c SQL [--rows N] [--seed S] [--threads N] [--profile FILE]\n"
               "            [--format table|csv|tsv|json|markdown]\n"
               "      runs SQL over a generated ClickBench-like `hits` table (--rows, default\n"
               "      1000000; --seed, default %llu); --threads 0 (the default) = physical cores;\n"
               "      --profile writes the query's timeline (trace-event JSON for Perfetto or\n"
               "      chrome://tracing) to FILE; --format defaults to table on a terminal, tsv\n"
               "      otherwise. Exit status: 0 ok, 1 query error (on stderr), 2 usage error.\n"
               "  laneql info [--json] [--target NAME]\n"
               "      CPU, compiled/supported/dispatched SIMD targets, threads, version\n"
               "  laneql sum [--rows N] [--type float64|int64|both] [--threads N] [--seed S]\n"
               "             [--runs R] [--target NAME]\n"
               "      SUM over a generated column: SIMD kernel vs scalar reference, GB/s\n"
               "  laneql --version | --help\n\n"
               "--target NAME makes dispatch use that SIMD target (e.g. AVX2), for comparisons.\n",
               laneql::Version(), static_cast<unsigned long long>(laneql::HitsOptions().seed));
}

}  // namespace

int main(int argc, char** argv) {
#ifdef LANEQL_HAVE_PARQUET
  laneql::InstallParquetReader();  // FROM 'x.parquet' and read_parquet() in SQL
#endif
  if (argc < 2) {
    PrintUsage(stderr);
    return laneql::cli::kExitUsage;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  if (command == "--help" || command == "-h" || command == "help") {
    PrintUsage(stdout);
    return laneql::cli::kExitOk;
  }
  if (command == "--version") {
    std::printf("laneql %s\n", laneql::Version());
    return laneql::cli::kExitOk;
  }
  if (command == "info") return laneql::cli::RunInfo(args);
  if (command == "sum") return laneql::cli::RunSum(args);
  if (command == "-c") return laneql::cli::RunSql(args);
  std::fprintf(stderr, "laneql: unknown command '%s' (try laneql --help)\n", command.c_str());
  return laneql::cli::kExitUsage;
}
