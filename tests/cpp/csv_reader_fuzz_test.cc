// The CSV reader on damaged and random input: it never crashes or hangs, and with 1, 2 or 3
// threads it returns the same table, the same skipped-row count and the same first error.
#include <cstdint>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "laneql/csv.h"
#include "laneql/result.h"

namespace laneql {
namespace {

// Every name, type and cell, as text.
std::string Fingerprint(const Table& t) {
  std::string out;
  for (size_t c = 0; c < t.num_columns(); ++c) {
    out += t.column_name(c) + ":" + TypeName(t.column(c).type()) + ";";
  }
  out += "\n";
  for (size_t r = 0; r < t.num_rows(); ++r) {
    for (size_t c = 0; c < t.num_columns(); ++c) {
      out += FormatValue(t.column(c), r, ValueStyle::kText);
      out += '|';
    }
    out += '\n';
  }
  return out;
}

// Rows of "int,quoted text,double" with rare damage: stray quotes, missing or extra fields,
// CR, bad UTF-8, words in the number columns.
std::string DamagedText(uint64_t seed, size_t bytes) {
  std::mt19937_64 rng(seed);
  std::string text = "id,s,d\n";
  static const char* kPieces[] = {"ab", ",", "\"\"", "\n", "\r\n", " ", "\xD0\xBF", "x"};
  while (text.size() < bytes) {
    const unsigned damage = rng() % 400;
    text += damage == 0 ? "seven" : std::to_string(rng() % 100000);
    text += ",\"";
    for (int k = static_cast<int>(rng() % 6); k > 0; --k) text += kPieces[rng() % 8];
    text += "\"";
    if (damage == 1) text += "\"";       // unbalanced: shifts the quoting of what follows
    if (damage == 2) text += ",extra";   // too many fields
    if (damage == 3) text += "\xFF";     // after the closing quote
    if (damage != 4) text += "," + std::to_string(rng() % 1000) + ".5";  // 4: too few
    text += damage == 5 ? "\r\n" : "\n";
  }
  return text;
}

TEST(CsvReaderFuzz, ThreadCountsAgreeOnDamagedText) {
  for (uint64_t seed : {1, 2, 3}) {
    const std::string text = DamagedText(seed, 800 * 1024);
    for (bool skip : {false, true}) {
      std::string want_table, want_error, want_first_bad;
      size_t want_skipped = 0;
      for (int threads : {1, 2, 3}) {
        CsvReadOptions options;
        options.threads = threads;
        options.skip_bad_rows = skip;
        Table table;
        CsvReadStats stats;
        std::string error;
        const bool ok = ReadCsvText(text, options, &table, &stats, &error);
        EXPECT_EQ(ok, skip) << "seed " << seed << " threads " << threads << ": " << error;
        const std::string fingerprint = ok ? Fingerprint(table) : "";
        if (threads == 1) {
          want_table = fingerprint;
          want_error = error;
          want_first_bad = stats.first_bad_row;
          want_skipped = stats.bad_rows_skipped;
          if (skip) {
            EXPECT_GT(stats.bad_rows_skipped, 0u);
            EXPECT_GT(table.num_rows(), 1000u);
          }
          continue;
        }
        EXPECT_EQ(error, want_error) << "seed " << seed << " threads " << threads;
        EXPECT_EQ(stats.first_bad_row, want_first_bad) << "seed " << seed;
        EXPECT_EQ(stats.bad_rows_skipped, want_skipped) << "seed " << seed;
        EXPECT_TRUE(fingerprint == want_table) << "seed " << seed << " threads " << threads;
      }
    }
  }
}

TEST(CsvReaderFuzz, RandomBytesNeverCrash) {
  std::mt19937_64 rng(99);
  static const char kAlphabet[] = "a1,\"\n\r\t;|.-: \x80\xC3\xFF";
  for (int round = 0; round < 400; ++round) {
    std::string text(rng() % 300, ' ');
    for (char& c : text) c = kAlphabet[rng() % (sizeof(kAlphabet) - 1)];
    CsvReadOptions options;
    options.skip_bad_rows = round % 2 == 0;
    if (round % 3 == 0) options.schema = {{"a", TypeId::kInt32}, {"b", TypeId::kString}};
    if (round % 5 == 0) options.header = CsvReadOptions::Header::kNo;
    Table table;
    CsvReadStats stats;
    std::string error;
    if (ReadCsvText(text, options, &table, &stats, &error)) {
      for (size_t c = 0; c < table.num_columns(); ++c) {
        EXPECT_EQ(table.column(c).length(), table.num_rows());
      }
    } else {
      EXPECT_EQ(error.rfind("<input>:", 0), 0u) << error;
    }
  }
}


// Random strings full of quotes, delimiters, CR/LF and multi-byte characters, long enough to
// straddle the scanner's 64-byte blocks and 4 KiB windows: written by AppendCsv and read back,
// every value comes back (checks the block-mask record splitting against the writer's quoting).
TEST(CsvReaderFuzz, RandomStringsRoundTrip) {
  std::mt19937_64 rng(5);
  static const char* kPieces[] = {"\"", ",", "\n", "\r\n", "\r", "a", "bc", "\xD0\xBF",
                                  "\t", " ", "\"\""};
  for (char delimiter : {',', '\t'}) {
    for (int round = 0; round < 20; ++round) {
      const size_t rows = 1 + rng() % 200;
      Column a(TypeId::kString), b(TypeId::kString);
      std::string error;
      for (size_t r = 0; r < rows; ++r) {
        for (Column* column : {&a, &b}) {
          if (rng() % 13 == 0) {
            ASSERT_TRUE(column->AppendNull(&error));
            continue;
          }
          std::string value;
          for (int k = static_cast<int>(rng() % 40); k > 0; --k) value += kPieces[rng() % 11];
          ASSERT_TRUE(column->AppendString(value, &error));
        }
      }
      Result result;
      ASSERT_TRUE(result.AddColumn("a", std::move(a), &error));
      ASSERT_TRUE(result.AddColumn("b", std::move(b), &error));
      CsvWriteOptions write;
      write.delimiter = delimiter;
      std::string text;
      AppendCsv(result, write, &text);
      CsvReadOptions read;
      read.delimiter = delimiter;
      read.schema = {{"a", TypeId::kString}, {"b", TypeId::kString}};
      Table back;
      CsvReadStats stats;
      ASSERT_TRUE(ReadCsvText(text, read, &back, &stats, &error)) << error;
      ASSERT_EQ(back.num_rows(), rows);
      for (size_t c = 0; c < 2; ++c) {
        for (size_t r = 0; r < rows; ++r) {
          ASSERT_EQ(back.column(c).IsValid(r), result.column(c).IsValid(r)) << r;
          ASSERT_EQ(back.column(c).StringAt(r), result.column(c).StringAt(r)) << r;
        }
      }
    }
  }
}

}  // namespace
}  // namespace laneql
