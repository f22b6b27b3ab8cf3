// exec::Filter over AND chains: when the conjuncts so far leave most 64-row words of a batch
// empty, the next one runs only over the words that still hold a row (src/exec/filter.h). The
// masks must be those of a row-by-row reference, sparse or dense, in every batch and the tail;
// and the skipped words must really go untested, which a CAST that fails there shows.
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "laneql/bitmask.h"
#include "laneql/database.h"
#include "bind_sql.h"
#include "src/exec/executor.h"
#include "src/exec/filter.h"

namespace laneql {
namespace {

// Rows of the test table, kept as plain values for the reference.
struct Rows {
  std::vector<int32_t> k;
  std::vector<std::string> s;  // s_null[i]: NULL
  std::vector<bool> s_null;
  std::vector<std::string> t;
};

// How many rows the first conjunct keeps (k == 1).
enum class Keep {
  kFewWords,   // a few rows in two words of every seven (runs of live words, the very last row)
  kScattered,  // about 1 row in 8 anywhere: nearly every word live, the rows compacted (Q22)
  kMost,       // about 3 rows in 4
};

// 2 full batches and a tail.
Rows MakeRows(Keep mode, uint32_t seed) {
  const size_t n = 2 * exec::kBatchRows + 77;
  std::mt19937 rng(seed);
  const char* words[] = {"", "a", "ab", "xaby", "abab", "q", "zzz", "ba", "a_b", "gab"};
  Rows r;
  for (size_t i = 0; i < n; ++i) {
    const size_t word = i / 64;
    const bool live_word = word % 7 == 0 || word % 7 == 1;
    const bool keep = mode == Keep::kFewWords    ? (live_word && rng() % 5 == 0) || i + 1 == n
                      : mode == Keep::kScattered ? rng() % 8 == 0
                                                 : rng() % 4 != 0;
    r.k.push_back(keep ? 1 : static_cast<int32_t>(rng() % 100) + 2);
    r.s_null.push_back(rng() % 11 == 0);
    r.s.push_back(r.s_null.back() ? "" : words[rng() % 10]);
    r.t.push_back(words[rng() % 10]);
  }
  return r;
}

std::shared_ptr<Table> MakeTable(const Rows& r) {
  Column k(TypeId::kInt32), s(TypeId::kString), t(TypeId::kString);
  std::string error;
  for (size_t i = 0; i < r.k.size(); ++i) {
    EXPECT_TRUE(k.Append<int32_t>(r.k[i], &error));
    EXPECT_TRUE(r.s_null[i] ? s.AppendNull(&error) : s.AppendString(r.s[i], &error));
    EXPECT_TRUE(t.AppendString(r.t[i], &error));
  }
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("k", std::move(k), &error));
  EXPECT_TRUE(table->AddColumn("s", std::move(s), &error));
  EXPECT_TRUE(table->AddColumn("t", std::move(t), &error));
  return table;
}

// Runs the WHERE of `sql` batch by batch, as the executor does, and compares each row's bit with
// `want(row)`. Returns how many rows were selected.
size_t CheckFilter(const Rows& r, const std::string& sql, const std::function<bool(size_t)>& want) {
  const auto table = MakeTable(r);
  const plan::Plan plan = BindSql(*table, sql);
  EXPECT_TRUE(plan.where != nullptr);
  if (plan.where == nullptr) return 0;
  exec::Filter filter(*table, *plan.where);
  const size_t n = r.k.size();
  size_t selected = 0;
  std::vector<uint64_t> mask(BitmaskWords(exec::kBatchRows));
  for (size_t begin = 0; begin < n; begin += exec::kBatchRows) {
    const size_t count = std::min(exec::kBatchRows, n - begin);
    std::string error;
    EXPECT_TRUE(filter.Eval(begin, count, mask.data(), &error)) << error;
    for (size_t i = 0; i < count; ++i) {
      const bool got = (mask[i / 64] >> (i % 64)) & 1;
      EXPECT_EQ(want(begin + i), got) << sql << " row " << begin + i;
      selected += got;
    }
    // Bits past the batch's rows stay 0.
    if (count % 64 != 0) {
      EXPECT_EQ(0u, mask[count / 64] & ~BitmaskTailMask(count)) << sql;
    }
  }
  return selected;
}

bool Contains(const std::string& s, const char* needle) {
  return s.find(needle) != std::string::npos;
}

TEST(FilterLiveWords, MatchesRowByRowSparseAndDense) {
  for (const Keep mode : {Keep::kFewWords, Keep::kScattered, Keep::kMost}) {
    for (uint32_t seed = 1; seed <= 3; ++seed) {
      const Rows r = MakeRows(mode, seed);
      SCOPED_TRACE(static_cast<int>(mode));
      auto keep = [&](size_t i) { return r.k[i] == 1; };
      // A string kernel, a NOT LIKE with NULLs, and <> after it.
      const std::string sql = "SELECT k FROM x WHERE k = 1 AND s LIKE '%ab%' AND t <> 'q'";
      const size_t like = CheckFilter(r, sql, [&](size_t i) {
        return keep(i) && !r.s_null[i] && Contains(r.s[i], "ab") && r.t[i] != "q";
      });
      EXPECT_GT(like, 0u);
      CheckFilter(r, "SELECT k FROM x WHERE s NOT LIKE '%a%' AND k = 1", [&](size_t i) {
        return keep(i) && !r.s_null[i] && !Contains(r.s[i], "a");
      });
      CheckFilter(r, "SELECT k FROM x WHERE s <> '' AND k = 1 AND t = 'ab'", [&](size_t i) {
        return keep(i) && !r.s_null[i] && !r.s[i].empty() && r.t[i] == "ab";
      });
      // The evaluator (a function, an OR) over the live words.
      CheckFilter(r, "SELECT k FROM x WHERE k = 1 AND (length(t) > 2 OR s = 'q')", [&](size_t i) {
        return keep(i) && (r.t[i].size() > 2 || (!r.s_null[i] && r.s[i] == "q"));
      });
      // A string IN constants (one equality kernel per constant) with NULLs and '', compacted
      // when the rows are scattered.
      const size_t in_list = CheckFilter(r, "SELECT k FROM x WHERE k = 1 AND s IN ('ab', '', 'zzz')", [&](size_t i) {
        return keep(i) && !r.s_null[i] && (r.s[i] == "ab" || r.s[i].empty() || r.s[i] == "zzz");
      });
      EXPECT_GT(in_list, 0u);
      CheckFilter(r, "SELECT k FROM x WHERE t IN ('q', 'gab') AND k = 1", [&](size_t i) {
        return keep(i) && (r.t[i] == "q" || r.t[i] == "gab");
      });
      // A general LIKE pattern and a string equality: two conjuncts after the sparse one.
      CheckFilter(r, "SELECT k FROM x WHERE k = 1 AND t LIKE 'a_b%' AND s = 'abab'", [&](size_t i) {
        const std::string& t = r.t[i];
        return keep(i) && t.size() >= 3 && t[0] == 'a' && t[2] == 'b' && !r.s_null[i] &&
               r.s[i] == "abab";
      });
    }
  }
}

// u holds a number on the words where k = 1 has a row and a word elsewhere: with the skip, the
// CAST never sees the words; where every word is live (k >= 0), it must fail as before.
TEST(FilterLiveWords, SkippedWordsAreNotEvaluated) {
  const Rows r = MakeRows(Keep::kFewWords, 7);
  const size_t n = r.k.size();
  std::vector<bool> live_word(BitmaskWords(n));
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    if (r.k[i] == 1) live_word[i / 64] = true, ++kept;
  }
  Column k(TypeId::kInt32), u(TypeId::kString);
  std::string error;
  for (size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(k.Append<int32_t>(r.k[i], &error));
    ASSERT_TRUE(u.AppendString(live_word[i / 64] ? "5" : "not a number", &error));
  }
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("k", std::move(k), &error));
  ASSERT_TRUE(table->AddColumn("u", std::move(u), &error));
  for (const int threads : {1, 2}) {
    DatabaseOptions options;
    options.threads = threads;
    Database db(options);
    ASSERT_TRUE(db.Register("x", table, &error)) << error;
    const Result ok = db.Query("SELECT count(*) FROM x WHERE k = 1 AND CAST(u AS INTEGER) > 0");
    ASSERT_TRUE(ok.ok()) << ok.error();
    EXPECT_EQ(static_cast<int64_t>(kept), ok.column(0).Values<int64_t>()[0]);
    const Result fails = db.Query("SELECT count(*) FROM x WHERE k >= 0 AND CAST(u AS INTEGER) > 0");
    EXPECT_FALSE(fails.ok());
  }
}

}  // namespace
}  // namespace laneql
