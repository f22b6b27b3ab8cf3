// String kernels against their scalar references, on every compiled target: URL-like, Cyrillic
// and tiny-alphabet (dense, overlapping matches) columns; needles planted at row starts, row ends
// and straddling row boundaries; empty rows and needles; NULLs; sliced and unaligned buffers that
// end exactly where the last row does (ASan catches any over-read; under ASan the bytes before
// the first row are poisoned too).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/bitmask.h"
#include "laneql/string_match.h"
#include "target_param.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define LANEQL_POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define LANEQL_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define LANEQL_POISON(p, n) ((void)(p), (void)(n))
#define LANEQL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

namespace laneql {
namespace {

// A string column whose byte buffer is its own heap block, exactly as long as the rows need:
// `shift` bytes of slack before the data pointer (unaligned starts) and `lead` bytes before the
// first row (offsets[0] = lead, as in a slice). Both are poisoned under ASan.
class Column {
 public:
  Column(const std::vector<std::string>& rows, size_t lead, size_t shift)
      : n_(rows.size()), lead_(lead), shift_(shift) {
    offsets_.push_back(static_cast<int32_t>(lead));
    for (const std::string& r : rows) {
      offsets_.push_back(offsets_.back() + static_cast<int32_t>(r.size()));
    }
    size_ = shift + static_cast<size_t>(offsets_.back());
    storage_.reset(new uint8_t[size_ == 0 ? 1 : size_]);
    std::memset(storage_.get(), '#', size_);
    uint8_t* data = storage_.get() + shift;
    for (size_t i = 0; i < n_; ++i) std::memcpy(data + offsets_[i], rows[i].data(), rows[i].size());
    LANEQL_POISON(storage_.get(), shift + lead);
  }
  ~Column() { LANEQL_UNPOISON(storage_.get(), shift_ + lead_); }
  Column(const Column&) = delete;
  Column& operator=(const Column&) = delete;

  const int32_t* offsets() const { return offsets_.data(); }
  const uint8_t* data() const { return storage_.get() + shift_; }
  size_t n() const { return n_; }
  // The bytes of all rows as one string (to show a needle occurs across a row boundary).
  std::string Buffer() const {
    return std::string(reinterpret_cast<const char*>(data()) + offsets_[0],
                       static_cast<size_t>(offsets_.back() - offsets_[0]));
  }

