// Hash kernels against their scalar references on every compiled target (bit-identical hashes),
// the SQL equalities the hash must respect, and distribution checks that a weak hash fails.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/bitmask.h"
#include "laneql/hash.h"
#include "target_param.h"

namespace laneql {
namespace {

// Every boundary the kernels have: 1..8 uint64 lanes, the two-vector unroll, 64-row validity
// words, 256-row string chunks, plus empty and a large odd size.
const std::vector<size_t> kSizes = {0,   1,   2,   3,   4,    5,    7,    8,    9,
                                    15,  16,  17,  31,  32,   33,   63,   64,   65,
                                    127, 128, 129, 255, 256,  257,  1000, 4095, 4096,
                                    4097, 100003};

constexpr uint64_t kGuard = 0xA5A5A5A5A5A5A5A5ull;

enum class Validity { kNone, kAllValid, kAllNull, kRandom, kSparseNulls };
const Validity kValidities[] = {Validity::kNone, Validity::kAllValid, Validity::kAllNull,
                                Validity::kRandom, Validity::kSparseNulls};

// An n-row validity mask (bits past n are 0, as laneql/bitmask.h requires); empty for kNone.
std::vector<uint64_t> MakeValidity(Validity kind, size_t n, uint64_t seed) {
  if (kind == Validity::kNone) return {};
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> words(BitmaskWords(n) + 1, 0);  // +1: never empty, so data() is valid
  for (size_t i = 0; i < n; ++i) {
    bool valid = true;
    if (kind == Validity::kAllNull) valid = false;
    if (kind == Validity::kRandom) valid = rng() & 1;
    if (kind == Validity::kSparseNulls) valid = rng() % 97 != 0;
    if (valid) BitmaskSet(words.data(), i);
  }
  return words;
}

// Random values of T with the awkward ones mixed in: extremes, zeros, and for floats every
// kind of NaN, both zeros, infinities and subnormals.
template <class T>
std::vector<T> MakeKeys(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> specials = {std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max(),
                             T(0), T(1)};
  if constexpr (std::is_floating_point_v<T>) {
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    const Bits sign = Bits{1} << (sizeof(T) * 8 - 1);
    const T qnan = std::numeric_limits<T>::quiet_NaN();
    Bits payload_nan, negative_nan;
    std::memcpy(&payload_nan, &qnan, sizeof qnan);
    payload_nan |= 1;  // a NaN with a payload
    negative_nan = payload_nan | sign;
    T extra[2];
    std::memcpy(&extra[0], &payload_nan, sizeof(T));
    std::memcpy(&extra[1], &negative_nan, sizeof(T));
    specials.insert(specials.end(),
                    {T(-0.0), qnan, -qnan, std::numeric_limits<T>::signaling_NaN(), extra[0],
                     extra[1], std::numeric_limits<T>::infinity(),
                     -std::numeric_limits<T>::infinity(), std::numeric_limits<T>::denorm_min(),
                     -std::numeric_limits<T>::denorm_min(), T(-1)});
  } else if constexpr (std::is_signed_v<T>) {
    specials.push_back(T(-1));
  }
  std::vector<T> v(n);
  for (T& x : v) {
    const uint64_t r = rng();
    if (r % 8 == 0) {
      x = specials[(r >> 8) % specials.size()];
    } else if constexpr (std::is_floating_point_v<T>) {
      x = static_cast<T>(std::ldexp(static_cast<double>(rng() >> 11) * 0x1p-53 - 0.5,
                                    static_cast<int>(rng() % 40) - 20));
    } else {
      x = static_cast<T>(rng());
    }
  }
  return v;
}

std::vector<uint64_t> RandomHashes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(n);
  for (uint64_t& x : v) x = rng();
  return v;
}

LANEQL_PER_TARGET_SUITE(HashKeysTest);

// HashKeys and HashCombineKeys on every size, start offset and validity kind against the
// reference; nothing past the n output rows may be written.
template <class T>
void CheckTypeAgainstReference() {
  const HashKeyType type = HashKeyTypeOf<T>::value;
  for (size_t n : kSizes) {
    for (size_t offset : {0, 1, 3}) {
      const std::vector<T> buf = MakeKeys<T>(n + offset, n * 7 + offset);
      const T* keys = buf.data() + offset;
      for (Validity vk : kValidities) {
        const std::vector<uint64_t> mask = MakeValidity(vk, n, n + 3 * offset);
        const uint64_t* validity = vk == Validity::kNone ? nullptr : mask.data();
        for (bool combine : {false, true}) {
          std::vector<uint64_t> want = RandomHashes(n, n + 11);
          std::vector<uint64_t> got(offset + n + 8, kGuard);
          std::copy(want.begin(), want.end(), got.begin() + offset);
          uint64_t* out = got.data() + offset;  // unaligned output as well
          if (combine) {
            reference::HashCombineKeys(type, keys, n, validity, want.data());
            HashCombineKeys(type, keys, n, validity, out);
          } else {
            reference::HashKeys(type, keys, n, validity, want.data());
            HashKeys(type, keys, n, validity, out);
          }
          SCOPED_TRACE(::testing::Message() << "type " << static_cast<int>(type) << " n=" << n
                                            << " offset=" << offset << " validity "
                                            << static_cast<int>(vk) << " combine " << combine);
          for (size_t i = 0; i < n; ++i) ASSERT_EQ(want[i], out[i]) << "row " << i;
          for (size_t i = n; i < n + 8; ++i) ASSERT_EQ(kGuard, out[i]) << "wrote past the end";
          for (size_t i = 0; i < offset; ++i) ASSERT_EQ(kGuard, got[i]) << "wrote before";
        }
      }
    }
  }
}

TEST_P(HashKeysTest, Int8MatchesReference) { CheckTypeAgainstReference<int8_t>(); }
TEST_P(HashKeysTest, UInt8MatchesReference) { CheckTypeAgainstReference<uint8_t>(); }
TEST_P(HashKeysTest, Int16MatchesReference) { CheckTypeAgainstReference<int16_t>(); }
TEST_P(HashKeysTest, UInt16MatchesReference) { CheckTypeAgainstReference<uint16_t>(); }
TEST_P(HashKeysTest, Int32MatchesReference) { CheckTypeAgainstReference<int32_t>(); }
TEST_P(HashKeysTest, UInt32MatchesReference) { CheckTypeAgainstReference<uint32_t>(); }
TEST_P(HashKeysTest, Int64MatchesReference) { CheckTypeAgainstReference<int64_t>(); }
TEST_P(HashKeysTest, UInt64MatchesReference) { CheckTypeAgainstReference<uint64_t>(); }
TEST_P(HashKeysTest, Float32MatchesReference) { CheckTypeAgainstReference<float>(); }
TEST_P(HashKeysTest, Float64MatchesReference) { CheckTypeAgainstReference<double>(); }

template <class T>
uint64_t HashOne(T key) {
  uint64_t h = 0;
  HashKeys(&key, 1, nullptr, &h);
  return h;
}

TEST_P(HashKeysTest, SqlEqualKeysHashEqual) {
  // Integers hash by value, whatever their width and signedness.
  for (int64_t v : {0, 1, -1, 100, -100, 127, -128}) {
    const uint64_t want = HashOne<int64_t>(v);
    EXPECT_EQ(want, HashOne<int8_t>(static_cast<int8_t>(v))) << v;
    EXPECT_EQ(want, HashOne<int16_t>(static_cast<int16_t>(v))) << v;
    EXPECT_EQ(want, HashOne<int32_t>(static_cast<int32_t>(v))) << v;
    if (v >= 0) {
      EXPECT_EQ(want, HashOne<uint8_t>(static_cast<uint8_t>(v))) << v;
      EXPECT_EQ(want, HashOne<uint32_t>(static_cast<uint32_t>(v))) << v;
    }
  }
  EXPECT_EQ(HashOne<int32_t>(200), HashOne<uint8_t>(200));
  EXPECT_EQ(HashOne<int64_t>(65535), HashOne<uint16_t>(65535));
  EXPECT_EQ(HashOne<int64_t>(4000000000), HashOne<uint32_t>(4000000000u));
  EXPECT_NE(HashOne<int8_t>(-1), HashOne<uint8_t>(255));  // different values

  // Both zeros and all NaNs of either width are one key each; float32 hashes as its double.
  const double dnan = std::numeric_limits<double>::quiet_NaN();
  const uint64_t zero = HashOne(0.0), nan = HashOne(dnan);
  EXPECT_EQ(zero, HashOne(-0.0));
  EXPECT_EQ(zero, HashOne(0.0f));
  EXPECT_EQ(zero, HashOne(-0.0f));
  uint64_t nan_bits[] = {0x7FF8000000000000ull, 0xFFF8000000000000ull, 0x7FF0000000000001ull,
                         0xFFFFFFFFFFFFFFFFull, 0x7FF4000000000000ull};
  for (uint64_t bits : nan_bits) {
    double x;
    std::memcpy(&x, &bits, sizeof x);
    EXPECT_EQ(nan, HashOne(x)) << std::hex << bits;
  }
  for (uint32_t bits : {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFFFFFFFu, 0x7FA00000u}) {
    float x;
    std::memcpy(&x, &bits, sizeof x);
    EXPECT_EQ(nan, HashOne(x)) << std::hex << bits;
  }
  EXPECT_EQ(HashOne(1.5), HashOne(1.5f));
  EXPECT_EQ(HashOne(static_cast<double>(0.1f)), HashOne(0.1f));
  EXPECT_NE(HashOne(0.1), HashOne(0.1f));  // different values
  EXPECT_NE(zero, nan);
  EXPECT_NE(HashOne(std::numeric_limits<double>::infinity()),
            HashOne(-std::numeric_limits<double>::infinity()));
  // In a whole column too, and in the middle of a vector.
  std::vector<double> column = {1.0, -0.0, dnan, 0.0, -dnan, 2.0, 0.0, 3.0, -0.0, 4.0};
  std::vector<uint64_t> h(column.size());
  HashKeys(column.data(), column.size(), nullptr, h.data());
  EXPECT_EQ(h[1], h[3]);
  EXPECT_EQ(h[3], h[6]);
  EXPECT_EQ(h[6], h[8]);
  EXPECT_EQ(h[2], h[4]);
}

TEST_P(HashKeysTest, NullIsOneKeyWhateverTheSlotHolds) {
  const std::vector<int32_t> keys = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17};
  std::vector<uint64_t> mask(1, 0);
  BitmaskSet(mask.data(), 0);  // row 0 valid, all others NULL
  std::vector<uint64_t> h(keys.size());
  HashKeys(keys.data(), keys.size(), mask.data(), h.data());
  for (size_t i = 2; i < h.size(); ++i) EXPECT_EQ(h[1], h[i]);
  EXPECT_NE(h[0], h[1]);
  const double dkey = 123.0;
  uint64_t hd = 0;
  const uint64_t no_rows[1] = {0};
  HashKeys(&dkey, 1, no_rows, &hd);
  EXPECT_EQ(h[1], hd);  // NULL is NULL whatever the type
  EXPECT_EQ(reference::HashWord(kHashNullWord), hd);
}

