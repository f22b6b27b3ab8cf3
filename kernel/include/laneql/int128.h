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

}  // namespace laneql

#endif  // LANEQL_INT128_H_
