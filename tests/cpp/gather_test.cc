// Gather / compress kernels against their scalar references, on every compiled target.
//
// Outputs are checked two ways: in buffers that end exactly where the output must end (so ASan
// flags a write past it) and in buffers followed by a canary region (so a plain build catches
// it too). Inputs end exactly at their last row for the same reason.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/bitmask.h"
#include "laneql/gather.h"
#include "target_param.h"

namespace laneql {
namespace {

// Around every vector width (1..64 lanes), the 64-row mask words, and a large odd size.
const std::vector<size_t> kSizes = {0,   1,   2,   3,   7,   8,    9,    15,   16,    17,
                                    31,  32,  33,  63,  64,  65,   127,  128,  129,   1000,
                                    4095, 4096, 4097, 100003};

enum class MaskKind { kAll, kNone, kRandom, kSparse, kDense, kRuns, kSingle, kLastRow };
const MaskKind kMaskKinds[] = {MaskKind::kAll,   MaskKind::kNone, MaskKind::kRandom,
                               MaskKind::kSparse, MaskKind::kDense, MaskKind::kRuns,
                               MaskKind::kSingle, MaskKind::kLastRow};

std::string KindName(MaskKind kind) {
  const char* names[] = {"all", "none", "random", "sparse", "dense", "runs", "single", "last"};
  return names[static_cast<int>(kind)];
}

// A mask over n rows; `garbage_tail` sets the bits past row n, which the kernels must ignore.
std::vector<uint64_t> MakeMask(MaskKind kind, size_t n, uint64_t seed, bool garbage_tail = false) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> mask(BitmaskWords(n), 0);
  auto chance = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  bool in_run = false;
  size_t run_left = 0;
  for (size_t i = 0; i < n; ++i) {
    bool on = false;
    switch (kind) {
      case MaskKind::kAll: on = true; break;
      case MaskKind::kNone: on = false; break;
      case MaskKind::kRandom: on = rng() & 1; break;
      case MaskKind::kSparse: on = chance(0.01); break;
      case MaskKind::kDense: on = chance(0.99); break;
      case MaskKind::kRuns:  // runs of 1..200 rows on and off: crosses words both ways
        if (run_left == 0) {
          in_run = !in_run;
          run_left = 1 + rng() % 200;
        }
        --run_left;
        on = in_run;
        break;
      case MaskKind::kSingle: on = false; break;
      case MaskKind::kLastRow: on = i + 1 == n; break;
    }
    if (on) BitmaskSet(mask.data(), i);
  }
  if (kind == MaskKind::kSingle && n != 0) BitmaskSet(mask.data(), rng() % n);
  if (garbage_tail && n % 64 != 0) mask.back() |= ~BitmaskTailMask(n);
  return mask;
}

template <class T>
std::vector<T> RandomValues(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (T& x : v) {
    const uint64_t bits = rng();
    std::memcpy(&x, &bits, sizeof(T));
  }
  return v;
}

// Values that are all distinct (up to the type's range), so a kernel that reorders or drops a
// row cannot produce the reference's output by luck.
template <class T>
std::vector<T> DistinctValues(size_t n, uint64_t seed) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<T>((i + seed) * 0x9E3779B97F4A7C15ull);
  return v;
}

constexpr size_t kCanary = 80;  // more than the widest vector of any element type
constexpr uint8_t kCanaryByte = 0xA5;

bool CanaryIntact(const void* p, size_t bytes) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  return std::all_of(b, b + bytes, [](uint8_t x) { return x == kCanaryByte; });
}

// Runs `kernel(out)` twice: into a buffer that ends exactly at `want`'s end (for ASan), and into
// one followed by a canary; both must equal `want`. `offset` misaligns the output.
template <class T, class Kernel>
void ExpectOutput(const std::vector<T>& want, size_t offset, const Kernel& kernel,
                  const std::string& what) {
  std::vector<T> exact(want.size() + offset);
  kernel(exact.data() + offset);
  EXPECT_TRUE(std::equal(want.begin(), want.end(), exact.begin() + offset)) << what;

  std::vector<T> guarded(want.size() + offset + kCanary);
  std::memset(guarded.data(), kCanaryByte, guarded.size() * sizeof(T));
  kernel(guarded.data() + offset);
  EXPECT_TRUE(std::equal(want.begin(), want.end(), guarded.begin() + offset)) << what;
  EXPECT_TRUE(CanaryIntact(guarded.data() + offset + want.size(), kCanary * sizeof(T)))
      << "wrote past the output: " << what;
  EXPECT_TRUE(CanaryIntact(guarded.data(), offset * sizeof(T))) << "wrote before it: " << what;
}

