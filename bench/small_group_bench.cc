// Small-key GROUP BY per SIMD target and interleave K, against the scalar reference (one plain
// loop, one table per state) and the read-bandwidth probe:
//  - uint8 keys, AVG(float64): cache-resident (64 K rows, repeated) and memory-resident;
//  - uint8 keys, COUNT(*) only (GROUP BY AdvEngineID), uniform and 90 % on one key;
//  - uint8 keys 90 % skewed, SUM/AVG(int32) and MIN/MAX(int64);
//  - int32 keys over 4096 slots (offset 100000), uniform, AVG(int32);
//  - uint16 keys with a RegionID-like skew (one key on 18 % of the rows, Zipf tail over 9000
//    keys): COUNT(*), SUM(int16), AVG(int16) (ClickBench Q10 without the DISTINCT);
//  - the key-range pre-pass over int32 keys.
//
//   build/native/bench/laneql_small_group_bench [rows] [runs]
//
// Every kernel result is checked against the reference before it is timed. Besides the table
// (wall clock), each row gets its rate in this thread's CPU time: on a shared machine the wall
// clock also counts the time other processes had the core.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <time.h>

#include "bench_util.h"
#include "laneql/small_group.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"

using laneql::SmallGroupAggregate;
using laneql::SmallGroupColumn;
using laneql::SmallGroupType;
using laneql::bench::KeepAlive;
using laneql::bench::MedianSeconds;
using laneql::bench::Row;

