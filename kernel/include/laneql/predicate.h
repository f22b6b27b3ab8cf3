// Predicates to row bitmasks: column-vs-constant and column-vs-column comparisons, BETWEEN and
// IN over fixed-width columns, and the word-wise algebra that combines their masks (AND / OR / AND NOT / NOT),
// counts them and turns them into selection vectors. Masks follow laneql/bitmask.h: row i is bit
// i % 64 of word i / 64, bits past the last row are 0. Every kernel writes exactly
// BitmaskWords(rows) words and reads only its own rows (no over-reads for tails).
//
// Types: int8/16/32/64, uint8/16/32/64, float32, float64. SQL DATE columns are int32 (days) and
// TIMESTAMP columns int64 (microseconds), so they use the int32 / int64 overloads. The constant
// has the column's type: casting a SQL constant to it (and deciding what a constant outside the
// type's range means, e.g. `int8_col < 300`) is the caller's job, done before the call.
//
// NULLs: `validity` (1 = non-null, nullptr = no nulls) is ANDed into every result, so a NULL row
// is never selected, whatever the operator: in SQL a comparison with NULL is NULL, and WHERE
// keeps only TRUE rows. The same holds for MaskNot when it is given the validity bitmap.
//
// Float order (DuckDB's, not IEEE's): NaN equals NaN (any payload, any sign) and is greater than
// every other value, +inf included; -0.0 equals +0.0. So for floats
//   -inf < ... < -0.0 == +0.0 < ... < +inf < NaN
// is a total order, and =, <>, <, <=, >, >=, BETWEEN and IN all follow it: `x > 1.0` and
// `x <> 1.0` select NaN rows, `x = 'NaN'` selects exactly the NaN rows, `x < 'NaN'` selects every
// non-NaN row. (IEEE comparisons would make every comparison with NaN false.)
#ifndef LANEQL_PREDICATE_H_
#define LANEQL_PREDICATE_H_

#include <cstddef>
#include <cstdint>

namespace laneql {

// column[i] <op> constant.
enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

// IN lists of up to this many constants are matched with SIMD compares (one per constant);
// longer lists fall back to a scalar binary search over a sorted copy of the list.
inline constexpr size_t kInListSimdMax = 16;

// out[BitmaskWords(rows)] = bitmask of the rows where column[i] <op> constant is TRUE.
// `column` need not be aligned; `out` must not overlap `column` or `validity`.
#define LANEQL_PREDICATE_DECLARE(T)                                                           \
  void CompareToMask(const T* column, size_t rows, CompareOp op, T constant,                 \
                     const uint64_t* validity, uint64_t* out);                               \
  /* lo <= column[i] AND column[i] <= hi (inclusive; empty when lo > hi). */                 \
  void BetweenToMask(const T* column, size_t rows, T lo, T hi, const uint64_t* validity,     \
                     uint64_t* out);                                                         \
  /* column[i] IN (list[0], ..., list[list_size - 1]); duplicates are fine, an empty list */ \
  /* selects nothing. */                                                                     \
  void InListToMask(const T* column, size_t rows, const T* list, size_t list_size,           \
                    const uint64_t* validity, uint64_t* out);                                \
  /* a[i] <op> b[i], two columns of one type (float order as above: NaN = NaN, above all); */ \
  /* a row is selected only where both columns are valid. */                                 \
  void CompareColumnsToMask(const T* a, const T* b, size_t rows, CompareOp op,               \
                            const uint64_t* validity_a, const uint64_t* validity_b,          \
                            uint64_t* out);
LANEQL_PREDICATE_DECLARE(int8_t)
LANEQL_PREDICATE_DECLARE(int16_t)
LANEQL_PREDICATE_DECLARE(int32_t)
LANEQL_PREDICATE_DECLARE(int64_t)
LANEQL_PREDICATE_DECLARE(uint8_t)
LANEQL_PREDICATE_DECLARE(uint16_t)
LANEQL_PREDICATE_DECLARE(uint32_t)
LANEQL_PREDICATE_DECLARE(uint64_t)
LANEQL_PREDICATE_DECLARE(float)
LANEQL_PREDICATE_DECLARE(double)

// (column[i] & bits) == value, ANDed with `validity` when given (`out` overlapping neither, as
// above). An owned scan's split of GROUP BY keys among threads by hash bits
// (src/exec/hash_ownership.h) marks each thread's rows with it.
void MaskedEqualToMask(const uint64_t* column, size_t rows, uint64_t bits, uint64_t value,
                       const uint64_t* validity, uint64_t* out);

// Mask algebra over BitmaskWords(rows) words. `out` may be the same buffer as an input (in-place
// updates such as MaskAnd(sel, other, rows, sel) are fine). Bits past `rows` come out 0 even if
// an input has stray bits there.
void MaskAnd(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out);
void MaskOr(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out);
// a AND NOT b: the rows of a that are not in b.
void MaskAndNot(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out);
// NOT a, restricted to non-null rows when `validity` is given (SQL: NOT NULL is NULL, which WHERE
// drops). Without validity the caller asserts a has no NULL rows to re-select.
void MaskNot(const uint64_t* a, size_t rows, const uint64_t* validity, uint64_t* out);

// Number of selected rows among the first `rows`.
size_t CountBits(const uint64_t* words, size_t rows);
// Number of rows selected by both a and b (popcount of a & b), without materialising a & b.
size_t CountBitsAnd(const uint64_t* a, const uint64_t* b, size_t rows);
// Writes the selected row numbers in ascending order (a selection vector) and returns how many.
// `out` needs room for CountBits(words, rows) entries; nothing past them is ever written.
// Requires rows <= 2^32. Sparse words go bit by bit, dense words through SIMD compression.
size_t MaskToIndices(const uint64_t* words, size_t rows, uint32_t* out);

namespace reference {
// Plain scalar code, no Highway, row by row: the definition the kernels are tested against.
LANEQL_PREDICATE_DECLARE(int8_t)
LANEQL_PREDICATE_DECLARE(int16_t)
LANEQL_PREDICATE_DECLARE(int32_t)
LANEQL_PREDICATE_DECLARE(int64_t)
LANEQL_PREDICATE_DECLARE(uint8_t)
LANEQL_PREDICATE_DECLARE(uint16_t)
LANEQL_PREDICATE_DECLARE(uint32_t)
LANEQL_PREDICATE_DECLARE(uint64_t)
LANEQL_PREDICATE_DECLARE(float)
LANEQL_PREDICATE_DECLARE(double)
void MaskedEqualToMask(const uint64_t* column, size_t rows, uint64_t bits, uint64_t value,
                       const uint64_t* validity, uint64_t* out);
void MaskAnd(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out);
void MaskOr(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out);
void MaskAndNot(const uint64_t* a, const uint64_t* b, size_t rows, uint64_t* out);
void MaskNot(const uint64_t* a, size_t rows, const uint64_t* validity, uint64_t* out);
size_t CountBits(const uint64_t* words, size_t rows);
size_t CountBitsAnd(const uint64_t* a, const uint64_t* b, size_t rows);
size_t MaskToIndices(const uint64_t* words, size_t rows, uint32_t* out);
}  // namespace reference

#undef LANEQL_PREDICATE_DECLARE

}  // namespace laneql

#endif  // LANEQL_PREDICATE_H_