TEST_P(HashKeysTest, CombineIsOrderSensitive) {
  // (a, b) and (b, a) must differ; and every pair of 0..255 x 0..255 must be distinct.
  std::vector<int32_t> a, b;
  for (int32_t i = 0; i < 256; ++i) {
    for (int32_t j = 0; j < 256; ++j) {
      a.push_back(i);
      b.push_back(j);
    }
  }
  std::vector<uint64_t> ab(a.size()), ba(a.size());
  HashKeys(a.data(), a.size(), nullptr, ab.data());
  HashCombineKeys(b.data(), b.size(), nullptr, ab.data());
  HashKeys(b.data(), b.size(), nullptr, ba.data());
  HashCombineKeys(a.data(), a.size(), nullptr, ba.data());
  std::unordered_set<uint64_t> distinct(ab.begin(), ab.end());
  EXPECT_EQ(ab.size(), distinct.size());
  for (size_t r = 0; r < a.size(); ++r) {
    if (a[r] != b[r]) {
      ASSERT_NE(ab[r], ba[r]) << a[r] << "," << b[r];
    }
  }
}

// ------------------------------------------------------------------------------- strings

struct Strings {
  std::vector<int32_t> offsets;
  std::vector<uint8_t> bytes;
  void Add(const std::string& s) {
    if (offsets.empty()) offsets.push_back(static_cast<int32_t>(bytes.size()));
    bytes.insert(bytes.end(), s.begin(), s.end());
    offsets.push_back(static_cast<int32_t>(bytes.size()));
  }
  size_t size() const { return offsets.empty() ? 0 : offsets.size() - 1; }
};

