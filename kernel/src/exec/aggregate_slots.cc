#include "src/exec/aggregate_slots.h"

#include <type_traits>

#include "laneql/aggregate.h"
#include "src/exec/expr_eval.h"

namespace laneql {
namespace exec {

void ReadSlot(const Vec& vec, size_t i, Slot* slot) {
  slot->null = vec.IsNull(i);
  if (slot->null) return;
  if (IsString(vec.type)) {
    slot->text.assign(vec.Str(i));
    return;
  }
  VisitFixed(vec.type, [&](auto tag) {
    using V = decltype(tag);
    if constexpr (std::is_floating_point_v<V>) slot->real = static_cast<double>(vec.Get<V>(i));
    else slot->integer = static_cast<Int128>(vec.Get<V>(i));
  });
}

bool AppendSlot(const Slot& slot, TypeId type, Column* out, std::string* error) {
  if (slot.null) return out->AppendNull(error);
  if (IsString(type)) return out->AppendString(slot.text, error);
  bool ok = true;
  VisitFixed(type, [&](auto tag) {
    using R = decltype(tag);
    if constexpr (std::is_floating_point_v<R>) ok = out->Append<R>(static_cast<R>(slot.real), error);
    else ok = out->Append<R>(static_cast<R>(slot.integer), error);
  });
  return ok;
}

bool SlotLess(const Slot& a, const Slot& b, TypeId type) {
  if (IsString(type)) return a.text < b.text;
  if (IsFloat(type)) return AggLess(a.real, b.real);
  return a.integer < b.integer;
}

}  // namespace exec
}  // namespace laneql
