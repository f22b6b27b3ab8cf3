// The window machinery against naive references on random data: frame bounds, EXCLUDE's split
// of a frame, the segment tree (a non-commutative fold, every range), the RANGE search, and
// whole window calls (ranking, framed sums and min over partitions; GROUPS frames with EXCLUDE,
// DISTINCT and IGNORE NULLS), whose results must be the same bits on 1, 2 and 4 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "laneql/column.h"
#include "src/exec/exec_context.h"
#include "src/exec/thread_pool.h"
#include "src/exec/window_frames.h"
#include "src/exec/window_functions.h"

namespace laneql {
namespace {

using exec::FrameBoundKind;

TEST(WindowFrames, RowsBoundsMatchTheDefinition) {
  const FrameBoundKind kinds[] = {FrameBoundKind::kUnboundedPreceding, FrameBoundKind::kPreceding,
                                  FrameBoundKind::kCurrentRow, FrameBoundKind::kFollowing,
                                  FrameBoundKind::kUnboundedFollowing};
  for (size_t n = 1; n < 9; ++n) {
    for (size_t i = 0; i < n; ++i) {
      for (uint64_t offset : {0u, 1u, 2u, 7u, 100u}) {
        for (FrameBoundKind kind : kinds) {
          // The bound as a signed row number, then clamped: begin is that row, end one past it.
          int64_t row = 0;
          switch (kind) {
            case FrameBoundKind::kUnboundedPreceding: row = -1000; break;
            case FrameBoundKind::kPreceding: row = static_cast<int64_t>(i) - static_cast<int64_t>(offset); break;
            case FrameBoundKind::kCurrentRow: row = static_cast<int64_t>(i); break;
            case FrameBoundKind::kFollowing: row = static_cast<int64_t>(i + offset); break;
            case FrameBoundKind::kUnboundedFollowing: row = 1000; break;
          }
          const auto clamp = [n](int64_t v) { return static_cast<size_t>(std::min<int64_t>(std::max<int64_t>(v, 0), n)); };
          const int64_t begin_row = kind == FrameBoundKind::kUnboundedFollowing ? static_cast<int64_t>(n) : row;
          const int64_t end_row = kind == FrameBoundKind::kUnboundedPreceding ? -1 : row;
          EXPECT_EQ(exec::RowsFrameBegin(kind, offset, i, n), clamp(begin_row)) << n << " " << i << " " << offset;
          EXPECT_EQ(exec::RowsFrameEnd(kind, offset, i, n), clamp(end_row + 1)) << n << " " << i << " " << offset;
        }
      }
    }
  }
}

TEST(WindowFrames, SegmentTreeFoldsEveryRangeInOrder) {
  std::mt19937 rng(7);
  for (size_t n = 0; n < 40; ++n) {
    std::vector<std::string> leaves(n);
    for (size_t i = 0; i < n; ++i) leaves[i] = std::string(1, static_cast<char>('a' + rng() % 26));
    // Concatenation is associative and not commutative: any fold out of order shows.
    const auto tree = exec::MakeSegmentTree(leaves, std::string(), [](const std::string& a, const std::string& b) { return a + b; });
    for (size_t b = 0; b <= n; ++b) {
      for (size_t e = b; e <= n; ++e) {
        std::string expected;
        for (size_t i = b; i < e; ++i) expected += leaves[i];
        ASSERT_EQ(tree.Fold(b, e), expected) << n << " [" << b << ", " << e << ")";
      }
    }
  }
}

TEST(WindowFrames, RangeSearchFindsTheOffsetBounds) {
  std::mt19937 rng(11);
  for (int round = 0; round < 200; ++round) {
    const size_t n = rng() % 30;
    std::vector<long double> keys(n);
    for (long double& k : keys) k = static_cast<long double>(rng() % 20);
    const bool descending = rng() % 2 == 0;
    std::sort(keys.begin(), keys.end());
    if (descending) std::reverse(keys.begin(), keys.end());
    const long double bound = static_cast<long double>(static_cast<int>(rng() % 24) - 2);
    for (bool upper : {false, true}) {
      // Ascending: the first key >= bound (> for upper); descending: the first <= (<).
      size_t expected = 0;
      while (expected < n && (descending ? (upper ? keys[expected] >= bound : keys[expected] > bound)
                                         : (upper ? keys[expected] <= bound : keys[expected] < bound))) {
        ++expected;
      }
      EXPECT_EQ(exec::RangeSearch(keys, 5, descending, bound, upper), 5 + expected);
    }
  }
}

TEST(WindowFrames, ExcludeLeavesTheFrameLessTheNamedRows) {
  using sql::FrameExclude;
  for (uint32_t n = 1; n < 8; ++n) {
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t pb = 0; pb <= i; ++pb) {
        for (uint32_t pe = i + 1; pe <= n; ++pe) {
          for (uint32_t b = 0; b <= n; ++b) {
            for (uint32_t e = b; e <= n; ++e) {
              for (FrameExclude exclude : {FrameExclude::kNone, FrameExclude::kCurrentRow, FrameExclude::kGroup,
                                           FrameExclude::kTies}) {
                std::vector<uint32_t> expected;
                for (uint32_t p = b; p < e; ++p) {
                  const bool peer = p >= pb && p < pe;
                  const bool out = (exclude == FrameExclude::kCurrentRow && p == i) ||
                                   (exclude == FrameExclude::kGroup && peer) ||
                                   (exclude == FrameExclude::kTies && peer && p != i);
                  if (!out) expected.push_back(p);
                }
                const exec::FrameSegments segments = exec::SplitFrame(exclude, i, b, e, pb, pe);
                std::vector<uint32_t> got;
                for (int k = 0; k < segments.count; ++k) {
                  ASSERT_LT(segments.begin[k], segments.end[k]);  // no empty range
                  for (uint32_t p = segments.begin[k]; p < segments.end[k]; ++p) got.push_back(p);
                }
                ASSERT_EQ(got, expected) << n << " " << i << " [" << b << ", " << e << ") peers [" << pb << ", " << pe
                                         << ") exclude " << static_cast<int>(exclude);
              }
            }
          }
        }
      }
    }
  }
}