// Lengths weighted toward the paths and their edges: empty (most SearchPhrase values),
// 1..16 (short path), 17..64 (one or two stripes), URLs, and longer than 256 bytes. The
// content mixes ASCII with 2-, 3- and 4-byte UTF-8 sequences and raw bytes (0x00, 0xFF).
std::string RandomString(std::mt19937_64& rng) {
  static const char* const kPieces[] = {"a", "Z", "/", "?id=", "\xC3\xA9" /* é */,
                                        "\xE4\xB8\xAD" /* 中 */, "\xF0\x9F\x98\x80" /* 😀 */,
                                        "http://", "" /* a 0 byte, added below */, "\xFF"};
  const uint64_t r = rng() % 100;
  size_t len;
  if (r < 35) len = 0;
  else if (r < 60) len = 1 + rng() % 16;
  else if (r < 80) len = 17 + rng() % 48;
  else if (r < 95) len = 65 + rng() % 200;
  else len = 257 + rng() % 800;
  std::string s;
  while (s.size() < len) {
    const uint64_t k = rng() % 14;
    if (k < 10) {
      s += (k == 8) ? std::string(1, '\0') : std::string(kPieces[k]);
    } else {
      s += static_cast<char>(rng() & 0xFF);
    }
  }
  s.resize(len);  // may cut a UTF-8 sequence: bytes are hashed as they are
  return s;
}

Strings MakeStrings(size_t n, uint64_t seed, size_t base_offset) {
  std::mt19937_64 rng(seed);
  Strings s;
  s.bytes.assign(base_offset, 'x');  // offsets[0] != 0 and unaligned string starts
  for (size_t i = 0; i < n; ++i) s.Add(RandomString(rng));
  if (n == 0) s.offsets.push_back(static_cast<int32_t>(base_offset));
  s.bytes.shrink_to_fit();  // the last string ends exactly at the end of the allocation
  return s;
}

LANEQL_PER_TARGET_SUITE(HashStringsTest);

