// Deep copies of syntax trees (ast_clone.cc).
#ifndef LANEQL_SQL_AST_CLONE_H_
#define LANEQL_SQL_AST_CLONE_H_

#include "src/sql/ast.h"

namespace laneql {
namespace sql {

ExprPtr Clone(const Expr& expr);
TableRefPtr Clone(const TableRef& ref);
QueryPtr Clone(const QueryNode& query);
WindowSpec Clone(const WindowSpec& spec);
void CloneInto(const SelectStatement& in, SelectStatement* out);

}  // namespace sql
}  // namespace laneql

#endif  // LANEQL_SQL_AST_CLONE_H_
