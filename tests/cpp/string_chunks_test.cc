// RebaseLargeOffsets (src/exec/string_chunks.h): a large_string range read as int32 offsets,
// up to and not past INT32_MAX bytes.
#include "src/exec/string_chunks.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace laneql {
namespace exec {
namespace {

TEST(StringChunks, RebasesToTheRangesFirstByte) {
  const std::vector<int64_t> offsets = {int64_t{5} << 32, (int64_t{5} << 32) + 3, (int64_t{5} << 32) + 3,
                                        (int64_t{5} << 32) + 10};
  std::vector<int32_t> out(4, -1);
  ASSERT_TRUE(RebaseLargeOffsets(offsets.data() + 1, 2, out.data()));
  EXPECT_EQ(out, (std::vector<int32_t>{0, 0, 7, -1}));
  ASSERT_TRUE(RebaseLargeOffsets(offsets.data(), 0, out.data()));
  EXPECT_EQ(out[0], 0);
}

TEST(StringChunks, RefusesARangeOfMoreThanInt32MaxBytes) {
  const int64_t base = int64_t{3} << 31;
  std::vector<int32_t> out(3, -1);
  const std::vector<int64_t> fits = {base, base + 1, base + INT32_MAX};
  ASSERT_TRUE(RebaseLargeOffsets(fits.data(), 2, out.data()));
  EXPECT_EQ(out, (std::vector<int32_t>{0, 1, INT32_MAX}));
  const std::vector<int64_t> over = {base, base + 1, base + int64_t{INT32_MAX} + 1};
  std::vector<int32_t> untouched(3, -1);
  EXPECT_FALSE(RebaseLargeOffsets(over.data(), 2, untouched.data()));
  EXPECT_EQ(untouched, (std::vector<int32_t>(3, -1)));
}

}  // namespace
}  // namespace exec
}  // namespace laneql
