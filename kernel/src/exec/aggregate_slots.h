// One value of any column type, held by the library aggregates that keep values picked from
// their rows (aggregate_picks.cc, aggregate_ordered.cc).
#ifndef LANEQL_EXEC_AGGREGATE_SLOTS_H_
#define LANEQL_EXEC_AGGREGATE_SLOTS_H_

#include <string>

#include "laneql/column.h"
#include "laneql/int128.h"
#include "src/exec/vector.h"

namespace laneql {
namespace exec {

// Integers, booleans and times widened to int128, floats as double, strings as bytes.
struct Slot {
  Int128 integer = 0;
  double real = 0;
  std::string text;
  bool null = true;
};

// Reads row i of `vec` into *slot.
void ReadSlot(const Vec& vec, size_t i, Slot* slot);
// Appends the slot's value (or NULL) to `out`, a column of `type`.
bool AppendSlot(const Slot& slot, TypeId type, Column* out, std::string* error);
// a < b for two non-NULL slots of `type` (floats in DuckDB's total order: -0 < +0, NaN last).
bool SlotLess(const Slot& a, const Slot& b, TypeId type);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_AGGREGATE_SLOTS_H_
