// Group hash tables per SIMD target against std::unordered_map: rows/s of FindOrInsert over
// uint64 keys (default 10^7 rows) with 10^3, 10^5, 10^6 and 10^7 distinct values, and over
// URL-like string keys (10^4 and 10^6 distinct). Every run builds a fresh table, so growth is
// included, fed in 64K-row morsels as the engine does; hashes are computed beforehand (the
// engine hashes a morsel with laneql::HashKeys first; hash_bench measures that).
//
//   build/<dir>/bench/laneql_group_hash_table_bench [rows] [runs]
//
// The GB/s column counts key + hash read and the 4-byte group id written per row (string rows:
// offsets and bytes instead of keys). Every table's ids are checked against the baseline's: both
// number groups in first-insertion order, so they must agree exactly.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bench_util.h"
#include "laneql/group_hash_table.h"
#include "laneql/hash.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"

using laneql::bench::MedianSeconds;
using laneql::bench::Row;

namespace {

constexpr size_t kMorsel = 65536;

// n keys with exactly `distinct` distinct random values, in random order.
std::vector<uint64_t> MakeKeys(size_t n, size_t distinct) {
  std::mt19937_64 rng(distinct);
  std::vector<uint64_t> pool(distinct);
  for (uint64_t& v : pool) v = rng();
  std::vector<uint64_t> keys(n);
  for (size_t i = 0; i < n; ++i) keys[i] = pool[i % distinct];
  std::shuffle(keys.begin(), keys.end(), rng);
  return keys;
}

struct StringColumn {
  std::vector<int32_t> offsets{0};
  std::vector<uint8_t> bytes;
  size_t rows() const { return offsets.size() - 1; }
  std::string_view Get(size_t i) const {
    return std::string_view(reinterpret_cast<const char*>(bytes.data()) + offsets[i],
                            offsets[i + 1] - offsets[i]);
  }
};

// URL-like rows: `distinct` URLs of 20..300 bytes (mean about 80), each row one of them.
StringColumn MakeUrls(size_t n, size_t distinct) {
  static const char* const kHosts[] = {"http://example.com/", "https://www.shop.example.org/",
                                       "http://news.example.net/", "https://m.example.ru/"};
  std::mt19937_64 rng(distinct + 1);
  std::vector<std::string> pool(distinct);
  for (size_t p = 0; p < distinct; ++p) {
    std::string s = kHosts[rng() % 4] + std::to_string(p) + "/";
    const size_t len = 20 + static_cast<size_t>(std::min<double>(
                                280, std::exponential_distribution<double>(1 / 60.0)(rng)));
    while (s.size() < len) s += static_cast<char>('a' + rng() % 26) + std::to_string(rng() % 1000);
    pool[p] = s;
  }
  StringColumn c;
  c.offsets.reserve(n + 1);
  for (size_t i = 0; i < n; ++i) {
    const std::string& s = pool[i < distinct ? i : rng() % distinct];
    c.bytes.insert(c.bytes.end(), s.begin(), s.end());
    c.offsets.push_back(static_cast<int32_t>(c.bytes.size()));
  }
  return c;
}

bool Same(const std::vector<uint32_t>& want, const std::vector<uint32_t>& got, const char* what,
          const std::string& target) {
  if (want == got) return true;
  std::fprintf(stderr, "MISMATCH: %s on %s\n", what, target.c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 3;
  std::printf("cpu: %s, %zu rows per case, morsels of %zu rows, median of %d\n",
              laneql::CpuModel().c_str(), rows, kMorsel, runs);
  const double probe = laneql::bench::ProbeReadGBs(rows * sizeof(uint64_t), 1, runs);
  std::printf("read-bandwidth probe (memchr), 1 thread: %.2f GB/s\n\n", probe);
  laneql::bench::PrintHeader();
  const auto targets = laneql::SupportedTargets();
  std::vector<uint32_t> want(rows), got(rows);
  std::string error;

  for (size_t distinct : {size_t{1000}, size_t{100000}, size_t{1000000}, size_t{10000000}}) {
    distinct = std::min(distinct, rows);
    const std::vector<uint64_t> keys = MakeKeys(rows, distinct);
    std::vector<uint64_t> hashes(rows);
    laneql::HashKeys(keys.data(), rows, nullptr, hashes.data());
    const std::string label = "u64, " + std::to_string(distinct) + " distinct";
    Row(label + ": std::unordered_map", "-", 1, rows * 20, rows, MedianSeconds(runs, [&] {
          std::unordered_map<uint64_t, uint32_t> map;
          for (size_t i = 0; i < rows; ++i) {
            want[i] = map.emplace(keys[i], static_cast<uint32_t>(map.size())).first->second;
          }
        }), probe);
    for (const laneql::SimdTarget& target : targets) {
      if (!laneql::ForceTarget(target.name, &error)) continue;
      bool ok = true;
      const double s = MedianSeconds(runs, [&] {
        laneql::FixedKeyHashTable table;
        for (size_t b = 0; b < rows; b += kMorsel) {
          ok &= table.FindOrInsert(keys.data() + b, hashes.data() + b, std::min(kMorsel, rows - b),
                                   nullptr, got.data() + b, &error);
        }
      });
      if (!ok) std::fprintf(stderr, "error: %s\n", error.c_str());
      if (!ok || !Same(want, got, label.c_str(), target.name)) return 1;
      Row(label + ": FixedKeyHashTable", target.name, 1, rows * 20, rows, s, probe);
    }
    laneql::ResetTarget();
  }

  for (size_t distinct : {size_t{10000}, size_t{1000000}}) {
    distinct = std::min(distinct, rows);
    const StringColumn urls = MakeUrls(rows, distinct);
    std::vector<uint64_t> hashes(rows);
    laneql::HashStrings(urls.offsets.data(), urls.bytes.data(), rows, nullptr, hashes.data());
    const size_t traffic = urls.bytes.size() + rows * 16;
    const std::string label = "URLs, " + std::to_string(distinct) + " distinct";
    Row(label + ": std::unordered_map<string_view>", "-", 1, traffic, rows,
        MedianSeconds(runs, [&] {
          std::unordered_map<std::string_view, uint32_t> map;
          for (size_t i = 0; i < rows; ++i) {
            want[i] = map.emplace(urls.Get(i), static_cast<uint32_t>(map.size())).first->second;
          }
        }), probe);
    for (const laneql::SimdTarget& target : targets) {
      if (!laneql::ForceTarget(target.name, &error)) continue;
      bool ok = true;
      const double s = MedianSeconds(runs, [&] {
        laneql::StringKeyHashTable table;
        for (size_t b = 0; b < rows; b += kMorsel) {
          ok &= table.FindOrInsert(urls.offsets.data() + b, urls.bytes.data(), nullptr,
                                   hashes.data() + b, std::min(kMorsel, rows - b), nullptr,
                                   got.data() + b, &error);
        }
      });
      if (!ok) std::fprintf(stderr, "error: %s\n", error.c_str());
      if (!ok || !Same(want, got, label.c_str(), target.name)) return 1;
      Row(label + ": StringKeyHashTable", target.name, 1, traffic, rows, s, probe);
    }
    laneql::ResetTarget();
  }
  return 0;
}
