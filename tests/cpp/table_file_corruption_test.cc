// The .laneql table file's lazy per-column check and corruption of every kind: truncation,
// flipped bytes, hand-crafted structure with valid checksums, files that are no table files.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/column.h"
#include "laneql/table.h"
#include "laneql/table_file.h"
#include "src/storage/checksum.h"
#include "src/storage/table_file_format.h"
#include "table_file_test_util.h"
#include "test_threads.h"

namespace laneql {
namespace {

using internal::Checksum64;
using internal::ColumnEntry;
using internal::FileHeader;
using namespace table_file_testing;

// ------------------------------ the lazy check

// A small table whose file has every buffer kind, for the corruption tests: nulls in fixed and
// string columns, a large_string, a bool and a zero-row-safe float column.
Table MakeSmallTable() {
  Table table;
  EXPECT_TRUE(table.AddColumn("id", MakeColumn(TypeId::kInt32, 130, true, 1), nullptr));
  EXPECT_TRUE(table.AddColumn("URL", MakeColumn(TypeId::kString, 130, true, 2), nullptr));
  EXPECT_TRUE(table.AddColumn("flag", MakeColumn(TypeId::kBool, 130, false, 3), nullptr));
  EXPECT_TRUE(table.AddColumn("big", MakeColumn(TypeId::kLargeString, 130, false, 4), nullptr));
  EXPECT_TRUE(table.AddColumn("x", MakeColumn(TypeId::kFloat64, 130, false, 5), nullptr));
  return table;
}

// A file's bytes with accessors for its header and directory, and Reseal() to make every
// checksum match again after a deliberate change (to reach the structural checks).
struct FileImage {
  std::string bytes;

  FileHeader header() const {
    FileHeader h;
    std::memcpy(&h, bytes.data(), sizeof(h));
    return h;
  }
  void set_header(const FileHeader& h) { std::memcpy(&bytes[0], &h, sizeof(h)); }
  ColumnEntry entry(size_t c) const {
    ColumnEntry e;
    std::memcpy(&e, bytes.data() + header().directory_offset + c * sizeof(e), sizeof(e));
    return e;
  }
  void set_entry(size_t c, const ColumnEntry& e) {
    std::memcpy(&bytes[header().directory_offset + c * sizeof(e)], &e, sizeof(e));
  }
  uint8_t* buffer(size_t c, int kind) {
    return reinterpret_cast<uint8_t*>(&bytes[entry(c).buffers[kind].offset]);
  }
  void Reseal() {
    FileHeader h = header();
    const uint64_t entries = std::min(h.num_columns, h.directory_size / sizeof(ColumnEntry));
    for (size_t c = 0; c < entries; ++c) {
      ColumnEntry e = entry(c);
      for (auto& b : e.buffers) {
        if (b.size != 0 && b.offset <= bytes.size() && b.size <= bytes.size() - b.offset) {
          b.checksum = Checksum64(bytes.data() + b.offset, b.size);
        }
      }
      set_entry(c, e);
    }
    h.directory_checksum = Checksum64(bytes.data() + h.directory_offset, h.directory_size);
    h.header_checksum = Checksum64(&h, offsetof(FileHeader, header_checksum));
    set_header(h);
  }
};

class TableFileCorruption : public ::testing::Test {
 protected:
  void SetUp() override {
#ifdef __EMSCRIPTEN__
    GTEST_SKIP() << "file tests run natively only";
#endif
    original_ = TempPath("small.laneql");
    damaged_ = TempPath("damaged.laneql");
    std::string error;
    ASSERT_TRUE(WriteTableFile(MakeSmallTable(), original_, &error)) << error;
    image_.bytes = ReadBytes(original_);
    ASSERT_GT(image_.bytes.size(), 1000u);
  }
  void TearDown() override {
    ::unlink(original_.c_str());
    ::unlink(damaged_.c_str());
  }

