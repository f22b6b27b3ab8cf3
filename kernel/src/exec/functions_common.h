// What the library's function kernels (functions_*.cc) share: whether a call's arguments are all
// constants (then so is its result: one stored row) and the NULL rule of strict functions.
#ifndef LANEQL_EXEC_FUNCTIONS_COMMON_H_
#define LANEQL_EXEC_FUNCTIONS_COMMON_H_

#include <string>
#include <vector>

#include "src/exec/vector.h"

namespace laneql {
namespace exec {

inline bool AllConstant(const std::vector<Vec>& args) {
  for (const Vec& a : args) {
    if (!a.constant) return false;
  }
  return true;
}

// Whether any argument is NULL at row i.
inline bool AnyNull(const std::vector<Vec>& args, size_t i) {
  for (const Vec& a : args) {
    if (a.IsNull(i)) return true;
  }
  return false;
}

// out's validity for a strict function: NULL where any argument is NULL.
inline bool StrictValidity(const std::vector<Vec>& args, Vec* out, std::string* error) {
  bool any = false;
  for (const Vec& a : args) any = any || a.validity != nullptr;
  if (!any) return true;
  uint64_t* bits = out->InitValidity(error);
  if (bits == nullptr) return false;
  for (size_t i = 0; i < out->stored(); ++i) {
    if (AnyNull(args, i)) bits[i / 64] &= ~(uint64_t{1} << (i % 64));
  }
  return true;
}

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_FUNCTIONS_COMMON_H_
