// Dispatch for the predicate kernels: foreach_target.h compiles this file once per SIMD target,
// HWY_DYNAMIC_DISPATCH calls the best one the CPU supports (or the one ForceTarget chose).
//
// The public functions (HWY_ONCE part, compiled once) reduce every SQL predicate to the few
// kernels predicate-inl.h compiles per target:
//   - the six operators to ==, <, <= plus a NOT of the finished word (see predicate-inl.h);
//   - DuckDB's NaN order to IEEE comparisons: with a non-NaN constant c the kernels' IEEE
//     answers are already right once > and >= are NOTs (NaN > c, NaN >= c and NaN <> c are
//     TRUE); with a NaN constant every operator is "x is NaN", "x is not NaN", all or nothing,
//     and "x is not NaN" is the IEEE x <= +inf;
//   - IN lists longer than kInListSimdMax to a scalar binary search.
#include "laneql/predicate.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/predicate.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/predicate-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

// Per target and type: the three compares (op chosen at run time), BETWEEN and IN (with 4, 8 or
// 16 constants).
#define LANEQL_PREDICATE_TARGET_FUNCTIONS(T, Name)                                               \
  void Compare##Name(const T* HWY_RESTRICT x, size_t rows, int core_op, T c, uint64_t flip,     \
                     const uint64_t* HWY_RESTRICT validity, uint64_t* HWY_RESTRICT out) {       \
    CompareImpl(x, rows, core_op, c, flip, validity, out);                                      \
  }                                                                                             \
  void Between##Name(const T* HWY_RESTRICT x, size_t rows, T lo, T hi,                         \
                     const uint64_t* HWY_RESTRICT validity, uint64_t* HWY_RESTRICT out) {       \
    BetweenImpl(x, rows, lo, hi, validity, out);                                                \
  }                                                                                             \
  void InList##Name(const T* HWY_RESTRICT x, size_t rows, const T* HWY_RESTRICT list,          \
                    size_t padded_count, bool match_nan, const uint64_t* HWY_RESTRICT validity, \
                    uint64_t* HWY_RESTRICT out) {                                               \
    InListPaddedImpl(x, rows, list, padded_count, match_nan, validity, out);                    \
  }                                                                                             \
  void CompareColumns##Name(const T* HWY_RESTRICT x, const T* HWY_RESTRICT y, size_t rows,     \
                            int core_op, uint64_t flip, const uint64_t* HWY_RESTRICT valid_x,  \
                            const uint64_t* HWY_RESTRICT valid_y, uint64_t* HWY_RESTRICT out) { \
    CompareColumnsImpl(x, y, rows, core_op, flip, valid_x, valid_y, out);                       \
  }
LANEQL_PREDICATE_TARGET_FUNCTIONS(int8_t, I8)
LANEQL_PREDICATE_TARGET_FUNCTIONS(int16_t, I16)
LANEQL_PREDICATE_TARGET_FUNCTIONS(int32_t, I32)
LANEQL_PREDICATE_TARGET_FUNCTIONS(int64_t, I64)
LANEQL_PREDICATE_TARGET_FUNCTIONS(uint8_t, U8)
LANEQL_PREDICATE_TARGET_FUNCTIONS(uint16_t, U16)
LANEQL_PREDICATE_TARGET_FUNCTIONS(uint32_t, U32)
LANEQL_PREDICATE_TARGET_FUNCTIONS(uint64_t, U64)
LANEQL_PREDICATE_TARGET_FUNCTIONS(float, F32)
LANEQL_PREDICATE_TARGET_FUNCTIONS(double, F64)
#undef LANEQL_PREDICATE_TARGET_FUNCTIONS

