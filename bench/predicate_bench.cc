// Predicate kernels per SIMD target against a read-bandwidth probe measured in the same run, and
// against the scalar reference: compare-to-mask on memory-resident columns (default 10^8 rows)
// and on cache-resident ones (16 KiB), plus the mask algebra and MaskToIndices.
//
//   build/native/bench/laneql_predicate_bench [rows] [runs]
//
// Bandwidth is input bytes (the column; the mask it writes is 1/8 to 1/64 of that) per second,
// single thread. Every SIMD result is checked against the scalar reference before it is timed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "bench_util.h"
#include "laneql/bitmask.h"
#include "laneql/predicate.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"

using laneql::BitmaskWords;
using laneql::CompareOp;
using laneql::bench::KeepAlive;
using laneql::bench::MedianSeconds;
using laneql::bench::Row;

namespace {

// One benchmark case: a kernel writing a mask of `rows` rows from `bytes` of input, and the
// scalar reference that must agree with it.
struct MaskCase {
  std::string name;
  size_t rows;
  size_t bytes;
  std::function<void(uint64_t*)> simd;
  std::function<void(uint64_t*)> reference;
};

// Repeats a cache-resident kernel often enough to time it.
int CacheRepeats(size_t bytes) { return static_cast<int>(std::max<size_t>(1, 400000000 / bytes)); }

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  const size_t cache_rows = 2048;  // 16 KiB of int64 / float64, 8 KiB of int32: L1/L2-resident

  // ClickBench-like columns: small-domain int32 (RegionID / CounterID), wide int64 (UserID,
  // timestamps), float64, and a mostly-zero int16 (AdvEngineID <> 0).
  std::mt19937_64 rng(42);
  std::vector<int32_t> i32(rows);
  std::vector<int64_t> i64(rows);
  std::vector<double> f64(rows);
  std::vector<int16_t> i16(rows);
  for (size_t i = 0; i < rows; ++i) {
    const uint64_t r = rng();
    i32[i] = static_cast<int32_t>(r % 1000);
    i64[i] = static_cast<int64_t>(r);
    f64[i] = static_cast<double>(r >> 11) * 0x1.0p-53;  // [0, 1)
    i16[i] = (r >> 40) % 20 == 0 ? static_cast<int16_t>(1 + (r >> 50) % 30) : 0;
  }
  const int32_t in_list[8] = {1, 62, 117, 229, 300, 451, 777, 999};

  std::printf("cpu: %s, %zu rows, median of %d, single thread\n", laneql::CpuModel().c_str(),
              rows, runs);
  const double probe = laneql::bench::ProbeReadGBs(rows * sizeof(double), 1, runs);
  std::printf("read-bandwidth probe (memchr), 1 thread: %.2f GB/s\n\n", probe);
  laneql::bench::PrintHeader();

  auto cases_for = [&](size_t n) {
    std::vector<MaskCase> c;
    c.push_back({"i32 = c", n, n * 4,
                 [&, n](uint64_t* o) { laneql::CompareToMask(i32.data(), n, CompareOp::kEq, 62, nullptr, o); },
                 [&, n](uint64_t* o) {
                   laneql::reference::CompareToMask(i32.data(), n, CompareOp::kEq, 62, nullptr, o);
                 }});
    c.push_back({"i64 < c", n, n * 8,
                 [&, n](uint64_t* o) { laneql::CompareToMask(i64.data(), n, CompareOp::kLt, int64_t{0}, nullptr, o); },
                 [&, n](uint64_t* o) {
                   laneql::reference::CompareToMask(i64.data(), n, CompareOp::kLt, int64_t{0}, nullptr, o);
                 }});
    c.push_back({"f64 between", n, n * 8,
                 [&, n](uint64_t* o) { laneql::BetweenToMask(f64.data(), n, 0.25, 0.5, nullptr, o); },
                 [&, n](uint64_t* o) {
                   laneql::reference::BetweenToMask(f64.data(), n, 0.25, 0.5, nullptr, o);
                 }});
    c.push_back({"i16 <> 0", n, n * 2,
                 [&, n](uint64_t* o) {
                   laneql::CompareToMask(i16.data(), n, CompareOp::kNe, int16_t{0}, nullptr, o);
                 },
                 [&, n](uint64_t* o) {
                   laneql::reference::CompareToMask(i16.data(), n, CompareOp::kNe, int16_t{0}, nullptr, o);
                 }});
    c.push_back({"i32 IN (8 constants)", n, n * 4,
                 [&, n](uint64_t* o) { laneql::InListToMask(i32.data(), n, in_list, 8, nullptr, o); },
                 [&, n](uint64_t* o) {
                   laneql::reference::InListToMask(i32.data(), n, in_list, 8, nullptr, o);
                 }});
    return c;
  };

  const std::vector<MaskCase> memory_cases = cases_for(rows);
  const std::vector<MaskCase> cache_cases = cases_for(cache_rows);
  std::vector<std::vector<uint64_t>> want(memory_cases.size());
  std::vector<uint64_t> got(BitmaskWords(rows));
  for (size_t k = 0; k < memory_cases.size(); ++k) {
    const MaskCase& c = memory_cases[k];
    want[k].resize(BitmaskWords(rows));
    const double s = MedianSeconds(runs, [&] { c.reference(want[k].data()); });
    Row(c.name + " scalar ref", "-", 1, c.bytes, c.rows, s, probe);
  }

