// The conjuncts of a WHERE that zone maps (storage/zone_map.h) can decide for a whole block of
// rows: column <op> constant, column BETWEEN two constants, column IN constants, on a column
// type with zone maps. The filter judges each block of a batch before evaluating it: a block no
// row of which can pass one such conjunct is skipped (its mask words are 0 and no other conjunct
// reads it), and a conjunct every row of a block without NULLs passes is not evaluated there.
// The constants are read as the predicate kernels read them (ConstantAs), so a decision is the
// kernel's answer for every row of the block.
#ifndef LANEQL_EXEC_FILTER_ZONES_H_
#define LANEQL_EXEC_FILTER_ZONES_H_

#include <cstdint>
#include <type_traits>
#include <vector>

#include "laneql/table.h"
#include "src/plan/bound_expr.h"
#include "src/storage/zone_map.h"

namespace laneql {
namespace exec {

// A constant as the predicate kernels compare it with a column of C++ type T.
template <class T>
T ConstantAs(const plan::Value& v) {
  if constexpr (std::is_floating_point_v<T>) return static_cast<T>(v.real);
  else return static_cast<T>(v.integer);
}

enum class ZoneVerdict : uint8_t {
  kNone,  // no row of the block passes
  kSome,  // some rows may pass: evaluate
  kAll,   // every non-NULL row passes
};

struct ZoneTest {
  size_t column = 0;
  internal::ZoneMap* zones = nullptr;
  plan::Fn fn = plan::Fn::kEquals;  // a comparison, kBetween or kInList
  int64_t low = 0, high = 0;        // the constant (comparisons), BETWEEN's bounds (keys)
  std::vector<int64_t> list;        // IN's constants (keys), sorted
  // Blocks judged and blocks decided (none or all): a test that decides nothing in its first
  // kZoneTrialBlocks blocks is switched off for the rest of the query, so an unclustered
  // column pays for working out at most that many blocks per query.
  uint64_t judged = 0, decided = 0;
  bool off = false;
};
inline constexpr uint64_t kZoneTrialBlocks = 16;

// The test for `conjunct` over `table`, or false when zone maps cannot decide it.
bool MakeZoneTest(const plan::BoundExpr& conjunct, const Table& table, ZoneTest* test);

// What `test` says of a block with zone `zone` (kAll ignores NULLs: the caller checks them).
ZoneVerdict JudgeZone(const ZoneTest& test, const internal::Zone& zone);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_FILTER_ZONES_H_
