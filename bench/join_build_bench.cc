// The hash join's table (exec::JoinBuildTable): build and probe rates at 1, 2 and 4 threads,
// for build sides of unique int64 keys (a primary key, as orders' o_orderkey) and of keys with
// about 4 rows each (a foreign key, as lineitem's l_orderkey). The probe side is as many rows
// again, half of them matching. Before timing, the table built on each thread count is probed
// and its pairs compared with the 1-thread table's: the layout must not depend on the threads.
//
//   build/native/bench/laneql_join_build_bench [--rows N] [--runs N]
//
// Defaults: 6,000,000 build rows (TPC-H SF 1's lineitem), 5 runs, medians.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "bench_util.h"
#include "laneql/column.h"
#include "src/exec/hash_join.h"
#include "src/exec/thread_pool.h"

namespace {

using laneql::Column;
using laneql::TypeId;
using laneql::bench::MedianSeconds;
namespace exec = laneql::exec;

Column Int64Column(const std::vector<int64_t>& values) {
  Column column(TypeId::kInt64);
  std::string error;
  if (!Column::Zeroed(TypeId::kInt64, values.size(), &column, &error)) {
    std::fprintf(stderr, "%s\n", error.c_str());
    std::exit(1);
  }
  std::memcpy(column.MutableValues<int64_t>(), values.data(), values.size() * sizeof(int64_t));
  return column;
}

exec::ExecContext Context(exec::ThreadPool* pool, int threads) {
  exec::ExecContext ctx;
  ctx.pool = pool;
  ctx.threads = threads;
  return ctx;
}

bool Probe(const exec::JoinBuildTable& table, const Column& probe, exec::MatchPairs* pairs) {
  std::string error;
  if (table.Probe({&probe}, pairs, &error)) return true;
  std::fprintf(stderr, "probe failed: %s\n", error.c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  size_t rows = 6000000;
  int runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rows") == 0) rows = std::strtoull(argv[i + 1], nullptr, 10);
    if (std::strcmp(argv[i], "--runs") == 0) runs = std::atoi(argv[i + 1]);
  }
  exec::ThreadPool pool(4);
  std::mt19937_64 rng(42);
  std::printf("%-22s %8s %12s %14s %12s\n", "build keys", "threads", "build ms", "build Mrows/s", "speed-up");
  for (const size_t per_key : {size_t{1}, size_t{4}}) {
    std::vector<int64_t> keys(rows), probe_keys(rows);
    for (size_t r = 0; r < rows; ++r) keys[r] = static_cast<int64_t>(r / per_key);
    std::shuffle(keys.begin(), keys.end(), rng);
    const int64_t distinct = static_cast<int64_t>((rows + per_key - 1) / per_key);
    for (int64_t& k : probe_keys) k = static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * distinct));
    const Column build = Int64Column(keys), probe = Int64Column(probe_keys);
    exec::MatchPairs reference;
    double one_thread = 0;
    for (int threads : {1, 2, 4}) {
      const exec::ExecContext ctx = Context(&pool, threads);
      exec::JoinBuildTable table;
      std::string error;
      if (!table.Build({&build}, ctx, &error)) {
        std::fprintf(stderr, "build failed: %s\n", error.c_str());
        return 1;
      }
      exec::MatchPairs pairs;
      if (!Probe(table, probe, &pairs)) return 1;
      if (threads == 1) {
        reference = std::move(pairs);
      } else if (pairs.probe_rows != reference.probe_rows || pairs.build_rows != reference.build_rows) {
        std::fprintf(stderr, "the table built on %d threads gives other pairs than on 1\n", threads);
        return 1;
      }
      const double seconds = MedianSeconds(runs, [&] {
        exec::JoinBuildTable timed;
        if (!timed.Build({&build}, ctx, &error)) std::exit(1);
      });
      if (threads == 1) one_thread = seconds;
      char name[32];
      std::snprintf(name, sizeof(name), "%zu row%s a key", per_key, per_key == 1 ? "" : "s");
      std::printf("%-22s %8d %12.1f %14.1f %11.2fx\n", name, threads, seconds * 1e3, rows / seconds / 1e6,
                  one_thread / seconds);
    }
  }
  return 0;
}