  // Masks for the algebra: the results of the compares above (about 0.1 % and 50 % selected).
  const std::vector<uint64_t>& sparse = want[0];  // i32 = 62: 1 row in 1000
  const std::vector<uint64_t>& dense = want[1];   // i64 < 0: half the rows
  const size_t sparse_count = laneql::reference::CountBits(sparse.data(), rows);
  const size_t dense_count = laneql::reference::CountBits(dense.data(), rows);
  std::vector<uint32_t> indices(dense_count), want_indices(dense_count);
  {
    const double s = MedianSeconds(runs, [&] {
      KeepAlive(laneql::reference::MaskToIndices(dense.data(), rows, want_indices.data()));
    });
    Row("mask to indices 50% ref", "-", 1, dense_count * 4, rows, s, probe);
  }

  for (const laneql::SimdTarget& target : laneql::SupportedTargets()) {
    std::string error;
    if (!laneql::ForceTarget(target.name, &error)) continue;
    for (size_t k = 0; k < memory_cases.size(); ++k) {
      const MaskCase& c = memory_cases[k];
      std::fill(got.begin(), got.end(), ~uint64_t{0});
      c.simd(got.data());
      if (got != want[k]) {
        std::fprintf(stderr, "MISMATCH: %s on %s\n", c.name.c_str(), target.name.c_str());
        return 1;
      }
      const double s = MedianSeconds(runs, [&] { c.simd(got.data()); });
      Row(c.name + " (memory)", target.name, 1, c.bytes, c.rows, s, probe);
    }
    for (const MaskCase& c : cache_cases) {
      const int repeats = CacheRepeats(c.bytes);
      const double s = MedianSeconds(runs, [&] {
        for (int r = 0; r < repeats; ++r) {
          c.simd(got.data());
          KeepAlive(got[0]);
        }
      });
      Row(c.name + " (cached)", target.name, 1, c.bytes * repeats, c.rows * repeats, s, probe);
    }

    // Mask algebra: input bytes are the masks read.
    const size_t mask_bytes = BitmaskWords(rows) * 8;
    const double s_and = MedianSeconds(runs, [&] {
      laneql::MaskAnd(sparse.data(), dense.data(), rows, got.data());
    });
    Row("mask and", target.name, 1, 2 * mask_bytes, rows, s_and, probe);
    size_t count = 0;
    const double s_count = MedianSeconds(runs, [&] { count = laneql::CountBits(dense.data(), rows); });
    if (count != dense_count) {
      std::fprintf(stderr, "MISMATCH: CountBits on %s\n", target.name.c_str());
      return 1;
    }
    Row("count bits", target.name, 1, mask_bytes, rows, s_count, probe);
    // MaskToIndices: bandwidth counts the indices written (4 bytes each).
    for (const auto& sel : {std::make_tuple("mask to indices 0.1%", &sparse, sparse_count),
                            std::make_tuple("mask to indices 50%", &dense, dense_count)}) {
      const char* name = std::get<0>(sel);
      const std::vector<uint64_t>* mask = std::get<1>(sel);
      const size_t n_set = std::get<2>(sel);
      size_t written = 0;
      const double s = MedianSeconds(runs, [&] {
        written = laneql::MaskToIndices(mask->data(), rows, indices.data());
      });
      if (written != n_set ||
          (mask == &dense && !std::equal(indices.begin(), indices.end(), want_indices.begin()))) {
        std::fprintf(stderr, "MISMATCH: %s on %s\n", name, target.name.c_str());
        return 1;
      }
      Row(name, target.name, 1, std::max<size_t>(n_set * 4, 1), rows, s, probe);
    }
    // Cost per index against the set bits per word, cache-resident (64 Ki rows): where the
    // bit-by-bit path and the Compress path of MaskToIndices cross (kDenseWordBits).
    std::printf("  mask to indices, ns per index by set bits per word:");
    const size_t sweep_rows = 65536;
    std::vector<uint64_t> sweep(BitmaskWords(sweep_rows));
    std::vector<uint32_t> sweep_out(sweep_rows);
    for (int bits_per_word : {1, 2, 4, 8, 12, 16, 24, 32, 48, 64}) {
      for (uint64_t& w : sweep) {
        w = 0;
        while (static_cast<int>(laneql::reference::CountBits(&w, 64)) < bits_per_word) {
          w |= uint64_t{1} << (rng() % 64);
        }
      }
      const size_t n_set = sweep.size() * bits_per_word;
      const int repeats = static_cast<int>(std::max<size_t>(1, 20000000 / n_set));
      const double s = MedianSeconds(runs, [&] {
        for (int r = 0; r < repeats; ++r) {
          KeepAlive(laneql::MaskToIndices(sweep.data(), sweep_rows, sweep_out.data()));
        }
      });
      std::printf(" %d:%.2f", bits_per_word, s / repeats / n_set * 1e9);
    }
    std::printf("\n");
  }
  laneql::ResetTarget();
  return 0;
}
