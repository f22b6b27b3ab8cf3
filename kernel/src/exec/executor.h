// Runs a bound Plan over its table and builds the Result: a morsel-parallel scan in batches
// (filter -> keys -> group ids -> aggregate states, per thread), the merge of the threads'
// states, then the group relation (HAVING), the outputs, ORDER BY as a full or top-N sort,
// OFFSET / LIMIT. Results do not depend on the thread count (see DESIGN in the README).
#ifndef LANEQL_EXEC_EXECUTOR_H_
#define LANEQL_EXEC_EXECUTOR_H_

#include <new>
#include <string>

#include "laneql/result.h"
#include "src/common/query_budget.h"
#include "src/exec/exec_context.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// Rows per batch: a multiple of 4096 (the float SUM block) and of 64 (bitmask words), small
// enough that a batch's masks, hashes and group ids stay in L2.
inline constexpr size_t kBatchRows = 16384;

// Never throws (an allocation failure becomes an error Result).
Result Execute(const plan::Plan& plan, const ExecContext& ctx);

// The rows of plan.table where plan.where holds (all rows without one), in order, found by
// morsels in parallel. With `top_n` > 0, each morsel keeps only its top_n first rows in the
// plan's ORDER BY order (a superset of the query's top rows). False with *error set on an
// evaluation error or a stop; may throw QueryAbort (see CatchQueryAborts).
bool SelectRows(const plan::Plan& plan, const ExecContext& ctx, size_t top_n, std::vector<uint32_t>* ids,
                std::string* error);

// body()'s Result, or the error that stopped it: a QueryAbort (stopped, or over the memory
// limit where an error cannot be returned, e.g. inside a sort) or a failed allocation.
template <class Body>
Result CatchQueryAborts(const Body& body) {
  try {
    return body();
  } catch (const QueryAbort& abort) {
    return Result::Error(abort.what());
  } catch (const std::bad_alloc&) {
    return Result::Error("out of memory while running the query");
  } catch (...) {
    // Where typed handlers match nothing (the wasm pthread runtime, see QueryAbort): an abort
    // recorded its message; anything else is, there, almost always a failed allocation.
    const std::string message = CurrentQueryAbortMessage();
    if (!message.empty()) return Result::Error(message);
#ifdef __EMSCRIPTEN__
    return Result::Error("out of memory while running the query");
#else
    throw;
#endif
  }
}

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_EXECUTOR_H_
