// SUM over int64 and float64 columns: the SIMD kernels (dispatched to the best target the CPU
// supports), their parallel driver, and the plain scalar references they are tested against.
#ifndef LANEQL_SUM_H_
#define LANEQL_SUM_H_

#include <cstddef>
#include <cstdint>

#include "laneql/int128.h"

namespace laneql {

// The float64 summation order, which every target and every thread count follows exactly, so
// results are bit-identical everywhere (no -ffast-math, no order left to the vector width):
//  - the input is cut into blocks of kSumBlockRows rows, counted from its first row;
//  - inside a block, row i is added to accumulator i % kSumAccumulators (each starts at +0.0),
//    in increasing row order;
//  - the accumulators are folded pairwise: acc[j] += acc[j + w] for w = 8, 4, 2, 1;
//  - block sums are added in block order, starting from +0.0.
// 16 accumulators fill two AVX-512 vectors, four AVX2 vectors or eight 128-bit vectors: enough
// independent add chains to stream at memory bandwidth on each of them.
inline constexpr size_t kSumAccumulators = 16;
inline constexpr size_t kSumBlockRows = 4096;

// SIMD kernels, single-threaded, dispatched at run time (see laneql/targets.h).
double SumFloat64(const double* data, size_t n);
// Writes ceil(n / kSumBlockRows) block sums; the building block for parallel sums.
void SumFloat64Blocks(const double* data, size_t n, double* block_sums);
// Exact: the result is the mathematical sum, which always fits in 128 bits for n < 2^64.
Int128 SumInt64(const int64_t* data, size_t n);

// The same sums split over `threads` threads (1 = the calling thread only). The float64 result
// is bit-identical to SumFloat64 for every thread count.
double SumFloat64Parallel(const double* data, size_t n, int threads);
Int128 SumInt64Parallel(const int64_t* data, size_t n, int threads);

namespace reference {
// Plain scalar code, no Highway: the definition the kernels are tested against.
double SumFloat64(const double* data, size_t n);
Int128 SumInt64(const int64_t* data, size_t n);
}  // namespace reference

}  // namespace laneql

#endif  // LANEQL_SUM_H_
