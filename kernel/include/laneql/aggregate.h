// SUM, MIN, MAX and AVG over fixed-width columns (int8..int64, uint8..uint64, float32, float64;
// dates are int32, timestamps int64): SIMD kernels dispatched to the best target the CPU
// supports, the merge steps that combine per-range results (morsel parallelism), and the plain
// scalar references the kernels are tested against. COUNT is a popcount (predicate family).
//
// Which rows take part. A call covers rows [0, n) of `data` (a whole column or a range of one:
// pass pointer + n). `select` and `validity` are optional row bitmasks in laneql/bitmask.h's
// layout (nullptr = all rows selected / no NULLs) whose bit 0 is data[0]; for a range that
// starts at row r of a column, r must be a multiple of 64 and the masks are passed as mask + r/64.
// A row contributes if it is selected and non-null (SQL skips NULLs); bits past row n - 1 in the
// last mask word are ignored, so a range may end anywhere. Every result reports `count`, the
// number of contributing rows: SUM/MIN/MAX/AVG of no rows is SQL NULL (count == 0, value 0).
//
// Integer SUM is exact, as DuckDB's (SUM of any integer type is a 128-bit HUGEINT there).
//
// Float SUM (float32 is summed in double, as DuckDB's SUM(REAL) is DOUBLE: each value is
// converted to double first) follows laneql/sum.h's order exactly, with rows that do not
// contribute adding +0.0 in their accumulator slot: blocks of kSumBlockRows rows counted from
// data[0], row i into accumulator i % kSumAccumulators, pairwise fold, block sums added in block
// order from +0.0. So the result is bit-identical on every target and, through
// AggregateSumBlocks + FoldBlockSums, for every split into ranges that start at block boundaries.
// A NaN result is always the canonical quiet NaN (std::numeric_limits<double>::quiet_NaN()).
//
// Float MIN/MAX use DuckDB's order, a total order: -inf < ... < -0.0 < +0.0 < ... < +inf < NaN,
// all NaNs equal. So MAX is NaN if any contributing value is NaN, MIN is NaN only if all are,
// and -0.0 sorts below +0.0: MIN({+0.0, -0.0}) = -0.0 and MAX = +0.0 in any row order, on any
// target, for any split into ranges. A NaN result is the canonical quiet NaN of its type.
#ifndef LANEQL_AGGREGATE_H_
#define LANEQL_AGGREGATE_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "laneql/int128.h"
#include "laneql/sum.h"  // kSumAccumulators, kSumBlockRows: the float summation order

namespace laneql {

// An aggregate over some rows: its value and how many rows contributed (selected, non-null).
template <class V>
struct AggResult {
  V value{};           // 0 when count == 0
  uint64_t count = 0;  // rows that contributed
  bool any() const { return count != 0; }  // false = the SQL result is NULL
};

// SUM's value type: exact 128-bit for integers, double for float32 and float64.
template <class T>
using SumValue = std::conditional_t<std::is_floating_point_v<T>, double, Int128>;
using IntSum = AggResult<Int128>;
using FloatSum = AggResult<double>;

// The kernels, single-threaded, for T in {int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t,
// uint32_t, uint64_t, float, double} (instantiated in src/simd/aggregate.cc; other T do not link).
template <class T>
AggResult<SumValue<T>> AggregateSum(const T* data, size_t n, const uint64_t* select = nullptr,
                                    const uint64_t* validity = nullptr);
template <class T>
AggResult<T> AggregateMin(const T* data, size_t n, const uint64_t* select = nullptr,
                          const uint64_t* validity = nullptr);
template <class T>
AggResult<T> AggregateMax(const T* data, size_t n, const uint64_t* select = nullptr,
                          const uint64_t* validity = nullptr);

// Float SUM split into ranges (T = float or double): writes the ceil(n / kSumBlockRows) block
// sums of rows [0, n) and returns the number of contributing rows. Ranges that start at block
// boundaries of a column write disjoint parts of the column's block-sum array; FoldBlockSums over
// the whole array then equals AggregateSum over the whole column, bit for bit.
template <class T>
uint64_t AggregateSumBlocks(const T* data, size_t n, const uint64_t* select,
                            const uint64_t* validity, double* block_sums);
// Block sums added in block order, starting from +0.0; NaN canonical.
double FoldBlockSums(const double* block_sums, size_t blocks);

// ---- Merge steps: combine the results of disjoint row ranges (in any order for these) ----

// Float order of MIN/MAX (see above); for integers plain <.
template <class T>
inline bool AggLess(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(b)) return !std::isnan(a);
    if (std::isnan(a)) return false;
    if (a == b) return std::signbit(a) && !std::signbit(b);  // -0.0 < +0.0
  }
  return a < b;
}

inline IntSum MergeSum(const IntSum& a, const IntSum& b) {
  return IntSum{a.value + b.value, a.count + b.count};
}
template <class T>
AggResult<T> MergeMin(const AggResult<T>& a, const AggResult<T>& b) {
  if (!a.any()) return b;
  if (!b.any()) return a;
  return AggResult<T>{AggLess(b.value, a.value) ? b.value : a.value, a.count + b.count};
}
template <class T>
AggResult<T> MergeMax(const AggResult<T>& a, const AggResult<T>& b) {
  if (!a.any()) return b;
  if (!b.any()) return a;
  return AggResult<T>{AggLess(a.value, b.value) ? b.value : a.value, a.count + b.count};
}

// AVG from a (merged) SUM: the sum (integer sums correctly rounded to double) divided by the
// count, as DuckDB's AVG returns DOUBLE; count == 0 gives value 0 with any() false (NULL).
inline AggResult<double> AverageOf(const IntSum& sum) {
  if (!sum.any()) return {};
  return {static_cast<double>(sum.value) / static_cast<double>(sum.count), sum.count};
}
inline AggResult<double> AverageOf(const FloatSum& sum) {
  if (!sum.any()) return {};
  return {sum.value / static_cast<double>(sum.count), sum.count};
}

namespace reference {
// Plain scalar code, no Highway: the definitions the kernels are tested against.
template <class T>
AggResult<SumValue<T>> AggregateSum(const T* data, size_t n, const uint64_t* select = nullptr,
                                    const uint64_t* validity = nullptr);
template <class T>
AggResult<T> AggregateMin(const T* data, size_t n, const uint64_t* select = nullptr,
                          const uint64_t* validity = nullptr);
template <class T>
AggResult<T> AggregateMax(const T* data, size_t n, const uint64_t* select = nullptr,
                          const uint64_t* validity = nullptr);
}  // namespace reference

}  // namespace laneql

#endif  // LANEQL_AGGREGATE_H_
