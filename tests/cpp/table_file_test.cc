// The .laneql table file: the checksum, round trips of every type (the opened columns are views
// of the mapping), atomic writes, and tables written a part at a time. Corruption of every kind
// is table_file_corruption_test.cc's.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/column.h"
#include "laneql/hits_generator.h"
#include "laneql/table.h"
#include "laneql/table_file.h"
#include "src/storage/checksum.h"
#include "src/storage/table_file_format.h"
#include "table_file_test_util.h"

namespace laneql {
namespace {

using internal::Checksum64;
using internal::FileHeader;
using namespace table_file_testing;

// ------------------------------ the checksum

TEST(TableFileChecksum, EveryFlippedBitChangesIt) {
  std::mt19937_64 rng(7);
  std::vector<uint8_t> bytes(1003);  // 31 blocks of 32, three words and a 3-byte tail
  for (uint8_t& b : bytes) b = static_cast<uint8_t>(rng());
  const uint64_t original = Checksum64(bytes.data(), bytes.size());
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      bytes[i] ^= static_cast<uint8_t>(1u << bit);
      ASSERT_NE(original, Checksum64(bytes.data(), bytes.size())) << "byte " << i << " bit " << bit;
      bytes[i] ^= static_cast<uint8_t>(1u << bit);
    }
  }
  // Every short length, where the lanes and the tail take other paths.
  for (size_t size = 1; size <= 72; ++size) {
    const uint64_t sum = Checksum64(bytes.data(), size);
    for (size_t i = 0; i < size; ++i) {
      for (int bit = 0; bit < 8; ++bit) {
        bytes[i] ^= static_cast<uint8_t>(1u << bit);
        ASSERT_NE(sum, Checksum64(bytes.data(), size)) << size << " " << i << " " << bit;
        bytes[i] ^= static_cast<uint8_t>(1u << bit);
      }
    }
  }
}

TEST(TableFileChecksum, DependsOnLengthNotOnAlignment) {
  const std::vector<uint8_t> zeros(200, 0);
  std::vector<uint64_t> sums;
  for (size_t size = 0; size <= 200; ++size) sums.push_back(Checksum64(zeros.data(), size));
  std::sort(sums.begin(), sums.end());
  EXPECT_EQ(sums.end(), std::adjacent_find(sums.begin(), sums.end()));  // all different
  std::vector<uint8_t> text(300);
  for (size_t i = 0; i < text.size(); ++i) text[i] = static_cast<uint8_t>(i * 13);
  for (size_t shift = 1; shift < 8; ++shift) {
    std::vector<uint8_t> moved(text.size() + shift);
    std::memcpy(moved.data() + shift, text.data(), text.size());
    EXPECT_EQ(Checksum64(text.data(), text.size()),
              Checksum64(moved.data() + shift, text.size()));
  }
  EXPECT_EQ(Checksum64(nullptr, 0), Checksum64(text.data(), 0));
}

// ------------------------------ round trips

TEST(TableFile, EveryTypeRoundTrips) {
  SKIP_WITHOUT_FILES();
  const std::string path = TempPath("every_type.laneql");
  for (size_t rows : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{1000}}) {
    for (bool nulls : {false, true}) {
      SCOPED_TRACE(std::to_string(rows) + (nulls ? " rows with nulls" : " rows"));
      const Table table = MakeEveryTypeTable(rows, nulls);
      std::string error;
      ASSERT_TRUE(WriteTableFile(table, path, &error)) << error;
      Table opened;
      ASSERT_TRUE(OpenTableFile(path, &opened, &error)) << error;
      ExpectSameTable(table, opened);
      for (size_t c = 0; c < opened.num_columns(); ++c) {
        EXPECT_TRUE(opened.column(c).Verify(&error)) << error;
      }
      EXPECT_TRUE(VerifyTableFile(path, &error)) << error;
    }
  }
  ::unlink(path.c_str());
}

// The progress callback (laneql gen's bar) hears of each column once, in order, as written.
TEST(TableFile, ProgressCountsTheColumnsWritten) {
  SKIP_WITHOUT_FILES();
  const std::string path = TempPath("progress.laneql");
  const Table table = MakeEveryTypeTable(100, true);
  std::vector<size_t> calls;
  std::string error;
  ASSERT_TRUE(WriteTableFile(table, path, &error, [&](size_t written) { calls.push_back(written); }))
      << error;
  ASSERT_EQ(calls.size(), table.num_columns());
  for (size_t c = 0; c < calls.size(); ++c) EXPECT_EQ(calls[c], c + 1);
  ::unlink(path.c_str());
}

