// Hash kernels per SIMD target against a read-bandwidth probe measured in the same run, and
// against the scalar reference: uint64 and uint32 keys (default 10^8 rows, memory-resident),
// URL-like strings and SearchPhrase-like strings (mostly empty; default 10^7 rows), and a
// cache-resident batch of the size an operator would hash at a time.
//
//   build/<dir>/bench/laneql_hash_bench [rows] [runs] [string_rows]
//
// The GB/s column counts every byte the kernel moves: keys (for strings: bytes and offsets)
// read plus 8-byte hashes written, because the writes take memory bandwidth too. Every SIMD
// result is checked against the scalar reference before it is timed.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench_util.h"
#include "laneql/hash.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"

using laneql::bench::MedianSeconds;
using laneql::bench::Row;

namespace {

struct StringColumn {
  std::vector<int32_t> offsets{0};
  std::vector<uint8_t> bytes;
  void Add(const std::string& s) {
    bytes.insert(bytes.end(), s.begin(), s.end());
    offsets.push_back(static_cast<int32_t>(bytes.size()));
  }
  size_t rows() const { return offsets.size() - 1; }
  size_t traffic() const { return bytes.size() + offsets.size() * 4 + rows() * 8; }
};

// URL-like: 20..300 bytes, a few hosts, paths and query strings (mean about 80 bytes).
StringColumn MakeUrls(size_t n) {
  static const char* const kHosts[] = {"http://example.com/", "https://www.shop.example.org/",
                                       "http://news.example.net/", "https://m.example.ru/"};
  std::mt19937_64 rng(1);
  StringColumn c;
  c.bytes.reserve(n * 90);
  c.offsets.reserve(n + 1);
  for (size_t i = 0; i < n; ++i) {
    std::string s = kHosts[rng() % 4];
    const size_t len = 20 + static_cast<size_t>(std::min<double>(
                                280, std::exponential_distribution<double>(1 / 60.0)(rng)));
    while (s.size() < len) s += static_cast<char>('a' + rng() % 26) + std::to_string(rng() % 1000);
    s.resize(len);
    c.Add(s);
  }
  return c;
}

// SearchPhrase-like: 85 % empty, the rest 5..60 bytes.
StringColumn MakePhrases(size_t n) {
  std::mt19937_64 rng(2);
  StringColumn c;
  c.offsets.reserve(n + 1);
  for (size_t i = 0; i < n; ++i) {
    if (rng() % 100 < 85) {
      c.Add("");
      continue;
    }
    std::string s;
    const size_t len = 5 + rng() % 56;
    while (s.size() < len) s += static_cast<char>('a' + rng() % 26);
    c.Add(s);
  }
  return c;
}

bool Same(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, const char* what,
          const std::string& target) {
  if (a == b) return true;
  std::fprintf(stderr, "MISMATCH: %s on %s\n", what, target.c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  const size_t string_rows = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 10000000;
  const size_t batch = 4096;  // 32 KiB of uint64 keys + 32 KiB of hashes: L1/L2-resident
  const int batch_repeats = static_cast<int>(std::max<size_t>(1, 100000000 / batch));

  std::vector<uint64_t> u64(rows);
  std::vector<uint32_t> u32(rows);
  for (size_t i = 0; i < rows; ++i) {
    u64[i] = i * 0x9E3779B97F4A7C15ull;
    u32[i] = static_cast<uint32_t>(i * 2654435761u);
  }
  const StringColumn urls = MakeUrls(string_rows);
  const StringColumn phrases = MakePhrases(string_rows);
  std::vector<uint64_t> want(rows), got(rows);

  std::printf("cpu: %s, %zu key rows, %zu string rows (URLs: %.0f MB, mean %.0f bytes), "
              "median of %d\n",
              laneql::CpuModel().c_str(), rows, string_rows, urls.bytes.size() / 1e6,
              urls.bytes.size() / static_cast<double>(std::max<size_t>(1, string_rows)), runs);
  const double probe = laneql::bench::ProbeReadGBs(rows * sizeof(uint64_t), 1, runs);
  std::printf("read-bandwidth probe (memchr), 1 thread: %.2f GB/s\n\n", probe);
  laneql::bench::PrintHeader();

  // Scalar references (these also produce the expected hashes).
  using laneql::HashKeyType;
  const size_t u64_traffic = rows * 16, u32_traffic = rows * 12;
  std::vector<uint64_t> want32(rows), want_urls(string_rows), want_phrases(string_rows);
  Row("hash u64 scalar ref", "-", 1, u64_traffic, rows, MedianSeconds(runs, [&] {
        laneql::reference::HashKeys(HashKeyType::kUInt64, u64.data(), rows, nullptr, want.data());
      }), probe);
  Row("hash u32 scalar ref", "-", 1, u32_traffic, rows, MedianSeconds(runs, [&] {
        laneql::reference::HashKeys(HashKeyType::kUInt32, u32.data(), rows, nullptr,
                                    want32.data());
      }), probe);
  Row("hash URLs scalar ref", "-", 1, urls.traffic(), string_rows, MedianSeconds(runs, [&] {
        laneql::reference::HashStrings(urls.offsets.data(), urls.bytes.data(), string_rows,
                                       nullptr, want_urls.data());
      }), probe);
  Row("hash phrases scalar ref", "-", 1, phrases.traffic(), string_rows, MedianSeconds(runs, [&] {
        laneql::reference::HashStrings(phrases.offsets.data(), phrases.bytes.data(), string_rows,
                                       nullptr, want_phrases.data());
      }), probe);
  const size_t b = std::min(batch, rows);
  Row("hash u64 4K batch scalar ref", "-", 1, b * 16 * batch_repeats, b * batch_repeats,
      MedianSeconds(runs, [&] {
        for (int r = 0; r < batch_repeats; ++r) {
          laneql::reference::HashKeys(HashKeyType::kUInt64, u64.data(), b, nullptr, got.data());
        }
      }), probe);

  std::vector<uint64_t> got_strings(string_rows);
  for (const laneql::SimdTarget& target : laneql::SupportedTargets()) {
    std::string error;
    if (!laneql::ForceTarget(target.name, &error)) continue;
    const std::string& t = target.name;

    laneql::HashKeys(u64.data(), rows, nullptr, got.data());
    if (!Same(want, got, "u64", t)) return 1;
    Row("hash u64 (memory)", t, 1, u64_traffic, rows, MedianSeconds(runs, [&] {
          laneql::HashKeys(u64.data(), rows, nullptr, got.data());
        }), probe);

    laneql::HashKeys(u32.data(), rows, nullptr, got.data());
    if (!Same(want32, got, "u32", t)) return 1;
    Row("hash u32 (memory)", t, 1, u32_traffic, rows, MedianSeconds(runs, [&] {
          laneql::HashKeys(u32.data(), rows, nullptr, got.data());
        }), probe);

    // Combining a second column: the common multi-column GROUP BY step.
    Row("combine u32 into u64 hashes", t, 1, rows * 20, rows, MedianSeconds(runs, [&] {
          laneql::HashCombineKeys(u32.data(), rows, nullptr, got.data());
        }), probe);

    laneql::HashStrings(urls.offsets.data(), urls.bytes.data(), string_rows, nullptr,
                        got_strings.data());
    if (!Same(want_urls, got_strings, "URLs", t)) return 1;
    Row("hash URLs (memory)", t, 1, urls.traffic(), string_rows, MedianSeconds(runs, [&] {
          laneql::HashStrings(urls.offsets.data(), urls.bytes.data(), string_rows, nullptr,
                              got_strings.data());
        }), probe);

    laneql::HashStrings(phrases.offsets.data(), phrases.bytes.data(), string_rows, nullptr,
                        got_strings.data());
    if (!Same(want_phrases, got_strings, "phrases", t)) return 1;
    Row("hash phrases (memory)", t, 1, phrases.traffic(), string_rows, MedianSeconds(runs, [&] {
          laneql::HashStrings(phrases.offsets.data(), phrases.bytes.data(), string_rows, nullptr,
                              got_strings.data());
        }), probe);

    Row("hash u64 4K batch (cached)", t, 1, b * 16 * batch_repeats, b * batch_repeats,
        MedianSeconds(runs, [&] {
          for (int r = 0; r < batch_repeats; ++r) {
            laneql::HashKeys(u64.data(), b, nullptr, got.data());
          }
        }), probe);
  }
  laneql::ResetTarget();
  return 0;
}
