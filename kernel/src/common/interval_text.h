// TIME and INTERVAL text as DuckDB reads it (the casts from VARCHAR, the literals, CSV fields).
#ifndef LANEQL_COMMON_INTERVAL_TEXT_H_
#define LANEQL_COMMON_INTERVAL_TEXT_H_

#include <cstdint>
#include <string>

#include "laneql/interval.h"

namespace laneql {
namespace civil {

// "HH:MM[:SS[.ffffff]]" (up to 24:00:00), spaces around allowed -> microseconds since midnight.
bool ParseTime(const std::string& text, int64_t* micros);
// "1 year 2 months", "3 days 04:05:06.5", "90 minutes", "1.5 days", "3days", "2 weeks ago",
// "-01:30". False for anything else (and for parts past int32 months / days or int64
// microseconds).
bool ParseInterval(const std::string& text, Interval* out);

}  // namespace civil
}  // namespace laneql

#endif  // LANEQL_COMMON_INTERVAL_TEXT_H_