TEST_P(HashStringsTest, MatchesReference) {
  for (size_t n : kSizes) {
    for (size_t base : {0, 1, 5}) {
      const Strings s = MakeStrings(n, n * 13 + base, base);
      for (Validity vk : kValidities) {
        const std::vector<uint64_t> mask = MakeValidity(vk, n, n + base);
        const uint64_t* validity = vk == Validity::kNone ? nullptr : mask.data();
        for (bool combine : {false, true}) {
          std::vector<uint64_t> want = RandomHashes(n, n + 5);
          std::vector<uint64_t> got(want);
          got.resize(n + 8, kGuard);
          if (combine) {
            reference::HashCombineStrings(s.offsets.data(), s.bytes.data(), n, validity,
                                          want.data());
            HashCombineStrings(s.offsets.data(), s.bytes.data(), n, validity, got.data());
          } else {
            reference::HashStrings(s.offsets.data(), s.bytes.data(), n, validity, want.data());
            HashStrings(s.offsets.data(), s.bytes.data(), n, validity, got.data());
          }
          SCOPED_TRACE(::testing::Message() << "n=" << n << " base=" << base << " validity "
                                            << static_cast<int>(vk) << " combine " << combine);
          for (size_t i = 0; i < n; ++i) ASSERT_EQ(want[i], got[i]) << "row " << i;
          for (size_t i = n; i < n + 8; ++i) ASSERT_EQ(kGuard, got[i]) << "wrote past the end";
        }
      }
    }
  }
}

LANEQL_PER_TARGET_SUITE(HashWideRowsTest);