void MaskedEqualTarget(const uint64_t* HWY_RESTRICT x, size_t rows, uint64_t bits, uint64_t value,
                       const uint64_t* validity, uint64_t* out) {
  MaskedEqualImpl(x, rows, bits, value, validity, out);
}
void MaskAndTarget(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  MaskAndImpl(a, b, rows, out);
}
void MaskOrTarget(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  MaskOrImpl(a, b, rows, out);
}
void MaskAndNotTarget(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  MaskAndNotImpl(a, b, rows, out);
}
void MaskNotTarget(const uint64_t* a, size_t rows, const uint64_t* validity, uint64_t* out) {
  MaskNotImpl(a, rows, validity, out);
}
size_t CountBitsTarget(const uint64_t* HWY_RESTRICT words, size_t rows) {
  return CountBitsImpl<false>(words, words, rows);
}
size_t CountBitsAndTarget(const uint64_t* HWY_RESTRICT a, const uint64_t* HWY_RESTRICT b,
                          size_t rows) {
  return CountBitsImpl<true>(a, b, rows);
}
size_t MaskToIndicesTarget(const uint64_t* HWY_RESTRICT words, size_t rows,
                           uint32_t* HWY_RESTRICT out) {
  return MaskToIndicesImpl(words, rows, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "laneql/bitmask.h"

namespace laneql {
namespace {

// The core ops of predicate-inl.h (kCoreEq, kCoreLt, kCoreLe), visible outside HWY_NAMESPACE.
enum : int { kEq = 0, kLt = 1, kLe = 2 };
constexpr uint64_t kFlip = ~uint64_t{0};

template <typename T>
bool IsNaN(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else {
    (void)v;
    return false;
  }
}

// Every row selected (but NULLs) or none: the answer to `x <= NaN`, `x > NaN`, `x IN ()`.
void FillMask(size_t rows, bool selected, const uint64_t* validity, uint64_t* out) {
  const size_t words = BitmaskWords(rows);
  for (size_t w = 0; w < words; ++w) {
    out[w] = !selected ? 0 : validity != nullptr ? validity[w] : ~uint64_t{0};
  }
  if (words != 0) out[words - 1] &= BitmaskTailMask(rows);
}

// The six operators as a core op of the kernels and a NOT of the word; right for two columns,
// whose float order is the total one (with a constant, a NaN constant is handled before).
struct CoreOp {
  int op;
  uint64_t flip;
};
CoreOp ToCoreOp(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return {kEq, 0};
    case CompareOp::kNe: return {kEq, kFlip};
    case CompareOp::kLt: return {kLt, 0};
    case CompareOp::kGe: return {kLt, kFlip};
    case CompareOp::kLe: return {kLe, 0};
    case CompareOp::kGt: return {kLe, kFlip};
  }
  return {kEq, 0};
}

template <typename T, class CompareFn>
void CompareDispatch(CompareFn compare, const T* x, size_t rows, CompareOp op, T c,
                     const uint64_t* validity, uint64_t* out) {
  if (rows == 0) return;
  if (IsNaN(c)) {
    const T inf = std::numeric_limits<T>::infinity();
    switch (op) {
      case CompareOp::kEq:  // x = NaN and x >= NaN: x is NaN, i.e. NOT (x <= +inf)
      case CompareOp::kGe:
        return compare(x, rows, kLe, inf, kFlip, validity, out);
      case CompareOp::kNe:  // x <> NaN and x < NaN: x is not NaN, i.e. x <= +inf
      case CompareOp::kLt:
        return compare(x, rows, kLe, inf, 0, validity, out);
      case CompareOp::kLe:  // everything is <= NaN
        return FillMask(rows, true, validity, out);
      case CompareOp::kGt:  // nothing is > NaN
        return FillMask(rows, false, validity, out);
    }
  }
  switch (op) {
    case CompareOp::kEq: return compare(x, rows, kEq, c, 0, validity, out);
    case CompareOp::kNe: return compare(x, rows, kEq, c, kFlip, validity, out);
    case CompareOp::kLt: return compare(x, rows, kLt, c, 0, validity, out);
    case CompareOp::kGe: return compare(x, rows, kLt, c, kFlip, validity, out);
    case CompareOp::kLe: return compare(x, rows, kLe, c, 0, validity, out);
    case CompareOp::kGt: return compare(x, rows, kLe, c, kFlip, validity, out);
  }
}

template <typename T, class CompareFn, class BetweenFn>
void BetweenDispatch(CompareFn compare, BetweenFn between, const T* x, size_t rows, T lo, T hi,
                     const uint64_t* validity, uint64_t* out) {
  if (rows == 0) return;
  if (IsNaN(hi)) {
    if (IsNaN(lo)) {  // NaN <= x <= NaN: x is NaN
      return compare(x, rows, kLe, std::numeric_limits<T>::infinity(), kFlip, validity, out);
    }
    return compare(x, rows, kLt, lo, kFlip, validity, out);  // x >= lo, NaN included
  }
  if (IsNaN(lo)) return FillMask(rows, false, validity, out);  // only NaN is >= NaN, and > hi
  between(x, rows, lo, hi, validity, out);
}

// Lists longer than the SIMD kernel takes: binary search in a sorted copy, row by row.
template <typename T>
void InListScalar(const T* x, size_t rows, std::vector<T> list, bool match_nan,
                  const uint64_t* validity, uint64_t* out) {
  std::sort(list.begin(), list.end());  // no NaN left in the list, so < is a strict weak order
  for (size_t w = 0; w < BitmaskWords(rows); ++w) {
    const size_t end = std::min(rows, w * 64 + 64);
    uint64_t bits = 0;
    for (size_t i = w * 64; i < end; ++i) {
      // -0.0 and +0.0 are equivalent under <, so binary_search finds either for the other.
      const bool hit = IsNaN(x[i]) ? match_nan : std::binary_search(list.begin(), list.end(), x[i]);
      bits |= uint64_t{hit} << (i % 64);
    }
    out[w] = validity != nullptr ? bits & validity[w] : bits;
  }
}

template <typename T, class CompareFn, class InListFn>
void InListDispatch(CompareFn compare, InListFn in_list, const T* x, size_t rows, const T* list,
                    size_t list_size, const uint64_t* validity, uint64_t* out) {
  if (rows == 0) return;
  // NaN constants become one "x is NaN" test: IEEE == never matches them.
  std::vector<T> values;
  values.reserve(list_size);
  bool match_nan = false;
  for (size_t k = 0; k < list_size; ++k) {
    if (IsNaN(list[k])) {
      match_nan = true;
    } else {
      values.push_back(list[k]);
    }
  }
  if (values.empty()) {
    if (!match_nan) return FillMask(rows, false, validity, out);
    return compare(x, rows, kLe, std::numeric_limits<T>::infinity(), kFlip, validity, out);
  }
  if (values.size() == 1 && !match_nan) return compare(x, rows, kEq, values[0], 0, validity, out);
  if (values.size() <= kInListSimdMax) {
    // The kernels take 4, 8 or 16 constants: repeat the last one up to that length.
    static_assert(kInListSimdMax == 16, "the kernels' list lengths are 4, 8 and 16");
    const size_t padded = values.size() <= 4 ? 4 : values.size() <= 8 ? 8 : 16;
    values.resize(padded, values.back());
    return in_list(x, rows, values.data(), padded, match_nan, validity, out);
  }
  InListScalar(x, rows, std::move(values), match_nan, validity, out);
}

}  // namespace

#define LANEQL_PREDICATE_PUBLIC(T, Name)                                                      \
  HWY_EXPORT(Compare##Name);                                                                  \
  HWY_EXPORT(Between##Name);                                                                  \
  HWY_EXPORT(InList##Name);                                                                   \
  HWY_EXPORT(CompareColumns##Name);                                                           \
  void CompareToMask(const T* column, size_t rows, CompareOp op, T constant,                  \
                     const uint64_t* validity, uint64_t* out) {                               \
    CompareDispatch(HWY_DYNAMIC_DISPATCH(Compare##Name), column, rows, op, constant, validity, \
                    out);                                                                     \
  }                                                                                           \
  void BetweenToMask(const T* column, size_t rows, T lo, T hi, const uint64_t* validity,      \
                     uint64_t* out) {                                                         \
    BetweenDispatch(HWY_DYNAMIC_DISPATCH(Compare##Name), HWY_DYNAMIC_DISPATCH(Between##Name), \
                    column, rows, lo, hi, validity, out);                                     \
  }                                                                                           \
  void InListToMask(const T* column, size_t rows, const T* list, size_t list_size,            \
                    const uint64_t* validity, uint64_t* out) {                                \
    InListDispatch(HWY_DYNAMIC_DISPATCH(Compare##Name), HWY_DYNAMIC_DISPATCH(InList##Name),   \
                   column, rows, list, list_size, validity, out);                             \
  }                                                                                           \
  void CompareColumnsToMask(const T* a, const T* b, size_t rows, CompareOp op,                \
                            const uint64_t* validity_a, const uint64_t* validity_b,           \
                            uint64_t* out) {                                                  \
    if (rows == 0) return;                                                                    \
    const CoreOp core = ToCoreOp(op);                                                         \
    HWY_DYNAMIC_DISPATCH(CompareColumns##Name)(a, b, rows, core.op, core.flip, validity_a,    \
                                               validity_b, out);                              \
  }
LANEQL_PREDICATE_PUBLIC(int8_t, I8)
LANEQL_PREDICATE_PUBLIC(int16_t, I16)
LANEQL_PREDICATE_PUBLIC(int32_t, I32)
LANEQL_PREDICATE_PUBLIC(int64_t, I64)
LANEQL_PREDICATE_PUBLIC(uint8_t, U8)
LANEQL_PREDICATE_PUBLIC(uint16_t, U16)
LANEQL_PREDICATE_PUBLIC(uint32_t, U32)
LANEQL_PREDICATE_PUBLIC(uint64_t, U64)
LANEQL_PREDICATE_PUBLIC(float, F32)
LANEQL_PREDICATE_PUBLIC(double, F64)
#undef LANEQL_PREDICATE_PUBLIC

HWY_EXPORT(MaskedEqualTarget);
HWY_EXPORT(MaskAndTarget);
HWY_EXPORT(MaskOrTarget);
HWY_EXPORT(MaskAndNotTarget);
HWY_EXPORT(MaskNotTarget);
HWY_EXPORT(CountBitsTarget);
HWY_EXPORT(CountBitsAndTarget);
HWY_EXPORT(MaskToIndicesTarget);

void MaskedEqualToMask(const uint64_t* column, size_t rows, uint64_t bits, uint64_t value,
                       const uint64_t* validity, uint64_t* out) {
  HWY_DYNAMIC_DISPATCH(MaskedEqualTarget)(column, rows, bits, value, validity, out);
}
void MaskAnd(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  HWY_DYNAMIC_DISPATCH(MaskAndTarget)(a, b, rows, out);
}
void MaskOr(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  HWY_DYNAMIC_DISPATCH(MaskOrTarget)(a, b, rows, out);
}
void MaskAndNot(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  HWY_DYNAMIC_DISPATCH(MaskAndNotTarget)(a, b, rows, out);
}
void MaskNot(const uint64_t* a, size_t rows, const uint64_t* validity, uint64_t* out) {
  HWY_DYNAMIC_DISPATCH(MaskNotTarget)(a, rows, validity, out);
}
size_t CountBits(const uint64_t* words, size_t rows) {
  return HWY_DYNAMIC_DISPATCH(CountBitsTarget)(words, rows);
}
size_t CountBitsAnd(const uint64_t* a, const uint64_t* b, size_t rows) {
  return HWY_DYNAMIC_DISPATCH(CountBitsAndTarget)(a, b, rows);
}
size_t MaskToIndices(const uint64_t* words, size_t rows, uint32_t* out) {
  return HWY_DYNAMIC_DISPATCH(MaskToIndicesTarget)(words, rows, out);
}

}  // namespace laneql
#endif  // HWY_ONCE
