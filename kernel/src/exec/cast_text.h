// CAST(x AS VARCHAR) over a vector for the types whose text laneql writes itself: integers,
// BOOLEAN, floats, DATE and the TIMESTAMPs, each row as plan::ValueToText spells it.
#ifndef LANEQL_EXEC_CAST_TEXT_H_
#define LANEQL_EXEC_CAST_TEXT_H_

#include <string>

#include "src/exec/vector.h"

namespace laneql {
namespace exec {

// *out = `in` cast to VARCHAR; false (nothing done) for other types; *ok false on a failure
// (an allocation, a result past 2 GiB) with *error.
bool CastToText(const Vec& in, Vec* out, std::string* error, bool* ok);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_CAST_TEXT_H_