// Rows of 1 to 6 words (strides 2-4 are vector code, the others a row at a time) at every
// boundary size, with the extreme words mixed in and the rows starting off a vector's
// alignment: the reference's hashes, and nothing written past the last row.
TEST_P(HashWideRowsTest, MatchesReference) {
  for (size_t stride = 1; stride <= 6; ++stride) {
    for (size_t n : kSizes) {
      std::mt19937_64 rng(stride * 1000 + n);
      std::vector<uint64_t> words(n * stride + 1);
      const uint64_t specials[] = {0, 1, ~uint64_t{0}, uint64_t{1} << 63, kHashGamma,
                                   0 - kHashGamma};
      for (uint64_t& w : words) w = rng() % 4 == 0 ? specials[rng() % 6] : rng();
      const uint64_t* rows = words.data() + 1;  // 8 bytes off the allocation's alignment
      std::vector<uint64_t> want(n), got(n + 8, kGuard);
      reference::HashWideRows(rows, stride, n, want.data());
      HashWideRows(rows, stride, n, got.data());
      SCOPED_TRACE(::testing::Message() << "stride=" << stride << " n=" << n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(want[i], got[i]) << "row " << i;
      for (size_t i = n; i < n + 8; ++i) ASSERT_EQ(kGuard, got[i]) << "wrote past the end";
    }
  }
}

// The definition itself: one word hashes as HashKeys hashes a uint64; each further word is
// combined in, in order; and rows that differ in any one word hash apart.
TEST_P(HashWideRowsTest, FollowsTheDefinition) {
  const std::vector<uint64_t> row = {7, 0, ~uint64_t{0}, 42};
  uint64_t one = 0, keys = 0;
  HashWideRows(row.data(), 1, 1, &one);
  HashKeys(row.data(), 1, nullptr, &keys);
  EXPECT_EQ(one, keys);
  for (size_t stride = 2; stride <= 4; ++stride) {
    std::vector<uint64_t> rows;
    for (int copy = 0; copy < 9; ++copy) rows.insert(rows.end(), row.begin(), row.begin() + stride);
    std::vector<uint64_t> hashes(9);
    HashWideRows(rows.data(), stride, 9, hashes.data());
    uint64_t want = reference::HashWord(row[0] + kHashGamma);
    for (size_t j = 1; j < stride; ++j) want = reference::CombineWord(want, row[j]);
    for (uint64_t h : hashes) EXPECT_EQ(h, want) << stride;
    for (size_t j = 0; j < stride; ++j) {
      std::vector<uint64_t> changed = rows;
      changed[8 * stride + j] ^= 1;  // the last row (in the scalar tail on wide vectors)
      changed[0 * stride + j] += 1;  // and the first
      HashWideRows(changed.data(), stride, 9, hashes.data());
      EXPECT_NE(hashes[0], want) << "word " << j;
      EXPECT_NE(hashes[8], want) << "word " << j;
      EXPECT_EQ(hashes[4], want);
    }
  }
}

// Every length from 0 to 600 (every path and stripe boundary), at every alignment: the same
// as the reference, and independent of where the string lies in memory.
TEST_P(HashStringsTest, EveryLengthAndAlignment) {
  std::mt19937_64 rng(42);
  for (size_t len = 0; len <= 600; ++len) {
    std::string content;
    for (size_t i = 0; i < len; ++i) content += static_cast<char>(rng());
    uint64_t first = 0;
    for (size_t align = 0; align < 8; ++align) {
      std::vector<uint8_t> bytes(align + len);  // exact size: the string ends the allocation
      if (len != 0) std::memcpy(bytes.data() + align, content.data(), len);
      const int32_t offsets[2] = {static_cast<int32_t>(align), static_cast<int32_t>(align + len)};
      uint64_t h = 0, want = 0;
      HashStrings(offsets, bytes.data(), 1, nullptr, &h);
      reference::HashStrings(offsets, bytes.data(), 1, nullptr, &want);
      ASSERT_EQ(want, h) << "len " << len << " align " << align;
      if (align == 0) first = h;
      ASSERT_EQ(first, h) << "len " << len << " align " << align;
    }
  }
}

// Changing any one byte of a string, or its length, changes the hash: nothing is skipped.
// Also shows the test data can tell a hash that ignored part of the string.
TEST_P(HashStringsTest, EveryByteMatters) {
  std::mt19937_64 rng(7);
  for (size_t len : {1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40, 63, 64, 65, 96,
                     100, 255, 256, 257, 300}) {
    std::string base;
    for (size_t i = 0; i < len; ++i) base += static_cast<char>('a' + rng() % 26);
    Strings s;
    s.Add(base);
    s.Add(base + "a");
    s.Add(base.substr(0, len - 1));
    s.Add(base + std::string(1, '\0'));  // a trailing zero byte is not padding
    for (size_t pos = 0; pos < len; ++pos) {
      std::string changed = base;
      changed[pos] ^= 0x20;
      s.Add(changed);
    }
    std::vector<uint64_t> h(s.size());
    HashStrings(s.offsets.data(), s.bytes.data(), s.size(), nullptr, h.data());
    std::unordered_set<uint64_t> distinct(h.begin(), h.end());
    EXPECT_EQ(h.size(), distinct.size()) << "len " << len;
  }
  // Swapping two 32-byte stripes (the sum over stripes is order-sensitive).
  const std::string x(32, 'x'), y(32, 'y');
  Strings s;
  s.Add(x + y);
  s.Add(y + x);
  s.Add(x + y + x);
  s.Add(y + x + x);
  uint64_t h[4];
  HashStrings(s.offsets.data(), s.bytes.data(), 4, nullptr, h);
  EXPECT_NE(h[0], h[1]);
  EXPECT_NE(h[2], h[3]);
}

TEST_P(HashStringsTest, EmptyNullAndUtf8) {
  Strings s;
  s.Add("");
  s.Add("");                    // NULL below
  s.Add("caf\xC3\xA9");         // "café", precomposed (NFC)
  s.Add("cafe\xCC\x81");        // "café", e + combining accent (NFD): other bytes
  s.Add("caf\xC3\xA9");
  s.Add("\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80\xF0\x9F\x98\x80");
  s.Add(std::string(1, '\0'));  // one zero byte is not the empty string
  uint64_t mask = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i != 1) BitmaskSet(&mask, i);
  }
  std::vector<uint64_t> h(s.size());
  HashStrings(s.offsets.data(), s.bytes.data(), s.size(), &mask, h.data());
  EXPECT_EQ(reference::HashWord(kHashEmptyStringWord), h[0]);
  EXPECT_EQ(reference::HashWord(kHashNullWord), h[1]);
  EXPECT_NE(h[0], h[1]);  // '' is not NULL
  EXPECT_NE(h[2], h[3]);  // byte-wise: no Unicode normalisation
  EXPECT_EQ(h[2], h[4]);
  EXPECT_NE(h[0], h[6]);
  // NULL combines like NULL of any other type.
  const int64_t key = 1;
  uint64_t from_int = 99, from_string = 99;
  const uint64_t no_rows = 0;
  HashCombineKeys(&key, 1, &no_rows, &from_int);
  HashCombineStrings(s.offsets.data(), s.bytes.data(), 1, &no_rows, &from_string);
  EXPECT_EQ(from_int, from_string);
}

// The definition is pinned: these values must never change (hashes may be persisted or
// compared across builds, native and wasm). Computed once from the reference.
TEST(HashDefinition, PinnedValues) {
  const int64_t k0 = 0, k1 = 1;
  EXPECT_EQ(0x0ull, reference::Mix(0));
  const uint64_t h0 = reference::HashWord(reference::KeyWord(HashKeyType::kInt64, &k0));
  const uint64_t h1 = reference::HashWord(reference::KeyWord(HashKeyType::kInt64, &k1));
  const uint8_t text[] = "https://example.com/some/fairly/long/path?with=query&and=more";
  const uint64_t s5 = reference::HashWord(reference::StringWord(text, 5));
  const uint64_t s16 = reference::HashWord(reference::StringWord(text, 16));
  const uint64_t s61 = reference::HashWord(reference::StringWord(text, sizeof text - 1));
  const uint64_t pair = reference::CombineWord(h0, reference::StringWord(text, 3));
  // Mix(0 + kHashGamma) is SplitMix64's first output for seed 0, a published value.
  EXPECT_EQ(0xE220A8397B1DCDAFull, h0);
  EXPECT_EQ(0x910A2DEC89025CC1ull, h1);
  EXPECT_EQ(0x4AB966B87701A449ull, s5);
  EXPECT_EQ(0xDF1B3B3097932115ull, s16);
  EXPECT_EQ(0x9310910DE516F455ull, s61);
  EXPECT_EQ(0x35A12D28310D32DFull, pair);
}

