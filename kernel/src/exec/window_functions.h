// Window functions over the rows of a relation: each call's partitions, its ORDER BY inside
// them, its frames, and its value for every row (query_windows.cc evaluates a query's window
// calls with these; window_frames.h holds the frame and segment-tree pieces).
#ifndef LANEQL_EXEC_WINDOW_FUNCTIONS_H_
#define LANEQL_EXEC_WINDOW_FUNCTIONS_H_

#include <string>
#include <vector>

#include "laneql/column.h"
#include "src/exec/exec_context.h"
#include "src/exec/vector.h"
#include "src/plan/bound_expr.h"
#include "src/sql/ast.h"

namespace laneql {
namespace exec {

enum class WindowFn : uint8_t {
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,       // ntile(buckets)
  kLag,         // lag(x [, offset [, default]])
  kLead,
  kFirstValue,  // framed
  kLastValue,
  kNthValue,    // nth_value(x, n)
  kCountStar,   // the aggregates, framed (every one from here on)
  kCount,
  kSum,
  kAvg,
  kMin,
  kMax,
  kCountIf,
  kBoolAnd,
  kBoolOr,
  kLibrary,  // a library aggregate (median, string_agg, ...): WindowCall::library says which
};

// The function a call names (lower case), with its argument counts; false when `name` is no
// window function nor aggregate that runs as one.
bool FindWindowFn(const std::string& name, WindowFn* fn, size_t* min_args, size_t* max_args);
// Whether the function reads the frame (the others ignore it, as DuckDB's do).
bool UsesFrame(WindowFn fn);
// The result type for arguments of `arg_type` (the first argument's), or false with DuckDB's
// error text in *error when the function does not take that type.
bool WindowResultType(WindowFn fn, const std::string& name, TypeId arg_type, TypeId* out, std::string* error);

// One window call, its inputs evaluated over the relation's rows (each column as long as the
// relation).
struct WindowCall {
  WindowFn fn = WindowFn::kRowNumber;
  TypeId result_type = TypeId::kInt64;
  std::vector<const Column*> args;  // lag / lead's default already cast to args[0]'s type
  std::vector<const Column*> partition;
  std::vector<const Column*> order;
  std::vector<bool> descending, nulls_first;
  // The frame: kRows, kRange or kGroups (a window without a frame clause is RANGE UNBOUNDED
  // PRECEDING to CURRENT ROW, which without ORDER BY is the whole partition), less the rows
  // that `exclude` names.
  sql::FrameUnit unit = sql::FrameUnit::kRange;
  sql::FrameBoundKind start = sql::FrameBoundKind::kUnboundedPreceding;
  sql::FrameBoundKind end = sql::FrameBoundKind::kCurrentRow;
  sql::FrameExclude exclude = sql::FrameExclude::kNone;
  const Column* start_offset = nullptr;  // n PRECEDING / FOLLOWING, one value a row
  const Column* end_offset = nullptr;
  // IGNORE NULLS (lag, lead, first_value, last_value, nth_value): positions count the rows
  // whose args[0] is not NULL.
  bool ignore_nulls = false;
  // agg(DISTINCT ...): each distinct argument value (tuple) of the frame once.
  bool distinct = false;
  // row_number() under QUALIFY row_number() <= top_rows (0: not so): only the first top_rows
  // rows of each partition need their number, the others get a number above it (QUALIFY drops
  // them), found by a bounded heap per partition instead of sorting the partitions where the
  // partitions are few enough for the heaps (window_partitions.h).
  size_t top_rows = 0;
  // kLibrary: the aggregate (function, parameters, argument and result types).
  const plan::Aggregate* library = nullptr;
  // kLibrary, agg(x ORDER BY k1 DESC, ...) for an aggregate whose answer depends on the order
  // of its rows (string_agg, first, ...): the keys each frame's rows are fed in (ties in the
  // window's order); empty otherwise.
  std::vector<const Column*> arg_order;
  std::vector<bool> arg_descending, arg_nulls_first;
};

// The call's value for each of `rows` rows, in row order. Partitions are sorted on the
// context's threads (ties keep the relation's row order) and evaluated in parallel, a
// partition on one thread. False with the error (DuckDB's text) in *error.
// A column read as a Vec over all its rows, borrowing its buffers.
bool BorrowVec(const Column& column, Vec* out, std::string* error);
bool ComputeWindow(const WindowCall& call, size_t rows, const ExecContext& ctx, Column* out, std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_WINDOW_FUNCTIONS_H_
