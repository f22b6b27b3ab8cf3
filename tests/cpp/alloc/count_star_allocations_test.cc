// SELECT count(*) without WHERE is answered from the table's row count, without work per
// column (the seed lesson: count(*) on a 105-column table). Checked by counting allocations
// through a replaced global operator new, which is why this test is a program of its own: the
// replacement must not change how every other test allocates (or what ASan checks there).
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/database.h"
#include "laneql/result.h"

namespace laneql {
namespace {

size_t g_allocations = 0;

}  // namespace
}  // namespace laneql

// Every unaligned form, so that new and delete always pair malloc with free.
void* operator new(size_t size) {
  ++laneql::g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t size) { return operator new(size); }
void* operator new(size_t size, const std::nothrow_t&) noexcept {
  ++laneql::g_allocations;
  return std::malloc(size == 0 ? 1 : size);
}
void* operator new[](size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace laneql {
namespace {

Column Ints(const std::vector<int64_t>& values) {
  Column column(TypeId::kInt64);
  std::string error;
  for (int64_t v : values) EXPECT_TRUE(column.Append<int64_t>(v, &error)) << error;
  return column;
}

size_t AllocationsForCountStar(size_t columns) {
  Table table;
  std::string error;
  for (size_t c = 0; c < columns; ++c) {
    EXPECT_TRUE(table.AddColumn("c" + std::to_string(c), Ints({1, 2, 3}), &error));
  }
  Database db;
  EXPECT_TRUE(db.Register("w", std::move(table), &error));
  db.Query("SELECT count(*) FROM w");  // warm-up
  const size_t before = g_allocations;
  Result r = db.Query("SELECT count(*) FROM w");
  const size_t used = g_allocations - before;
  EXPECT_TRUE(r.ok()) << r.error();
  if (r.ok()) {
    EXPECT_EQ(FormatValue(r.column(0), 0, ValueStyle::kText), "3");
  }
  return used;
}

TEST(SqlEngineLightweight, CountStarCostDoesNotGrowWithColumns) {
  const size_t narrow = AllocationsForCountStar(1);
  const size_t wide = AllocationsForCountStar(2000);
  EXPECT_EQ(narrow, wide);
  EXPECT_LT(wide, 100u);
}

}  // namespace
}  // namespace laneql
