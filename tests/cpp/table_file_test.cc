// The .laneql table file: the checksum, round trips of every type (the opened columns are views
// of the mapping), the lazy per-column check, corruption of every kind (truncation, flipped
// bytes, hand-crafted structure with valid checksums, files that are no table files) and
// atomic writes.
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/interval.h"
#include "laneql/column.h"
#include "laneql/hits_generator.h"
#include "laneql/int128.h"
#include "laneql/table.h"
#include "laneql/table_file.h"
#include "src/storage/checksum.h"
#include "src/storage/table_file_format.h"

namespace laneql {
namespace {

using internal::Checksum64;
using internal::ColumnEntry;
using internal::FileHeader;

// The wasm test runner (node) has no real temporary directory to map files from.
#ifdef __EMSCRIPTEN__
#define SKIP_WITHOUT_FILES() GTEST_SKIP() << "file tests run natively only"
#else
#define SKIP_WITHOUT_FILES() \
  do {                       \
  } while (0)
#endif

const TypeId kAllTypes[] = {
    TypeId::kInt8,    TypeId::kInt16,   TypeId::kInt32,  TypeId::kInt64,
    TypeId::kUInt8,   TypeId::kUInt16,  TypeId::kUInt32, TypeId::kUInt64,
    TypeId::kFloat32, TypeId::kFloat64, TypeId::kDate32, TypeId::kTimestampSeconds,
    TypeId::kTimestampMicros, TypeId::kString, TypeId::kLargeString, TypeId::kInt128,
    TypeId::kBool,    TypeId::kTime,    TypeId::kInterval};
static_assert(sizeof(kAllTypes) / sizeof(kAllTypes[0]) == kNumTypeIds, "list every type");

// Names of this process's files: the pid alone is not unique where test runs in other PID
// namespaces share the temporary directory (sandboxes, containers), so a random tag joins it.
const std::string& FilePrefix() {
  static const std::string prefix = [] {
    std::random_device random;
    return "laneql_table_file_" + std::to_string(::getpid()) + "_" + std::to_string(random()) +
           "_";
  }();
  return prefix;
}

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + FilePrefix() + name;
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void WriteBytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

// Files in the temporary directory whose names start with `prefix` (temporaries left behind).
std::vector<std::string> FilesStartingWith(const std::string& directory,
                                           const std::string& prefix) {
  std::vector<std::string> found;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return found;
  while (dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.compare(0, prefix.size(), prefix) == 0) found.push_back(name);
  }
  ::closedir(dir);
  return found;
}

// ------------------------------ building and comparing columns

// Appends one non-null row of `type`, drawn from `rng` (floats include NaN, -0 and infinities;
// strings include empty and multi-byte ones).
void AppendRandom(TypeId type, std::mt19937_64& rng, Column* column) {
  const uint64_t bits = rng();
  bool ok = false;
  switch (type) {
    case TypeId::kInt8: ok = column->Append(static_cast<int8_t>(bits), nullptr); break;
    case TypeId::kInt16: ok = column->Append(static_cast<int16_t>(bits), nullptr); break;
    case TypeId::kInt32:
    case TypeId::kDate32: ok = column->Append(static_cast<int32_t>(bits), nullptr); break;
    case TypeId::kInt64:
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros:
    case TypeId::kTime: ok = column->Append(static_cast<int64_t>(bits), nullptr); break;
    case TypeId::kInterval:
      ok = column->Append(PackInterval({static_cast<int32_t>(bits), static_cast<int32_t>(bits >> 32),
                                        static_cast<int64_t>(rng())}),
                          nullptr);
      break;
    case TypeId::kUInt8: ok = column->Append(static_cast<uint8_t>(bits), nullptr); break;
    case TypeId::kUInt16: ok = column->Append(static_cast<uint16_t>(bits), nullptr); break;
    case TypeId::kUInt32: ok = column->Append(static_cast<uint32_t>(bits), nullptr); break;
    case TypeId::kUInt64: ok = column->Append(bits, nullptr); break;
    case TypeId::kFloat32: {
      const float specials[] = {std::numeric_limits<float>::quiet_NaN(), -0.0f,
                                std::numeric_limits<float>::infinity(),
                                -std::numeric_limits<float>::infinity(),
                                std::numeric_limits<float>::denorm_min()};
      const float value = bits % 3 == 0 ? specials[(bits >> 8) % 5]
                                        : static_cast<float>(static_cast<int32_t>(bits)) / 7.0f;
      ok = column->Append(value, nullptr);
      break;
    }
    case TypeId::kFloat64: {
      const double specials[] = {std::numeric_limits<double>::quiet_NaN(), -0.0,
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(), 1e-310};
      const double value = bits % 3 == 0 ? specials[(bits >> 8) % 5]
                                         : static_cast<double>(static_cast<int64_t>(bits)) / 3.0;
      ok = column->Append(value, nullptr);
      break;
    }
    case TypeId::kString:
    case TypeId::kLargeString: {
      static const char* const kWords[] = {"", "a", "Ärger", "москва", "https://example.org/"};
      std::string value;
      for (uint64_t n = bits % 4; n > 0; --n) value += kWords[(bits >> (8 * n)) % 5];
      ok = column->AppendString(value, nullptr);
      break;
    }
    case TypeId::kInt128: {
      const Int128 value = static_cast<Int128>(static_cast<int64_t>(rng())) * (Int128{1} << 64) +
                           static_cast<Int128>(bits);
      ok = column->Append(value, nullptr);
      break;
    }
    case TypeId::kBool: ok = column->Append(static_cast<bool>(bits & 1), nullptr); break;
  }
  ASSERT_TRUE(ok) << TypeName(type);
}

Column MakeColumn(TypeId type, size_t rows, bool with_nulls, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Column column(type);
  for (size_t r = 0; r < rows; ++r) {
    if (with_nulls && r % 5 == 2) {
      EXPECT_TRUE(column.AppendNull(nullptr));
    } else {
      AppendRandom(type, rng, &column);
    }
  }
  return column;
}

// One column of every type, called by the type's name.
Table MakeEveryTypeTable(size_t rows, bool with_nulls) {
  Table table;
  uint64_t seed = rows * 31 + (with_nulls ? 1 : 0);
  for (TypeId type : kAllTypes) {
    EXPECT_TRUE(table.AddColumn(TypeName(type), MakeColumn(type, rows, with_nulls, ++seed),
                                nullptr));
  }
  return table;
}

bool SameBytes(const void* a, const void* b, size_t size) {
  return size == 0 || std::memcmp(a, b, size) == 0;
}

// The columns hold the same rows byte for byte (buffers compared over the sizes that hold data).
void ExpectSameColumn(const Column& want, const Column& got, const std::string& name) {
  SCOPED_TRACE(name);
  ASSERT_EQ(want.type(), got.type());
  ASSERT_EQ(want.length(), got.length());
  EXPECT_EQ(want.null_count(), got.null_count());
  ASSERT_EQ(want.values_buffer().size(), got.values_buffer().size());
  EXPECT_TRUE(SameBytes(want.values_buffer().data(), got.values_buffer().data(),
                        want.values_buffer().size()));
  if (IsString(want.type())) {
    const size_t bytes = (want.length() + 1) * OffsetByteWidth(want.type());
    const void* a = want.type() == TypeId::kString ? static_cast<const void*>(want.Offsets32())
                                                   : static_cast<const void*>(want.Offsets64());
    const void* b = got.type() == TypeId::kString ? static_cast<const void*>(got.Offsets32())
                                                  : static_cast<const void*>(got.Offsets64());
    EXPECT_TRUE(SameBytes(a, b, bytes));
  }
  ASSERT_EQ(want.validity() == nullptr, got.validity() == nullptr);
  if (want.validity() != nullptr) {
    EXPECT_TRUE(SameBytes(want.validity(), got.validity(),
                          BitmaskWords(want.length()) * sizeof(uint64_t)));
  }
}

void ExpectSameTable(const Table& want, const Table& got) {
  ASSERT_EQ(want.num_columns(), got.num_columns());
  ASSERT_EQ(want.num_rows(), got.num_rows());
  for (size_t c = 0; c < want.num_columns(); ++c) {
    EXPECT_EQ(want.column_name(c), got.column_name(c));
    ExpectSameColumn(want.column(c), got.column(c), want.column_name(c));
  }
}

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