template <class T>
void CheckCompress(size_t (*kernel)(const T*, size_t, const uint64_t*, T*),
                   size_t (*ref)(const T*, size_t, const uint64_t*, T*)) {
  for (size_t n : kSizes) {
    for (MaskKind kind : kMaskKinds) {
      for (size_t offset : {0, 1, 3}) {
        const uint64_t seed = n * 131 + static_cast<int>(kind) * 7 + offset;
        // The input ends exactly at row n: an over-read of the tail leaves the allocation.
        std::vector<T> buf = DistinctValues<T>(n + offset, seed);
        const T* in = buf.data() + offset;
        const std::vector<uint64_t> mask = MakeMask(kind, n, seed, /*garbage_tail=*/offset == 1);
        const size_t count = reference::CompressCount(mask.data(), n);
        ASSERT_EQ(count, CompressCount(mask.data(), n));
        std::vector<T> want(count);
        ASSERT_EQ(count, ref(in, n, mask.data(), want.data()));
        const std::string what = "n=" + std::to_string(n) + " mask=" + KindName(kind) +
                                 " offset=" + std::to_string(offset);
        ExpectOutput(want, offset, [&](T* out) {
          EXPECT_EQ(count, kernel(in, n, mask.data(), out)) << what;
        }, what);
      }
    }
  }
}

LANEQL_PER_TARGET_SUITE(GatherTest);

TEST_P(GatherTest, CompressU8) { CheckCompress<uint8_t>(CompressU8, reference::CompressU8); }
TEST_P(GatherTest, CompressU16) { CheckCompress<uint16_t>(CompressU16, reference::CompressU16); }
TEST_P(GatherTest, CompressU32) { CheckCompress<uint32_t>(CompressU32, reference::CompressU32); }
TEST_P(GatherTest, CompressU64) { CheckCompress<uint64_t>(CompressU64, reference::CompressU64); }

TEST_P(GatherTest, CompressCountIgnoresBitsPastTheEnd) {
  for (size_t n : kSizes) {
    const std::vector<uint64_t> mask = MakeMask(MaskKind::kRandom, n, n, /*garbage_tail=*/true);
    EXPECT_EQ(reference::CompressCount(mask.data(), n), CompressCount(mask.data(), n)) << n;
  }
}

TEST_P(GatherTest, TypedCompressMovesBitPatterns) {
  // Floats, dates and extremes travel as bits: NaN payloads, -0.0 and infinities survive.
  const double nan_payload = [] {
    const uint64_t bits = 0x7FF8DEADBEEF0001ull;
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }();
  const std::vector<double> f64 = {-0.0, nan_payload, std::numeric_limits<double>::infinity(),
                                   -std::numeric_limits<double>::infinity(), 1.5,
                                   std::numeric_limits<double>::denorm_min(), 0.0, -1e308};
  const std::vector<float> f32 = {-0.0f, std::nanf("7"), std::numeric_limits<float>::infinity(),
                                  1.25f, -3.0f};
  const std::vector<int64_t> i64 = {std::numeric_limits<int64_t>::min(),
                                    std::numeric_limits<int64_t>::max(), -1, 0, 42};
  const std::vector<int32_t> i32 = {std::numeric_limits<int32_t>::min(),
                                    std::numeric_limits<int32_t>::max(), -1, 15887 /* a date */};
  const std::vector<int16_t> i16 = {std::numeric_limits<int16_t>::min(),
                                    std::numeric_limits<int16_t>::max(), -1, 0};
  const std::vector<int8_t> i8 = {std::numeric_limits<int8_t>::min(),
                                  std::numeric_limits<int8_t>::max(), -1, 0};
  auto check = [](const auto& values) {
    using T = typename std::decay_t<decltype(values)>::value_type;
    // Rows 0, 2, 3, ...: every value but the second.
    const uint64_t mask = ((uint64_t{1} << values.size()) - 1) & ~uint64_t{2};
    std::vector<T> out(values.size() - 1);
    ASSERT_EQ(out.size(), Compress(values.data(), values.size(), &mask, out.data()));
    std::vector<T> want = values;
    want.erase(want.begin() + 1);
    EXPECT_EQ(0, std::memcmp(want.data(), out.data(), out.size() * sizeof(T)));
    // And gathered back in reverse order.
    std::vector<uint32_t> indices(values.size());
    for (size_t i = 0; i < indices.size(); ++i) indices[i] = indices.size() - 1 - i;
    std::vector<T> gathered(values.size());
    Gather(values.data(), indices.data(), indices.size(), gathered.data());
    for (size_t i = 0; i < values.size(); ++i) {
      EXPECT_EQ(0, std::memcmp(&values[values.size() - 1 - i], &gathered[i], sizeof(T))) << i;
    }
  };
  check(f64);
  check(f32);
  check(i64);
  check(i32);
  check(i16);
  check(i8);
}