namespace {

// A GROUP BY workload: keys, value columns, and how many times the rows are fed (cache-resident
// inputs are small and repeated, with consecutive first_row as a longer column would have).
struct Workload {
  std::string name;
  SmallGroupType key_type;
  int64_t key_min;
  size_t slots;
  const void* keys;
  size_t rows;
  int repeats;
  std::vector<SmallGroupAggregate> aggs;
  std::vector<SmallGroupColumn> columns;
  size_t bytes_per_row;  // key + values
};

double ThreadCpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// Median wall and thread-CPU seconds of `runs` calls of fn.
template <class Fn>
void MedianBoth(int runs, const Fn& fn, double* wall, double* cpu) {
  std::vector<double> cpus;
  *wall = MedianSeconds(runs, [&] {
    const double c0 = ThreadCpuSeconds();
    fn();
    cpus.push_back(ThreadCpuSeconds() - c0);
  });
  std::sort(cpus.begin(), cpus.end());
  *cpu = cpus[cpus.size() / 2];
}

template <class Table>
void Feed(Table& t, const Workload& w) {
  for (int r = 0; r < w.repeats; ++r) {
    t.Update(w.keys, w.rows, nullptr, w.columns.data(), static_cast<uint64_t>(r) * w.rows);
  }
}

bool SameBits(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

bool Matches(const laneql::SmallGroupBy& got, const laneql::reference::SmallGroupBy& want,
             const Workload& w) {
  if (got.GroupSlots() != want.GroupSlots()) return false;
  for (uint32_t s : want.GroupSlots()) {
    if (got.RowCount(s) != want.RowCount(s)) return false;
    for (size_t a = 0; a < w.aggs.size(); ++a) {
      if (got.Count(a, s) != want.Count(a, s)) return false;
      if (want.Count(a, s) == 0) continue;
      if (laneql::SmallGroupTypeIsFloat(w.aggs[a].type)) {
        if (!SameBits(got.SumFloat(a, s), want.SumFloat(a, s))) return false;
        if (w.aggs[a].min_max && (!SameBits(got.MinFloat(a, s), want.MinFloat(a, s)) ||
                                  !SameBits(got.MaxFloat(a, s), want.MaxFloat(a, s)))) {
          return false;
        }
      } else {
        if (got.SumInt(a, s) != want.SumInt(a, s)) return false;
        if (w.aggs[a].min_max &&
            (got.MinInt(a, s) != want.MinInt(a, s) || got.MaxInt(a, s) != want.MaxInt(a, s))) {
          return false;
        }
      }
    }
  }
  return true;
}

// Runs one workload: the reference once, then every target with every K in `ks` (0 = the
// target's default). Returns false on a mismatch.
bool Run(const Workload& w, const std::vector<size_t>& ks, int runs, double probe) {
  const size_t total_rows = w.rows * w.repeats;
  const size_t bytes = total_rows * w.bytes_per_row;
  laneql::reference::SmallGroupBy want(w.key_type, w.key_min, w.slots, w.aggs);
  Feed(want, w);
  double s_ref, cpu_ref;
  MedianBoth(runs, [&] {
    laneql::reference::SmallGroupBy t(w.key_type, w.key_min, w.slots, w.aggs);
    Feed(t, w);
    KeepAlive(t.RowCount(0));
  }, &s_ref, &cpu_ref);
  Row(w.name + " ref", "-", 1, bytes, total_rows, s_ref, probe);
  std::printf("    cpu time: %.0f Mrows/s\n", total_rows / cpu_ref / 1e6);
  for (const laneql::SimdTarget& target : laneql::SupportedTargets()) {
    std::string error;
    if (!laneql::ForceTarget(target.name, &error)) continue;
    for (size_t k : ks) {
      laneql::SmallGroupBy got(w.key_type, w.key_min, w.slots, w.aggs, k);
      Feed(got, w);
      if (!Matches(got, want, w)) {
        std::fprintf(stderr, "MISMATCH: %s on %s, K=%zu\n", w.name.c_str(), target.name.c_str(),
                     k);
        return false;
      }
      double s, cpu;
      MedianBoth(runs, [&] {
        laneql::SmallGroupBy t(w.key_type, w.key_min, w.slots, w.aggs, k);
        Feed(t, w);
        KeepAlive(t.RowCount(0));
      }, &s, &cpu);
      char label[96];
      std::snprintf(label, sizeof label, "%s K=%zu%s", w.name.c_str(), got.interleave(),
                    k == 0 ? "*" : "");
      Row(label, target.name, 1, bytes, total_rows, s, probe);
      std::printf("    %.2fx the scalar reference; cpu time: %.0f Mrows/s (%.2fx)\n", s_ref / s,
                  total_rows / cpu / 1e6, cpu_ref / cpu);
    }
  }
  laneql::ResetTarget();
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  const size_t cache_rows = 65536;  // 64 KiB of uint8 keys + 512 KiB of float64: L2-resident
  const int cache_repeats = static_cast<int>(std::max<size_t>(1, 50000000 / cache_rows));

  std::mt19937_64 rng(1);
  std::vector<uint8_t> u8_uniform(rows), u8_skewed(rows);
  std::vector<uint16_t> u16_region(rows);
  std::vector<double> f64(rows);
  std::vector<int32_t> i32(rows);
  std::vector<int64_t> i64(rows);
  std::vector<int16_t> i16a(rows), i16b(rows);
  std::vector<int32_t> i32_keys(rows);  // 100000 + 0..4095, uniform
  // Zipf(1) over 9000 keys scattered over the uint16 domain, plus one key on 18 % of the rows.
  std::vector<double> zipf_cdf(9000);
  double acc = 0;
  for (size_t r = 0; r < zipf_cdf.size(); ++r) zipf_cdf[r] = acc += 1.0 / (r + 1);
  std::vector<uint16_t> zipf_key(zipf_cdf.size());
  for (uint16_t& k : zipf_key) k = static_cast<uint16_t>(rng());
  for (size_t i = 0; i < rows; ++i) {
    const uint64_t r = rng();
    u8_uniform[i] = static_cast<uint8_t>(r);
    u8_skewed[i] = (r >> 8) % 10 != 0 ? 7 : static_cast<uint8_t>(r >> 16);
    if ((r >> 24) % 100 < 18) {
      u16_region[i] = 229;
    } else {
      const double u = static_cast<double>(r >> 40) / (1ull << 24) * acc;
      u16_region[i] = zipf_key[std::lower_bound(zipf_cdf.begin(), zipf_cdf.end(), u) -
                               zipf_cdf.begin()];
    }
    f64[i] = static_cast<double>(static_cast<int64_t>(r % 2000001) - 1000000) * 0.125;
    i32[i] = static_cast<int32_t>(r >> 3);
    // +-2^39 (ids, timestamps): sums do not overflow 64 bits. Full-range random int64 would
    // overflow on a quarter of the adds, each a mispredicted branch to the carry table.
    i64[i] = static_cast<int64_t>((r * 0x9E3779B97F4A7C15ull) >> 24) - (int64_t{1} << 39);
    i16a[i] = static_cast<int16_t>(r % 40);        // AdvEngineID-like
    i16b[i] = static_cast<int16_t>(800 + r % 1200);  // ResolutionWidth-like
    i32_keys[i] = 100000 + static_cast<int32_t>((r >> 48) % 4096);
  }

  std::printf("cpu: %s, %zu rows (memory-resident), %zu rows x %d (cache-resident), median of %d\n",
              laneql::CpuModel().c_str(), rows, cache_rows, cache_repeats, runs);
  const double probe = laneql::bench::ProbeReadGBs(rows * sizeof(double), 1, runs);
  std::printf("read-bandwidth probe (memchr), 1 thread: %.2f GB/s\n", probe);
  std::printf("K=n* is the target's default; bandwidth counts the key and value bytes read\n\n");
  laneql::bench::PrintHeader();

  const SmallGroupAggregate f64_agg{SmallGroupType::kFloat64, false, false};
  const std::vector<size_t> all_k = {1, 2, 4, 8};
  const std::vector<size_t> default_k = {0};
  std::vector<Workload> work;
  work.push_back({"u8 AVG(f64) cached", SmallGroupType::kUInt8, 0, 256, u8_uniform.data(),
                  std::min(rows, cache_rows), cache_repeats, {f64_agg}, {{f64.data(), nullptr}},
                  9});
  work.push_back({"u8 AVG(f64) skew cached", SmallGroupType::kUInt8, 0, 256, u8_skewed.data(),
                  std::min(rows, cache_rows), cache_repeats, {f64_agg}, {{f64.data(), nullptr}},
                  9});
  work.push_back({"u8 COUNT(*) cached", SmallGroupType::kUInt8, 0, 256, u8_uniform.data(),
                  std::min(rows, cache_rows), cache_repeats, {}, {}, 1});
  work.push_back({"u8 COUNT(*) skew cached", SmallGroupType::kUInt8, 0, 256, u8_skewed.data(),
                  std::min(rows, cache_rows), cache_repeats, {}, {}, 1});
  work.push_back({"u8 AVG(i32) skew cached", SmallGroupType::kUInt8, 0, 256, u8_skewed.data(),
                  std::min(rows, cache_rows), cache_repeats,
                  {{SmallGroupType::kInt32, false, false}}, {{i32.data(), nullptr}}, 5});
  work.push_back({"u8 MINMAX(i64) skew cached", SmallGroupType::kUInt8, 0, 256, u8_skewed.data(),
                  std::min(rows, cache_rows), cache_repeats,
                  {{SmallGroupType::kInt64, false, true}}, {{i64.data(), nullptr}}, 9});
  const std::vector<SmallGroupAggregate> q10 = {{SmallGroupType::kInt16, false, false},
                                                {SmallGroupType::kInt16, false, false}};
  work.push_back({"u16 Q10 region cached", SmallGroupType::kUInt16, 0, 65536, u16_region.data(),
                  std::min(rows, cache_rows), cache_repeats, q10,
                  {{i16a.data(), nullptr}, {i16b.data(), nullptr}}, 6});
  work.push_back({"i32 4K keys AVG(i32) cached", SmallGroupType::kInt32, 100000, 4096,
                  i32_keys.data(), std::min(rows, cache_rows), cache_repeats,
                  {{SmallGroupType::kInt32, false, false}}, {{i32.data(), nullptr}}, 8});
  for (const Workload& w : work) {
    if (!Run(w, all_k, runs, probe)) return 1;
  }
  std::printf("\n");
  std::vector<Workload> big;
  big.push_back({"u8 AVG(f64) memory", SmallGroupType::kUInt8, 0, 256, u8_uniform.data(), rows, 1,
                 {f64_agg}, {{f64.data(), nullptr}}, 9});
  big.push_back({"u16 Q10 region memory", SmallGroupType::kUInt16, 0, 65536, u16_region.data(),
                 rows, 1, q10, {{i16a.data(), nullptr}, {i16b.data(), nullptr}}, 6});
  big.push_back({"u16 AVG(f64) region memory", SmallGroupType::kUInt16, 0, 65536,
                 u16_region.data(), rows, 1, {f64_agg}, {{f64.data(), nullptr}}, 10});
  for (const Workload& w : big) {
    if (!Run(w, default_k, runs, probe)) return 1;
  }

  // The key-range pre-pass: a streaming min/max.
  std::printf("\n");
  for (const laneql::SimdTarget& target : laneql::SupportedTargets()) {
    std::string error;
    if (!laneql::ForceTarget(target.name, &error)) continue;
    int64_t lo = 0, hi = 0;
    const double s = MedianSeconds(runs, [&] {
      laneql::SmallGroupKeyRange(i32.data(), SmallGroupType::kInt32, rows, &lo, &hi);
      KeepAlive(lo + hi);
    });
    Row("key range i32 memory", target.name, 1, rows * 4, rows, s, probe);
  }
  laneql::ResetTarget();
  return 0;
}