// Random rows: a partition key with many small partitions, an order key with ties and NULLs,
// integer and float values with NULLs.
struct Rows {
  Column part, key, ints, reals;
  size_t n = 0;
};

Rows MakeRows(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int32_t> part(n), key(n), ints(n);
  std::vector<double> reals(n);
  std::vector<uint64_t> key_valid((n + 63) / 64, 0), value_valid((n + 63) / 64, 0);
  for (size_t r = 0; r < n; ++r) {
    part[r] = static_cast<int32_t>(rng() % 997);
    key[r] = static_cast<int32_t>(rng() % 50);
    ints[r] = static_cast<int32_t>(rng() % 2001) - 1000;
    reals[r] = std::ldexp(static_cast<double>(rng() % 100000), -static_cast<int>(rng() % 30));
    if (rng() % 10 != 0) key_valid[r / 64] |= uint64_t{1} << (r % 64);
    if (rng() % 7 != 0) value_valid[r / 64] |= uint64_t{1} << (r % 64);
  }
  Rows rows;
  rows.n = n;
  std::string error;
  EXPECT_TRUE(Column::FromFixed(TypeId::kInt32, part.data(), n, nullptr, &rows.part, &error));
  EXPECT_TRUE(Column::FromFixed(TypeId::kInt32, key.data(), n, key_valid.data(), &rows.key, &error));
  EXPECT_TRUE(Column::FromFixed(TypeId::kInt32, ints.data(), n, value_valid.data(), &rows.ints, &error));
  EXPECT_TRUE(Column::FromFixed(TypeId::kFloat64, reals.data(), n, value_valid.data(), &rows.reals, &error));
  return rows;
}

Column RunWindow(const exec::WindowCall& call, size_t n, int threads) {
  exec::ThreadPool pool(threads);
  exec::ExecContext ctx;
  ctx.pool = &pool;
  ctx.threads = threads;
  Column out;
  std::string error;
  EXPECT_TRUE(exec::ComputeWindow(call, n, ctx, &out, &error)) << error;
  return out;
}

