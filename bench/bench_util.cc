#include "bench_util.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

namespace laneql::bench {

double ProbeReadGBs(size_t bytes, int threads, int runs) {
  // glibc's memchr is hand-vectorised for this CPU and stops at the first match; searching a
  // byte that is absent makes it stream through the whole buffer exactly once.
  std::vector<uint8_t> buf(bytes, 0);
  const double s = MedianSeconds(runs, [&] {
    std::vector<std::thread> pool;
    const size_t part = buf.size() / threads;
    for (int t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        if (std::memchr(buf.data() + t * part, 1, part) != nullptr) std::abort();  // no 1 byte
      });
    }
    for (std::thread& th : pool) th.join();
  });
  return buf.size() / s / 1e9;
}

void PrintHeader() {
  std::printf("%-28s %-9s %2s  %13s  %15s  %s\n", "kernel", "target", "th", "bandwidth", "rows",
              "share of probe");
}

void Row(const std::string& kernel, const std::string& target, int threads, size_t bytes,
         size_t rows, double seconds, double probe_gbs) {
  const double gbs = bytes / seconds / 1e9;
  std::printf("%-28s %-9s %2d  %8.2f GB/s  %8.0f Mrows/s  %5.0f%%\n", kernel.c_str(),
              target.c_str(), threads, gbs, rows / seconds / 1e6, 100.0 * gbs / probe_gbs);
}

bool ReadQueries(const std::string& path, std::vector<std::string>* queries) {
  std::ifstream in(path);
  if (!in) {
    std::fprintf(stderr, "error: cannot read %s (pass --queries FILE)\n", path.c_str());
    return false;
  }
  std::string line;  // one query per line, as ClickBench's queries.sql
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) queries->push_back(line);
  }
  return true;
}

}  // namespace laneql::bench