TEST(GatherReference, KnownAnswers) {
  // Pins the references to hand-computed results, so the per-target comparisons above cannot
  // pass against a reference that is wrong in the same way as a kernel.
  const uint32_t in[] = {10, 11, 12, 13, 14};
  const uint64_t mask = 0b10110;  // rows 1, 2, 4
  uint32_t out[3] = {};
  ASSERT_EQ(3u, reference::CompressU32(in, 5, &mask, out));
  EXPECT_EQ(11u, out[0]);
  EXPECT_EQ(12u, out[1]);
  EXPECT_EQ(14u, out[2]);
  const uint32_t indices[] = {4, 0, 4};
  reference::GatherU32(in, indices, 3, out);
  EXPECT_EQ(14u, out[0]);
  EXPECT_EQ(10u, out[1]);
  EXPECT_EQ(14u, out[2]);
  const uint64_t validity = 0b00101;  // rows 0 and 2 valid
  uint64_t bits = ~uint64_t{0};
  reference::CompressBitmask(&validity, 5, &mask, &bits);  // rows 1, 2, 4 -> 0, 1, 0
  EXPECT_EQ(0b010u, bits);
}

// ------------------------------ gather

enum class IndexKind { kRandom, kSorted, kRepeated, kSameRow, kReversed };
const IndexKind kIndexKinds[] = {IndexKind::kRandom, IndexKind::kSorted, IndexKind::kRepeated,
                                 IndexKind::kSameRow, IndexKind::kReversed};

std::vector<uint32_t> MakeIndices(IndexKind kind, size_t count, size_t rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint32_t> idx(count);
  for (size_t j = 0; j < count; ++j) {
    switch (kind) {
      case IndexKind::kRandom: idx[j] = static_cast<uint32_t>(rng() % rows); break;
      case IndexKind::kSorted: idx[j] = static_cast<uint32_t>(rng() % rows); break;
      case IndexKind::kRepeated:  // three rows over and over
        idx[j] = static_cast<uint32_t>(rng() % std::min<size_t>(rows, 3));
        break;
      case IndexKind::kSameRow: idx[j] = static_cast<uint32_t>(rows - 1); break;
      case IndexKind::kReversed: idx[j] = static_cast<uint32_t>(rows - 1 - j % rows); break;
    }
  }
  if (kind == IndexKind::kSorted) std::sort(idx.begin(), idx.end());
  // Always touch the first and the last row when there is room: the edges of the input.
  if (count >= 2 && kind == IndexKind::kRandom) {
    idx[0] = static_cast<uint32_t>(rows - 1);
    idx[count - 1] = 0;
  }
  return idx;
}

