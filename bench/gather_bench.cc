// Gather / compress kernels per SIMD target, next to the read-bandwidth probe, a memcpy of the
// same column, and the scalar reference: memory-resident (default 10^8 rows) and cache-resident
// (8192 rows, repeated) inputs.
//
//   build/native/bench/laneql_gather_bench [rows] [runs] [all|compress|gather|strings]
//
// Compress: int64 at 1 %, 10 %, 50 % and 99 % selectivity (random rows), int32, int16 and uint8
// at 50 %; bandwidth counts the input column (rows x width), i.e. what a filter-then-project
// scans. Gather: by random and by sorted row indices, as many as there are rows; bandwidth counts
// the indices read plus the values fetched. Strings (rows / 10 rows, URL-like or mostly empty like
// SearchPhrase), both passes: bandwidth counts the input offsets and bytes.
// Every SIMD result is checked against the scalar reference before it is timed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench_util.h"
#include "laneql/bitmask.h"
#include "laneql/gather.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"

namespace {

using laneql::bench::KeepAlive;
using laneql::bench::MedianSeconds;
using laneql::bench::Row;

constexpr size_t kCacheRows = 8192;  // 64 KiB of int64: L2-resident

std::vector<uint64_t> RandomMask(size_t n, double selectivity, uint64_t seed) {
  std::mt19937_64 rng(seed);
  // One Bernoulli draw per row from 16 random bits: fast enough for 10^8 rows.
  const uint64_t threshold = static_cast<uint64_t>(selectivity * 65536.0);
  std::vector<uint64_t> mask(laneql::BitmaskWords(n), 0);
  for (uint64_t& word : mask) {
    for (int b = 0; b < 64; b += 4) {
      const uint64_t r = rng();
      for (int k = 0; k < 4; ++k) {
        word |= uint64_t{((r >> (16 * k)) & 0xFFFF) < threshold} << (b + k);
      }
    }
  }
  if (n % 64 != 0) mask.back() &= laneql::BitmaskTailMask(n);
  return mask;
}

std::string WidthName(size_t width) {
  return width == 8 ? "i64" : width == 4 ? "i32" : width == 2 ? "i16" : "u8";
}

size_t ReferenceCompress(size_t width, const uint8_t* in, size_t n, const uint64_t* mask,
                         uint8_t* out) {
  namespace ref = laneql::reference;
  switch (width) {
    case 1:
      return ref::CompressU8(in, n, mask, out);
    case 2:
      return ref::CompressU16(reinterpret_cast<const uint16_t*>(in), n, mask,
                              reinterpret_cast<uint16_t*>(out));
    case 4:
      return ref::CompressU32(reinterpret_cast<const uint32_t*>(in), n, mask,
                              reinterpret_cast<uint32_t*>(out));
    default:
      return ref::CompressU64(reinterpret_cast<const uint64_t*>(in), n, mask,
                              reinterpret_cast<uint64_t*>(out));
  }
}

void ReferenceGather(size_t width, const uint8_t* in, const uint32_t* idx, size_t count,
                     uint8_t* out) {
  namespace ref = laneql::reference;
  switch (width) {
    case 1:
      return ref::GatherU8(in, idx, count, out);
    case 2:
      return ref::GatherU16(reinterpret_cast<const uint16_t*>(in), idx, count,
                            reinterpret_cast<uint16_t*>(out));
    case 4:
      return ref::GatherU32(reinterpret_cast<const uint32_t*>(in), idx, count,
                            reinterpret_cast<uint32_t*>(out));
    default:
      return ref::GatherU64(reinterpret_cast<const uint64_t*>(in), idx, count,
                            reinterpret_cast<uint64_t*>(out));
  }
}

void Check(bool same, const std::string& what) {
  if (same) return;
  std::fprintf(stderr, "MISMATCH: %s\n", what.c_str());
  std::exit(1);
}

// Calls fn(target name) with dispatch forced to each supported target in turn.
template <class Fn>
void ForEachTarget(const Fn& fn) {
  for (const laneql::SimdTarget& target : laneql::SupportedTargets()) {
    std::string error;
    if (laneql::ForceTarget(target.name, &error)) fn(target.name);
  }
  laneql::ResetTarget();
}

struct Column {
  size_t width;
  std::vector<uint8_t> values, want, out;
};

void BenchCompress(double selectivity, size_t rows, int runs, double probe, Column* c) {
  const size_t w = c->width;
  const std::string name = "compress " + WidthName(w) + " " +
                           std::to_string(static_cast<int>(selectivity * 100)) + "%";
  const std::vector<uint64_t> mask = RandomMask(rows, selectivity, 7);
  size_t count = 0;
  const double s_ref = MedianSeconds(runs, [&] {
    count = ReferenceCompress(w, c->values.data(), rows, mask.data(), c->want.data());
  });
  Row(name + " scalar ref", "-", 1, rows * w, rows, s_ref, probe);
  ForEachTarget([&](const std::string& target) {
    size_t got = 0;
    const double s = MedianSeconds(runs, [&] {
      got = laneql::CompressFixed(w, c->values.data(), rows, mask.data(), c->out.data());
    });
    Check(got == count && std::memcmp(c->want.data(), c->out.data(), count * w) == 0,
          name + " " + target);
    Row(name, target, 1, rows * w, rows, s, probe);
  });
  // Cache-resident: the first kCacheRows rows, repeated.
  if (rows < kCacheRows) return;
  const int repeats = static_cast<int>(200000000 / (kCacheRows * w));
  const double s_ref_cached = MedianSeconds(runs, [&] {
    for (int r = 0; r < repeats; ++r) {
      KeepAlive(ReferenceCompress(w, c->values.data(), kCacheRows, mask.data(), c->want.data()));
    }
  });
  Row(name + " 64K scalar ref", "-", 1, kCacheRows * w * repeats, kCacheRows * repeats,
      s_ref_cached, probe);
  ForEachTarget([&](const std::string& target) {
    const double s = MedianSeconds(runs, [&] {
      for (int r = 0; r < repeats; ++r) {
        KeepAlive(laneql::CompressFixed(w, c->values.data(), kCacheRows, mask.data(),
                                        c->out.data()));
      }
    });
    Row(name + " 64K", target, 1, kCacheRows * w * repeats, kCacheRows * repeats, s, probe);
  });
}

void BenchGather(const std::vector<uint32_t>& idx, const std::string& order, size_t rows,
                 int runs, double probe, Column* c) {
  const size_t w = c->width;
  const std::string name = "gather " + WidthName(w) + " " + order;
  const size_t bytes = rows * (w + sizeof(uint32_t));
  const double s_ref = MedianSeconds(runs, [&] {
    ReferenceGather(w, c->values.data(), idx.data(), rows, c->want.data());
  });
  Row(name + " scalar ref", "-", 1, bytes, rows, s_ref, probe);
  ForEachTarget([&](const std::string& target) {
    const double s = MedianSeconds(runs, [&] {
      laneql::GatherFixed(w, c->values.data(), idx.data(), rows, c->out.data());
    });
    Check(std::memcmp(c->want.data(), c->out.data(), rows * w) == 0, name + " " + target);
    Row(name, target, 1, bytes, rows, s, probe);
  });
}

void BenchGatherCached(int runs, double probe, Column* c) {
  const size_t w = c->width;
  std::mt19937_64 rng(13);
  std::vector<uint32_t> idx(kCacheRows);
  for (uint32_t& x : idx) x = static_cast<uint32_t>(rng() % kCacheRows);
  const int repeats = static_cast<int>(200000000 / (kCacheRows * (w + 4)));
  const std::string name = "gather " + WidthName(w) + " random 64K";
  const size_t bytes = kCacheRows * (w + 4) * repeats;
  const double s_ref = MedianSeconds(runs, [&] {
    for (int r = 0; r < repeats; ++r) {
      ReferenceGather(w, c->values.data(), idx.data(), kCacheRows, c->want.data());
      KeepAlive(c->want[0]);
    }
  });
  Row(name + " scalar ref", "-", 1, bytes, kCacheRows * repeats, s_ref, probe);
  ForEachTarget([&](const std::string& target) {
    const double s = MedianSeconds(runs, [&] {
      for (int r = 0; r < repeats; ++r) {
        laneql::GatherFixed(w, c->values.data(), idx.data(), kCacheRows, c->out.data());
        KeepAlive(c->out[0]);
      }
    });
    Row(name, target, 1, bytes, kCacheRows * repeats, s, probe);
  });
}

struct Strings {
  std::vector<int32_t> offsets;
  std::vector<uint8_t> data;
};

// URL-like rows of 30..150 bytes, `empty_share` of them empty (like SearchPhrase).
Strings MakeStrings(size_t rows, double empty_share, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Strings s;
  s.offsets.reserve(rows + 1);
  s.offsets.push_back(0);
  const std::string alphabet = "abcdefghijklmnopqrstuvwxyz0123456789/?=&.-_";
  for (size_t r = 0; r < rows; ++r) {
    const bool empty = std::uniform_real_distribution<double>(0, 1)(rng) < empty_share;
    const size_t length = empty ? 0 : 30 + rng() % 121;
    for (size_t i = 0; i < length; ++i) {
      s.data.push_back(static_cast<uint8_t>(alphabet[(r * 7 + i * 13) % alphabet.size()]));
    }
    s.offsets.push_back(static_cast<int32_t>(s.data.size()));
  }
  return s;
}

void BenchStrings(const std::string& label, double empty_share, size_t rows, int runs,
                  double probe) {
  namespace ref = laneql::reference;
  const Strings s = MakeStrings(rows, empty_share, 3);
  const size_t in_bytes = s.data.size() + s.offsets.size() * sizeof(int32_t);
  const std::vector<uint64_t> mask = RandomMask(rows, 0.5, 5);
  const size_t count = ref::CompressCount(mask.data(), rows);

  std::vector<int32_t> want_offsets(count + 1), out_offsets(count + 1);
  std::vector<uint8_t> want, out;
  const std::string name = "compress str " + label + " 50%";
  const double s_ref = MedianSeconds(runs, [&] {
    const int64_t bytes =
        ref::CompressStringOffsets(s.offsets.data(), rows, mask.data(), want_offsets.data());
    want.resize(static_cast<size_t>(bytes));
    ref::CompressStringData(s.offsets.data(), s.data.data(), rows, mask.data(), want.data(),
                            want.size());
  });
  Row(name + " scalar ref", "-", 1, in_bytes, rows, s_ref, probe);
  out.resize(want.size());
  ForEachTarget([&](const std::string& target) {
    const double sec = MedianSeconds(runs, [&] {
      KeepAlive(laneql::CompressStringOffsets(s.offsets.data(), rows, mask.data(),
                                              out_offsets.data()));
      laneql::CompressStringData(s.offsets.data(), s.data.data(), rows, mask.data(), out.data(),
                                 out.size());
    });
    Check(out_offsets == want_offsets && out == want, name + " " + target);
    Row(name, target, 1, in_bytes, rows, sec, probe);
  });

  std::mt19937_64 rng(17);
  std::vector<uint32_t> idx(rows);
  for (uint32_t& x : idx) x = static_cast<uint32_t>(rng() % rows);
  std::vector<int32_t> gwant_offsets(rows + 1), gout_offsets(rows + 1);
  std::vector<uint8_t> gwant, gout;
  const std::string gname = "gather str " + label + " random";
  const double g_ref = MedianSeconds(runs, [&] {
    const int64_t bytes =
        ref::GatherStringOffsets(s.offsets.data(), idx.data(), rows, gwant_offsets.data());
    gwant.resize(static_cast<size_t>(bytes));
    ref::GatherStringData(s.offsets.data(), s.data.data(), s.data.size(), idx.data(), rows,
                          gwant.data(), gwant.size());
  });
  Row(gname + " scalar ref", "-", 1, in_bytes, rows, g_ref, probe);
  gout.resize(gwant.size());
  ForEachTarget([&](const std::string& target) {
    const double sec = MedianSeconds(runs, [&] {
      KeepAlive(laneql::GatherStringOffsets(s.offsets.data(), idx.data(), rows,
                                            gout_offsets.data()));
      laneql::GatherStringData(s.offsets.data(), s.data.data(), s.data.size(), idx.data(), rows,
                               gout.data(), gout.size());
    });
    Check(gout_offsets == gwant_offsets && gout == gwant, gname + " " + target);
    Row(gname, target, 1, in_bytes, rows, sec, probe);
  });
}

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::string section = argc > 3 ? argv[3] : "all";
  auto run_section = [&](const char* name) { return section == "all" || section == name; };

