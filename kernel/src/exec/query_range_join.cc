// The candidate pairs of a join without an equality whose condition bounds one side's
// expression by the other side's (query_join.cc): `b.ts BETWEEN a.start AND a.end`,
// `a.x < b.y AND a.x + 3 > b.y`. The bounded side's values are sorted once; each row of the
// other side finds the run of values between its bounds by binary search, so only the pairs in
// that run are made, not the whole product. The condition is then judged over those pairs as
// over any join's (KeepPairsPassing), so the search only has to keep every pair that can pass:
// values are compared as doubles made order words (NaN largest, -0 = +0, as the engine's
// comparisons order them), and a strict bound is searched as a non-strict one, so rounding
// (an int64 past 2^53) can only add candidates, never lose one.
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "src/common/query_budget.h"
#include "src/exec/expr_eval.h"
#include "src/exec/morsel.h"
#include "src/exec/query_tree.h"
#include "src/exec/sort_rows.h"
#include "src/plan/logical_operator.h"

namespace laneql {
namespace exec {
namespace {

// Past this many candidate pairs the block-by-block product (which holds only what passes)
// is the better plan: the candidates would all be held at once.
constexpr size_t kMaxCandidates = size_t{1} << 26;

// `bounded` (an expression over side `side`, 0 left, 1 right) against `bound` (over the other):
// bounded >= bound (lower) or bounded <= bound (upper), strictness dropped.
struct Bound {
  int side;
  const sql::Expr* bounded;
  const sql::Expr* bound;
  bool lower;
};

void Conjuncts(const sql::Expr* e, std::vector<const sql::Expr*>* out) {
  if (e->kind == sql::ExprKind::kBinary && e->binary_op == sql::BinaryOp::kAnd) {
    Conjuncts(e->left.get(), out);
    Conjuncts(e->right.get(), out);
    return;
  }
  out->push_back(e);
}

// 0 (left) or 1 (right) when `e` reads columns of that side only, else -1.
int SideOf(const sql::Expr& e, const Relation& left, const Relation& right) {
  bool unknown = false;
  const uint64_t reads = plan::ReadsOf(&e, {&left.scope, &right.scope}, &unknown);
  if (unknown) return -1;
  return reads == 1 ? 0 : reads == 2 ? 1 : -1;
}

void BoundsOf(const sql::Expr& c, const Relation& left, const Relation& right, std::vector<Bound>* out) {
  if (c.kind == sql::ExprKind::kBetween && !c.negated && c.operand && c.args.size() == 2) {
    // operand BETWEEN args[0] AND args[1]
    const int side = SideOf(*c.operand, left, right);
    if (side < 0 || SideOf(*c.args[0], left, right) != 1 - side || SideOf(*c.args[1], left, right) != 1 - side) {
      return;
    }
    out->push_back(Bound{side, c.operand.get(), c.args[0].get(), true});
    out->push_back(Bound{side, c.operand.get(), c.args[1].get(), false});
    return;
  }
  if (c.kind != sql::ExprKind::kBinary) return;
  bool less;  // left operand below the right one
  switch (c.binary_op) {
    case sql::BinaryOp::kLess:
    case sql::BinaryOp::kLessEquals: less = true; break;
    case sql::BinaryOp::kGreater:
    case sql::BinaryOp::kGreaterEquals: less = false; break;
    default: return;
  }
  const int a = SideOf(*c.left, left, right), b = SideOf(*c.right, left, right);
  if (a < 0 || b < 0 || a == b) return;
  // x < y: x is bounded above by y, and y below by x.
  out->push_back(Bound{a, c.left.get(), c.right.get(), !less});
  out->push_back(Bound{b, c.right.get(), c.left.get(), less});
}

// A column's values as order words of doubles (valid[i] 0 for NULL); false for types whose
// order a double does not keep (strings, decimals, intervals, times).
bool OrderWordsOf(const Column& column, std::vector<uint64_t>* words, std::vector<uint8_t>* valid) {
  const TypeId type = column.type();
  if (IsDecimal(type) || !(IsInteger(type) || IsFloat(type) || IsTemporal(type))) return false;
  const size_t n = column.length();
  words->resize(n);
  valid->resize(n);
  return VisitFixed(type, [&](auto tag) {
    using T = decltype(tag);
    const T* values = column.Values<T>();
    for (size_t i = 0; i < n; ++i) {
      (*valid)[i] = column.IsValid(i);
      (*words)[i] = OrderWordOf(static_cast<double>(values[i]));
    }
  });
}

// The order words' class: numbers compare with numbers, a temporal type only with itself.
int ClassOf(TypeId type) { return IsTemporal(type) ? static_cast<int>(type) + 1 : 0; }

}  // namespace

bool QueryTreeRunner::RangeJoinCandidates(const Relation& left, const Relation& right, const sql::Expr& condition,
                                          std::vector<uint32_t>* left_rows, std::vector<uint32_t>* right_rows,
                                          bool* found, Result* error) {
  *found = false;
  std::vector<const sql::Expr*> conjuncts;
  Conjuncts(&condition, &conjuncts);
  std::vector<Bound> bounds;
  for (const sql::Expr* c : conjuncts) BoundsOf(*c, left, right, &bounds);
  // The bounded expression with a lower and an upper bound, else one with either; of those,
  // one on the side with fewer rows (it is sorted; the other side's rows search it).
  const Bound* lower = nullptr;
  const Bound* upper = nullptr;
  size_t best_rows = 0;
  bool best_both = false;
  for (const Bound& b : bounds) {
    const Bound* lo = nullptr;
    const Bound* hi = nullptr;
    const std::string text = sql::ToString(*b.bounded);
    for (const Bound& other : bounds) {
      if (other.side != b.side || sql::ToString(*other.bounded) != text) continue;
      if (other.lower && lo == nullptr) lo = &other;
      if (!other.lower && hi == nullptr) hi = &other;
    }
    const bool both = lo != nullptr && hi != nullptr;
    const size_t rows = (b.side == 0 ? left : right).table->num_rows();
    const bool first = lower == nullptr && upper == nullptr;
    if (!first && !(both && !best_both) && !(both == best_both && rows < best_rows)) continue;
    lower = lo;
    upper = hi;
    best_both = both;
    best_rows = rows;
  }
  if (lower == nullptr && upper == nullptr) return true;
  const Bound& any = lower != nullptr ? *lower : *upper;
  const Relation& sorted_side = any.side == 0 ? left : right;
  const Relation& probe_side = any.side == 0 ? right : left;
  // The bounded values, and each bound's values over the other side.
  Result values, lows, highs;
  if (!Evaluate(sorted_side, {any.bounded}, &values) ||
      (lower != nullptr && !Evaluate(probe_side, {lower->bound}, &lows)) ||
      (upper != nullptr && !Evaluate(probe_side, {upper->bound}, &highs))) {
    return true;  // judged pair by pair instead, where its error (if any) is reported
  }
  std::vector<uint64_t> words, low_words, high_words;
  std::vector<uint8_t> valid, low_valid, high_valid;
  if (!OrderWordsOf(values.column(0), &words, &valid) ||
      (lower != nullptr && (!OrderWordsOf(lows.column(0), &low_words, &low_valid) ||
                            ClassOf(lows.column(0).type()) != ClassOf(values.column(0).type()))) ||
      (upper != nullptr && (!OrderWordsOf(highs.column(0), &high_words, &high_valid) ||
                            ClassOf(highs.column(0).type()) != ClassOf(values.column(0).type())))) {
    return true;
  }
  // The bounded side's non-NULL rows in the order of their values (ties by row), and the
  // values alone for the searches.
  std::vector<uint64_t> sorted;
  std::vector<std::pair<uint64_t, uint32_t>> order;
  for (size_t r = 0; r < words.size(); ++r) {
    if (valid[r]) order.emplace_back(words[r], static_cast<uint32_t>(r));
  }
  std::sort(order.begin(), order.end());
  sorted.resize(order.size());
  for (size_t i = 0; i < order.size(); ++i) sorted[i] = order[i].first;
  // Each probe row's run [begin, end) of the sorted rows; the candidates counted first.
  const size_t probe_rows = probe_side.table->num_rows();
  std::vector<uint32_t> run_begin(probe_rows, 0), run_end(probe_rows, 0);
  size_t candidates = 0;
  for (size_t p = 0; p < probe_rows; ++p) {
    size_t begin = 0, end = sorted.size();
    if (lower != nullptr) {
      if (!low_valid[p]) continue;
      begin = static_cast<size_t>(std::lower_bound(sorted.begin(), sorted.end(), low_words[p]) - sorted.begin());
    }
    if (upper != nullptr) {
      if (!high_valid[p]) continue;
      end = static_cast<size_t>(std::upper_bound(sorted.begin(), sorted.end(), high_words[p]) - sorted.begin());
    }
    if (begin >= end) continue;
    run_begin[p] = static_cast<uint32_t>(begin);
    run_end[p] = static_cast<uint32_t>(end);
    candidates += end - begin;
  }
  if (candidates > kMaxCandidates) return true;
  // The lists are the query's from here on (as a hash join's pairs are), so the charge stays.
  std::string message;
  if (!ChargeQueryMemory(candidates * 2 * sizeof(uint32_t), &message)) {
    *error = Result::Error(message);
    return false;
  }
  // Left-major (the order the outer rows and a scalar subquery's check need), each left row's
  // right rows in the order the search finds them: the same on every thread count.
  left_rows->resize(candidates);
  right_rows->resize(candidates);
  if (any.side == 1) {
    // Probe rows are left rows: each one's run of right rows as it lies.
    size_t at = 0;
    for (size_t p = 0; p < probe_rows; ++p) {
      for (uint32_t i = run_begin[p]; i < run_end[p]; ++i, ++at) {
        (*left_rows)[at] = static_cast<uint32_t>(p);
        (*right_rows)[at] = order[i].second;
      }
    }
  } else {
    // Probe rows are right rows: the pairs put in left-row order by a counting sort, each left
    // row's right rows ascending.
    std::vector<size_t> start(sorted_side.table->num_rows() + 1, 0);
    for (size_t p = 0; p < probe_rows; ++p) {
      for (uint32_t i = run_begin[p]; i < run_end[p]; ++i) ++start[order[i].second + 1];
    }
    for (size_t l = 1; l < start.size(); ++l) start[l] += start[l - 1];
    for (size_t p = 0; p < probe_rows; ++p) {
      for (uint32_t i = run_begin[p]; i < run_end[p]; ++i) {
        const size_t at = start[order[i].second]++;
        (*left_rows)[at] = order[i].second;
        (*right_rows)[at] = static_cast<uint32_t>(p);
      }
    }
  }
  *found = true;
  return true;
}

}  // namespace exec
}  // namespace laneql