// ------------------------------------------------------------------------- distribution
//
// What open addressing needs of a hash: every bit range a table may use spreads the keys
// evenly. Bucket counts are compared with the uniform expectation by a chi-square statistic,
// scaled to a z-score, z = (chi2 - (B - 1)) / sqrt(2 (B - 1)): about N(0, 1) for a random
// function, so z > 6 is a failure (hashes are deterministic: a pass cannot turn flaky). Too
// even is fine (sequential keys through a good hash may be). A weak hash fails these checks,
// as the WeakHashesFail test shows on the very same checker.

using HashFn = std::function<void(const std::vector<uint64_t>& keys, std::vector<uint64_t>* out)>;

struct BitRange {
  const char* name;
  int shift;
  int bits;
};
// Bucket index of power-of-two tables (low bits, and the H1 = h >> 7 of Swiss tables), and
// Swiss-table tags (top 7 bits, or low 7 bits in implementations that take the tag from there).
const BitRange kBitRanges[] = {{"low 10 bits", 0, 10}, {"low 16 bits", 0, 16},
                               {"top 7 bits", 57, 7},  {"low 7 bits", 0, 7},
                               {"bits 7..22", 7, 16},  {"bits 32..47", 32, 16}};
constexpr double kMaxZ = 6.0;

double ChiSquareZ(const std::vector<uint64_t>& hashes, int shift, int bits) {
  const size_t buckets = size_t{1} << bits;
  std::vector<double> counts(buckets, 0.0);
  for (uint64_t h : hashes) counts[(h >> shift) & (buckets - 1)] += 1;
  const double expected = static_cast<double>(hashes.size()) / buckets;
  double chi2 = 0;
  for (double c : counts) chi2 += (c - expected) * (c - expected) / expected;
  const double df = static_cast<double>(buckets - 1);
  return (chi2 - df) / std::sqrt(2 * df);
}

// The failed checks of one set of hashes (empty = good): bucket spread and 64-bit collisions.
void CheckHashes(const std::string& set_name, const std::vector<uint64_t>& hashes,
                 std::vector<std::string>* failures) {
  for (const BitRange& range : kBitRanges) {
    if (hashes.size() < (size_t{1} << range.bits)) continue;  // too few keys to judge
    const double z = ChiSquareZ(hashes, range.shift, range.bits);
    if (z > kMaxZ) {
      failures->push_back(set_name + ", " + range.name + ": z = " + std::to_string(z));
    }
  }
  std::vector<uint64_t> sorted = hashes;
  std::sort(sorted.begin(), sorted.end());
  const size_t distinct = std::unique(sorted.begin(), sorted.end()) - sorted.begin();
  if (distinct != hashes.size()) {
    failures->push_back(set_name + ": " + std::to_string(hashes.size() - distinct) +
                        " full 64-bit collisions");
  }
}

