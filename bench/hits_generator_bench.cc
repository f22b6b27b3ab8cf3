// The hits generator's speed: rows/s and MB/s (bytes of the finished table's buffers) for 1 and
// 2 threads, plus what one generated table weighs and its average URL length.
//
//   build/bench/bench/laneql_hits_generator_bench [rows] [runs]
//
// Every run builds the whole table (all 105 columns, allocation included) and frees it.
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_util.h"
#include "laneql/hits_generator.h"
#include "laneql/system_info.h"

namespace {

// CPU seconds (user + system) this process has used: on a shared machine wall time also
// counts the time other programs held the cores, CPU time does not.
double CpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

size_t TableBytes(const laneql::Table& table) {
  size_t bytes = 0;
  for (size_t c = 0; c < table.num_columns(); ++c) {
    bytes += table.column(c).values_buffer().size() + table.column(c).offsets_buffer().size();
  }
  return bytes;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  std::printf("cpu: %s, %d logical cpus, %zu rows, median of %d\n", laneql::CpuModel().c_str(),
              laneql::LogicalProcessors(), rows, runs);

  laneql::HitsOptions options;
  options.rows = rows;
  laneql::Table table;
  std::string error;
  if (!laneql::GenerateHits(options, &table, &error)) {
    std::fprintf(stderr, "generation failed: %s\n", error.c_str());
    return 1;
  }
  const size_t bytes = TableBytes(table);
  const laneql::Column* url = table.FindColumn("URL");
  std::printf("table: %zu columns, %.1f MB of buffers (%.0f bytes per row), URL %.1f bytes on "
              "average\n",
              table.num_columns(), bytes / 1e6, static_cast<double>(bytes) / rows,
              rows == 0 ? 0.0 : url->Offsets32()[rows] / static_cast<double>(rows));
  table = laneql::Table();

  for (int threads = 1; threads <= 2; ++threads) {
    options.threads = threads;
    bool ok = true;
    const double cpu_before = CpuSeconds();
    const double seconds = laneql::bench::MedianSeconds(runs, [&] {
      laneql::Table generated;
      ok &= laneql::GenerateHits(options, &generated, &error);
      laneql::bench::KeepAlive(generated.num_rows());
    });
    if (!ok) {
      std::fprintf(stderr, "generation failed: %s\n", error.c_str());
      return 1;
    }
    const double cpu = (CpuSeconds() - cpu_before) / runs;
    std::printf("threads %d: %.3f s wall, %.2f M rows/s, %.0f MB/s; %.3f CPU s per table "
                "(%.2f M rows per CPU second)\n",
                threads, seconds, rows / seconds / 1e6, bytes / seconds / 1e6, cpu,
                rows / cpu / 1e6);
  }
  return 0;
}
