// An input of a join pipeline (query_join_chain.cc, query_mark_join.cc): a relation and, for a
// filtered scan, the rows its filter kept, so that nothing is copied before the join has cut
// the rows. Row numbers in a pipeline count the input's rows (0 .. rows() - 1), mapped through
// the selection when columns are gathered.
#ifndef LANEQL_EXEC_CHAIN_INPUT_H_
#define LANEQL_EXEC_CHAIN_INPUT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/exec/hash_join.h"
#include "src/exec/relation.h"

namespace laneql {
namespace exec {

struct ChainInput {
  Relation relation;
  std::vector<uint32_t> selection;
  bool all = true;
  size_t rows() const { return all ? relation.table->num_rows() : selection.size(); }
  // A pipeline row's row in the relation (kNoRow, the missing side of a LEFT join, stays so).
  uint32_t Physical(uint32_t row) const { return all || row == kNoRow ? row : selection[row]; }
};

// `column` (of the input's relation, or a column as long as it) at the pipeline rows `rows`.
bool GatherAt(const ChainInput& in, const Column& column, const std::vector<uint32_t>& rows, Column* out,
              std::string* error);

// The index of the one column of `scope` a column reference names as the binder resolves it
// (qualified: in that table; unqualified: among the visible columns); -1 when none or several.
int LocateColumn(const plan::ColumnScope& scope, const sql::Expr& expr);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_CHAIN_INPUT_H_