  // Writes `bytes` as the damaged file and opens it; *error gets the open's message.
  bool OpenDamaged(const std::string& bytes, Table* table, std::string* error) {
    WriteBytes(damaged_, bytes);
    return OpenTableFile(damaged_, table, error);
  }
  // The message of opening or (if that works) verifying the damaged file; "" when both pass.
  std::string Problem(const std::string& bytes) {
    Table table;
    std::string error;
    if (!OpenDamaged(bytes, &table, &error)) return error;
    for (size_t c = 0; c < table.num_columns(); ++c) {
      if (!table.column(c).Verify(&error)) return error;
    }
    return "";
  }

  std::string original_, damaged_;
  FileImage image_;
};

TEST_F(TableFileCorruption, EveryTruncationFailsOnOpen) {
  for (size_t cut = 0; cut < image_.bytes.size(); ++cut) {
    Table table;
    std::string error;
    ASSERT_FALSE(OpenDamaged(image_.bytes.substr(0, cut), &table, &error)) << cut;
    EXPECT_EQ(0u, error.find(damaged_)) << cut << ": " << error;  // names the file first
    if (cut >= sizeof(FileHeader)) {
      EXPECT_NE(std::string::npos, error.find("truncated")) << error;
    }
  }
  // And bytes appended to a whole file.
  Table table;
  std::string error;
  EXPECT_FALSE(OpenDamaged(image_.bytes + std::string(64, '\0'), &table, &error));
  EXPECT_NE(std::string::npos, error.find("the header says")) << error;
}

TEST_F(TableFileCorruption, EveryFlippedByteIsDetected) {
  // Every byte of the file is covered: header and directory by their checksums, buffers by
  // theirs, padding by the zero check, and there are no gaps between them.
  // The low bit on even bytes, the high bit on odd ones (both ends of every field).
  std::string bytes = image_.bytes;
  for (size_t i = 0; i < bytes.size(); ++i) {
    const uint8_t flip = i % 2 == 0 ? 0x01 : 0x80;
    bytes[i] = static_cast<char>(bytes[i] ^ flip);
    const std::string problem = Problem(bytes);
    ASSERT_FALSE(problem.empty()) << "byte " << i << " flip " << int{flip};
    ASSERT_EQ(0u, problem.find(damaged_)) << problem;
    bytes[i] = static_cast<char>(bytes[i] ^ flip);
  }
}

TEST_F(TableFileCorruption, DamagedBuffersNameTheColumnAndBuffer) {
  const FileHeader h = image_.header();
  int checked = 0;
  for (size_t c = 0; c < h.num_columns; ++c) {
    const ColumnEntry e = image_.entry(c);
    const std::string name(image_.bytes.data() + h.directory_offset + e.name_offset, e.name_size);
    for (int kind = 0; kind < internal::kNumBufferKinds; ++kind) {
      const internal::BufferEntry& b = e.buffers[kind];
      if (b.size == 0) continue;
      const std::string prefix = damaged_ + ": column '" + name + "' is corrupt (";
      const std::string kind_name = internal::kBufferKindNames[kind];
      FileImage damaged = image_;
      damaged.buffer(c, kind)[b.size / 2] ^= 0x10;
      Table table;
      std::string error;
      ASSERT_TRUE(OpenDamaged(damaged.bytes, &table, &error)) << error;  // open reads no data
      EXPECT_FALSE(table.column(c).Verify(&error));
      EXPECT_EQ(prefix + kind_name + " checksum mismatch)", error);
      for (size_t other = 0; other < table.num_columns(); ++other) {
        if (other != c) {
          EXPECT_TRUE(table.column(other).Verify(&error)) << error;
        }
      }
      if (b.size % 64 != 0) {
        FileImage padded = image_;
        padded.buffer(c, kind)[b.size] = 1;  // first padding byte
        EXPECT_EQ(prefix + kind_name + " padding is not zero)", Problem(padded.bytes));
      }
      ++checked;
    }
  }
  EXPECT_EQ(9, checked);  // id: values+validity, URL: all three, flag, big: two, x
}

TEST_F(TableFileCorruption, HeaderDirectoryVersionAndMagic) {
  FileImage image = image_;
  image.bytes[offsetof(FileHeader, num_rows)] ^= 1;
  EXPECT_EQ(damaged_ + " is corrupt (header checksum mismatch)", Problem(image.bytes));

  image = image_;
  image.bytes[image.header().directory_offset + 20] ^= 4;
  EXPECT_EQ(damaged_ + " is corrupt (column directory checksum mismatch)", Problem(image.bytes));

  image = image_;
  FileHeader h = image.header();
  h.version = 2;
  image.set_header(h);
  const std::string version_message =
      damaged_ + ": format version 2 is not supported; this laneql reads version 1";
  EXPECT_EQ(version_message, Problem(image.bytes));  // checked before the header checksum
  image.Reseal();
  EXPECT_EQ(version_message, Problem(image.bytes));

  image = image_;
  image.bytes[0] = 'l';
  EXPECT_NE(std::string::npos, Problem(image.bytes).find("is not a laneql table file"));
}

TEST_F(TableFileCorruption, NotTableFiles) {
  Table table;
  std::string error;
  const std::string missing = TempPath("missing.laneql");
  EXPECT_FALSE(OpenTableFile(missing, &table, &error));
  EXPECT_EQ("cannot open " + missing + ": No such file or directory", error);
  EXPECT_FALSE(OpenTableFile(::testing::TempDir(), &table, &error));
  EXPECT_NE(std::string::npos, error.find("is a directory")) << error;
  EXPECT_FALSE(OpenDamaged("", &table, &error));
  EXPECT_EQ(damaged_ + " is empty, not a laneql table file", error);
  EXPECT_FALSE(OpenDamaged("id,name\n1,x\n", &table, &error));
  EXPECT_NE(std::string::npos, error.find("is not a laneql table file")) << error;
  EXPECT_FALSE(OpenDamaged(image_.bytes.substr(0, 20), &table, &error));
  EXPECT_NE(std::string::npos, error.find("shorter than the 128-byte header")) << error;
  std::mt19937_64 rng(3);
  std::string noise(5000, '\0');
  for (char& c : noise) c = static_cast<char>(rng());
  EXPECT_FALSE(OpenDamaged(noise, &table, &error));
  EXPECT_FALSE(VerifyTableFile(missing, &error));
}

// Files whose checksums all match but whose structure is wrong (a bug in some other writer, or
// a deliberately crafted file): open or the lazy check still refuses them.
TEST_F(TableFileCorruption, BadStructureWithValidChecksums) {
  const size_t kId = 0, kUrl = 1, kFlag = 2, kBig = 3;
  auto craft = [&](auto change) {
    FileImage image = image_;
    change(image);
    image.Reseal();
    return Problem(image.bytes);
  };
  auto expect_problem = [&](const std::string& problem, const std::string& part) {
    EXPECT_NE(std::string::npos, problem.find(part)) << "want \"" << part << "\" in: " << problem;
  };
  // The lazy checks of the bytes.
  expect_problem(craft([&](FileImage& f) {
                   int32_t* offsets = reinterpret_cast<int32_t*>(f.buffer(kUrl, 1));
                   std::swap(offsets[10], offsets[40]);
                 }),
                 "column 'URL' is corrupt (string offsets decrease at row");
  expect_problem(craft([&](FileImage& f) {
                   reinterpret_cast<int64_t*>(f.buffer(kBig, 1))[130] += 1;
                 }),
                 "column 'big' is corrupt (string offsets end at");
  expect_problem(craft([&](FileImage& f) { reinterpret_cast<int32_t*>(f.buffer(kUrl, 1))[0] = 1; }),
                 "column 'URL' is corrupt (string offsets start at 1, not 0)");
  expect_problem(craft([&](FileImage& f) { f.buffer(kFlag, 0)[7] = 2; }),
                 "column 'flag' is corrupt (bool value 2 at row 7)");
  expect_problem(craft([&](FileImage& f) { f.buffer(kId, 2)[130 / 8 + 1] |= 0x80; }),
                 "column 'id' is corrupt (validity bits past the last row are set)");
  expect_problem(craft([&](FileImage& f) { f.buffer(kId, 2)[0] ^= 0x04; }),  // row 2 was null
                 "column 'id' is corrupt (the validity bitmap has 25 nulls, the directory "
                 "says 26)");
  // What open checks in the directory.
  expect_problem(craft([&](FileImage& f) {
                   ColumnEntry e = f.entry(kId);
                   e.type = 200;
                   f.set_entry(kId, e);
                 }),
                 "column 0 'id': unknown type id 200");
  expect_problem(craft([&](FileImage& f) {
                   ColumnEntry e = f.entry(kFlag);
                   e.length = 129;
                   f.set_entry(kFlag, e);
                 }),
                 "'flag': 129 rows, the table has 130");
  expect_problem(craft([&](FileImage& f) {
                   ColumnEntry e = f.entry(kId);
                   e.type = static_cast<uint64_t>(TypeId::kInt64);  // values now too short
                   f.set_entry(kId, e);
                 }),
                 "values buffer has 520 bytes, expected 1040");
  expect_problem(craft([&](FileImage& f) {
                   ColumnEntry e = f.entry(kId);
                   e.null_count = 0;  // but a bitmap is there
                   f.set_entry(kId, e);
                 }),
                 "validity buffer has 24 bytes, expected 0");
  expect_problem(craft([&](FileImage& f) {
                   ColumnEntry e = f.entry(kFlag);
                   e.buffers[0].offset = f.header().directory_offset;  // over the directory
                   f.set_entry(kFlag, e);
                 }),
                 "lies outside the data area");
  expect_problem(craft([&](FileImage& f) {
                   ColumnEntry e = f.entry(kFlag);
                   e.buffers[0].offset += 8;  // misaligned
                   f.set_entry(kFlag, e);
                 }),
                 "lies outside the data area");
  expect_problem(craft([&](FileImage& f) {
                   ColumnEntry e = f.entry(kFlag);
                   e.buffers[0].offset = UINT64_MAX - 63;  // would wrap around
                   f.set_entry(kFlag, e);
                 }),
                 "lies outside the data area");
  expect_problem(craft([&](FileImage& f) {
                   ColumnEntry e = f.entry(kId);
                   e.name_size = 1u << 20;
                   f.set_entry(kId, e);
                 }),
                 "column 0: its name lies outside the directory");
  expect_problem(craft([&](FileImage& f) {
                   ColumnEntry e = f.entry(kFlag);  // "flag" renamed to "URL"
                   const ColumnEntry url = f.entry(kUrl);
                   e.name_offset = url.name_offset;
                   e.name_size = url.name_size;
                   f.set_entry(kFlag, e);
                 }),
                 "duplicate column name");
  expect_problem(craft([&](FileImage& f) {
                   FileHeader h = f.header();
                   h.num_columns = uint64_t{1} << 60;
                   f.set_header(h);
                 }),
                 "the column directory does not fit in the file");
  expect_problem(craft([&](FileImage& f) {
                   FileHeader h = f.header();
                   h.reserved[2] = 1;
                   f.set_header(h);
                 }),
                 "reserved header fields are not zero");
}

TEST_F(TableFileCorruption, VerifyRunsOnceAndIsThreadSafe) {
  LANEQL_SKIP_WITHOUT_THREADS();
  FileImage image = image_;
  image.buffer(1, 0)[3] ^= 1;  // URL's values
  Table table;
  std::string error;
  ASSERT_TRUE(OpenDamaged(image.bytes, &table, &error)) << error;
  const Column& url = table.column(1);
  std::vector<std::string> messages(8);
  std::vector<int> results(8, -1);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] { results[t] = url.Verify(&messages[t]) ? 1 : 0; });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < 8; ++t) {
    EXPECT_EQ(0, results[t]);
    EXPECT_EQ(damaged_ + ": column 'URL' is corrupt (values checksum mismatch)", messages[t]);
  }
  // Later calls give the cached answer; the other columns are checked on their own.
  error.clear();
  EXPECT_FALSE(url.Verify(&error));
  EXPECT_EQ(messages[0], error);
  EXPECT_TRUE(table.column(0).Verify(&error)) << error;
  // Columns built in memory always pass.
  EXPECT_TRUE(Column(TypeId::kInt32).Verify(&error));
}

}  // namespace
}  // namespace laneql
