// GROUP BY keys that are functions of other keys alone: GROUP BY ClientIP, ClientIP - 1 (or a
// constant key next to URL) has exactly the groups of GROUP BY ClientIP, so only ClientIP is
// hashed and ClientIP - 1 is computed per group, from the group's ClientIP, when the result
// is built. The group scope keeps its columns (every key in GROUP BY order, then the
// aggregates); the executor inserts the derived keys' columns at their places.
//
// A derived key is evaluated on every group, not only on the groups the result shows, so an
// error it raises (an overflow, a failed cast) is raised exactly when evaluating it on every
// row would have raised one: each row's key values are some group's.
#ifndef LANEQL_PLAN_DERIVED_KEYS_H_
#define LANEQL_PLAN_DERIVED_KEYS_H_

#include "src/plan/bound_expr.h"

namespace laneql {
namespace plan {

// Moves the keys that qualify from plan->group_keys to plan->derived_keys. A key qualifies when
// it is not a bare column, every column it reads is also a key by itself (a bare column that is
// not floating-point: grouping takes -0.0 and 0.0 for one key, and 1 / x would tell them
// apart), and at least one key stays hashed (no keys at all would be an ungrouped query, which
// gives a row even for no rows).
void SplitDerivedKeys(Plan* plan);

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_DERIVED_KEYS_H_
