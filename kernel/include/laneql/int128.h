// 128-bit integers: SUM(BIGINT) widens to 128 bits (DuckDB's HUGEINT) so it cannot overflow.
#ifndef LANEQL_INT128_H_
#define LANEQL_INT128_H_

#include <cstdint>
#include <string>

namespace laneql {

// GCC and Clang (Emscripten included) provide __int128 on every target we build for.
using Int128 = __int128;

// Decimal text, e.g. "-170141183460469231731687303715884105728".
std::string Int128ToString(Int128 value);

inline int64_t Int128High(Int128 v) { return static_cast<int64_t>(v >> 64); }
inline uint64_t Int128Low(Int128 v) { return static_cast<uint64_t>(v); }

// HUGEINT -> DOUBLE as DuckDB converts it (CAST, arithmetic with a DOUBLE, and since DuckDB 2.0
// AVG of integers, which divides this double of the sum by the count): the two 64-bit halves
// converted separately and added, so values beyond 64 bits, and negative ones below -2^53, may
// round to a neighbour of the nearest double. Results must be DuckDB's to the last bit.
inline double Int128ToDouble(Int128 v) {
  const int64_t high = Int128High(v);
  const uint64_t low = Int128Low(v);
  // -2^64 <= v < 0: -(UINT64_MAX - low) - 1, UINT64_MAX - low being ~low.
  if (high == -1) return -static_cast<double>(~low) - 1.0;
  return static_cast<double>(low) + static_cast<double>(high) * 18446744073709551616.0;
}

}  // namespace laneql

#endif  // LANEQL_INT128_H_
