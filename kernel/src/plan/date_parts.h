// The names of date and time parts, with DuckDB's aliases ('y', 'yr', 'mon', 'dayofweek', ...),
// for extract, date_part, date_trunc and date_diff.
#ifndef LANEQL_PLAN_DATE_PARTS_H_
#define LANEQL_PLAN_DATE_PARTS_H_

#include <string>

#include "src/plan/bound_expr.h"

namespace laneql {
namespace plan {

// The part a name (any case) stands for; false for none.
bool ParseDatePart(const std::string& name, DatePart* part);
// The parts' canonical names, for error messages: "year, quarter, month, ...".
std::string DatePartNames();
// Whether extract gives this part as DOUBLE (epoch, julian) rather than BIGINT.
inline bool DatePartIsDouble(DatePart part) { return part == DatePart::kEpoch || part == DatePart::kJulian; }

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_DATE_PARTS_H_