 private:
  size_t n_, lead_, shift_, size_ = 0;
  std::vector<int32_t> offsets_;
  std::unique_ptr<uint8_t[]> storage_;
};

const std::vector<size_t> kSizes = {0,  1,  2,   3,   7,   8,    9,    15,   16,   17,  31, 32,
                                    33, 63, 64,  65,  127, 128,  129,  1000, 4095, 4096, 4097};

const char* const kWords[] = {"go",   "goods", "gov",  "golf", "google", "yandex", "mail", "news",
                              "shop", "video", "www",  "ru",   "com",    "search", "id",   "page",
                              "img",  "logo",  "glee", "ogle", "googl",  "oogle",  "goo",  "gle"};
const char* const kCyrillic[] = {"привет", "яндекс", "поиск", "новости", "погода", "гугл",
                                 "пример", "ёж",     "я",     "и",       "мир",    "дом"};

enum class Data { kUrl, kCyrillic, kTiny };

// One random row of the given kind (rows may be empty).
std::string RandomRow(Data kind, std::mt19937_64& rng) {
  std::string s;
  const size_t words = rng() % 8;
  if (words == 0) return s;  // ~1 in 8 rows is empty
  switch (kind) {
    case Data::kUrl:
      s = (rng() & 1) ? "https://" : "http://";
      for (size_t w = 0; w < words; ++w) {
        s += kWords[rng() % (sizeof(kWords) / sizeof(kWords[0]))];
        s += "./-?=&%"[rng() % 7];
        if (rng() % 4 == 0) s += std::to_string(rng() % 100000);
      }
      break;
    case Data::kCyrillic:
      for (size_t w = 0; w < words; ++w) {
        s += kCyrillic[rng() % (sizeof(kCyrillic) / sizeof(kCyrillic[0]))];
        s += (rng() % 5 == 0) ? "go" : " ";
      }
      break;
    case Data::kTiny:  // 'a', 'b' and a 2-byte 'é': many overlapping and straddling matches
      for (size_t c = rng() % 12; c > 0; --c) {
        const uint64_t r = rng() % 5;
        s += r < 2 ? "a" : r < 4 ? "b" : "\xC3\xA9";
      }
      break;
  }
  return s;
}

std::vector<std::string> RandomRows(Data kind, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::string> rows(n);
  for (std::string& r : rows) r = RandomRow(kind, rng);
  return rows;
}

// Validity bitmaps: none (nullptr), all valid, none valid, random.
enum class Nulls { kNone, kAllValid, kAllNull, kRandom };
std::vector<uint64_t> MakeValidity(Nulls kind, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(BitmaskWords(n), 0);
  for (size_t i = 0; i < n; ++i) {
    const bool valid = kind == Nulls::kAllValid || (kind == Nulls::kRandom && rng() % 4 != 0);
    if (valid) BitmaskSet(v.data(), i);
  }
  return v;
}
const uint64_t* ValidityPtr(Nulls kind, const std::vector<uint64_t>& v) {
  return kind == Nulls::kNone ? nullptr : v.data();
}

size_t CountBits(const std::vector<uint64_t>& mask) {
  size_t c = 0;
  for (uint64_t w : mask) c += static_cast<size_t>(__builtin_popcountll(w));
  return c;
}

// Both results of a predicate kernel and its reference, one extra guard word after `out` so a
// write past BitmaskWords(n) shows up.
using Predicate = void (*)(const int32_t*, const uint8_t*, size_t, std::string_view,
                           const uint64_t*, uint64_t*);
constexpr uint64_t kGuard = 0x5A5A5A5A5A5A5A5Aull;

template <class Fn>
std::vector<uint64_t> RunMask(size_t n, const Fn& fn) {
  std::vector<uint64_t> out(BitmaskWords(n) + 1, 0xDEADBEEFDEADBEEFull);  // overwritten in full
  out.back() = kGuard;
  fn(out.data());
  EXPECT_EQ(out.back(), kGuard) << "wrote past the bitmask";
  out.pop_back();
  return out;
}

// A predicate kernel (or reference) applied to a whole column.
std::vector<uint64_t> Eval(Predicate fn, const Column& col, std::string_view needle,
                           const uint64_t* validity) {
  return RunMask(col.n(), [&](uint64_t* o) {
    fn(col.offsets(), col.data(), col.n(), needle, validity, o);
  });
}

const SubstringPrefilter kPrefilters[] = {SubstringPrefilter::kFirstSecond,
                                          SubstringPrefilter::kFirstLast,
                                          SubstringPrefilter::kRarestPair};

LANEQL_PER_TARGET_SUITE(StringMatchTest);

TEST_P(StringMatchTest, ContainsMatchesReference) {
  const std::vector<std::string> needles = {"google", "g", "go", "oo", "e", ".ru/", "ogle",
                                            "яндекс", "я", "ab", "aba", "bab", "\xC3\xA9",
                                            "a\xC3\xA9" "b", "abababababab", "", "zzzzzzzzzz"};
  size_t selected_somewhere = 0;
  for (Data kind : {Data::kUrl, Data::kCyrillic, Data::kTiny}) {
    for (size_t si = 0; si < kSizes.size(); ++si) {
      const size_t n = kSizes[si];
      const std::vector<std::string> rows = RandomRows(kind, n, 1000 * si + static_cast<int>(kind));
      const Column col(rows, si % 5, si % 4);  // sliced and unaligned in turn
      const Nulls nulls = (si % 3 == 0)   ? Nulls::kNone
                          : (si % 3 == 1) ? Nulls::kRandom
                                          : Nulls::kAllValid;
      const uint64_t* v = nullptr;  // set below, once the bitmap exists
      const std::vector<uint64_t> valid = MakeValidity(nulls, n, si);
      v = ValidityPtr(nulls, valid);
      for (const std::string& needle : needles) {
        const auto want = RunMask(n, [&](uint64_t* o) {
          reference::StringContains(col.offsets(), col.data(), n, needle, v, o);
        });
        selected_somewhere += CountBits(want);
        for (SubstringPrefilter pf : kPrefilters) {
          const auto got = RunMask(n, [&](uint64_t* o) {
            StringContainsWith(pf, col.offsets(), col.data(), n, needle, v, o);
          });
          ASSERT_EQ(want, got) << "needle '" << needle << "' n=" << n << " data "
                               << static_cast<int>(kind) << " prefilter " << static_cast<int>(pf);
        }
        const auto want_not = RunMask(n, [&](uint64_t* o) {
          reference::StringNotContains(col.offsets(), col.data(), n, needle, v, o);
        });
        const auto got_not = RunMask(n, [&](uint64_t* o) {
          StringNotContains(col.offsets(), col.data(), n, needle, v, o);
        });
        ASSERT_EQ(want_not, got_not) << "NOT LIKE needle '" << needle << "' n=" << n;
      }
    }
  }
  EXPECT_GT(selected_somewhere, 1000u);  // the data does contain the needles
}

TEST_P(StringMatchTest, ContainsLargeColumn) {
  // Long enough for the 4-vector loop to run for many steps between rare hits.
  const size_t n = 100003;
  std::vector<std::string> rows = RandomRows(Data::kUrl, n, 77);
  for (size_t i = 0; i < n; i += 997) {
    rows[i] = "http://x/" + std::string(i % 50, 'q') + "googleplex";
  }
  const Column col(rows, 3, 1);
  const std::string long_needle = std::string(47, 'q') + "google";
  for (const std::string& needle : std::vector<std::string>{"google", "googleplex", long_needle}) {
    const auto want = RunMask(n, [&](uint64_t* o) {
      reference::StringContains(col.offsets(), col.data(), n, needle, nullptr, o);
    });
    for (SubstringPrefilter pf : kPrefilters) {
      const auto got = RunMask(n, [&](uint64_t* o) {
        StringContainsWith(pf, col.offsets(), col.data(), n, needle, nullptr, o);
      });
      ASSERT_EQ(want, got) << needle << " prefilter " << static_cast<int>(pf);
    }
    EXPECT_GT(CountBits(want), 0u) << needle;
  }
}

TEST_P(StringMatchTest, PlantedAtRowStartsEndsAndAcrossBoundaries) {
  // Row kinds: needle at the start, at the very end, alone, split across two rows (must not
  // match), one byte short, and empty rows in between; repeated so every row lands at every
  // position of a vector.
  const std::string needle = "google";
  std::vector<std::string> rows;
  std::vector<bool> expect;
  for (size_t rep = 0; rep < 70; ++rep) {
    const std::string pad(rep % 37, 'x');
    rows.push_back(needle + pad);         expect.push_back(true);
    rows.push_back(pad + needle);         expect.push_back(true);
    rows.push_back(needle);               expect.push_back(true);
    rows.push_back(pad + "goo");          expect.push_back(false);  // "goo" | "gle": straddles
    rows.push_back("gle" + pad);          expect.push_back(false);
    rows.push_back("");                   expect.push_back(false);
    rows.push_back(pad + "googl");        expect.push_back(false);  // "googl" | "" | "e..."
    rows.push_back("");                   expect.push_back(false);
    rows.push_back("e" + pad);            expect.push_back(false);
    rows.push_back(pad + "oogle" + pad);  expect.push_back(false);
  }
  const Column col(rows, 1, 2);
  const size_t n = rows.size();
  // Sensitivity: the buffer holds the needle across boundaries far more often than rows do.
  size_t buffer_hits = 0;
  const std::string buf = col.Buffer();
  for (size_t p = buf.find(needle); p != std::string::npos; p = buf.find(needle, p + 1)) {
    ++buffer_hits;
  }
  ASSERT_GT(buffer_hits, 3 * 70u);
  for (SubstringPrefilter pf : kPrefilters) {
    const auto got = RunMask(n, [&](uint64_t* o) {
      StringContainsWith(pf, col.offsets(), col.data(), n, needle, nullptr, o);
    });
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(expect[i], BitmaskGet(got.data(), i)) << "row " << i << " '" << rows[i] << "'";
    }
  }
}

TEST_P(StringMatchTest, ContainsEdgeNeedles) {
  const std::vector<std::string> rows = RandomRows(Data::kUrl, 300, 5);
  const Column col(rows, 0, 0);
  const size_t n = rows.size();
  const std::vector<uint64_t> valid = MakeValidity(Nulls::kRandom, n, 9);
  // Empty needle: every valid row, the empty ones included; NOT LIKE: none.
  EXPECT_EQ(valid, Eval(StringContains, col, "", valid.data()));
  EXPECT_EQ(0u, CountBits(Eval(StringNotContains, col, "", valid.data())));
  // Longer than every row (but not than the buffer): nothing; NOT LIKE: every valid row.
  size_t longest = 0;
  for (const std::string& r : rows) longest = std::max(longest, r.size());
  const std::string long_needle = col.Buffer().substr(0, longest + 1);
  EXPECT_EQ(0u, CountBits(Eval(StringContains, col, long_needle, valid.data())));
  EXPECT_EQ(valid, Eval(StringNotContains, col, long_needle, valid.data()));
  // Longer than the whole buffer.
  const Column tiny({"ab", "c"}, 0, 0);
  EXPECT_EQ(0u, Eval(StringContains, tiny, "abcd", nullptr)[0]);
  // NULL rows never match, NOT LIKE included.
  const Column one({"google"}, 0, 0);
  const uint64_t null_row = 0;
  EXPECT_EQ(0u, Eval(StringNotContains, one, "x", &null_row)[0]);
  EXPECT_EQ(0u, Eval(StringNotEquals, one, "x", &null_row)[0]);
  EXPECT_EQ(0u, Eval(StringContains, one, "google", &null_row)[0]);
  EXPECT_EQ(1u, Eval(StringContains, one, "google", nullptr)[0]);
}

TEST_P(StringMatchTest, AffixesAndEqualityMatchReference) {
  for (Data kind : {Data::kUrl, Data::kCyrillic, Data::kTiny}) {
    for (size_t si = 0; si < kSizes.size(); ++si) {
      const size_t n = kSizes[si];
      std::vector<std::string> rows = RandomRows(kind, n, 31 * si + static_cast<int>(kind));
      // Needles of every length 0..20 cut from real rows, so that they do occur; plus absent.
      std::vector<std::string> needles = {"", "zz", "http://", "https://yandex", "я", "a", "ab"};
      std::mt19937_64 rng(si);
      for (size_t len = 1; len <= 20 && n > 0; ++len) {
        const std::string& r = rows[rng() % n];
        if (r.size() >= len) {
          needles.push_back(r.substr(0, len));
          needles.push_back(r.substr(r.size() - len));
        }
      }
      if (n > 2) rows[n / 2] = rows[n / 3];  // duplicates for equality
      const Column col(rows, (si + 2) % 9, si % 3);
      const Nulls nulls = static_cast<Nulls>(si % 4);
      const std::vector<uint64_t> valid = MakeValidity(nulls, n, si + 1);
      const uint64_t* v = ValidityPtr(nulls, valid);
      const struct {
        const char* name;
        Predicate kernel, ref;
      } preds[] = {
          {"prefix", StringStartsWith, reference::StringStartsWith},
          {"suffix", StringEndsWith, reference::StringEndsWith},
          {"equals", StringEquals, reference::StringEquals},
          {"not equals", StringNotEquals, reference::StringNotEquals},
      };
      std::vector<std::string> values = needles;
      if (n > 0) values.push_back(rows[n / 3]);
      for (const auto& pred : preds) {
        for (const std::string& needle : values) {
          ASSERT_EQ(Eval(pred.ref, col, needle, v), Eval(pred.kernel, col, needle, v))
              << pred.name << " '" << needle << "' n=" << n << " data " << static_cast<int>(kind);
        }
      }
    }
  }
}

TEST_P(StringMatchTest, AffixEveryNeedleByteMatters) {
  // Rows holding the needle with exactly one byte changed, at every position, for needle lengths
  // around the kernels' 8-byte windows: a byte no window or verification covers would pass.
  for (size_t k = 1; k <= 26; ++k) {
    std::string needle;
    for (size_t j = 0; j < k; ++j) needle += static_cast<char>('a' + j);
    std::vector<std::string> rows;
    std::vector<bool> prefix_want, suffix_want;
    for (size_t rep = 0; rep < 3; ++rep) {
      for (size_t m = 0; m <= k; ++m) {  // m == k: the needle intact
        std::string changed = needle;
        if (m < k) changed[m] = 'Z';
        const std::string pad(1 + (m + rep) % 9, '-');
        const auto add = [&](const std::string& row, bool is_prefix, bool is_suffix) {
          rows.push_back(row);
          prefix_want.push_back(is_prefix);
          suffix_want.push_back(is_suffix);
        };
        add(changed + pad, m == k, false);
        add(pad + changed, false, m == k);
        add(changed, m == k, m == k);
      }
    }
    const Column col(rows, 1, 3);
    const size_t n = rows.size();
    const auto pre = Eval(StringStartsWith, col, needle, nullptr);
    const auto suf = Eval(StringEndsWith, col, needle, nullptr);
    const auto eq = Eval(StringEquals, col, needle, nullptr);
    for (size_t i = 0; i < n; ++i) {
      const std::string where = "k=" + std::to_string(k) + " row '" + rows[i] + "'";
      ASSERT_EQ(prefix_want[i], BitmaskGet(pre.data(), i)) << "prefix " << where;
      ASSERT_EQ(suffix_want[i], BitmaskGet(suf.data(), i)) << "suffix " << where;
      ASSERT_EQ(rows[i] == needle, BitmaskGet(eq.data(), i)) << "equals " << where;
    }
  }
}

TEST_P(StringMatchTest, NotEmptyAndLengthsMatchReference) {
  for (Data kind : {Data::kUrl, Data::kCyrillic, Data::kTiny}) {
    for (size_t si = 0; si < kSizes.size(); ++si) {
      const size_t n = kSizes[si];
      std::vector<std::string> rows = RandomRows(kind, n, 7 * si + static_cast<int>(kind));
      if (kind == Data::kTiny) {  // invalid UTF-8 too: stray continuation and lead bytes
        std::mt19937_64 rng(si);
        for (std::string& r : rows) {
          if (rng() % 3 == 0) r += static_cast<char>(0x80 + rng() % 0x80);
        }
      }
      const Column col(rows, si % 4, (si + 1) % 4);
      const Nulls nulls = static_cast<Nulls>(si % 4);
      const std::vector<uint64_t> valid = MakeValidity(nulls, n, si);
      const auto want = RunMask(n, [&](uint64_t* o) {
        reference::StringNotEmpty(col.offsets(), n, ValidityPtr(nulls, valid), o);
      });
      const auto got = RunMask(n, [&](uint64_t* o) {
        StringNotEmpty(col.offsets(), n, ValidityPtr(nulls, valid), o);
      });
      ASSERT_EQ(want, got) << "n=" << n;

      std::vector<int64_t> want_len(n + 1, -7), got_len(n + 1, -7);  // last entry: guard
      reference::StringByteLengths(col.offsets(), n, want_len.data());
      StringByteLengths(col.offsets(), n, got_len.data());
      ASSERT_EQ(want_len, got_len) << "byte lengths n=" << n;
      reference::StringCodePointLengths(col.offsets(), col.data(), n, want_len.data());
      StringCodePointLengths(col.offsets(), col.data(), n, got_len.data());
      ASSERT_EQ(want_len, got_len) << "code points n=" << n << " data " << static_cast<int>(kind);
    }
  }
  // Code points differ from bytes on Cyrillic: "привет" is 6 code points in 12 bytes.
  const Column col({"привет", "", "abc", "ёж"}, 0, 0);
  int64_t len[4];
  StringCodePointLengths(col.offsets(), col.data(), 4, len);
  EXPECT_EQ(6, len[0]);
  EXPECT_EQ(0, len[1]);
  EXPECT_EQ(3, len[2]);
  EXPECT_EQ(2, len[3]);
  StringByteLengths(col.offsets(), 4, len);
  EXPECT_EQ(12, len[0]);
}

// ASCII case mapping against the reference: every byte value (the letters' neighbours '@', '[',
// '`', '{' and the UTF-8 bytes above 0x7F must stay), every size around the vectors, both
// directions, in place and into another buffer of exactly n bytes.
TEST_P(StringMatchTest, AsciiCaseMapMatchesReference) {
  std::vector<size_t> sizes = kSizes;
  for (size_t n : {255, 256, 257, 1031}) sizes.push_back(n);
  std::mt19937_64 rng(12);
  for (size_t n : sizes) {
    std::vector<uint8_t> data(n);
    for (size_t i = 0; i < n; ++i) data[i] = i < 256 && n >= 256 ? static_cast<uint8_t>(i) : static_cast<uint8_t>(rng());
    for (bool upper : {false, true}) {
      std::vector<uint8_t> expected(n), got(n);
      reference::AsciiCaseMap(data.data(), n, upper, expected.data());
      AsciiCaseMap(data.data(), n, upper, got.data());
      ASSERT_EQ(got, expected) << "n=" << n << " upper=" << upper;
      std::vector<uint8_t> in_place = data;
      AsciiCaseMap(in_place.data(), n, upper, in_place.data());
      ASSERT_EQ(in_place, expected) << "in place, n=" << n;
    }
  }
  const std::string text = "@AZ[`az{ Ab\xC3\x84";
  std::string out(text.size(), '\0');
  AsciiCaseMap(reinterpret_cast<const uint8_t*>(text.data()), text.size(), true,
               reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_EQ(out, "@AZ[`AZ{ AB\xC3\x84");
  AsciiCaseMap(reinterpret_cast<const uint8_t*>(text.data()), text.size(), false,
               reinterpret_cast<uint8_t*>(out.data()));
  EXPECT_EQ(out, "@az[`az{ ab\xC3\x84");
}

// Whether a buffer is all ASCII: every size around the kernel's 256-byte blocks and vectors,
// a high byte (0x80 and 0xFF) planted at the start, the end, block edges and random places,
// and 0x7F (the largest ASCII byte) everywhere; buffers of exactly n bytes (ASan sees a read
// past them).
TEST_P(StringMatchTest, BytesAreAsciiMatchesReference) {
  std::vector<size_t> sizes = kSizes;
  for (size_t n : {255, 256, 257, 511, 512, 513, 767, 1024, 1031, 4096, 5000}) sizes.push_back(n);
  std::mt19937_64 rng(11);
  for (size_t n : sizes) {
    std::unique_ptr<uint8_t[]> buffer(new uint8_t[n == 0 ? 1 : n]);
    uint8_t* data = buffer.get();
    for (size_t i = 0; i < n; ++i) data[i] = static_cast<uint8_t>(rng() % 0x80);
    ASSERT_TRUE(reference::BytesAreAscii(data, n)) << "n=" << n;
    ASSERT_TRUE(BytesAreAscii(data, n)) << "n=" << n;
    std::vector<size_t> places = {0, n - 1, n / 2, 255, 256, 63, 64, n - 65};
    for (int k = 0; k < 8; ++k) places.push_back(rng() % (n + 1));
    for (size_t at : places) {
      if (n == 0 || at >= n) continue;
      const uint8_t was = data[at];
      for (uint8_t high : {uint8_t{0x80}, uint8_t{0xFF}, uint8_t{0xC3}}) {
        data[at] = high;
        ASSERT_FALSE(reference::BytesAreAscii(data, n)) << "n=" << n << " at=" << at;
        ASSERT_FALSE(BytesAreAscii(data, n)) << "n=" << n << " at=" << at << " byte " << int{high};
      }
      data[at] = 0x7F;
      ASSERT_TRUE(BytesAreAscii(data, n)) << "n=" << n << " at=" << at;
      data[at] = was;
    }
    // Random bytes, high ones rare: the kernel agrees with the reference either way.
    for (size_t i = 0; i < n; ++i) data[i] = static_cast<uint8_t>(rng() % 997 == 0 ? 0x80 | rng() : rng() % 0x80);
    ASSERT_EQ(reference::BytesAreAscii(data, n), BytesAreAscii(data, n)) << "n=" << n;
  }
  EXPECT_TRUE(BytesAreAscii(nullptr, 0));
}

TEST(StringMatchReference, LikeMatchDefinition) {
  using reference::LikeMatch;
  EXPECT_TRUE(LikeMatch("", "", kNoLikeEscape));
  EXPECT_FALSE(LikeMatch("a", "", kNoLikeEscape));
  EXPECT_TRUE(LikeMatch("", "%", kNoLikeEscape));
  EXPECT_FALSE(LikeMatch("", "_", kNoLikeEscape));
  EXPECT_TRUE(LikeMatch("привет", "_ривет", kNoLikeEscape));   // `_` is one code point
  EXPECT_FALSE(LikeMatch("привет", "__ривет", kNoLikeEscape));
  EXPECT_TRUE(LikeMatch("привет", "______", kNoLikeEscape));
  EXPECT_FALSE(LikeMatch("привет", "_______", kNoLikeEscape));
  EXPECT_TRUE(LikeMatch("http://google.com", "%google%", kNoLikeEscape));
  EXPECT_TRUE(LikeMatch("abcabd", "%ab_", kNoLikeEscape));
  EXPECT_FALSE(LikeMatch("abcabd", "ab_", kNoLikeEscape));
  EXPECT_TRUE(LikeMatch("100%", "100\\%", '\\'));
  EXPECT_FALSE(LikeMatch("1000", "100\\%", '\\'));
  EXPECT_TRUE(LikeMatch("1000", "100%", '\\'));
  EXPECT_TRUE(LikeMatch("a_b", "a\\_b", '\\'));
  EXPECT_FALSE(LikeMatch("axb", "a\\_b", '\\'));
  EXPECT_TRUE(LikeMatch("ab\\", "ab\\", '\\'));  // a trailing escape matches itself
  // ... even when the escape is a wildcard character (found by the LIKE fuzzer: a trailing '%'
  // escape was read as "any bytes").
  EXPECT_FALSE(LikeMatch("%a", "%%a%", '%'));
  EXPECT_TRUE(LikeMatch("%a%", "%%a%", '%'));
  EXPECT_FALSE(LikeMatch("ab", "a_", '_'));
  EXPECT_TRUE(LikeMatch("a_", "a_", '_'));
  EXPECT_TRUE(LikeMatch("a_", "a__", '_'));
  EXPECT_TRUE(LikeMatch("a\\b", "a\\b", kNoLikeEscape));
}

TEST_P(StringMatchTest, LikePatternsMatchReference) {
  const std::vector<std::pair<std::string, int>> patterns = {
      {"%google%", kNoLikeEscape}, {"google%", kNoLikeEscape}, {"%google", kNoLikeEscape},
      {"google", kNoLikeEscape},   {"", kNoLikeEscape},        {"%", kNoLikeEscape},
      {"%%", kNoLikeEscape},       {"_", kNoLikeEscape},        {"__", kNoLikeEscape},
      {"%_", kNoLikeEscape},       {"_%", kNoLikeEscape},       {"%_%_%", kNoLikeEscape},
      {"http%", kNoLikeEscape},    {"%.ru/%", kNoLikeEscape},   {"http%google%", kNoLikeEscape},
      {"%go%le%", kNoLikeEscape},  {"h_tp%", kNoLikeEscape},    {"%o_le%", kNoLikeEscape},
      {"%a_b%", kNoLikeEscape},    {"a%b", kNoLikeEscape},      {"%ab%ba%", kNoLikeEscape},
      {"a_%_b", kNoLikeEscape},    {"%b_", kNoLikeEscape},      {"_a%", kNoLikeEscape},
      {"%a__", kNoLikeEscape},     {"a_a", kNoLikeEscape},      {"%\xC3\xA9_", kNoLikeEscape},
      {"п_и%", kNoLikeEscape},     {"%_ндекс%", kNoLikeEscape}, {"%я", kNoLikeEscape},
      {"%и_ет %", kNoLikeEscape},  {"%\\%%", '\\'},             {"%\\_%", '\\'},
      {"http\\%", '\\'},           {"%?%=%&%", kNoLikeEscape},  {"ab\\", '\\'},
      {"%%a%", '%'},               {"%%", '%'},                 {"a_", '_'},
      {"__%", '_'},
  };
  for (Data kind : {Data::kUrl, Data::kCyrillic, Data::kTiny}) {
    for (size_t n : {0, 1, 17, 64, 65, 1000, 4097}) {
      const std::vector<std::string> rows = RandomRows(kind, n, n + 100 * static_cast<int>(kind));
      const Column col(rows, n % 3, n % 4);
      const std::vector<uint64_t> valid = MakeValidity(Nulls::kRandom, n, n);
      for (const auto& entry : patterns) {
        const std::string& pattern = entry.first;  // C++17 lambdas cannot capture bindings
        const int escape = entry.second;
        for (const uint64_t* v : {static_cast<const uint64_t*>(nullptr), valid.data()}) {
          const auto want = RunMask(n, [&](uint64_t* o) {
            reference::StringLike(col.offsets(), col.data(), n, pattern, escape, v, o);
          });
          const auto got = RunMask(n, [&](uint64_t* o) {
            StringLike(col.offsets(), col.data(), n, pattern, escape, v, o);
          });
          ASSERT_EQ(want, got) << "LIKE '" << pattern << "' n=" << n << " data "
                               << static_cast<int>(kind);
          const auto want_not = RunMask(n, [&](uint64_t* o) {
            reference::StringNotLike(col.offsets(), col.data(), n, pattern, escape, v, o);
          });
          const auto got_not = RunMask(n, [&](uint64_t* o) {
            StringNotLike(col.offsets(), col.data(), n, pattern, escape, v, o);
          });
          ASSERT_EQ(want_not, got_not) << "NOT LIKE '" << pattern << "' n=" << n;
        }
      }
    }
  }
}


// --- The substring search's stage counts (CountSubstringCandidates) ---

void ExpectSameCounts(const SubstringCandidateCounts& want, const SubstringCandidateCounts& got,
                      const std::string& where) {
  EXPECT_EQ(want.positions, got.positions) << where;
  EXPECT_EQ(want.first_byte, got.first_byte) << where;
  EXPECT_EQ(want.two_byte, got.two_byte) << where;
  EXPECT_EQ(want.verified, got.verified) << where;
  EXPECT_EQ(want.rows, got.rows) << where;
}

TEST_P(StringMatchTest, CandidateCountsMatchReference) {
  const std::vector<std::string> needles = {"google", "g", "go", "oo", ".ru/", "яндекс", "я",
                                            "ab", "aba", "\xC3\xA9", "abababababab", "",
                                            "zzzzzzzzzz"};
  uint64_t verified_somewhere = 0;
  for (Data kind : {Data::kUrl, Data::kCyrillic, Data::kTiny}) {
    for (size_t si = 0; si < kSizes.size(); si += 2) {
      const size_t n = kSizes[si];
      const std::vector<std::string> rows = RandomRows(kind, n, 77 * si + static_cast<int>(kind));
      const Column col(rows, si % 3, si % 5);
      const Nulls nulls = si % 4 == 0 ? Nulls::kRandom : Nulls::kNone;
      const std::vector<uint64_t> valid = MakeValidity(nulls, n, si);
      const uint64_t* v = ValidityPtr(nulls, valid);
      for (const std::string& needle : needles) {
        const auto selected = RunMask(n, [&](uint64_t* o) {
          StringContains(col.offsets(), col.data(), n, needle, v, o);
        });
        for (SubstringPrefilter pf : kPrefilters) {
          const std::string where = "needle '" + needle + "' n=" + std::to_string(n) + " data " +
                                    std::to_string(static_cast<int>(kind)) + " prefilter " +
                                    std::to_string(static_cast<int>(pf));
          const SubstringCandidateCounts want =
              reference::CountSubstringCandidates(pf, col.offsets(), col.data(), n, needle, v);
          const SubstringCandidateCounts got =
              CountSubstringCandidates(pf, col.offsets(), col.data(), n, needle, v);
          ExpectSameCounts(want, got, where);
          // Each stage only narrows the previous one, and the rows are LIKE's rows.
          EXPECT_LE(got.first_byte, got.positions) << where;
          EXPECT_LE(got.two_byte, got.first_byte) << where;
          EXPECT_LE(got.verified, got.two_byte) << where;
          EXPECT_EQ(got.rows, CountBits(selected)) << where;
          verified_somewhere += got.verified;
        }
      }
    }
  }
  EXPECT_GT(verified_somewhere, 1000u);  // the data really contains the needles
}

TEST_P(StringMatchTest, CandidateCountsByHand) {
  // Buffer "abcab" "cab" "" "ab" "xa" "bx": 'a' starts at 0, 3, 6, 8, 11; each is followed by
  // 'b', but the last "ab" straddles rows 4 and 5, so it is no match.
  const Column col({"abcab", "cab", "", "ab", "xa", "bx"}, 2, 1);
  const SubstringCandidateCounts c = CountSubstringCandidates(
      SubstringPrefilter::kFirstLast, col.offsets(), col.data(), col.n(), "ab", nullptr);
  EXPECT_EQ(c.positions, 13u);  // 14 bytes, needle of 2
  EXPECT_EQ(c.first_byte, 5u);
  EXPECT_EQ(c.two_byte, 5u);
  EXPECT_EQ(c.verified, 4u);
  EXPECT_EQ(c.rows, 3u);
  // "cab" (first 'c', last 'b'): 'c' at 2 and 5, 'b' two bytes later at 4 and 7.
  const SubstringCandidateCounts cab = CountSubstringCandidates(
      SubstringPrefilter::kFirstLast, col.offsets(), col.data(), col.n(), "cab", nullptr);
  EXPECT_EQ(cab.first_byte, 2u);
  EXPECT_EQ(cab.two_byte, 2u);
  EXPECT_EQ(cab.verified, 2u);
  EXPECT_EQ(cab.rows, 2u);
  // Row 1 NULL: its match still counts as a position, not as a row.
  std::vector<uint64_t> valid = MakeValidity(Nulls::kAllValid, col.n(), 0);
  valid[0] &= ~uint64_t{2};
  EXPECT_EQ(CountSubstringCandidates(SubstringPrefilter::kFirstLast, col.offsets(), col.data(),
                                     col.n(), "cab", valid.data())
                .rows,
            1u);
  // An empty needle tests no position and matches every non-NULL row.
  const SubstringCandidateCounts empty = CountSubstringCandidates(
      SubstringPrefilter::kFirstLast, col.offsets(), col.data(), col.n(), "", valid.data());
  EXPECT_EQ(empty.positions + empty.first_byte + empty.two_byte + empty.verified, 0u);
  EXPECT_EQ(empty.rows, 5u);
  // A needle longer than the whole buffer, and no rows at all.
  const SubstringCandidateCounts longer = CountSubstringCandidates(
      SubstringPrefilter::kFirstLast, col.offsets(), col.data(), col.n(), "abcabcababxabxz",
      nullptr);
  EXPECT_EQ(longer.positions + longer.rows, 0u);
  const Column none({}, 0, 0);
  EXPECT_EQ(CountSubstringCandidates(SubstringPrefilter::kFirstLast, none.offsets(), none.data(),
                                     0, "ab", nullptr)
                .positions,
            0u);
}

}  // namespace
}  // namespace laneql
