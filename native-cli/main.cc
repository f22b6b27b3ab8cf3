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
  std::fprintf(
      out,
      "laneql %s: a columnar analytical query kernel (C++ on Google Highway)\n\n"
      "usage:\n"
      "  laneql [OPTIONS] -c SQL     run SQL (one statement or several, ';'-separated)\n"
      "  laneql [OPTIONS] FILE.sql   run the statements in FILE ('-' = stdin)\n"
      "  laneql [OPTIONS]            an interactive shell on a terminal, else SQL from stdin\n"
      "    --table NAME=PATH         query the file at PATH as NAME (.laneql, .csv, .tsv,\n"
      "                              .parquet); repeatable. SQL can also name files directly:\n"
      "                              SELECT ... FROM 'x.csv'\n"
      "    --format FORMAT           table, csv, tsv, json or markdown (default: table on a\n"
      "                              terminal, tsv otherwise)\n"
      "    --threads N               threads per query; 0 (default) = the physical cores\n"
      "    --target NAME             make dispatch use that SIMD target (e.g. AVX2)\n"
      "    --profile FILE            write each query's timeline (trace-event JSON for\n"
      "                              Perfetto or chrome://tracing) to FILE\n"
      "    --timer                   print each statement's run time\n"
      "    --memory-limit SIZE       a query needing more memory fails (e.g. 512MB, 2GB; default\n"
      "                              80 %% of physical memory; none = no limit)\n"
      "    --timeout TIME            a query running longer fails (e.g. 5s, 250ms)\n"
      "    --rows N, --seed S        the generated table `hits`, made when a query names hits\n"
      "                              and no --table does (default 1000000 rows, seed %llu)\n"
      "    Dot commands (in the shell and in scripts): .tables .schema .timer .mode .threads\n"
      "    .memory_limit .timeout .help .quit\n"
      "  laneql gen hits --rows N --out PATH [--seed S] [--threads N]\n"
      "      generate the hits table into PATH: .laneql, .csv or .tsv\n"
      "  laneql gen tpch --sf SF --out DIR [--seed S] [--threads N]\n"
      "      generate TPC-H's 8 tables at scale factor SF into DIR/<table>.laneql\n"
      "  laneql import IN OUT.laneql [--schema create.sql] [--delimiter C] [--threads N]\n"
      "      convert a .csv/.tsv (or .parquet) file to .laneql\n"
      "  laneql bench --queries FILE --table NAME=PATH [--runs N] [--threads N] [--json OUT]\n"
      "               [--profile-dir DIR] [--target NAME]\n"
      "      time each query (one per line, or ';'-separated): rows, min and median ms,\n"
      "      median CPU ms (all threads); --profile-dir: each query's trace as DIR/q<N>.json\n"
      "  laneql info [--json] [--target NAME]\n"
      "      CPU, compiled/supported/dispatched SIMD targets, threads, version\n"
      "  laneql sum [--rows N] [--type float64|int64|both] [--threads N] [--seed S]\n"
      "             [--runs R] [--target NAME]\n"
      "      SUM over a generated column: SIMD kernel vs scalar reference, GB/s\n"
      "  laneql --version | --help\n\n"
      "Exit status: 0 ok, 1 query or data error (message on stderr, with line:column),\n"
      "2 usage error.\n",
      laneql::Version(), static_cast<unsigned long long>(laneql::HitsOptions().seed));
}

}  // namespace

int main(int argc, char** argv) {
#ifdef LANEQL_HAVE_PARQUET
  laneql::InstallParquetReader();  // FROM 'x.parquet', read_parquet() and --table x.parquet
#endif
  const std::vector<std::string> all(argv + 1, argv + argc);
  const std::string command = all.empty() ? "" : all[0];
  const std::vector<std::string> rest(all.empty() ? all.end() : all.begin() + 1, all.end());
  if (command == "--help" || command == "-h" || command == "help") {
    PrintUsage(stdout);
    return laneql::cli::kExitOk;
  }
  if (command == "--version") {
    std::printf("laneql %s\n", laneql::Version());
    return laneql::cli::kExitOk;
  }
  if (command == "info") return laneql::cli::RunInfo(rest);
  if (command == "sum") return laneql::cli::RunSum(rest);
  if (command == "gen") return laneql::cli::RunGen(rest);
  if (command == "import") return laneql::cli::RunImport(rest);
  if (command == "bench") return laneql::cli::RunBench(rest);
  return laneql::cli::RunSql(all);  // -c SQL, FILE.sql, stdin or the shell
}
