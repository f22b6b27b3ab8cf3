// ORDER BY ... LIMIT over more than 2^21 candidates takes each chunk's first rows and chooses
// among those (src/exec/order_chunks.h): the answer is the whole sort's, ties in row order, on
// one thread and several.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"

namespace laneql {
namespace {

constexpr int64_t kRows = 2'600'000;

std::vector<std::string> Column0(const Result& result) {
  std::vector<std::string> values;
  for (size_t r = 0; r < result.num_rows(); ++r) values.push_back(FormatValue(result.column(0), r, ValueStyle::kText));
  return values;
}

// The first `n` of 0..kRows-1 by key(i), ties by i.
template <class Key>
std::vector<std::string> FirstBy(size_t n, Key key) {
  std::vector<int64_t> rows(kRows);
  for (int64_t i = 0; i < kRows; ++i) rows[static_cast<size_t>(i)] = i;
  std::partial_sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(n), rows.end(),
                    [&](int64_t a, int64_t b) { return key(a) != key(b) ? key(a) < key(b) : a < b; });
  std::vector<std::string> values;
  for (size_t i = 0; i < n; ++i) values.push_back(std::to_string(rows[i]));
  return values;
}

TEST(OrderChunks, FewOfManyCandidatesAreTheWholeSortsFirst) {
  for (int threads : {1, 2}) {
    DatabaseOptions options;
    options.threads = threads;
    Database db(options);
    const std::string from = " FROM range(" + std::to_string(kRows) + ") t(i) ";
    // Ties everywhere: the first rows of each residue, in row order, across chunk bounds.
    Result r = db.Query("SELECT i" + from + "ORDER BY i % 1000 LIMIT 7");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(Column0(r), FirstBy(7, [](int64_t i) { return i % 1000; })) << threads;
    // Scattered keys, descending, with an OFFSET.
    r = db.Query("SELECT i" + from + "ORDER BY (i * 7919) % 1000003 DESC LIMIT 5 OFFSET 3");
    ASSERT_TRUE(r.ok()) << r.error();
    std::vector<std::string> want = FirstBy(8, [](int64_t i) { return -((i * 7919) % 1000003); });
    want.erase(want.begin(), want.begin() + 3);
    EXPECT_EQ(Column0(r), want) << threads;
    // A string key, NULLs last.
    r = db.Query("SELECT i" + from + "ORDER BY CASE WHEN i % 3 = 0 THEN NULL ELSE CAST(i % 977 AS VARCHAR) END LIMIT 4");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_EQ(Column0(r), FirstBy(4, [](int64_t i) {
                return i % 3 == 0 ? std::string("\xff") : std::to_string(i % 977);
              })) << threads;
  }
}

}  // namespace
}  // namespace laneql
