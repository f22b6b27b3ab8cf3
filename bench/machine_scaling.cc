#include "machine_scaling.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <thread>
#include <vector>

#include "bench_util.h"

namespace laneql::bench {
namespace {

constexpr int kRounds = 3;

// A step of a 64-bit linear congruential generator: cheap, and each step needs the last.
inline uint64_t Next(uint64_t x) { return x * 6364136223846793005ull + 1442695040888963407ull; }

// Arithmetic on one register chain: no memory at all.
uint64_t Arithmetic(uint64_t steps, uint64_t seed) {
  uint64_t x = seed;
  for (uint64_t i = 0; i < steps; ++i) x = Next(x) ^ (x >> 13);
  return x;
}

// Random read-modify-writes of `table` (what a hash aggregation does to its states); the next
// address does not wait for the last update, so misses overlap as in a real probe loop.
uint64_t RandomUpdates(std::vector<uint64_t>* table, uint64_t steps, uint64_t seed) {
  uint64_t* words = table->data();
  const uint64_t mask = table->size() - 1;  // a power of two
  uint64_t x = seed;
  for (uint64_t i = 0; i < steps; ++i) {
    x = Next(x);
    words[(x >> 24) & mask] += 1;
  }
  return words[x & mask];
}

// Sequential reads of `data` (a column scan).
uint64_t SequentialReads(const std::vector<uint64_t>& data) {
  uint64_t sum0 = 0, sum1 = 0, sum2 = 0, sum3 = 0;
  const size_t n = data.size() & ~size_t{3};
  for (size_t i = 0; i < n; i += 4) {
    sum0 += data[i];
    sum1 += data[i + 1];
    sum2 += data[i + 2];
    sum3 += data[i + 3];
  }
  return sum0 + sum1 + sum2 + sum3;
}

struct Timing {
  double one = 1e300;  // seconds, 1 thread
  double two = 1e300;  // seconds, 2 threads doing the same work each at once
};

// work(t) on thread 0 alone, then on threads 0 and 1 at once; best of kRounds each.
Timing Measure(const std::function<void(int)>& work) {
  Timing timing;
  work(0);  // first touch of the data, outside the timings
  work(1);
  for (int round = 0; round < kRounds; ++round) {
    auto start = std::chrono::steady_clock::now();
    work(0);
    timing.one = std::min(timing.one, Seconds(start));
    start = std::chrono::steady_clock::now();
    std::thread other([&] { work(1); });
    work(0);
    other.join();
    timing.two = std::min(timing.two, Seconds(start));
  }
  return timing;
}

void PrintRow(const char* probe, const Timing& timing, const char* note) {
  std::printf("%-36s %9.1f %9.1f %8.2fx  %s\n", probe, timing.one * 1e3, timing.two * 1e3,
              2 * timing.one / timing.two, note);
}

}  // namespace

void PrintMachineScaling() {
  std::printf("== machine: what a second thread gains by itself (same work per thread, each on "
              "its own data; best of %d)\n\n", kRounds);
  std::printf("%-36s %9s %9s %9s\n", "probe", "ms 1 thr", "ms 2 thr", "gain");
  // Each thread's results on a cache line of its own (the two threads write at once).
  struct alignas(64) Sink {
    uint64_t value = 0;
  };
  Sink sink[2];
  PrintRow("arithmetic in registers",
           Measure([&](int t) { sink[t].value += Arithmetic(200'000'000, static_cast<uint64_t>(t) + 1); }), "");
  const struct {
    const char* probe;
    size_t mib;
    const char* note;
  } tables[] = {{"random updates, 1 MiB per thread", 1, "in a core's caches"},
                // Fixed sizes: the L3 the system reports is not to be trusted under a hypervisor
                // (this VM's sysconf says 320 MiB, its CPUID 32 MiB).
                {"random updates, 16 MiB per thread", 16, "two fill a 32 MiB L3 (this VM's)"},
                {"random updates, 256 MiB per thread", 256, "in memory"}};
  for (const auto& table : tables) {
    std::vector<std::vector<uint64_t>> data(2, std::vector<uint64_t>((table.mib << 20) / 8, 1));
    const auto updates = [&](int t) {
      const auto side = static_cast<size_t>(t);
      sink[side].value += RandomUpdates(&data[side], 30'000'000, side + 1);
    };
    PrintRow(table.probe, Measure(updates), table.note);
  }
  constexpr size_t kStreamBytes = size_t{256} << 20;
  std::vector<std::vector<uint64_t>> columns(2, std::vector<uint64_t>(kStreamBytes / 8, 1));
  const Timing stream = Measure([&](int t) { sink[t].value += SequentialReads(columns[static_cast<size_t>(t)]); });
  char note[96];
  std::snprintf(note, sizeof(note), "%.1f GB/s on 1 thread, %.1f GB/s on 2", kStreamBytes / stream.one / 1e9,
                2 * kStreamBytes / stream.two / 1e9);
  PrintRow("sequential reads, 256 MiB per thread", stream, note);
  KeepAlive(sink[0].value + sink[1].value);
  std::printf("\n");
}

}  // namespace laneql::bench
