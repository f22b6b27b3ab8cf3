// VecsToColumn (src/exec/parallel_project.h): a column written from parts on several threads
// holds what one VecToColumn of the same rows holds, for fixed-width and string parts, borrowed
// slices whose offsets do not start at 0, constants, NULLs and parts without any.
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/result_printers.h"
#include "src/exec/parallel_project.h"
#include "src/exec/thread_pool.h"

namespace laneql::exec {
namespace {

// A string Vec of `rows`, borrowing a column's bytes from row `from` (offsets not at 0), with
// every `null_every`-th row NULL (0: no bitmap at all).
struct StringPart {
  Column column{TypeId::kString};
  Vec vec;
};

void FillStrings(size_t from, size_t rows, size_t null_every, std::mt19937* rng, StringPart* part) {
  std::string error;
  for (size_t r = 0; r < from + rows; ++r) {
    const bool null = null_every != 0 && r >= from && (r - from) % null_every == 0;
    ASSERT_TRUE(null ? part->column.AppendNull(&error)
                     : part->column.AppendString(std::string((*rng)() % 9, static_cast<char>('a' + r % 26)), &error))
        << error;
  }
  Vec& vec = part->vec;
  vec.type = TypeId::kString;
  vec.count = rows;
  vec.values = part->column.StringData();
  vec.offsets = part->column.Offsets32() + from;
  if (null_every != 0) {
    ASSERT_TRUE(vec.own_validity.Resize(BitmaskWords(rows) * 8, &error)) << error;
    uint64_t* bits = vec.own_validity.As<uint64_t>();
    for (size_t i = 0; i < rows; ++i) {
      if (part->column.IsValid(from + i)) BitmaskSet(bits, i);
    }
    vec.validity = bits;
  }
}

// The same rows as one VecToColumn per part, appended one after another.
std::vector<std::string> ExpectedRows(const std::vector<Vec>& parts) {
  std::vector<std::string> rows;
  for (const Vec& part : parts) {
    Column one;
    std::string error;
    EXPECT_TRUE(VecToColumn(part, &one, &error)) << error;
    for (size_t r = 0; r < one.length(); ++r) rows.push_back(FormatValue(one, r, ValueStyle::kText));
  }
  return rows;
}

void ExpectColumnRows(const Column& column, const std::vector<std::string>& expected, bool expect_bitmap) {
  ASSERT_EQ(column.length(), expected.size());
  for (size_t r = 0; r < expected.size(); ++r) {
    ASSERT_EQ(FormatValue(column, r, ValueStyle::kText), expected[r]) << "row " << r;
  }
  EXPECT_EQ(column.validity() != nullptr, expect_bitmap);
}

TEST(VecsToColumn, StringPartsOnEveryThreadCount) {
  std::mt19937 rng(3);
  // Parts of 64-row multiples, the last one ragged; NULLs in some, a constant among them.
  std::vector<StringPart> owned(4);
  FillStrings(7, 128, 0, &rng, &owned[0]);
  FillStrings(0, 640, 5, &rng, &owned[1]);
  FillStrings(100, 64, 0, &rng, &owned[2]);
  FillStrings(3, 77, 2, &rng, &owned[3]);
  std::vector<Vec> parts;
  for (StringPart& p : owned) {
    Vec v;
    v.type = p.vec.type;
    v.count = p.vec.count;
    v.values = p.vec.values;
    v.offsets = p.vec.offsets;
    v.validity = p.vec.validity;
    parts.push_back(std::move(v));
  }
  static const int32_t kConstantOffsets[] = {0, 3};
  Vec constant;
  constant.type = TypeId::kString;
  constant.constant = true;
  constant.count = 192;
  constant.values = reinterpret_cast<const uint8_t*>("xyz");
  constant.offsets = kConstantOffsets;
  parts.insert(parts.begin() + 2, std::move(constant));
  const std::vector<std::string> expected = ExpectedRows(parts);
  for (int threads : {1, 2, 5}) {
    ThreadPool pool(threads);
    ExecContext ctx;
    ctx.pool = &pool;
    ctx.threads = threads;
    Column column;
    std::string error;
    ASSERT_TRUE(VecsToColumn(parts, TypeId::kString, ctx, threads, &column, &error)) << error;
    ExpectColumnRows(column, expected, true);
    EXPECT_EQ(column.null_count(), 128u + 39u) << threads << " threads";
  }
}

TEST(VecsToColumn, FixedPartsWithAndWithoutNulls) {
  std::string error;
  std::vector<std::vector<int64_t>> values = {std::vector<int64_t>(256), std::vector<int64_t>(64), std::vector<int64_t>(3)};
  for (size_t p = 0; p < values.size(); ++p) {
    for (size_t i = 0; i < values[p].size(); ++i) values[p][i] = static_cast<int64_t>(p * 1000 + i) - 500;
  }
  std::vector<Vec> parts(values.size());
  for (size_t p = 0; p < values.size(); ++p) {
    parts[p].type = TypeId::kInt64;
    parts[p].count = values[p].size();
    parts[p].values = reinterpret_cast<const uint8_t*>(values[p].data());
  }
  ThreadPool pool(3);
  ExecContext ctx;
  ctx.pool = &pool;
  ctx.threads = 3;
  Column plain;
  ASSERT_TRUE(VecsToColumn(parts, TypeId::kInt64, ctx, 3, &plain, &error)) << error;
  ExpectColumnRows(plain, ExpectedRows(parts), false);
  // A NULL in the middle part only: the others' rows get their bits set. A NULL constant too.
  uint64_t middle_bits[2] = {~uint64_t{0} & ~(uint64_t{1} << 17), 0};
  parts[1].validity = middle_bits;
  Vec null_constant;
  null_constant.type = TypeId::kInt64;
  null_constant.constant = true;
  null_constant.count = 64;
  static const int64_t kZero = 0;
  static const uint64_t kNoBits = 0;
  null_constant.values = reinterpret_cast<const uint8_t*>(&kZero);
  null_constant.validity = &kNoBits;
  parts.insert(parts.begin() + 1, std::move(null_constant));
  Column with_nulls;
  ASSERT_TRUE(VecsToColumn(parts, TypeId::kInt64, ctx, 3, &with_nulls, &error)) << error;
  ExpectColumnRows(with_nulls, ExpectedRows(parts), true);
  EXPECT_EQ(with_nulls.null_count(), 65u);
  // A part before the last that is not a multiple of 64 rows is refused, not written across.
  parts[0].count = 100;
  Column refused;
  EXPECT_FALSE(VecsToColumn(parts, TypeId::kInt64, ctx, 3, &refused, &error));
}

}  // namespace
}  // namespace laneql::exec