bool SameBits(const Column& a, const Column& b) {
  if (a.length() != b.length() || a.type() != b.type()) return false;
  const size_t width = TypeByteWidth(a.type());
  for (size_t r = 0; r < a.length(); ++r) {
    if (a.IsValid(r) != b.IsValid(r)) return false;
    if (a.IsValid(r) && std::memcmp(a.values_buffer().data() + r * width, b.values_buffer().data() + r * width, width) != 0) {
      return false;
    }
  }
  return true;
}

// The naive answer: for each row, its partition's rows in (key NULLS LAST, row) order, the
// frame ROWS BETWEEN 3 PRECEDING AND 2 FOLLOWING, its integer sum (or NULL) and its row number.
void Naive(const Rows& rows, std::vector<int64_t>* row_number, std::vector<int64_t>* sum, std::vector<bool>* sum_valid) {
  const int32_t* part = rows.part.Values<int32_t>();
  const int32_t* key = rows.key.Values<int32_t>();
  const int32_t* ints = rows.ints.Values<int32_t>();
  std::vector<std::vector<uint32_t>> partitions(997);
  for (size_t r = 0; r < rows.n; ++r) partitions[static_cast<size_t>(part[r])].push_back(static_cast<uint32_t>(r));
  row_number->assign(rows.n, 0);
  sum->assign(rows.n, 0);
  sum_valid->assign(rows.n, false);
  for (std::vector<uint32_t>& p : partitions) {
    std::stable_sort(p.begin(), p.end(), [&](uint32_t a, uint32_t b) {
      const bool an = !rows.key.IsValid(a), bn = !rows.key.IsValid(b);
      if (an || bn) return !an && bn;
      return key[a] < key[b];
    });
    for (size_t i = 0; i < p.size(); ++i) {
      (*row_number)[p[i]] = static_cast<int64_t>(i + 1);
      const size_t b = i >= 3 ? i - 3 : 0, e = std::min(p.size(), i + 3);
      for (size_t j = b; j < e; ++j) {
        if (rows.ints.IsValid(p[j])) {
          (*sum)[p[i]] += ints[p[j]];
          (*sum_valid)[p[i]] = true;
        }
      }
    }
  }
}

TEST(WindowFunctions, MatchTheNaiveAnswerOnEveryThreadCount) {
  for (size_t n : {size_t{0}, size_t{1}, size_t{1000}, size_t{150000}}) {
    const Rows rows = MakeRows(n, static_cast<uint32_t>(n + 3));
    exec::WindowCall call;
    call.partition = {&rows.part};
    call.order = {&rows.key};
    call.descending = {false};
    call.nulls_first = {false};
    std::vector<int64_t> row_number, sum;
    std::vector<bool> sum_valid;
    Naive(rows, &row_number, &sum, &sum_valid);

    call.fn = exec::WindowFn::kRowNumber;
    call.result_type = TypeId::kInt64;
    const Column numbers = RunWindow(call, n, 1);
    for (size_t r = 0; r < n; ++r) ASSERT_EQ(numbers.Values<int64_t>()[r], row_number[r]) << r;

    call.fn = exec::WindowFn::kSum;
    call.result_type = TypeId::kInt128;
    call.args = {&rows.ints};
    call.unit = sql::FrameUnit::kRows;
    call.start = FrameBoundKind::kPreceding;
    call.end = FrameBoundKind::kFollowing;
    std::vector<int64_t> three(n, 3), two(n, 2);
    Column start_offset, end_offset;
    std::string error;
    ASSERT_TRUE(Column::FromFixed(TypeId::kInt64, three.data(), n, nullptr, &start_offset, &error));
    ASSERT_TRUE(Column::FromFixed(TypeId::kInt64, two.data(), n, nullptr, &end_offset, &error));
    call.start_offset = &start_offset;
    call.end_offset = &end_offset;
    const Column sums = RunWindow(call, n, 1);
    for (size_t r = 0; r < n; ++r) {
      ASSERT_EQ(sums.IsValid(r), sum_valid[r]) << r;
      if (sum_valid[r]) {
        ASSERT_EQ(static_cast<int64_t>(sums.Values<Int128>()[r]), sum[r]) << r;
      }
    }
    // Float sums and min: the same bits on every thread count.
    for (exec::WindowFn fn : {exec::WindowFn::kSum, exec::WindowFn::kMin, exec::WindowFn::kAvg}) {
      call.fn = fn;
      call.args = {&rows.reals};
      call.result_type = TypeId::kFloat64;
      const Column one = RunWindow(call, n, 1);
      for (int threads : {2, 4}) {
        EXPECT_TRUE(SameBits(one, RunWindow(call, n, threads))) << n << " threads " << threads;
      }
    }
  }
}

// GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE TIES over (key NULLS LAST, row) in each
// partition: count(DISTINCT ints), sum(DISTINCT reals) (the distinct values added in the order
// of their first rows) and last_value(ints IGNORE NULLS) against a naive reading of every
// frame, on 1, 2 and 4 threads.
TEST(WindowFunctions, GroupsExcludeDistinctAndIgnoreNullsMatchTheNaiveAnswer) {
  for (size_t n : {size_t{0}, size_t{1000}, size_t{150000}}) {
    const Rows rows = MakeRows(n, static_cast<uint32_t>(n + 21));
    const int32_t* part = rows.part.Values<int32_t>();
    const int32_t* key = rows.key.Values<int32_t>();
    const int32_t* ints = rows.ints.Values<int32_t>();
    const double* reals = rows.reals.Values<double>();
    std::vector<std::vector<uint32_t>> partitions(997);
    for (size_t r = 0; r < n; ++r) partitions[static_cast<size_t>(part[r])].push_back(static_cast<uint32_t>(r));
    std::vector<int64_t> counts(n, 0);
    std::vector<double> sums(n, 0);
    std::vector<bool> sum_valid(n, false), last_valid(n, false);
    std::vector<int32_t> lasts(n, 0);
    const auto same_key = [&](uint32_t a, uint32_t b) {
      return rows.key.IsValid(a) == rows.key.IsValid(b) && (!rows.key.IsValid(a) || key[a] == key[b]);
    };
    for (std::vector<uint32_t>& p : partitions) {
      std::stable_sort(p.begin(), p.end(), [&](uint32_t a, uint32_t b) {
        const bool an = !rows.key.IsValid(a), bn = !rows.key.IsValid(b);
        if (an || bn) return !an && bn;
        return key[a] < key[b];
      });
      std::vector<size_t> group(p.size()), group_start;
      for (size_t i = 0; i < p.size(); ++i) {
        if (i == 0 || !same_key(p[i - 1], p[i])) group_start.push_back(i);
        group[i] = group_start.size() - 1;
      }
      group_start.push_back(p.size());
      for (size_t i = 0; i < p.size(); ++i) {
        const size_t g = group[i];
        const size_t b = group_start[g > 0 ? g - 1 : 0];
        const size_t e = group_start[std::min(g + 2, group_start.size() - 1)];
        std::vector<int32_t> seen_ints;
        std::vector<double> seen_reals;
        for (size_t j = b; j < e; ++j) {
          if (j != i && group[j] == g) continue;  // a tie of row i
          const uint32_t r = p[j];
          if (!rows.ints.IsValid(r)) continue;  // ints and reals share their validity
          if (std::find(seen_ints.begin(), seen_ints.end(), ints[r]) == seen_ints.end()) seen_ints.push_back(ints[r]);
          if (std::find(seen_reals.begin(), seen_reals.end(), reals[r]) == seen_reals.end()) {
            seen_reals.push_back(reals[r]);
            sums[p[i]] += reals[r];
          }
          sum_valid[p[i]] = true;
          last_valid[p[i]] = true;
          lasts[p[i]] = ints[r];
        }
        counts[p[i]] = static_cast<int64_t>(seen_ints.size());
      }
    }
    exec::WindowCall call;
    call.partition = {&rows.part};
    call.order = {&rows.key};
    call.descending = {false};
    call.nulls_first = {false};
    call.unit = sql::FrameUnit::kGroups;
    call.start = FrameBoundKind::kPreceding;
    call.end = FrameBoundKind::kFollowing;
    call.exclude = sql::FrameExclude::kTies;
    std::vector<int64_t> one(n, 1);
    Column offsets;
    std::string error;
    ASSERT_TRUE(Column::FromFixed(TypeId::kInt64, one.data(), n, nullptr, &offsets, &error));
    call.start_offset = &offsets;
    call.end_offset = &offsets;
    for (int threads : {1, 2, 4}) {
      call.distinct = true;
      call.ignore_nulls = false;
      call.fn = exec::WindowFn::kCount;
      call.result_type = TypeId::kInt64;
      call.args = {&rows.ints};
      const Column count = RunWindow(call, n, threads);
      call.fn = exec::WindowFn::kSum;
      call.result_type = TypeId::kFloat64;
      call.args = {&rows.reals};
      const Column sum = RunWindow(call, n, threads);
      call.distinct = false;
      call.ignore_nulls = true;
      call.fn = exec::WindowFn::kLastValue;
      call.result_type = TypeId::kInt32;
      call.args = {&rows.ints};
      const Column last = RunWindow(call, n, threads);
      for (size_t r = 0; r < n; ++r) {
        ASSERT_EQ(count.Values<int64_t>()[r], counts[r]) << r << " threads " << threads;
        ASSERT_EQ(sum.IsValid(r), sum_valid[r]) << r << " threads " << threads;
        if (sum_valid[r]) {
          ASSERT_EQ(std::memcmp(&sum.Values<double>()[r], &sums[r], sizeof(double)), 0) << r << " threads " << threads;
        }
        ASSERT_EQ(last.IsValid(r), last_valid[r]) << r << " threads " << threads;
        if (last_valid[r]) {
          ASSERT_EQ(last.Values<int32_t>()[r], lasts[r]) << r << " threads " << threads;
        }
      }
    }
  }
}

