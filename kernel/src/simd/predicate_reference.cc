// Scalar references for the predicate kernels: row-by-row loops that spell out laneql/predicate.h
// directly (a three-way comparison in DuckDB's float order, then the operator), without the
// kernels' reductions (NOT of the word, IEEE tricks for NaN constants). No Highway.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "laneql/bitmask.h"
#include "laneql/predicate.h"

namespace laneql {
namespace reference {
namespace {

// -1, 0 or 1 as a is below, equal to or above b in the SQL order: for floats NaN == NaN,
// NaN > everything else, -0.0 == +0.0 (IEEE's == and < already treat the zeros as equal).
template <typename T>
int Compare3(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    const bool a_nan = std::isnan(a), b_nan = std::isnan(b);
    if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
  }
  return a < b ? -1 : (b < a ? 1 : 0);
}

bool Holds(int cmp, CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return cmp == 0;
    case CompareOp::kNe: return cmp != 0;
    case CompareOp::kLt: return cmp < 0;
    case CompareOp::kLe: return cmp <= 0;
    case CompareOp::kGt: return cmp > 0;
    case CompareOp::kGe: return cmp >= 0;
  }
  return false;
}

// Clears the BitmaskWords(rows) words, then sets the bit of every non-null row where selected(i).
template <class Selected>
void WriteMask(size_t rows, const uint64_t* validity, uint64_t* out, const Selected& selected) {
  for (size_t w = 0; w < BitmaskWords(rows); ++w) out[w] = 0;
  for (size_t i = 0; i < rows; ++i) {
    const bool valid = validity == nullptr || BitmaskGet(validity, i);
    if (valid && selected(i)) BitmaskSet(out, i);
  }
}

template <typename T>
void CompareImpl(const T* x, size_t rows, CompareOp op, T c, const uint64_t* validity,
                 uint64_t* out) {
  WriteMask(rows, validity, out, [&](size_t i) { return Holds(Compare3(x[i], c), op); });
}

template <typename T>
void BetweenImpl(const T* x, size_t rows, T lo, T hi, const uint64_t* validity, uint64_t* out) {
  WriteMask(rows, validity, out,
            [&](size_t i) { return Compare3(x[i], lo) >= 0 && Compare3(x[i], hi) <= 0; });
}

template <typename T>
void InListImpl(const T* x, size_t rows, const T* list, size_t list_size,
                const uint64_t* validity, uint64_t* out) {
  WriteMask(rows, validity, out, [&](size_t i) {
    for (size_t k = 0; k < list_size; ++k) {
      if (Compare3(x[i], list[k]) == 0) return true;
    }
    return false;
  });
}

template <typename T>
void CompareColumnsImpl(const T* a, const T* b, size_t rows, CompareOp op, const uint64_t* validity_a,
                        const uint64_t* validity_b, uint64_t* out) {
  for (size_t w = 0; w < BitmaskWords(rows); ++w) out[w] = 0;
  for (size_t i = 0; i < rows; ++i) {
    const bool valid = (validity_a == nullptr || BitmaskGet(validity_a, i)) &&
                       (validity_b == nullptr || BitmaskGet(validity_b, i));
    if (valid && Holds(Compare3(a[i], b[i]), op)) BitmaskSet(out, i);
  }
}

}  // namespace

#define LANEQL_PREDICATE_REFERENCE(T)                                                     \
  void CompareToMask(const T* column, size_t rows, CompareOp op, T constant,             \
                     const uint64_t* validity, uint64_t* out) {                          \
    CompareImpl(column, rows, op, constant, validity, out);                              \
  }                                                                                      \
  void BetweenToMask(const T* column, size_t rows, T lo, T hi, const uint64_t* validity, \
                     uint64_t* out) {                                                    \
    BetweenImpl(column, rows, lo, hi, validity, out);                                    \
  }                                                                                      \
  void InListToMask(const T* column, size_t rows, const T* list, size_t list_size,       \
                    const uint64_t* validity, uint64_t* out) {                           \
    InListImpl(column, rows, list, list_size, validity, out);                            \
  }                                                                                      \
  void CompareColumnsToMask(const T* a, const T* b, size_t rows, CompareOp op,           \
                            const uint64_t* validity_a, const uint64_t* validity_b,      \
                            uint64_t* out) {                                             \
    CompareColumnsImpl(a, b, rows, op, validity_a, validity_b, out);                     \
  }