// Key sets that expose weak hashes: sequential (identity fails the high bits), strided by 2^k
// (a multiply alone leaves the low bits zero), small signed ranges around 0 (sign-extended
// negatives), double bit patterns of small integers (low mantissa bits all zero), random.
std::vector<std::string> FixedWidthFailures(const HashFn& hash) {
  std::vector<std::pair<std::string, std::vector<uint64_t>>> sets;
  auto add = [&sets](const std::string& name, size_t n, auto key_of) {
    std::vector<uint64_t> keys(n);
    for (size_t i = 0; i < n; ++i) keys[i] = key_of(i);
    sets.emplace_back(name, std::move(keys));
  };
  add("sequential 2^16", size_t{1} << 16, [](size_t i) { return uint64_t{i}; });
  add("sequential 2^20", size_t{1} << 20, [](size_t i) { return uint64_t{i}; });
  add("k * 1024", size_t{1} << 16, [](size_t i) { return uint64_t{i} << 10; });
  add("k * 2^20", size_t{1} << 18, [](size_t i) { return uint64_t{i} << 20; });
  add("k * 2^32", size_t{1} << 16, [](size_t i) { return uint64_t{i} << 32; });
  add("-32768..32767", size_t{1} << 16,
      [](size_t i) { return static_cast<uint64_t>(static_cast<int64_t>(i) - 32768); });
  add("doubles 0.0..65535.0", size_t{1} << 16, [](size_t i) {
    const double x = static_cast<double>(i);
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits;
  });
  std::mt19937_64 rng(2024);
  add("random 2^20", size_t{1} << 20, [&rng](size_t) { return rng(); });
  std::vector<std::string> failures;
  for (const auto& [name, keys] : sets) {
    std::vector<uint64_t> hashes(keys.size());
    hash(keys, &hashes);
    CheckHashes(name, hashes, &failures);
  }
  return failures;
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

bool Contains(const std::vector<std::string>& failures, const std::string& part) {
  for (const std::string& f : failures) {
    if (f.find(part) != std::string::npos) return true;
  }
  return false;
}

const HashFn kKernelHash = [](const std::vector<uint64_t>& keys, std::vector<uint64_t>* out) {
  HashKeys(keys.data(), keys.size(), nullptr, out->data());
};

LANEQL_PER_TARGET_SUITE(HashDistributionTest);

TEST_P(HashDistributionTest, FixedWidthKeysSpreadOverAllBits) {
  const std::vector<std::string> failures = FixedWidthFailures(kKernelHash);
  EXPECT_TRUE(failures.empty()) << JoinLines(failures);
}

TEST(HashDistribution, WeakHashesFail) {
  // The checker must be able to fail: identity (what std::hash<uint64_t> is in libstdc++)
  // leaves the high bits empty; Fibonacci hashing (k * odd constant, no final mix) leaves the
  // low bits of strided keys empty; a mix without the multiply-xorshift's second half lets
  // small keys share tags. Each must be caught.
  const HashFn identity = [](const std::vector<uint64_t>& k, std::vector<uint64_t>* out) {
    *out = k;
  };
  const HashFn multiply = [](const std::vector<uint64_t>& k, std::vector<uint64_t>* out) {
    for (size_t i = 0; i < k.size(); ++i) (*out)[i] = k[i] * 0x9E3779B97F4A7C15ull;
  };
  const std::vector<std::string> identity_failures = FixedWidthFailures(identity);
  EXPECT_TRUE(Contains(identity_failures, "sequential 2^20, top 7 bits"))
      << JoinLines(identity_failures);
  EXPECT_TRUE(Contains(identity_failures, "k * 1024, low 10 bits")) << JoinLines(identity_failures);
  const std::vector<std::string> multiply_failures = FixedWidthFailures(multiply);
  EXPECT_TRUE(Contains(multiply_failures, "k * 1024, low 10 bits")) << JoinLines(multiply_failures);
  EXPECT_TRUE(Contains(multiply_failures, "k * 2^20, low 16 bits")) << JoinLines(multiply_failures);
  // And the reference passes the same checks (the per-target test checks the kernels).
  const HashFn reference_hash = [](const std::vector<uint64_t>& k, std::vector<uint64_t>* out) {
    reference::HashKeys(HashKeyType::kUInt64, k.data(), k.size(), nullptr, out->data());
  };
  const std::vector<std::string> reference_failures = FixedWidthFailures(reference_hash);
  EXPECT_TRUE(reference_failures.empty()) << JoinLines(reference_failures);
}

TEST_P(HashDistributionTest, CombinedKeysSpread) {
  // Two small columns (0..255 x 0..255, and 0..1023 x 0..63): the combined hash must spread
  // like a hash of one key.
  std::vector<std::string> failures;
  for (auto [rows_a, rows_b] : {std::pair<int32_t, int32_t>{256, 256}, {1024, 64}}) {
    std::vector<int32_t> a, b;
    for (int32_t i = 0; i < rows_a; ++i) {
      for (int32_t j = 0; j < rows_b; ++j) {
        a.push_back(i);
        b.push_back(j);
      }
    }
    std::vector<uint64_t> h(a.size());
    HashKeys(a.data(), a.size(), nullptr, h.data());
    HashCombineKeys(b.data(), b.size(), nullptr, h.data());
    CheckHashes(std::to_string(rows_a) + " x " + std::to_string(rows_b), h, &failures);
  }
  EXPECT_TRUE(failures.empty()) << JoinLines(failures);
}

using StringHashFn = std::function<void(const Strings& s, std::vector<uint64_t>* out)>;

std::vector<std::string> StringFailures(const StringHashFn& hash) {
  std::vector<std::pair<std::string, Strings>> sets;
  auto add = [&sets](const std::string& name, size_t n, auto string_of) {
    Strings s;
    for (size_t i = 0; i < n; ++i) s.Add(string_of(i));
    sets.emplace_back(name, std::move(s));
  };
  const size_t n = size_t{1} << 16;
  add("decimal 0..65535", n, [](size_t i) { return std::to_string(i); });
  add("user_00000000", n, [](size_t i) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "user_%08zu", i);
    return std::string(buf);
  });
  add("URLs", n, [](size_t i) {
    return "https://www.example.com/catalog/item.php?id=" + std::to_string(i * 7) +
           "&ref=search&page=" + std::to_string(i % 10);
  });
  add("long common prefix", n, [](size_t i) {
    return std::string(300, 'p') + std::to_string(i);
  });
  std::vector<std::string> failures;
  for (const auto& [name, strings] : sets) {
    std::vector<uint64_t> hashes(strings.size());
    hash(strings, &hashes);
    CheckHashes(name, hashes, &failures);
  }
  return failures;
}