template <class T>
void CheckGather(void (*kernel)(const T*, const uint32_t*, size_t, T*),
                 void (*ref)(const T*, const uint32_t*, size_t, T*)) {
  for (size_t count : kSizes) {
    for (IndexKind kind : kIndexKinds) {
      for (size_t offset : {0, 1, 3}) {
        const size_t rows = std::max<size_t>(1, count / 2 + 5);
        const uint64_t seed = count * 17 + static_cast<int>(kind) * 3 + offset;
        const std::vector<T> buf = RandomValues<T>(rows + offset, seed);
        const T* in = buf.data() + offset;
        // Indices start unaligned too.
        std::vector<uint32_t> idx_buf(offset);
        const std::vector<uint32_t> idx = MakeIndices(kind, count, rows, seed);
        idx_buf.insert(idx_buf.end(), idx.begin(), idx.end());
        const uint32_t* indices = idx_buf.data() + offset;
        std::vector<T> want(count);
        ref(in, indices, count, want.data());
        const std::string what = "count=" + std::to_string(count) + " kind=" +
                                 std::to_string(static_cast<int>(kind)) +
                                 " offset=" + std::to_string(offset);
        ExpectOutput(want, offset, [&](T* out) { kernel(in, indices, count, out); }, what);
      }
    }
  }
}

TEST_P(GatherTest, GatherU8) { CheckGather<uint8_t>(GatherU8, reference::GatherU8); }
TEST_P(GatherTest, GatherU16) { CheckGather<uint16_t>(GatherU16, reference::GatherU16); }
TEST_P(GatherTest, GatherU32) { CheckGather<uint32_t>(GatherU32, reference::GatherU32); }
TEST_P(GatherTest, GatherU64) { CheckGather<uint64_t>(GatherU64, reference::GatherU64); }

