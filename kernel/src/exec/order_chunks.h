// ORDER BY over many candidates a chunk at a time: a Vec's strings have int32 offsets, so the
// keys of all candidates at once cannot hold a string key of over 2 GiB of text (a large_string
// column); these evaluate the keys of 2^20 candidates at a time instead.
#ifndef LANEQL_EXEC_ORDER_CHUNKS_H_
#define LANEQL_EXEC_ORDER_CHUNKS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "src/exec/exec_context.h"
#include "src/exec/expr_eval.h"
#include "src/exec/string_chunks.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// The positions (into `candidates`, ascending) of the candidates among the first `keep` in the
// plan's order: each chunk's first `keep` by its own sort. Sorting these alone gives the first
// `keep` of all: ties fall by tiebreak (per candidate position, or null), then position, and
// the positions keep their order.
bool TopCandidatesByChunks(const plan::Plan& plan, const ExecContext& ctx, Evaluator* evaluator,
                           const RowSet& candidates, const uint64_t* tiebreak, size_t keep,
                           std::vector<uint32_t>* positions, std::string* error);

// The first `keep` positions of `candidates` in the plan's order (ties by tiebreak, then
// position), as SortPositions gives them: each chunk's keys evaluated and sorted on their own,
// the chunks' runs then merged.
bool SortByChunks(const plan::Plan& plan, const ExecContext& ctx, Evaluator* evaluator, const RowSet& candidates,
                  const uint64_t* tiebreak, size_t keep, std::vector<uint32_t>* positions, std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_ORDER_CHUNKS_H_
