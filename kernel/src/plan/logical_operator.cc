#include "src/plan/logical_operator.h"

#include <cmath>
#include <cstdio>
#include <utility>

#include "src/common/ascii.h"

namespace laneql {
namespace plan {
namespace {

std::string List(const std::vector<sql::ExprPtr>& exprs, const char* separator) {
  std::string text;
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (i > 0) text += separator;
    text += sql::ToString(*exprs[i]);
  }
  return text;
}

std::string Rows(double rows) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.0f", std::round(rows));
  return buffer;
}

void Explain(const LogicalOperator& op, int depth, std::string* out) {
  std::string line(static_cast<size_t>(depth) * 2, ' ');
  line += LogicalKindName(op.kind);
  switch (op.kind) {
    case LogicalKind::kGet:
      line += " " + op.source;
      if (op.table != nullptr && op.columns.size() < op.table->num_columns()) {
        std::string filters;
        if (!op.filter_columns.empty()) {
          filters = ", " + std::to_string(op.filter_columns.size()) + " more read by the filters";
        }
        line += " [" + std::to_string(op.columns.size()) + " of " + std::to_string(op.table->num_columns()) +
                " columns" + filters + "]";
      }
      if (!op.conditions.empty()) line += " filters: " + List(op.conditions, " AND ");
      break;
    case LogicalKind::kFilter:
      line += " " + List(op.conditions, " AND ");
      break;
    case LogicalKind::kJoin: {
      line = line.substr(0, line.size() - 4) + JoinTypeName(op.join_type) + " JOIN";
      std::string on;
      for (size_t k = 0; k < op.left_keys.size(); ++k) {
        if (k > 0) on += " AND ";
        on += sql::ToString(*op.left_keys[k]) + " = " + sql::ToString(*op.right_keys[k]);
      }
      if (!op.conditions.empty()) on += (on.empty() ? "" : " AND ") + List(op.conditions, " AND ");
      if (!on.empty()) line += " ON " + on;
      break;
    }
    case LogicalKind::kAggregate:
    case LogicalKind::kProject:
    case LogicalKind::kOrder:
      if (!op.exprs.empty()) line += " " + List(op.exprs, ", ");
      if (!op.detail.empty()) line += " " + op.detail;
      break;
    case LogicalKind::kDistinct:
    case LogicalKind::kLimit:
      if (!op.detail.empty()) line += " " + op.detail;
      break;
    case LogicalKind::kSetOperation:
      line += std::string(" ") + SetOpName(op.set_op) + (op.set_all ? " ALL" : "");
      break;
    case LogicalKind::kCreateTable:
    case LogicalKind::kCreateView:
    case LogicalKind::kInsert:
      line += " " + op.detail;
      break;
    case LogicalKind::kDrop:
      line += " " + op.source + " " + op.detail;
      break;
  }
  if (op.estimated_rows > 0 || op.kind == LogicalKind::kGet) line += "  (~" + Rows(op.estimated_rows) + " rows)";
  if (op.analyzed) {
    char buffer[64];
    std::snprintf(buffer, sizeof(buffer), "  [%llu rows, %.3f ms]",
                  static_cast<unsigned long long>(op.actual_rows), op.seconds * 1e3);
    line += buffer;
  }
  *out += line + "\n";
  if (!op.subplan.empty()) {
    // How a made table was planned, indented under its Get.
    const std::string indent(static_cast<size_t>(depth + 1) * 2, ' ');
    size_t start = 0;
    while (start < op.subplan.size()) {
      size_t end = op.subplan.find('\n', start);
      if (end == std::string::npos) end = op.subplan.size();
      *out += indent + op.subplan.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  for (const LogicalPtr& child : op.children) Explain(*child, depth + 1, out);
}

}  // namespace

LogicalPtr MakeLogical(LogicalKind kind) {
  auto op = std::make_unique<LogicalOperator>();
  op->kind = kind;
  return op;
}

void FilterAbove(LogicalPtr* slot, std::vector<sql::ExprPtr> conditions) {
  if (conditions.empty()) return;
  LogicalPtr filter = MakeLogical(LogicalKind::kFilter);
  filter->scope = (*slot)->scope;
  filter->conditions = std::move(conditions);
  filter->children.push_back(std::move(*slot));
  *slot = std::move(filter);
}

const char* LogicalKindName(LogicalKind kind) {
  switch (kind) {
    case LogicalKind::kGet: return "GET";
    case LogicalKind::kFilter: return "FILTER";
    case LogicalKind::kJoin: return "JOIN";
    case LogicalKind::kAggregate: return "AGGREGATE";
    case LogicalKind::kProject: return "PROJECT";
    case LogicalKind::kDistinct: return "DISTINCT";
    case LogicalKind::kOrder: return "ORDER";
    case LogicalKind::kLimit: return "LIMIT";
    case LogicalKind::kSetOperation: return "SET OPERATION";
    case LogicalKind::kCreateTable: return "CREATE TABLE";
    case LogicalKind::kCreateView: return "CREATE VIEW";
    case LogicalKind::kInsert: return "INSERT INTO";
    case LogicalKind::kDrop: return "DROP";
  }
  return "?";
}

const char* SetOpName(sql::SetOpKind kind) {
  switch (kind) {
    case sql::SetOpKind::kUnion: return "UNION";
    case sql::SetOpKind::kIntersect: return "INTERSECT";
    case sql::SetOpKind::kExcept: return "EXCEPT";
  }
  return "?";
}

const char* JoinTypeName(sql::JoinType type) {
  switch (type) {
    case sql::JoinType::kInner: return "INNER";
    case sql::JoinType::kLeft: return "LEFT";
    case sql::JoinType::kRight: return "RIGHT";
    case sql::JoinType::kFull: return "FULL";
    case sql::JoinType::kCross: return "CROSS";
    case sql::JoinType::kSemi: return "SEMI";
    case sql::JoinType::kAnti: return "ANTI";
    case sql::JoinType::kMark: return "MARK";
    case sql::JoinType::kSingle: return "SINGLE";
  }
  return "?";
}

bool ScopeHas(const ColumnScope& scope, const sql::Expr& ref) {
  for (const ScopeColumn& column : scope) {
    if (!ref.qualifier.empty()) {
      if (!ascii::EqualsIgnoreCase(column.qualifier, ref.qualifier)) continue;
    } else if (column.hidden) {
      continue;
    }
    if (ascii::EqualsIgnoreCase(column.name, ref.text)) return true;
  }
  return false;
}

uint64_t ReadsOf(const sql::Expr* expr, const std::vector<const ColumnScope*>& sides, bool* unknown) {
  if (expr == nullptr) return 0;
  if (expr->kind == sql::ExprKind::kColumnRef) {
    uint64_t mask = 0;
    for (size_t s = 0; s < sides.size() && s < 64; ++s) {
      if (ScopeHas(*sides[s], *expr)) mask |= uint64_t{1} << s;
    }
    if (mask == 0 || (mask & (mask - 1)) != 0) *unknown = true;
    return mask;
  }
  if (expr->kind == sql::ExprKind::kStar || expr->subquery) *unknown = true;
  uint64_t mask = ReadsOf(expr->operand.get(), sides, unknown) | ReadsOf(expr->left.get(), sides, unknown) |
                  ReadsOf(expr->right.get(), sides, unknown) | ReadsOf(expr->else_result.get(), sides, unknown);
  for (const sql::ExprPtr& arg : expr->args) mask |= ReadsOf(arg.get(), sides, unknown);
  for (const sql::CaseBranch& branch : expr->branches) {
    mask |= ReadsOf(branch.when.get(), sides, unknown) | ReadsOf(branch.then.get(), sides, unknown);
  }
  return mask;
}

std::string ExplainText(const LogicalOperator& root) {
  std::string text;
  Explain(root, 0, &text);
  return text;
}

}  // namespace plan
}  // namespace laneql