TEST(TableFile, NoColumnsRoundTrips) {
  SKIP_WITHOUT_FILES();
  const std::string path = TempPath("no_columns.laneql");
  std::string error;
  ASSERT_TRUE(WriteTableFile(Table(), path, &error)) << error;
  EXPECT_EQ(sizeof(FileHeader), ReadBytes(path).size());  // a header and an empty directory
  Table opened;
  ASSERT_TRUE(OpenTableFile(path, &opened, &error)) << error;
  EXPECT_EQ(0u, opened.num_columns());
  EXPECT_EQ(0u, opened.num_rows());
  EXPECT_TRUE(VerifyTableFile(path, &error)) << error;
  ::unlink(path.c_str());
}

TEST(TableFile, HitsColumnsAreViewsOfTheMapping) {
  SKIP_WITHOUT_FILES();
  HitsOptions options;
  options.rows = 20000;
  Table hits;
  std::string error;
  ASSERT_TRUE(GenerateHits(options, &hits, &error)) << error;
  const std::string path = TempPath("hits.laneql");
  ASSERT_TRUE(WriteTableFile(hits, path, &error)) << error;
  const size_t file_size = ReadBytes(path).size();
  Table opened;
  ASSERT_TRUE(OpenTableFile(path, &opened, &error)) << error;
  ExpectSameTable(hits, opened);
  // No copies: every buffer is a view, aligned, and all of them lie within one file-sized span.
  uintptr_t lowest = UINTPTR_MAX, highest = 0;
  for (size_t c = 0; c < opened.num_columns(); ++c) {
    const Column& column = opened.column(c);
    for (const AlignedBuffer* b :
         {&column.values_buffer(), &column.offsets_buffer(), &column.validity_buffer()}) {
      if (b->empty()) continue;
      EXPECT_TRUE(b->is_view()) << opened.column_name(c);
      const uintptr_t at = reinterpret_cast<uintptr_t>(b->data());
      EXPECT_EQ(0u, at % 64) << opened.column_name(c);
      EXPECT_EQ(0u, b->capacity() % 64);
      lowest = std::min(lowest, at);
      highest = std::max(highest, at + b->capacity());
    }
    EXPECT_NE(hits.column(c).values_buffer().data(), column.values_buffer().data());
  }
  EXPECT_LE(highest - lowest, file_size);
  for (size_t c = 0; c < opened.num_columns(); ++c) {
    ASSERT_TRUE(opened.column(c).Verify(&error)) << error;
  }
  // The mapping outlives the table it came with, for as long as a column does.
  Table moved = std::move(opened);
  opened = Table();
  ExpectSameTable(hits, moved);
  ::unlink(path.c_str());
}

TEST(TableFile, OverwritingKeepsOpenedTablesIntact) {
  SKIP_WITHOUT_FILES();
  const std::string path = TempPath("overwrite.laneql");
  const Table first = MakeEveryTypeTable(300, true);
  const Table second = MakeEveryTypeTable(77, false);
  std::string error;
  ASSERT_TRUE(WriteTableFile(first, path, &error)) << error;
  Table opened_first;
  ASSERT_TRUE(OpenTableFile(path, &opened_first, &error)) << error;
  ASSERT_TRUE(WriteTableFile(second, path, &error)) << error;  // renamed over the mapped file
  ExpectSameTable(first, opened_first);
  EXPECT_TRUE(opened_first.column(3).Verify(&error)) << error;
  Table opened_second;
  ASSERT_TRUE(OpenTableFile(path, &opened_second, &error)) << error;
  ExpectSameTable(second, opened_second);
  EXPECT_TRUE(FilesStartingWith(::testing::TempDir(),
                                FilePrefix() + "overwrite.laneql.tmp-")
                  .empty());
  ::unlink(path.c_str());
}

// ------------------------------ atomic writes

