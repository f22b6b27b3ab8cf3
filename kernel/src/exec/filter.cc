// Filter: predicate -> bitmask with the predicate / string kernels where the shape allows.
#include "src/exec/filter.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "laneql/gather.h"
#include "laneql/predicate.h"
#include "laneql/string_match.h"
#include "src/exec/string_chunks.h"

namespace laneql {
namespace exec {

using plan::BoundExpr;
using plan::BoundKind;
using plan::Fn;

namespace {


void FlattenAnd(const BoundExpr& expr, std::vector<const BoundExpr*>* out) {
  if (expr.kind == BoundKind::kCall && expr.fn == Fn::kAnd) {
    FlattenAnd(*expr.args[0], out);
    FlattenAnd(*expr.args[1], out);
  } else {
    out->push_back(&expr);
  }
}

bool IsColumn(const BoundExpr& e) { return e.kind == BoundKind::kColumn; }
bool IsValue(const BoundExpr& e) { return e.kind == BoundKind::kConstant && !e.constant.is_null; }

bool KernelType(TypeId type) {
  return IsFixedWidth(type) && TypeByteWidth(type) <= 8;  // not int128, interval
}

// A string column IN a few constants: one equality kernel per constant, the masks ORed (about a
// fifth of the evaluator's time for TPC-H Q12's l_shipmode IN ('MAIL', 'SHIP')).
constexpr size_t kStringInListKernelMax = 8;
bool IsStringInList(const BoundExpr& e) {
  if (e.kind != BoundKind::kCall || e.fn != Fn::kInList || e.negated || e.args.size() < 2 ||
      e.args.size() > kStringInListKernelMax + 1 || !IsColumn(*e.args[0]) || e.args[0]->type != TypeId::kString) {
    return false;
  }
  for (size_t i = 1; i < e.args.size(); ++i) {
    if (!IsValue(*e.args[i]) || e.args[i]->type != TypeId::kString) return false;
  }
  return true;
}

// 0: a fixed-width kernel; 1: a string kernel on offsets / bytes; 2: LIKE or the evaluator.
int CostClass(const BoundExpr& e) {
  if (e.kind != BoundKind::kCall) return 2;
  const bool column_first = !e.args.empty() && IsColumn(*e.args[0]);
  if (!column_first) return 2;
  const TypeId type = e.args[0]->type;
  switch (e.fn) {
    case Fn::kEquals: case Fn::kNotEquals: case Fn::kLess: case Fn::kLessEquals:
    case Fn::kGreater: case Fn::kGreaterEquals:
      if (IsColumn(*e.args[1])) return KernelType(type) && e.args[1]->type == type ? 0 : 2;
      if (!IsValue(*e.args[1])) return 2;
      return KernelType(type) ? 0 : 1;
    case Fn::kBetween: return KernelType(type) ? 0 : 2;
    case Fn::kInList: return KernelType(type) ? 0 : IsStringInList(e) ? 1 : 2;
    default: return 2;
  }
}

CompareOp ToCompareOp(Fn fn) {
  switch (fn) {
    case Fn::kEquals: return CompareOp::kEq;
    case Fn::kNotEquals: return CompareOp::kNe;
    case Fn::kLess: return CompareOp::kLt;
    case Fn::kLessEquals: return CompareOp::kLe;
    case Fn::kGreater: return CompareOp::kGt;
    default: return CompareOp::kGe;
  }
}

// Column types the predicate kernels are compiled for; bool is uint8, dates int32, times int64.
template <class F>
bool VisitKernelType(TypeId type, F&& f) {
  if (!KernelType(type)) return false;
  return VisitFixed(type, [&](auto tag) {
    if constexpr (!std::is_same_v<decltype(tag), Int128>) f(tag);
  });
}

// A conjunct that a string kernel runs on its column: = / <> a constant, or LIKE (not ILIKE)
// with a constant pattern, on a string column.
bool IsStringKernelConjunct(const BoundExpr& e) {
  if (e.kind != BoundKind::kCall || e.args.size() < 2 || !IsColumn(*e.args[0]) ||
      e.args[0]->type != TypeId::kString || !IsValue(*e.args[1])) {
    return false;
  }
  return e.fn == Fn::kEquals || e.fn == Fn::kNotEquals || (e.fn == Fn::kLike && !e.case_insensitive);
}

// mask = the conjunct (IsStringKernelConjunct or IsStringInList) over the n rows of `offsets`
// into `data`.
void RunStringKernel(const BoundExpr& expr, const int32_t* offsets, const uint8_t* data, size_t n,
                     const uint64_t* validity, uint64_t* mask) {
  const std::string& text = expr.args[1]->constant.text;
  if (expr.fn == Fn::kInList) {
    StringEquals(offsets, data, n, text, validity, mask);
    if (expr.args.size() == 2) return;
    std::vector<uint64_t> other(BitmaskWords(n) + 1);
    for (size_t i = 2; i < expr.args.size(); ++i) {
      StringEquals(offsets, data, n, expr.args[i]->constant.text, validity, other.data());
      MaskOr(mask, other.data(), n, mask);
    }
    return;
  }
  if (expr.fn == Fn::kLike) {
    const int escape =
        expr.args.size() > 2 ? static_cast<unsigned char>(expr.args[2]->constant.text[0]) : kNoLikeEscape;
    if (expr.negated) StringNotLike(offsets, data, n, text, escape, validity, mask);
    else StringLike(offsets, data, n, text, escape, validity, mask);
  } else if (expr.fn == Fn::kNotEquals && text.empty()) {
    StringNotEmpty(offsets, n, validity, mask);
  } else if (expr.fn == Fn::kEquals) {
    StringEquals(offsets, data, n, text, validity, mask);
  } else {
    StringNotEquals(offsets, data, n, text, validity, mask);
  }
}

}  // namespace

Filter::Filter(const Table& table, const BoundExpr& predicate, bool zone_maps)
    : table_(table), evaluator_(TableColumns(table)) {
  std::vector<const BoundExpr*> parts;
  FlattenAnd(predicate, &parts);
  for (const BoundExpr* part : parts) {
    conjuncts_.push_back(Conjunct{part, CostClass(*part)});
    ZoneTest test;
    if (zone_maps && zone_tests_.size() < 64 && MakeZoneTest(*part, table, &test)) {
      conjuncts_.back().zone = static_cast<int>(zone_tests_.size());
      zone_tests_.push_back(std::move(test));
    }
  }
  std::stable_sort(conjuncts_.begin(), conjuncts_.end(),
                   [](const Conjunct& a, const Conjunct& b) { return a.cost_class < b.cost_class; });
}

Filter::BlockVerdict Filter::JudgeBlock(size_t block) {
  BlockVerdict verdict;
  for (size_t t = 0; t < zone_tests_.size(); ++t) {
    ZoneTest& test = zone_tests_[t];
    if (test.off) continue;
    const internal::Zone zone = test.zones->Get(table_.column(test.column), block);
    const ZoneVerdict says = JudgeZone(test, zone);
    ++test.judged;
    if (says != ZoneVerdict::kSome) ++test.decided;
    if (test.judged >= kZoneTrialBlocks && test.decided == 0) test.off = true;
    if (says == ZoneVerdict::kNone) {
      verdict.none = true;
      verdict.all = 0;
      break;
    }
    if (says == ZoneVerdict::kAll && !zone.any_null) verdict.all |= uint64_t{1} << t;
  }
  return verdict;
}

bool Filter::Eval(size_t begin, size_t count, uint64_t* mask, std::string* error) {
  if (zone_tests_.empty() || count == 0) return EvalConjuncts(begin, count, 0, mask, error);
  const size_t end = begin + count;
  const size_t first_block = begin / internal::kZoneRows;
  verdicts_.clear();
  for (size_t b = first_block; b * internal::kZoneRows < end; ++b) verdicts_.push_back(JudgeBlock(b));
  // Runs of blocks with one verdict; a run starts on a block boundary (or at `begin`), so on a
  // mask word.
  for (size_t v = 0; v < verdicts_.size();) {
    size_t next = v + 1;
    while (next < verdicts_.size() && verdicts_[next] == verdicts_[v]) ++next;
    const size_t run_begin = std::max(begin, (first_block + v) * internal::kZoneRows);
    const size_t run_end = std::min(end, (first_block + next) * internal::kZoneRows);
    uint64_t* run_mask = mask + (run_begin - begin) / 64;
    if (verdicts_[v].none) {
      std::fill_n(run_mask, BitmaskWords(run_end - run_begin), uint64_t{0});
    } else if (!EvalConjuncts(run_begin, run_end - run_begin, verdicts_[v].all, run_mask, error)) {
      return false;
    }
    v = next;
  }
  return true;
}

bool Filter::EvalConjuncts(size_t begin, size_t count, uint64_t passed, uint64_t* mask,
                           std::string* error) {
  const size_t words = BitmaskWords(count);
  if (scratch_.size() < words + 1) scratch_.resize(words + 1);
  bool first = true;
  for (size_t c = 0; c < conjuncts_.size(); ++c) {
    Conjunct& conjunct = conjuncts_[c];
    if (conjunct.zone >= 0 && (passed >> conjunct.zone & 1) != 0) continue;
    uint64_t* target = first ? mask : scratch_.data();
    size_t tested = count;
    // A fixed-width kernel costs about as much per call as over a whole batch: it takes all rows.
    if (first || conjunct.cost_class == 0) {
      if (!EvalOne(*conjunct.expr, begin, count, target, error)) return false;
    } else if (!EvalLiveWords(*conjunct.expr, begin, count, mask, target, &tested, error)) {
      return false;
    }
    if (!first) MaskAnd(mask, target, count, mask);
    const size_t left = CountBits(mask, count);
    conjunct.rows_in += tested;
    conjunct.rows_out += first ? left : CountBits(target, count);
    first = false;
    if (left == 0) break;
  }
  if (first) {  // every conjunct passed whole
    std::fill_n(mask, words, ~uint64_t{0});
    if (words != 0) mask[words - 1] &= BitmaskTailMask(count);
    return true;
  }
  // Most selective first within a cost class, from what the batches so far have shown.
  if (conjuncts_.size() < 2) return true;
  std::stable_sort(conjuncts_.begin(), conjuncts_.end(), [](const Conjunct& a, const Conjunct& b) {
    if (a.cost_class != b.cost_class) return a.cost_class < b.cost_class;
    const double pa = a.rows_in ? double(a.rows_out) / double(a.rows_in) : 1.0;
    const double pb = b.rows_in ? double(b.rows_out) / double(b.rows_in) : 1.0;
    return pa < pb;
  });
  return true;
}

bool Filter::EvalLiveWords(const BoundExpr& expr, size_t begin, size_t count, const uint64_t* live,
                           uint64_t* target, size_t* tested, std::string* error) {
  // (= / <> '' read the offsets alone: nothing to save by copying bytes.)
  if (((IsStringKernelConjunct(expr) && !expr.args[1]->constant.text.empty()) || IsStringInList(expr)) &&
      CountBits(live, count) * kCompactAtMostOneLiveRowIn <= count) {
    return EvalCompacted(expr, begin, count, live, target, tested, error);
  }
  const size_t words = BitmaskWords(count);
  size_t live_words = 0;
  for (size_t w = 0; w < words; ++w) live_words += live[w] != 0;
  // Mostly live: one call over the whole batch beats many calls over short runs.
  if (live_words * kSkipAtMostOneLiveIn > words) {
    *tested = count;
    return EvalOne(expr, begin, count, target, error);
  }
  *tested = 0;
  for (size_t w = 0; w < words;) {
    if (live[w] == 0) {
      target[w++] = 0;
      continue;
    }
    size_t end = w + 1;
    while (end < words && live[end] != 0) ++end;
    const size_t first_row = w * 64, rows = std::min(end * 64, count) - first_row;
    if (!EvalOne(expr, begin + first_row, rows, target + w, error)) return false;
    *tested += rows;
    w = end;
  }
  return true;
}

const int32_t* Filter::BatchStringOffsets(const Column& column, size_t begin, size_t count, const uint8_t** data,
                                         std::string* error) {
  static const uint8_t kNoBytes[64] = {};
  *data = column.StringData() != nullptr ? column.StringData() : kNoBytes;
  if (column.type() == TypeId::kString) return column.Offsets32() + begin;
  const int64_t* from = column.Offsets64() + begin;
  rebased_offsets_.resize(count + 1);
  if (!RebaseLargeOffsets(from, count, rebased_offsets_.data())) {
    if (error != nullptr) *error = kStringBatchTooLarge;
    return nullptr;
  }
  *data += from[0];
  return rebased_offsets_.data();
}

bool Filter::EvalCompacted(const BoundExpr& expr, size_t begin, size_t count, const uint64_t* live,
                           uint64_t* target, size_t* tested, std::string* error) {
  const Column& column = table_.column(static_cast<size_t>(expr.args[0]->column));
  const uint8_t* data = nullptr;
  const int32_t* offsets = BatchStringOffsets(column, begin, count, &data, error);
  if (offsets == nullptr) return false;
  const size_t n = CompressCount(live, count);
  compact_offsets_.resize(n + 1);
  const int64_t bytes = CompressStringOffsets(offsets, count, live, compact_offsets_.data());
  if (!compact_bytes_.ResizeForOverwrite(static_cast<size_t>(bytes), error)) return false;
  CompressStringData(offsets, data, count, live, compact_bytes_.data(),
                     static_cast<size_t>(bytes));
  const uint64_t* validity = nullptr;
  if (column.validity() != nullptr) {
    compact_validity_.assign(BitmaskWords(n) + 1, 0);
    CompressBitmask(column.validity() + begin / 64, count, live, compact_validity_.data());
    validity = compact_validity_.data();
  }
  compact_mask_.assign(BitmaskWords(n) + 1, 0);
  static const uint8_t kNoBytes[64] = {};
  RunStringKernel(expr, compact_offsets_.data(), bytes > 0 ? compact_bytes_.data() : kNoBytes, n, validity,
                  compact_mask_.data());
  // The j-th live row takes bit j of the compacted answer.
  size_t j = 0;
  for (size_t w = 0; w < BitmaskWords(count); ++w) {
    uint64_t bits = live[w], out = 0;
    while (bits != 0) {
      const uint64_t lowest = bits & (~bits + 1);
      if (BitmaskGet(compact_mask_.data(), j++)) out |= lowest;
      bits ^= lowest;
    }
    target[w] = out;
  }
  *tested = n;
  return true;
}

bool Filter::EvalOne(const BoundExpr& expr, size_t begin, size_t count, uint64_t* mask,
                     std::string* error) {
  const size_t words = BitmaskWords(count);
  if (expr.kind == BoundKind::kConstant) {
    const bool all = !expr.constant.is_null && expr.constant.integer != 0;
    for (size_t w = 0; w < words; ++w) mask[w] = all ? ~uint64_t{0} : 0;
    if (all && words != 0) mask[words - 1] &= BitmaskTailMask(count);
    return true;
  }
  if (expr.kind == BoundKind::kCall && !expr.args.empty() && IsColumn(*expr.args[0])) {
    const Column& column = table_.column(static_cast<size_t>(expr.args[0]->column));
    const uint64_t* validity = column.validity() != nullptr ? column.validity() + begin / 64 : nullptr;
    const TypeId type = column.type();
    const Fn fn = expr.fn;
    const bool compare = fn == Fn::kEquals || fn == Fn::kNotEquals || fn == Fn::kLess ||
                         fn == Fn::kLessEquals || fn == Fn::kGreater || fn == Fn::kGreaterEquals;
    if (compare && IsValue(*expr.args[1])) {
      const plan::Value& constant = expr.args[1]->constant;
      if (VisitKernelType(type, [&](auto tag) {
            using T = decltype(tag);
            CompareToMask(column.Values<T>() + begin, count, ToCompareOp(fn), ConstantAs<T>(constant),
                          validity, mask);
          })) {
        return true;
      }
    }
    if (compare && IsColumn(*expr.args[1])) {
      // Two columns of one type (TPC-H's l_commitdate < l_receiptdate).
      const Column& other = table_.column(static_cast<size_t>(expr.args[1]->column));
      const uint64_t* other_validity = other.validity() != nullptr ? other.validity() + begin / 64 : nullptr;
      if (other.type() == type && VisitKernelType(type, [&](auto tag) {
            using T = decltype(tag);
            CompareColumnsToMask(column.Values<T>() + begin, other.Values<T>() + begin, count, ToCompareOp(fn),
                                 validity, other_validity, mask);
          })) {
        return true;
      }
    }
    if (PhysicalType(type) == TypeId::kInt128 && !IsInterval(type) &&
        ((compare && IsValue(*expr.args[1])) ||
         (fn == Fn::kBetween && !expr.negated && IsValue(*expr.args[1]) && IsValue(*expr.args[2])))) {
      // HUGEINT and DECIMAL against constants: no SIMD kernel for 16-byte lanes, but one
      // branch-free pass building the mask a word at a time.
      const Int128* v = column.Values<Int128>() + begin;
      const Int128 lo = expr.args[1]->constant.integer;
      const Int128 hi = fn == Fn::kBetween ? expr.args[2]->constant.integer : lo;
      const auto run = [&](auto keep) {
        for (size_t w = 0; w < words; ++w) {
          const size_t base = w * 64, n = count - base < 64 ? count - base : 64;
          uint64_t word = 0;
          for (size_t j = 0; j < n; ++j) word |= static_cast<uint64_t>(keep(v[base + j])) << j;
          mask[w] = validity != nullptr ? word & validity[w] : word;
        }
      };
      switch (fn) {
        case Fn::kEquals: run([lo](Int128 x) { return x == lo; }); break;
        case Fn::kNotEquals: run([lo](Int128 x) { return x != lo; }); break;
        case Fn::kLess: run([lo](Int128 x) { return x < lo; }); break;
        case Fn::kLessEquals: run([lo](Int128 x) { return x <= lo; }); break;
        case Fn::kGreater: run([lo](Int128 x) { return x > lo; }); break;
        case Fn::kGreaterEquals: run([lo](Int128 x) { return x >= lo; }); break;
        default: run([lo, hi](Int128 x) { return x >= lo && x <= hi; }); break;
      }
      return true;
    }
    if (fn == Fn::kBetween && !expr.negated && IsValue(*expr.args[1]) && IsValue(*expr.args[2]) &&
        VisitKernelType(type, [&](auto tag) {
          using T = decltype(tag);
          BetweenToMask(column.Values<T>() + begin, count, ConstantAs<T>(expr.args[1]->constant),
                        ConstantAs<T>(expr.args[2]->constant), validity, mask);
        })) {
      return true;
    }
    if (fn == Fn::kInList && !expr.negated) {
      bool all_values = true;
      for (size_t i = 1; i < expr.args.size(); ++i) all_values &= IsValue(*expr.args[i]);
      if (all_values && VisitKernelType(type, [&](auto tag) {
            using T = decltype(tag);
            std::vector<T> list;
            for (size_t i = 1; i < expr.args.size(); ++i) list.push_back(ConstantAs<T>(expr.args[i]->constant));
            InListToMask(column.Values<T>() + begin, count, list.data(), list.size(), validity, mask);
          })) {
        return true;
      }
    }
    if ((type == TypeId::kString || type == TypeId::kLargeString) &&
        (IsStringKernelConjunct(expr) || IsStringInList(expr))) {
      const uint8_t* data = nullptr;
      const int32_t* offsets = BatchStringOffsets(column, begin, count, &data, error);
      if (offsets == nullptr) return false;
      RunStringKernel(expr, offsets, data, count, validity, mask);
      return true;
    }
  }
  if (expr.kind == BoundKind::kCall && expr.fn == Fn::kOr) {
    std::vector<uint64_t> other(words + 1);
    if (!EvalOne(*expr.args[0], begin, count, mask, error)) return false;
    if (!EvalOne(*expr.args[1], begin, count, other.data(), error)) return false;
    MaskOr(mask, other.data(), count, mask);
    return true;
  }
  if (expr.kind == BoundKind::kCall && expr.fn == Fn::kAnd) {
    std::vector<uint64_t> other(words + 1);
    if (!EvalOne(*expr.args[0], begin, count, mask, error)) return false;
    if (!EvalOne(*expr.args[1], begin, count, other.data(), error)) return false;
    MaskAnd(mask, other.data(), count, mask);
    return true;
  }
  // Anything else: evaluate to BOOLEAN, TRUE and not NULL selects.
  RowSet rows;
  rows.begin = begin;
  rows.count = count;
  Vec result;
  if (!evaluator_.Eval(expr, rows, &result, error)) return false;
  std::memset(mask, 0, words * sizeof(uint64_t));
  for (size_t i = 0; i < count; ++i) {
    if (!result.IsNull(i) && result.Get<uint8_t>(i) != 0) mask[i / 64] |= uint64_t{1} << (i % 64);
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