#if UINTPTR_MAX > 0xFFFFFFFFu
TEST_P(GatherTest, IndicesFromTwoToThe31On) {
  // x86 gathers take signed 32-bit indices; rows 2^31 .. 2^32 - 1 must still be found. A 32 GiB
  // reservation of which only the touched pages become memory stands in for such a column.
  const size_t bytes = (size_t{1} << 32) * sizeof(uint64_t);
  void* region = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (region == MAP_FAILED) GTEST_SKIP() << "cannot reserve 32 GiB of address space";
  const std::vector<uint32_t> rows = {0,          1,          0x7FFFFFFFu, 0x80000000u,
                                      0x80000001u, 0xC0000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
  auto* u64 = static_cast<uint64_t*>(region);
  auto* u32 = static_cast<uint32_t*>(region);
  for (uint32_t r : rows) u64[r] = 0x1000000000ull + r;
  std::vector<uint32_t> indices;
  for (int rep = 0; rep < 5; ++rep) indices.insert(indices.end(), rows.rbegin(), rows.rend());
  std::vector<uint64_t> out64(indices.size());
  GatherU64(u64, indices.data(), indices.size(), out64.data());
  for (size_t j = 0; j < indices.size(); ++j) {
    EXPECT_EQ(0x1000000000ull + indices[j], out64[j]) << j;
  }
  for (uint32_t r : rows) u32[r] = 0x5A000000u ^ r;
  std::vector<uint32_t> out32(indices.size());
  GatherU32(u32, indices.data(), indices.size(), out32.data());
  for (size_t j = 0; j < indices.size(); ++j) EXPECT_EQ(0x5A000000u ^ indices[j], out32[j]) << j;
  // 16- and 8-bit gathers use 32-bit byte offsets: rows from 2^30 / 2^31 on.
  auto* u16 = static_cast<uint16_t*>(region);
  for (uint32_t r : rows) u16[r] = static_cast<uint16_t>(r * 7 + 1);
  std::vector<uint16_t> out16(indices.size());
  GatherU16(u16, indices.data(), indices.size(), out16.data());
  for (size_t j = 0; j < indices.size(); ++j) {
    EXPECT_EQ(static_cast<uint16_t>(indices[j] * 7 + 1), out16[j]) << j;
  }
  auto* u8 = static_cast<uint8_t*>(region);
  for (uint32_t r : rows) u8[r] = static_cast<uint8_t>(r * 13 + 5);
  std::vector<uint8_t> out8(indices.size());
  GatherU8(u8, indices.data(), indices.size(), out8.data());
  for (size_t j = 0; j < indices.size(); ++j) {
    EXPECT_EQ(static_cast<uint8_t>(indices[j] * 13 + 5), out8[j]) << j;
  }
  munmap(region, bytes);
}
#endif


// ------------------------------ bitmasks

TEST_P(GatherTest, CompressBitmask) {
  for (size_t n : kSizes) {
    for (MaskKind kind : kMaskKinds) {
      const std::vector<uint64_t> bits = RandomValues<uint64_t>(BitmaskWords(n), n + 1);
      const std::vector<uint64_t> mask = MakeMask(kind, n, n * 3 + static_cast<int>(kind),
                                                  /*garbage_tail=*/kind == MaskKind::kRandom);
      std::vector<uint64_t> want(BitmaskWords(reference::CompressCount(mask.data(), n)));
      reference::CompressBitmask(bits.data(), n, mask.data(), want.data());
      ExpectOutput(want, 0, [&](uint64_t* out) {
        CompressBitmask(bits.data(), n, mask.data(), out);
      }, "n=" + std::to_string(n) + " mask=" + KindName(kind));
    }
  }
}

TEST_P(GatherTest, GatherBitmask) {
  for (size_t count : kSizes) {
    for (IndexKind kind : kIndexKinds) {
      const size_t rows = count + 70;
      const std::vector<uint64_t> bits = RandomValues<uint64_t>(BitmaskWords(rows), count);
      const std::vector<uint32_t> idx = MakeIndices(kind, count, rows, count + 9);
      std::vector<uint64_t> want(BitmaskWords(count));
      reference::GatherBitmask(bits.data(), idx.data(), count, want.data());
      ExpectOutput(want, 0, [&](uint64_t* out) {
        GatherBitmask(bits.data(), idx.data(), count, out);
      }, "count=" + std::to_string(count));
    }
  }
}

// ------------------------------ strings

struct Strings {
  std::vector<int32_t> offsets;  // rows + 1 entries, possibly starting above 0
  std::vector<uint8_t> data;     // ends exactly at the last row's end
};

// Random UTF-8 rows: empty ones, ASCII, Cyrillic (2-byte), CJK (3-byte) and emoji (4-byte)
// characters, lengths from 0 to ~300 bytes (short-copy and memcpy paths). `base` > 0 makes
// the offsets a slice that starts inside the data.
Strings RandomStrings(size_t rows, uint64_t seed, int32_t base) {
  static const char* const kPieces[] = {"a", "Z", "/", "?q=", "http://ex.com/", "\xD0\xBF",
                                        "\xD1\x8F", "\xE4\xB8\xAD", "\xF0\x9F\x98\x80", "0"};
  std::mt19937_64 rng(seed);
  Strings s;
  s.data.assign(static_cast<size_t>(base), '#');
  s.offsets.push_back(base);
  for (size_t r = 0; r < rows; ++r) {
    const uint64_t shape = rng() % 10;
    const size_t pieces = shape < 3 ? 0 : shape < 8 ? rng() % 12 : rng() % 90;
    for (size_t p = 0; p < pieces; ++p) {
      const char* piece = kPieces[rng() % 10];
      s.data.insert(s.data.end(), piece, piece + std::strlen(piece));
    }
    s.offsets.push_back(static_cast<int32_t>(s.data.size()));
  }
  return s;
}

TEST_P(GatherTest, CompressStrings) {
  for (size_t n : kSizes) {
    for (MaskKind kind : kMaskKinds) {
      for (int32_t base : {0, 5}) {
        const Strings s = RandomStrings(n, n + static_cast<int>(kind), base);
        const std::vector<uint64_t> mask = MakeMask(kind, n, n * 5 + base, base == 5);
        const size_t count = reference::CompressCount(mask.data(), n);
        const std::string what = "n=" + std::to_string(n) + " mask=" + KindName(kind) +
                                 " base=" + std::to_string(base);
        std::vector<int32_t> want_offsets(count + 1);
        const int64_t want_bytes = reference::CompressStringOffsets(s.offsets.data(), n,
                                                                    mask.data(),
                                                                    want_offsets.data());
        ExpectOutput(want_offsets, 0, [&](int32_t* out) {
          EXPECT_EQ(want_bytes, CompressStringOffsets(s.offsets.data(), n, mask.data(), out));
        }, what);
        std::vector<uint8_t> want_data(static_cast<size_t>(want_bytes));
        reference::CompressStringData(s.offsets.data(), s.data.data(), n, mask.data(),
                                      want_data.data(), want_data.size());
        ExpectOutput(want_data, 0, [&](uint8_t* out) {
          CompressStringData(s.offsets.data(), s.data.data(), n, mask.data(), out,
                             want_data.size());
        }, what);
      }
    }
  }
}

TEST_P(GatherTest, GatherStrings) {
  for (size_t count : kSizes) {
    for (IndexKind kind : kIndexKinds) {
      const size_t rows = count / 3 + 7;
      const Strings s = RandomStrings(rows, count * 7 + static_cast<int>(kind), 3);
      const std::vector<uint32_t> idx = MakeIndices(kind, count, rows, count);
      const std::string what = "count=" + std::to_string(count) + " kind=" +
                               std::to_string(static_cast<int>(kind));
      std::vector<int32_t> want_offsets(count + 1);
      const int64_t want_bytes =
          reference::GatherStringOffsets(s.offsets.data(), idx.data(), count, want_offsets.data());
      ASSERT_GE(want_bytes, 0);
      ExpectOutput(want_offsets, 0, [&](int32_t* out) {
        EXPECT_EQ(want_bytes, GatherStringOffsets(s.offsets.data(), idx.data(), count, out));
      }, what);
      std::vector<uint8_t> want_data(static_cast<size_t>(want_bytes));
      reference::GatherStringData(s.offsets.data(), s.data.data(), s.data.size(), idx.data(),
                                  count, want_data.data(), want_data.size());
      ExpectOutput(want_data, 0, [&](uint8_t* out) {
        GatherStringData(s.offsets.data(), s.data.data(), s.data.size(), idx.data(), count, out,
                         want_data.size());
      }, what);
    }
  }
}

TEST_P(GatherTest, StringsKeepUtf8AndEmptyRows) {
  const std::vector<std::string> rows = {"", "Москва", "", "日本語", "😀x", "", "plain"};
  Strings s;
  s.offsets.push_back(0);
  for (const std::string& r : rows) {
    s.data.insert(s.data.end(), r.begin(), r.end());
    s.offsets.push_back(static_cast<int32_t>(s.data.size()));
  }
  const uint64_t mask = 0b1011110;  // rows 1, 2, 3, 4, 6
  std::vector<int32_t> offsets(6);
  const int64_t bytes = CompressStringOffsets(s.offsets.data(), rows.size(), &mask, offsets.data());
  std::vector<uint8_t> data(static_cast<size_t>(bytes));
  CompressStringData(s.offsets.data(), s.data.data(), rows.size(), &mask, data.data(),
                     data.size());
  const std::vector<std::string> want = {"Москва", "", "日本語", "😀x", "plain"};
  for (size_t k = 0; k < want.size(); ++k) {
    EXPECT_EQ(want[k], std::string(reinterpret_cast<const char*>(data.data()) + offsets[k],
                                   static_cast<size_t>(offsets[k + 1] - offsets[k])));
  }
}

TEST_P(GatherTest, GatherStringOffsetsReportsOverflow) {
  // One 1 MiB row gathered 2049 times is 2^31 + 2^20 bytes: more than int32 offsets hold.
  const std::vector<int32_t> offsets = {0, 1 << 20};
  const std::vector<uint32_t> idx(2049, 0);
  std::vector<int32_t> out(idx.size() + 1);
  EXPECT_EQ(kStringBytesOverflow,
            GatherStringOffsets(offsets.data(), idx.data(), idx.size(), out.data()));
  EXPECT_EQ(kStringBytesOverflow,
            reference::GatherStringOffsets(offsets.data(), idx.data(), idx.size(), out.data()));
  // 2047 times still fits.
  EXPECT_EQ(int64_t{2047} << 20, GatherStringOffsets(offsets.data(), idx.data(), 2047, out.data()));
}

// ------------------------------ fences

#if !defined(__EMSCRIPTEN__)
// Memory with an inaccessible page right before and right after it: a kernel that touches one
// byte outside the range faults, vector loads and hardware gathers included (which ASan does
// not see).
class FencedMemory {
 public:
  explicit FencedMemory(size_t bytes) {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    inner_ = (bytes + page_ - 1) / page_ * page_ + page_;
    size_ = inner_ + 2 * page_;
    void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    base_ = p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
    if (base_ != nullptr) {
      mprotect(base_, page_, PROT_NONE);
      mprotect(base_ + page_ + inner_, page_, PROT_NONE);
    }
  }
  ~FencedMemory() {
    if (base_ != nullptr) munmap(base_, size_);
  }
  bool ok() const { return base_ != nullptr; }
  // `bytes` bytes that start right after the front fence, or end right before the back one.
  uint8_t* AtStart() { return base_ + page_; }
  uint8_t* AtEnd(size_t bytes) { return base_ + page_ + inner_ - bytes; }

 private:
  size_t page_ = 0, inner_ = 0, size_ = 0;
  uint8_t* base_ = nullptr;
};

template <class T>
void CheckFencedReads(size_t n) {
  FencedMemory memory(n * sizeof(T));
  ASSERT_TRUE(memory.ok());
  const std::vector<T> values = DistinctValues<T>(n, n);
  const std::vector<uint64_t> mask = MakeMask(MaskKind::kDense, n, n);
  // Every row, first and last included, in a scrambled order.
  std::vector<uint32_t> indices = MakeIndices(IndexKind::kRandom, 4 * n + 40, n, n);
  for (size_t i = 0; i < n; ++i) indices[i] = static_cast<uint32_t>(i);
  for (uint8_t* where : {memory.AtStart(), memory.AtEnd(n * sizeof(T))}) {
    T* in = reinterpret_cast<T*>(where);
    std::memcpy(in, values.data(), n * sizeof(T));
    std::vector<T> want(indices.size()), got(indices.size());
    Gather(in, indices.data(), indices.size(), got.data());
    for (size_t j = 0; j < indices.size(); ++j) want[j] = values[indices[j]];
    EXPECT_EQ(want, got) << "n=" << n;
    std::vector<T> compressed(reference::CompressCount(mask.data(), n));
    const size_t count = Compress(in, n, mask.data(), compressed.data());
    ASSERT_EQ(compressed.size(), count);
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
      if (BitmaskGet(mask.data(), i)) {
        EXPECT_EQ(values[i], compressed[k++]) << i;
      }
    }
  }
}