// row_number() under QUALIFY row_number() <= keep (WindowCall::top_rows): the first `keep` of
// each partition numbered as a full sort numbers them, the rest above keep, on every thread
// count and across many morsels of rows (with many partitions per row the full sort runs).
TEST(WindowFunctions, TopRowNumbersMatchTheNaiveAnswer) {
  for (size_t n : {size_t{1000}, size_t{150000}}) {
    const Rows rows = MakeRows(n, static_cast<uint32_t>(n + 11));
    std::vector<int64_t> row_number, sum;
    std::vector<bool> sum_valid;
    Naive(rows, &row_number, &sum, &sum_valid);
    exec::WindowCall call;
    call.partition = {&rows.part};
    call.order = {&rows.key};
    call.descending = {false};
    call.nulls_first = {false};
    for (size_t keep : {size_t{1}, size_t{3}}) {
      call.top_rows = keep;
      for (int threads : {1, 2, 4}) {
        const Column numbers = RunWindow(call, n, threads);
        for (size_t r = 0; r < n; ++r) {
          const int64_t got = numbers.Values<int64_t>()[r];
          if (row_number[r] <= static_cast<int64_t>(keep)) {
            ASSERT_EQ(got, row_number[r]) << "row " << r << " keep " << keep << " threads " << threads;
          } else {
            ASSERT_GT(got, static_cast<int64_t>(keep)) << "row " << r << " keep " << keep << " threads " << threads;
          }
        }
      }
    }
  }
}

