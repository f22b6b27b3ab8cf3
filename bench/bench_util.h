// Shared pieces of the benchmarks: median timing, a read-bandwidth probe measured in the same
// program, and one table row format, so every kernel family reports against the same yardstick.
#ifndef LANEQL_BENCH_BENCH_UTIL_H_
#define LANEQL_BENCH_BENCH_UTIL_H_

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace laneql::bench {

// Median wall time of `runs` calls of fn, in seconds.
template <class Fn>
double MedianSeconds(int runs, const Fn& fn) {
  std::vector<double> s;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    fn();
    s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(s.begin(), s.end());
  return s[s.size() / 2];
}

// Read bandwidth in GB/s of `threads` threads streaming once over `bytes` bytes (median of runs).
double ProbeReadGBs(size_t bytes, int threads, int runs);

// Prints the header of the table Row() fills.
void PrintHeader();
// One row: kernel, target, threads, GB/s, Mrows/s, and GB/s as a share of `probe_gbs`.
void Row(const std::string& kernel, const std::string& target, int threads, size_t bytes,
         size_t rows, double seconds, double probe_gbs);

// The SQL benchmarks' query file: one query per non-blank line, as ClickBench's queries.sql.
// False, with a message on stderr, when the file cannot be read.
bool ReadQueries(const std::string& path, std::vector<std::string>* queries);

// Seconds since `start`.
inline double Seconds(const std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Keeps a computed value alive so the optimiser cannot drop the work that produced it.
template <class T>
void KeepAlive(const T& value) {
  asm volatile("" : : "r,m"(value) : "memory");
}

}  // namespace laneql::bench

#endif  // LANEQL_BENCH_BENCH_UTIL_H_
