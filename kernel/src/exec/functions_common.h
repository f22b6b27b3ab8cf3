// What the library's function kernels (functions_*.cc) share: whether a call's arguments are all
// constants (then so is its result: one stored row) and the NULL rule of strict functions.
#ifndef LANEQL_EXEC_FUNCTIONS_COMMON_H_
#define LANEQL_EXEC_FUNCTIONS_COMMON_H_

#include <algorithm>
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

// out's validity for a strict function: NULL where any argument is NULL. Word by word (a bit
// test per row and argument was a third of sum(abs(i))); every argument's bitmap starts at its
// row 0, and a constant's one bit stands for every row.
inline bool StrictValidity(const std::vector<Vec>& args, Vec* out, std::string* error) {
  bool any = false;
  for (const Vec& a : args) any = any || a.validity != nullptr;
  if (!any) return true;
  uint64_t* bits = out->InitValidity(error);  // the bits past the last row stay 0
  if (bits == nullptr) return false;
  const size_t words = BitmaskWords(out->stored());
  for (const Vec& a : args) {
    if (a.validity == nullptr) continue;
    if (a.constant) {
      if (a.IsNull(0)) std::fill(bits, bits + words, uint64_t{0});
      continue;
    }
    const uint64_t* from = a.validity;
    for (size_t w = 0; w < words; ++w) bits[w] &= from[w];
  }
  return true;
}

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_FUNCTIONS_COMMON_H_