  std::printf("cpu: %s, %zu rows (%.0f MB per int64 column), median of %d, single thread\n",
              laneql::CpuModel().c_str(), rows, rows * 8 / 1e6, runs);
  const double probe = laneql::bench::ProbeReadGBs(rows * sizeof(int64_t), 1, runs);
  std::printf("read-bandwidth probe (memchr), 1 thread: %.2f GB/s\n\n", probe);
  laneql::bench::PrintHeader();

  // One column per width, distinct-ish values, with room for the reference's and the kernel's
  // outputs.
  Column columns[4] = {{8, {}, {}, {}}, {4, {}, {}, {}}, {2, {}, {}, {}}, {1, {}, {}, {}}};
  for (Column& c : columns) {
    c.values.resize(rows * c.width);
    for (size_t i = 0; i < rows; ++i) {
      const uint64_t v = i * 0x9E3779B97F4A7C15ull;
      std::memcpy(&c.values[i * c.width], &v, c.width);
    }
    c.want.resize(rows * c.width);
    c.out.resize(rows * c.width);
  }
  Column& i64 = columns[0];

  // The ceiling for a dense compress: copying the whole column.
  const double s_copy =
      MedianSeconds(runs, [&] { std::memcpy(i64.out.data(), i64.values.data(), rows * 8); });
  Row("memcpy i64 (copy ceiling)", "-", 1, rows * 8, rows, s_copy, probe);

  if (run_section("compress")) {
    for (double selectivity : {0.01, 0.1, 0.5, 0.99}) {
      BenchCompress(selectivity, rows, runs, probe, &i64);
    }
    for (int k = 1; k < 4; ++k) BenchCompress(0.5, rows, runs, probe, &columns[k]);
  }

  if (run_section("gather")) {
    std::vector<uint32_t> random_idx(rows);
    std::mt19937_64 rng(11);
    for (uint32_t& x : random_idx) x = static_cast<uint32_t>(rng() % rows);
    std::vector<uint32_t> sorted_idx = random_idx;
    std::sort(sorted_idx.begin(), sorted_idx.end());
    for (Column& c : columns) BenchGather(random_idx, "random", rows, runs, probe, &c);
    for (Column& c : columns) BenchGather(sorted_idx, "sorted", rows, runs, probe, &c);
    if (rows >= kCacheRows) {
      for (Column& c : columns) BenchGatherCached(runs, probe, &c);
    }
  }

  if (run_section("strings")) {
    const size_t string_rows = std::max<size_t>(rows / 10, 1);
    BenchStrings("url", 0.0, string_rows, runs, probe);
    BenchStrings("90%empty", 0.9, string_rows, runs, probe);
  }
  return 0;
}
