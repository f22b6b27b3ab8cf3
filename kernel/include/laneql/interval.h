// INTERVAL values (DuckDB's): months, days and microseconds, each kept apart because a month
// has no fixed number of days nor a day (across a time change) of microseconds. A column of
// TypeId::kInterval holds each as the int128 months · 2^96 + days · 2^64 + microseconds
// (types.h), which the engine compares, hashes and sorts as an integer.
#ifndef LANEQL_INTERVAL_H_
#define LANEQL_INTERVAL_H_

#include <cstdint>

#include "laneql/int128.h"

namespace laneql {

struct Interval {
  int32_t months = 0;
  int32_t days = 0;
  int64_t micros = 0;
};

inline Int128 PackInterval(const Interval& v) {
  // In unsigned arithmetic, which wraps: a left shift of a negative value, or a sum past the
  // int128 range at the parts' extremes, would be undefined behaviour in signed arithmetic.
  using U = unsigned __int128;
  const U packed = (static_cast<U>(static_cast<Int128>(v.months)) << 96) +
                   (static_cast<U>(static_cast<Int128>(v.days)) << 64) + static_cast<U>(static_cast<Int128>(v.micros));
  return static_cast<Int128>(packed);
}

inline Interval UnpackInterval(Int128 packed) {
  using U = unsigned __int128;
  const U u = static_cast<U>(packed);
  Interval v;
  v.micros = static_cast<int64_t>(static_cast<uint64_t>(u));  // the low 64 bits, signed
  // (months · 2^32 + days) mod 2^64, then each part's 32 bits.
  const uint64_t rest = static_cast<uint64_t>((u - static_cast<U>(static_cast<Int128>(v.micros))) >> 64);
  v.days = static_cast<int32_t>(static_cast<uint32_t>(rest));
  v.months = static_cast<int32_t>(static_cast<uint32_t>((rest - static_cast<uint64_t>(static_cast<int64_t>(v.days))) >> 32));
  return v;
}

}  // namespace laneql

#endif  // LANEQL_INTERVAL_H_