TEST_P(HashDistributionTest, StringsSpreadOverAllBits) {
  const std::vector<std::string> failures = StringFailures([](const Strings& s, auto* out) {
    HashStrings(s.offsets.data(), s.bytes.data(), s.size(), nullptr, out->data());
  });
  EXPECT_TRUE(failures.empty()) << JoinLines(failures);
}

TEST(HashDistribution, WeakStringHashFails) {
  // A hash of the first 8 bytes only (well mixed) collides on common prefixes; a byte-sum
  // hash collides and clusters. The string checker catches both.
  const StringHashFn prefix_only = [](const Strings& s, std::vector<uint64_t>* out) {
    for (size_t i = 0; i < s.size(); ++i) {
      const size_t len = std::min<size_t>(8, s.offsets[i + 1] - s.offsets[i]);
      uint64_t w = 0;
      std::memcpy(&w, s.bytes.data() + s.offsets[i], len);
      (*out)[i] = reference::Mix(w + len);
    }
  };
  const StringHashFn byte_sum = [](const Strings& s, std::vector<uint64_t>* out) {
    for (size_t i = 0; i < s.size(); ++i) {
      uint64_t sum = 0;
      for (int32_t j = s.offsets[i]; j < s.offsets[i + 1]; ++j) sum = sum * 31 + s.bytes[j];
      (*out)[i] = sum;
    }
  };
  const std::vector<std::string> prefix_failures = StringFailures(prefix_only);
  EXPECT_TRUE(Contains(prefix_failures, "URLs: ")) << JoinLines(prefix_failures);
  EXPECT_TRUE(Contains(prefix_failures, "long common prefix, low 16 bits"))
      << JoinLines(prefix_failures);
  const std::vector<std::string> sum_failures = StringFailures(byte_sum);
  EXPECT_TRUE(Contains(sum_failures, "top 7 bits")) << JoinLines(sum_failures);
}

// Strict avalanche: flipping any one input bit flips every output bit with probability 1/2.
// Rates are measured over `samples` random inputs; a rate outside [0.5 - tol, 0.5 + tol] fails.
// Returns the worst deviation from 1/2.
double WorstAvalanche(size_t input_bits, size_t samples,
                      const std::function<void(size_t flip_bit, std::vector<uint64_t>*)>& hash) {
  std::vector<uint64_t> base(samples), flipped(samples);
  hash(input_bits, &base);  // flip_bit == input_bits: no flip
  double worst = 0;
  for (size_t bit = 0; bit < input_bits; ++bit) {
    hash(bit, &flipped);
    int counts[64] = {};
    for (size_t s = 0; s < samples; ++s) {
      const uint64_t diff = base[s] ^ flipped[s];
      for (int o = 0; o < 64; ++o) counts[o] += (diff >> o) & 1;
    }
    for (int o = 0; o < 64; ++o) {
      worst = std::max(worst, std::abs(counts[o] / static_cast<double>(samples) - 0.5));
    }
  }
  return worst;
}

TEST_P(HashDistributionTest, Avalanche) {
  const size_t samples = 2048;  // rate s.d. ~0.011: a 0.1 tolerance is 9 s.d.
  const std::vector<uint64_t> keys = RandomHashes(samples, 3);
  const double fixed = WorstAvalanche(64, samples, [&](size_t bit, std::vector<uint64_t>* out) {
    std::vector<uint64_t> k = keys;
    if (bit < 64) for (uint64_t& x : k) x ^= uint64_t{1} << bit;
    HashKeys(k.data(), k.size(), nullptr, out->data());
  });
  EXPECT_LT(fixed, 0.1) << "uint64 keys";
  // The same on the identity fails, so this check can fail.
  const double weak = WorstAvalanche(64, samples, [&](size_t bit, std::vector<uint64_t>* out) {
    *out = keys;
    if (bit < 64) for (uint64_t& x : *out) x ^= uint64_t{1} << bit;
  });
  EXPECT_GT(weak, 0.4);
  // Strings of each path: 1..3, 4..7, 8..16 bytes, one stripe, several stripes.
  for (size_t len : {3, 6, 13, 16, 17, 40, 100}) {
    std::mt19937_64 rng(len);
    std::vector<std::string> texts(samples / 4);
    for (std::string& t : texts) {
      for (size_t i = 0; i < len; ++i) t += static_cast<char>(rng());
    }
    const double worst =
        WorstAvalanche(len * 8, texts.size(), [&](size_t bit, std::vector<uint64_t>* out) {
          Strings s;
          for (std::string t : texts) {
            if (bit < len * 8) t[bit / 8] ^= static_cast<char>(1 << (bit % 8));
            s.Add(t);
          }
          out->resize(s.size());
          HashStrings(s.offsets.data(), s.bytes.data(), s.size(), nullptr, out->data());
        });
    EXPECT_LT(worst, 0.15) << "strings of " << len << " bytes";  // s.d. ~0.022
  }
}

}  // namespace
}  // namespace laneql
