// Aggregate kernels (SUM, MIN, MAX) per SIMD target against a read-bandwidth probe measured in
// the same run and against the scalar reference, over int32, int64 and float64 columns,
// unmasked and under a 50 % random select mask: memory-resident (default 10^8 rows) and
// cache-resident (8192 rows, repeated: 32 KiB of int32 in L1, 64 KiB of int64/float64 in L2).
//
//   build/native/bench/laneql_aggregate_bench [rows] [runs] [target]
//
// Single-threaded (per-morsel kernels; the parallel driver is the many-core issue's). The probe
// is re-measured before each column, over as many bytes as the column has, so that a busy
// machine skews both alike. Bytes counted are the column's plus, when masked, the mask's. Every
// SIMD result is checked against the scalar reference before it is timed. `target` (e.g.
// AVX3_SPR) times that target alone.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench_util.h"
#include "laneql/aggregate.h"
#include "laneql/bitmask.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"

namespace {

using laneql::AggResult;
using laneql::bench::KeepAlive;
using laneql::bench::MedianSeconds;

enum class Op { kSum, kMin, kMax };
const char* OpName(Op op) { return op == Op::kSum ? "sum" : (op == Op::kMin ? "min" : "max"); }

// One aggregate's result reduced to bits that must match the reference exactly.
struct Bits {
  uint64_t hi = 0, lo = 0, count = 0;
  bool operator==(const Bits& o) const { return hi == o.hi && lo == o.lo && count == o.count; }
};
template <class V>
Bits ToBits(const AggResult<V>& r) {
  Bits b;
  b.count = r.count;
  if constexpr (sizeof(V) == 16) {
    b.hi = laneql::Int128High(r.value);
    b.lo = laneql::Int128Low(r.value);
  } else {
    std::memcpy(&b.lo, &r.value, sizeof(V));
  }
  return b;
}

template <class T>
Bits RunKernel(Op op, const T* x, size_t n, const uint64_t* select) {
  switch (op) {
    case Op::kSum: return ToBits(laneql::AggregateSum(x, n, select));
    case Op::kMin: return ToBits(laneql::AggregateMin(x, n, select));
    default: return ToBits(laneql::AggregateMax(x, n, select));
  }
}
template <class T>
Bits RunReference(Op op, const T* x, size_t n, const uint64_t* select) {
  switch (op) {
    case Op::kSum: return ToBits(laneql::reference::AggregateSum(x, n, select));
    case Op::kMin: return ToBits(laneql::reference::AggregateMin(x, n, select));
    default: return ToBits(laneql::reference::AggregateMax(x, n, select));
  }
}

struct Context {
  size_t rows;
  int runs;
  std::string only_target;             // empty = every supported target
  const std::vector<uint64_t>* half;   // the 50 % select mask
  size_t cache_rows;
  int cache_repeats;
};

struct Speedup {
  std::string kernel;
  double ref_seconds;
};

// Times one column type: the scalar reference once, then every op x mask on every target.
template <class T>
bool BenchColumn(const char* type, const std::vector<T>& column, const Context& c) {
  bool ok = true;
  const double probe = laneql::bench::ProbeReadGBs(c.rows * sizeof(T), 1, c.runs);
  std::printf("%s column: read-bandwidth probe (memchr), 1 thread, %zu MB: %.2f GB/s\n", type,
              c.rows * sizeof(T) / 1000000, probe);
  laneql::bench::PrintHeader();
  std::vector<Speedup> refs;
  std::vector<Bits> want;
  for (Op op : {Op::kSum, Op::kMin, Op::kMax}) {
    for (bool masked : {false, true}) {
      const uint64_t* select = masked ? c.half->data() : nullptr;
      const std::string kernel =
          std::string(OpName(op)) + " " + type + (masked ? " 50% sel" : "");
      want.push_back(RunReference(op, column.data(), c.rows, select));
      // Once: the masked reference is slow, and only the ratio is wanted.
      const double s =
          MedianSeconds(1, [&] { KeepAlive(RunReference(op, column.data(), c.rows, select)); });
      const size_t bytes = c.rows * sizeof(T) + (masked ? c.rows / 8 : 0);
      laneql::bench::Row(kernel + " scalar ref", "-", 1, bytes, c.rows, s, probe);
      refs.push_back({kernel, s});
    }
  }
  for (const laneql::SimdTarget& target : laneql::SupportedTargets()) {
    std::string error;
    if (!c.only_target.empty() && target.name != c.only_target) continue;
    if (!laneql::ForceTarget(target.name, &error)) continue;
    size_t k = 0;
    for (Op op : {Op::kSum, Op::kMin, Op::kMax}) {
      for (bool masked : {false, true}) {
        const uint64_t* select = masked ? c.half->data() : nullptr;
        const Speedup& ref = refs[k];
        if (!(RunKernel(op, column.data(), c.rows, select) == want[k++])) {
          std::fprintf(stderr, "MISMATCH: %s on %s\n", ref.kernel.c_str(), target.name.c_str());
          ok = false;
          continue;
        }
        const double s = MedianSeconds(
            c.runs, [&] { KeepAlive(RunKernel(op, column.data(), c.rows, select)); });
        const size_t bytes = c.rows * sizeof(T) + (masked ? c.rows / 8 : 0);
        laneql::bench::Row(ref.kernel, target.name, 1, bytes, c.rows, s, probe);
        std::printf("%-28s   = %.1fx the scalar reference\n", "", ref.ref_seconds / s);
      }
    }
    // Cache-resident: the same kernels over a column prefix that stays in L1/L2.
    for (Op op : {Op::kSum, Op::kMin, Op::kMax}) {
      const double s = MedianSeconds(c.runs, [&] {
        for (int r = 0; r < c.cache_repeats; ++r) {
          KeepAlive(RunKernel(op, column.data(), c.cache_rows, nullptr));
        }
      });
      const size_t bytes = c.cache_rows * sizeof(T) * c.cache_repeats;
      laneql::bench::Row(std::string(OpName(op)) + " " + type + " (cached)", target.name, 1, bytes,
                         c.cache_rows * c.cache_repeats, s, probe);
    }
  }
  laneql::ResetTarget();
  std::printf("\n");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  Context c;
  c.rows = rows;
  c.runs = runs;
  c.cache_rows = std::min<size_t>(rows, 8192);  // 32 KiB of int32 (L1), 64 KiB of 64-bit (L2)
  c.cache_repeats =
      static_cast<int>(std::max<size_t>(1, 200000000 / std::max<size_t>(c.cache_rows, 1)));
  std::printf("cpu: %s, %zu rows, median of %d, single-threaded\n", laneql::CpuModel().c_str(),
              rows, runs);
  if (argc > 3) c.only_target = argv[3];

  std::mt19937_64 rng(42);
  std::vector<uint64_t> half(laneql::BitmaskWords(rows));
  for (uint64_t& w : half) w = rng();
  if (!half.empty()) half.back() &= laneql::BitmaskTailMask(rows);
  c.half = &half;

  bool ok = true;
  {
    std::vector<int32_t> col(rows);  // dates-like and ids-like: the whole range
    for (int32_t& v : col) v = static_cast<int32_t>(rng());
    ok &= BenchColumn("i32", col, c);
  }
  {
    std::vector<int64_t> col(rows);  // the whole range: sums exceed 64 bits
    for (int64_t& v : col) v = static_cast<int64_t>(rng());
    ok &= BenchColumn("i64", col, c);
  }
  {
    std::vector<double> col(rows);  // prices-like
    for (double& v : col) {
      v = static_cast<double>(static_cast<int64_t>(rng() % 2000001) - 1000000) / 100.0;
    }
    ok &= BenchColumn("f64", col, c);
  }
  return ok ? 0 : 1;
}