TEST_P(GatherTest, NeverReadsOutsideTheInput) {
  for (size_t n : {size_t{1}, size_t{2}, size_t{3}, size_t{4}, size_t{5}, size_t{17}, size_t{63},
                   size_t{100}, size_t{1000}}) {
    CheckFencedReads<uint8_t>(n);
    CheckFencedReads<uint16_t>(n);
    CheckFencedReads<uint32_t>(n);
    CheckFencedReads<uint64_t>(n);
  }
  // Strings: the bytes end at the fence (the 32-byte copies must stop short of it).
  for (size_t rows : {size_t{1}, size_t{7}, size_t{100}}) {
    const Strings s = RandomStrings(rows, rows, 0);
    FencedMemory memory(s.data.size());
    ASSERT_TRUE(memory.ok());
    uint8_t* data = memory.AtEnd(s.data.size());
    std::memcpy(data, s.data.data(), s.data.size());
    const std::vector<uint64_t> mask = MakeMask(MaskKind::kRandom, rows, rows);
    std::vector<int32_t> offsets(reference::CompressCount(mask.data(), rows) + 1);
    const int64_t bytes =
        CompressStringOffsets(s.offsets.data(), rows, mask.data(), offsets.data());
    std::vector<uint8_t> want(static_cast<size_t>(bytes)), got(static_cast<size_t>(bytes));
    reference::CompressStringData(s.offsets.data(), s.data.data(), rows, mask.data(), want.data(),
                                  want.size());
    CompressStringData(s.offsets.data(), data, rows, mask.data(), got.data(), got.size());
    EXPECT_EQ(want, got);
    std::vector<uint32_t> indices(rows);
    for (size_t j = 0; j < rows; ++j) indices[j] = static_cast<uint32_t>(rows - 1 - j);
    std::vector<int32_t> gathered_offsets(rows + 1);
    const int64_t gathered =
        GatherStringOffsets(s.offsets.data(), indices.data(), rows, gathered_offsets.data());
    std::vector<uint8_t> want_g(static_cast<size_t>(gathered)), got_g(want_g.size());
    reference::GatherStringData(s.offsets.data(), s.data.data(), s.data.size(), indices.data(),
                                rows, want_g.data(), want_g.size());
    GatherStringData(s.offsets.data(), data, s.data.size(), indices.data(), rows, got_g.data(),
                     got_g.size());
    EXPECT_EQ(want_g, got_g);
  }
}
#endif

}  // namespace
}  // namespace laneql
