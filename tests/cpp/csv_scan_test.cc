// The CSV structural scan against its scalar reference on every compiled target: random text
// over a CSV-ish alphabet, every length 0..200 (all tail sizes), all-quote and all-high-byte
// blocks, tab delimiters, and buffers that end exactly at the input (ASan catches over-reads).
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/csv_scan.h"
#include "target_param.h"

namespace laneql {
namespace {

LANEQL_PER_TARGET_SUITE(CsvScanTest);

// Runs both implementations on a heap copy of `text` exactly as long as the text.
void ExpectSameAsReference(const std::string& text, uint8_t delimiter, uint8_t quote) {
  const size_t n = text.size();
  std::unique_ptr<uint8_t[]> bytes(new uint8_t[n == 0 ? 1 : n]);
  if (n != 0) std::memcpy(bytes.get(), text.data(), n);
  const size_t blocks = CsvScanBlockCount(n);
  std::vector<CsvBlockMasks> got(blocks + 1), want(blocks + 1);
  got[blocks].quotes = want[blocks].quotes = 0xABCD;  // sentinel: must stay untouched
  CsvScanBlocks(bytes.get(), n, delimiter, quote, got.data());
  reference::CsvScanBlocks(bytes.get(), n, delimiter, quote, want.data());
  for (size_t b = 0; b <= blocks; ++b) {
    ASSERT_EQ(got[b].quotes, want[b].quotes) << "block " << b << " of n=" << n;
    ASSERT_EQ(got[b].delimiters, want[b].delimiters) << "block " << b << " of n=" << n;
    ASSERT_EQ(got[b].newlines, want[b].newlines) << "block " << b << " of n=" << n;
    ASSERT_EQ(got[b].non_ascii, want[b].non_ascii) << "block " << b << " of n=" << n;
  }
  for (uint8_t byte : {quote, delimiter, uint8_t{'\n'}, uint8_t{0}, uint8_t{0xFF}}) {
    ASSERT_EQ(CsvCountByte(bytes.get(), n, byte), reference::CsvCountByte(bytes.get(), n, byte))
        << "byte " << int{byte} << " n=" << n;
  }
}

std::string RandomText(std::mt19937_64& rng, size_t n) {
  static const char kAlphabet[] = "ab1,\"\n\r\t;|. \xD0\xB0\xFF";
  std::string text(n, ' ');
  for (char& c : text) c = kAlphabet[rng() % (sizeof(kAlphabet) - 1)];
  return text;
}

TEST_P(CsvScanTest, EveryTailLength) {
  std::mt19937_64 rng(7);
  for (size_t n = 0; n <= 200; ++n) {
    const std::string text = RandomText(rng, n);
    ExpectSameAsReference(text, ',', '"');
    ExpectSameAsReference(text, '\t', '"');
  }
}

TEST_P(CsvScanTest, RandomLongTexts) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 20; ++round) {
    const size_t n = 1000 + rng() % 5000;
    std::string text = RandomText(rng, n);
    ExpectSameAsReference(text, ',', '"');
    ExpectSameAsReference(text, '|', '\'');
  }
  // Fully random bytes, every value including 0 and the delimiter/quote as 0.
  std::string bytes(4099, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  ExpectSameAsReference(bytes, ',', '"');
  ExpectSameAsReference(bytes, 0, 0);
}

TEST_P(CsvScanTest, EdgeCases) {
  ExpectSameAsReference("", ',', '"');
  for (size_t n : {1, 63, 64, 65, 128, 130}) {
    ExpectSameAsReference(std::string(n, '"'), ',', '"');
    ExpectSameAsReference(std::string(n, ','), ',', '"');
    ExpectSameAsReference(std::string(n, '\n'), ',', '"');
    ExpectSameAsReference(std::string(n, '\x80'), ',', '"');
    ExpectSameAsReference(std::string(n, '\xFF'), ',', '"');
    ExpectSameAsReference(std::string(n, '\t'), '\t', '"');
  }
  // Known masks for a small text.
  const std::string text = "a,\"b\"\n\xC3\xA9\t";
  CsvBlockMasks m;
  CsvScanBlocks(reinterpret_cast<const uint8_t*>(text.data()), text.size(), ',', '"', &m);
  EXPECT_EQ(m.delimiters, uint64_t{1} << 1);
  EXPECT_EQ(m.quotes, (uint64_t{1} << 2) | (uint64_t{1} << 4));
  EXPECT_EQ(m.newlines, uint64_t{1} << 5);
  EXPECT_EQ(m.non_ascii, (uint64_t{1} << 6) | (uint64_t{1} << 7));
  CsvScanBlocks(reinterpret_cast<const uint8_t*>(text.data()), text.size(), '\t', '"', &m);
  EXPECT_EQ(m.delimiters, uint64_t{1} << 8);
}

}  // namespace
}  // namespace laneql