// Partitions by a string and a float key: NULLs one partition, -0 with +0, every NaN one; the
// rows of each numbered in row order (no ORDER BY), on every thread count.
TEST(WindowFunctions, PartitionsByStringAndFloatKeys) {
  const size_t n = 200000;
  std::mt19937 rng(5);
  const double reals[] = {0.0, -0.0, std::nan(""), -std::nan(""), 1.5, -2.25};
  const char* words[] = {"", "a", "ab", "b\xc3\xa9", "ba"};
  std::vector<double> floats(n);
  std::vector<int32_t> offsets{0};
  std::string bytes;
  std::vector<uint64_t> float_valid((n + 63) / 64, 0), text_valid((n + 63) / 64, 0);
  std::vector<std::string> text(n);
  for (size_t r = 0; r < n; ++r) {
    floats[r] = reals[rng() % 6];
    text[r] = words[rng() % 5];
    if (rng() % 9 != 0) float_valid[r / 64] |= uint64_t{1} << (r % 64);
    if (rng() % 8 != 0) text_valid[r / 64] |= uint64_t{1} << (r % 64);
    bytes += text[r];
    offsets.push_back(static_cast<int32_t>(bytes.size()));
  }
  Column float_key, text_key;
  std::string error;
  ASSERT_TRUE(Column::FromFixed(TypeId::kFloat64, floats.data(), n, float_valid.data(), &float_key, &error));
  ASSERT_TRUE(Column::FromStrings(offsets.data(), reinterpret_cast<const uint8_t*>(bytes.data()), n,
                                  text_valid.data(), &text_key, &error));
  // The naive numbering: a count per canonical (text, float) key.
  std::map<std::pair<std::string, std::string>, int64_t> seen;
  std::vector<int64_t> expected(n);
  for (size_t r = 0; r < n; ++r) {
    const std::string t = float_key.IsValid(r) ? (std::isnan(floats[r]) ? "nan" : std::to_string(floats[r] == 0 ? 0.0 : floats[r])) : "null";
    const std::string s = text_key.IsValid(r) ? "v" + text[r] : "null";
    expected[r] = ++seen[{s, t}];
  }
  exec::WindowCall call;
  call.fn = exec::WindowFn::kRowNumber;
  call.result_type = TypeId::kInt64;
  call.partition = {&text_key, &float_key};
  for (int threads : {1, 2, 4}) {
    const Column numbers = RunWindow(call, n, threads);
    for (size_t r = 0; r < n; ++r) {
      ASSERT_EQ(numbers.Values<int64_t>()[r], expected[r]) << r << " threads " << threads;
    }
  }
}

// Partitions by one integer key: a small span (a direct table, NULL its own slot) and a span
// past it (INT64_MIN .. INT64_MAX: the hash table), numbered in row order on every thread count.
TEST(WindowFunctions, PartitionsByIntegerKeysOfAnySpan) {
  const size_t n = 150000;
  for (const bool wide : {false, true}) {
    std::mt19937 rng(wide ? 9 : 8);
    std::vector<int64_t> keys(n);
    std::vector<uint64_t> valid((n + 63) / 64, 0);
    for (size_t r = 0; r < n; ++r) {
      const int64_t small = static_cast<int64_t>(rng() % 50) - 25;
      keys[r] = wide && small == 3 ? INT64_MIN : wide && small == 4 ? INT64_MAX : small;
      if (rng() % 6 != 0) valid[r / 64] |= uint64_t{1} << (r % 64);
    }
    Column key;
    std::string error;
    ASSERT_TRUE(Column::FromFixed(TypeId::kInt64, keys.data(), n, valid.data(), &key, &error));
    std::map<std::pair<bool, int64_t>, int64_t> seen;
    std::vector<int64_t> expected(n);
    for (size_t r = 0; r < n; ++r) expected[r] = ++seen[{key.IsValid(r), key.IsValid(r) ? keys[r] : 0}];
    exec::WindowCall call;
    call.fn = exec::WindowFn::kRowNumber;
    call.result_type = TypeId::kInt64;
    call.partition = {&key};
    for (int threads : {1, 2, 4}) {
      const Column numbers = RunWindow(call, n, threads);
      for (size_t r = 0; r < n; ++r) {
        ASSERT_EQ(numbers.Values<int64_t>()[r], expected[r]) << r << " wide " << wide << " threads " << threads;
      }
    }
  }
}

}  // namespace
}  // namespace laneql