TEST(TableFileWrite, FailureLeavesTheTargetAndNoTemporary) {
  SKIP_WITHOUT_FILES();
  const Table table = MakeEveryTypeTable(10, true);
  std::string error;
  const std::string missing = TempPath("no_such_dir/t.laneql");
  EXPECT_FALSE(WriteTableFile(table, missing, &error));
  EXPECT_NE(std::string::npos, error.find(missing)) << error;
  EXPECT_NE(std::string::npos, error.find("No such file")) << error;

  // The target is a directory: everything is written, then the rename fails.
  const std::string target = TempPath("target_is_a_dir");
  ASSERT_EQ(0, ::mkdir(target.c_str(), 0755));
  const std::string inside = target + "/keep";
  WriteBytes(inside, "kept");
  error.clear();
  EXPECT_FALSE(WriteTableFile(table, target, &error));
  EXPECT_NE(std::string::npos, error.find("cannot write " + target)) << error;
  EXPECT_EQ("kept", ReadBytes(inside));
  EXPECT_TRUE(FilesStartingWith(::testing::TempDir(),
                                FilePrefix() + "target_is_a_dir.tmp-")
                  .empty());
  ::unlink(inside.c_str());
  ::rmdir(target.c_str());
}

// A table's columns given in parts, a few at a time, make the file the whole table makes, byte
// for byte (what `laneql gen hits` relies on for tables larger than memory).
TEST(TableFileWriteInParts, PartsMakeTheWholeTablesFile) {
  SKIP_WITHOUT_FILES();
  std::string error;
  const std::string whole_path = TempPath("whole.laneql"), parts_path = TempPath("parts.laneql");
  HitsOptions hits;
  hits.rows = 3000;
  Table whole;
  ASSERT_TRUE(GenerateHits(hits, &whole, &error)) << error;
  ASSERT_TRUE(WriteTableFile(whole, whole_path, &error)) << error;
  // Parts of 1, 7, 30 columns...: the generator's columns of a subset are the whole table's.
  const std::vector<HitsColumnSpec>& schema = HitsSchema();
  size_t next = 0, parts = 0, step = 1, written = 0;
  auto next_part = [&](Table* part, std::string* why) {
    if (next == schema.size()) return true;
    hits.columns.clear();
    for (size_t end = std::min(schema.size(), next + step); next < end; ++next) hits.columns.push_back(schema[next].name);
    step = step * 4 + 3;
    ++parts;
    return GenerateHits(hits, part, why);
  };
  ASSERT_TRUE(WriteTableFileInParts(next_part, parts_path, &error, [&](size_t columns) { written = columns; }))
      << error;
  EXPECT_GE(parts, 3u);
  EXPECT_EQ(written, schema.size());
  EXPECT_EQ(ReadBytes(whole_path), ReadBytes(parts_path));
  Table read;
  ASSERT_TRUE(OpenTableFile(parts_path, &read, &error)) << error;
  ASSERT_TRUE(VerifyTableFile(parts_path, &error)) << error;
  ExpectSameTable(whole, read);
  ::unlink(whole_path.c_str());
  ::unlink(parts_path.c_str());
}

TEST(TableFileWriteInParts, BadPartsFailAndLeaveNoFile) {
  SKIP_WITHOUT_FILES();
  const std::string path = TempPath("bad_parts.laneql");
  auto run = [&](std::vector<Table>* parts, bool fail_after = false) {
    size_t next = 0;
    std::string error;
    const bool ok = WriteTableFileInParts(
        [&](Table* part, std::string* why) {
          if (next == parts->size()) {
            if (!fail_after) return true;
            *why = "the generator ran out of memory";
            return false;
          }
          *part = std::move((*parts)[next++]);
          return true;
        },
        path, &error);
    EXPECT_FALSE(ok);
    EXPECT_NE(std::string::npos, error.find("cannot write " + path)) << error;
    EXPECT_TRUE(FilesStartingWith(::testing::TempDir(), FilePrefix() + "bad_parts").empty());
    return error;
  };
  auto part_of = [](const std::string& name, size_t rows) {
    Table table;
    EXPECT_TRUE(table.AddColumn(name, MakeColumn(TypeId::kInt32, rows, false, 9), nullptr));
    return table;
  };
  std::vector<Table> rows_differ;
  rows_differ.push_back(part_of("a", 10));
  rows_differ.push_back(part_of("b", 11));
  EXPECT_NE(std::string::npos, run(&rows_differ).find("column 'b' has 11 rows, the first 10"));
  std::vector<Table> names_repeat;
  names_repeat.push_back(part_of("Col", 10));
  names_repeat.push_back(part_of("cOL", 10));
  EXPECT_NE(std::string::npos, run(&names_repeat).find("column 'cOL' comes twice"));
  std::vector<Table> source_fails;
  source_fails.push_back(part_of("a", 10));
  EXPECT_NE(std::string::npos, run(&source_fails, true).find("the generator ran out of memory"));
}

}  // namespace
}  // namespace laneql