LANEQL_PREDICATE_REFERENCE(int8_t)
LANEQL_PREDICATE_REFERENCE(int16_t)
LANEQL_PREDICATE_REFERENCE(int32_t)
LANEQL_PREDICATE_REFERENCE(int64_t)
LANEQL_PREDICATE_REFERENCE(uint8_t)
LANEQL_PREDICATE_REFERENCE(uint16_t)
LANEQL_PREDICATE_REFERENCE(uint32_t)
LANEQL_PREDICATE_REFERENCE(uint64_t)
LANEQL_PREDICATE_REFERENCE(float)
LANEQL_PREDICATE_REFERENCE(double)
#undef LANEQL_PREDICATE_REFERENCE

void MaskAnd(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  // Row by row into a temporary so that out may alias a or b.
  std::vector<uint64_t> r(BitmaskWords(rows), 0);
  for (size_t i = 0; i < rows; ++i) {
    if (BitmaskGet(a, i) && BitmaskGet(b, i)) BitmaskSet(r.data(), i);
  }
  std::copy(r.begin(), r.end(), out);
}

void MaskOr(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  std::vector<uint64_t> r(BitmaskWords(rows), 0);
  for (size_t i = 0; i < rows; ++i) {
    if (BitmaskGet(a, i) || BitmaskGet(b, i)) BitmaskSet(r.data(), i);
  }
  std::copy(r.begin(), r.end(), out);
}

void MaskedEqualToMask(const uint64_t* column, size_t rows, uint64_t bits, uint64_t value,
                       const uint64_t* validity, uint64_t* out) {
  std::vector<uint64_t> r(BitmaskWords(rows), 0);
  for (size_t i = 0; i < rows; ++i) {
    const bool valid = validity == nullptr || BitmaskGet(validity, i);
    if (valid && (column[i] & bits) == value) BitmaskSet(r.data(), i);
  }
  std::copy(r.begin(), r.end(), out);
}

void MaskAndNot(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out) {
  std::vector<uint64_t> r(BitmaskWords(rows), 0);
  for (size_t i = 0; i < rows; ++i) {
    if (BitmaskGet(a, i) && !BitmaskGet(b, i)) BitmaskSet(r.data(), i);
  }
  std::copy(r.begin(), r.end(), out);
}

void MaskNot(const uint64_t* a, size_t rows, const uint64_t* validity, uint64_t* out) {
  std::vector<uint64_t> r(BitmaskWords(rows), 0);
  for (size_t i = 0; i < rows; ++i) {
    const bool valid = validity == nullptr || BitmaskGet(validity, i);
    if (valid && !BitmaskGet(a, i)) BitmaskSet(r.data(), i);
  }
  std::copy(r.begin(), r.end(), out);
}

size_t CountBits(const uint64_t* words, size_t rows) {
  size_t n = 0;
  for (size_t i = 0; i < rows; ++i) n += BitmaskGet(words, i);
  return n;
}

size_t CountBitsAnd(const uint64_t* a, const uint64_t* b, size_t rows) {
  size_t n = 0;
  for (size_t i = 0; i < rows; ++i) n += BitmaskGet(a, i) && BitmaskGet(b, i);
  return n;
}

size_t MaskToIndices(const uint64_t* words, size_t rows, uint32_t* out) {
  size_t n = 0;
  for (size_t i = 0; i < rows; ++i) {
    if (BitmaskGet(words, i)) out[n++] = static_cast<uint32_t>(i);
  }
  return n;
}

}  // namespace reference
}  // namespace laneql
