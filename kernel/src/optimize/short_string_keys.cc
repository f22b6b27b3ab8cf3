// GROUP BY keys that are string columns whose every value has at most 7 bytes are hashed as
// integers: each value's bytes and length packed into a UINT16, UINT32 or UINT64 (the smallest
// that holds the longest value), so the grouper takes its packed-word or lookup-table path
// instead of serialising strings, and what reads the key per group (the SELECT list, HAVING, a
// derived key) reads it unpacked. TPC-H Q1 groups 6 M rows by l_returnflag, l_linestatus (one
// byte each): two UINT16 keys instead of two strings. The longest value is measured over the
// whole column's offsets, stopping at the first value longer than 7 bytes.
#include "src/optimize/optimizer.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "laneql/table.h"
#include "src/plan/function_arguments.h"

namespace laneql {
namespace optimize {
namespace {

constexpr size_t kMaxPackedBytes = 7;

// The longest value of a string column, or kMaxPackedBytes + 1 when some value is longer.
size_t LongestUpTo(const Column& column) {
  const int32_t* offsets = column.Offsets32();
  size_t longest = 0;
  const size_t rows = column.length();
  for (size_t begin = 0; begin < rows; begin += 4096) {
    const size_t end = std::min(rows, begin + 4096);
    int32_t block = 0;  // branch-free within a block, one test per block
    for (size_t i = begin; i < end; ++i) block = std::max(block, offsets[i + 1] - offsets[i]);
    longest = std::max(longest, static_cast<size_t>(block));
    if (longest > kMaxPackedBytes) return kMaxPackedBytes + 1;
  }
  return longest;
}

// Every reference to group-scope column `column` in *expr becomes unpack(reference).
void Unpack(plan::BoundExprPtr* expr, int column, TypeId word) {
  plan::BoundExpr& e = **expr;
  if (e.kind == plan::BoundKind::kColumn) {
    if (e.column != column) return;
    const bool nullable = e.nullable;
    const plan::SourcePos pos = e.pos;
    std::vector<plan::BoundExprPtr> args;
    args.push_back(plan::MakeColumn(column, word, nullable, pos));
    *expr = plan::ScalarCall(plan::ScalarFn::kUnpackShortString, TypeId::kString, pos, std::move(args));
    (*expr)->nullable = nullable;
    return;
  }
  for (plan::BoundExprPtr& arg : e.args) Unpack(&arg, column, word);
}

}  // namespace

void PackShortStringKeys(plan::Plan* plan) {
  if (!plan->aggregate || plan->table == nullptr || plan->answer_from_metadata) return;
  for (size_t h = 0, position = 0; h < plan->group_keys.size(); ++position) {
    // The key's column in the group scope (derived keys take their own positions).
    bool derived = false;
    for (const plan::DerivedKey& d : plan->derived_keys) derived = derived || d.position == position;
    if (derived) continue;
    plan::BoundExprPtr& key = plan->group_keys[h];
    const size_t hashed = h++;
    if (key->kind != plan::BoundKind::kColumn || key->type != TypeId::kString || key->column < 0) continue;
    const Column& column = plan->table->column(static_cast<size_t>(key->column));
    if (column.type() != TypeId::kString) continue;
    const size_t longest = LongestUpTo(column);
    if (longest > kMaxPackedBytes) continue;
    const TypeId word = longest <= 1 ? TypeId::kUInt16 : longest <= 3 ? TypeId::kUInt32 : TypeId::kUInt64;
    const bool nullable = key->nullable;
    const plan::SourcePos pos = key->pos;
    std::vector<plan::BoundExprPtr> args;
    args.push_back(std::move(key));
    key = plan::ScalarCall(plan::ScalarFn::kPackShortString, word, pos, std::move(args));
    key->nullable = nullable;
    const int scope_column = static_cast<int>(position);
    for (plan::BoundExprPtr& output : plan->outputs) Unpack(&output, scope_column, word);
    if (plan->having) Unpack(&plan->having, scope_column, word);
    // A derived key reads the hashed keys' relation: column i = group_keys[i].
    for (plan::DerivedKey& d : plan->derived_keys) Unpack(&d.expr, static_cast<int>(hashed), word);
  }
}

}  // namespace optimize
}  // namespace laneql
