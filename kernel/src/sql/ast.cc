#include "src/sql/ast.h"

#include <string_view>

namespace laneql {
namespace sql {
namespace {

std::string ToLowerAscii(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

std::string ToUpperAscii(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return upper;
}

std::string QuoteString(const std::string& value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

const char* BinaryOpText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kOr: return "OR";
    case BinaryOp::kAnd: return "AND";
    case BinaryOp::kEquals: return "=";
    case BinaryOp::kNotEquals: return "<>";
    case BinaryOp::kLess: return "<";
    case BinaryOp::kLessEquals: return "<=";
    case BinaryOp::kGreater: return ">";
    case BinaryOp::kGreaterEquals: return ">=";
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSubtract: return "-";
    case BinaryOp::kMultiply: return "*";
    case BinaryOp::kDivide: return "/";
    case BinaryOp::kModulo: return "%";
    case BinaryOp::kConcat: return "||";
  }
  return "?";
}

void AppendList(const std::vector<ExprPtr>& exprs, std::string* out) {
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (i > 0) *out += ", ";
    *out += ToString(*exprs[i]);
  }
}

std::string Not(bool negated) { return negated ? " NOT " : " "; }

}  // namespace

std::string QuoteIdentifier(const std::string& name) {
  bool plain = !name.empty() && !(name[0] >= '0' && name[0] <= '9') && name[0] != '$' &&
               !IsReservedKeyword(ToUpperAscii(name));
  for (char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '$' || static_cast<unsigned char>(c) >= 0x80;
    plain = plain && ok;
  }
  if (plain) return name;
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

std::string ToString(const Expr& expr) {
  std::string out;
  switch (expr.kind) {
    case ExprKind::kColumnRef:
      if (!expr.qualifier.empty()) out = QuoteIdentifier(expr.qualifier) + ".";
      return out + QuoteIdentifier(expr.text);
    case ExprKind::kStar:
      return "*";
    case ExprKind::kIntegerLiteral:
    case ExprKind::kDecimalLiteral:
      return expr.text;
    case ExprKind::kStringLiteral:
      return QuoteString(expr.text);
    case ExprKind::kBooleanLiteral:
      return expr.bool_value ? "TRUE" : "FALSE";
    case ExprKind::kNullLiteral:
      return "NULL";
    case ExprKind::kUnary:
      out = ToString(*expr.operand);
      // "(- -1)", not "(--1)", which would read back as a comment.
      if (expr.unary_op == UnaryOp::kNot) return "(NOT " + out + ")";
      return (out[0] == '-' ? "(- " : "(-") + out + ")";
    case ExprKind::kBinary:
      return "(" + ToString(*expr.left) + " " + BinaryOpText(expr.binary_op) + " " +
             ToString(*expr.right) + ")";
    case ExprKind::kIsNull:
      return "(" + ToString(*expr.operand) + (expr.negated ? " IS NOT NULL)" : " IS NULL)");
    case ExprKind::kBetween:
      return "(" + ToString(*expr.operand) + Not(expr.negated) + "BETWEEN " +
             ToString(*expr.args[0]) + " AND " + ToString(*expr.args[1]) + ")";
    case ExprKind::kInList:
      out = "(" + ToString(*expr.operand) + Not(expr.negated) + "IN (";
      AppendList(expr.args, &out);
      return out + "))";
    case ExprKind::kLike:
      out = "(" + ToString(*expr.operand) + Not(expr.negated) +
            (expr.case_insensitive ? "ILIKE " : "LIKE ") + ToString(*expr.args[0]);
      if (expr.args.size() > 1) out += " ESCAPE " + ToString(*expr.args[1]);
      return out + ")";
    case ExprKind::kCase:
      out = "CASE ";
      if (expr.operand) out += ToString(*expr.operand) + " ";
      for (const CaseBranch& branch : expr.branches) {
        out += "WHEN " + ToString(*branch.when) + " THEN " + ToString(*branch.then) + " ";
      }
      if (expr.else_result) out += "ELSE " + ToString(*expr.else_result) + " ";
      return out + "END";
    case ExprKind::kCast:
      return "CAST(" + ToString(*expr.operand) + " AS " + expr.text + ")";
    case ExprKind::kFunctionCall:
      out = QuoteIdentifier(ToLowerAscii(expr.text)) + "(";
      if (expr.star_argument) return out + "*)";
      if (expr.distinct) out += "DISTINCT ";
      AppendList(expr.args, &out);
      return out + ")";
    case ExprKind::kExtract:
      return "extract(" + QuoteIdentifier(expr.text) + " FROM " + ToString(*expr.operand) + ")";
  }
  return "?";
}

std::string ToString(const SelectStatement& statement) {
  std::string out = statement.distinct ? "SELECT DISTINCT " : "SELECT ";
  for (size_t i = 0; i < statement.select_list.size(); ++i) {
    const SelectItem& item = statement.select_list[i];
    if (i > 0) out += ", ";
    out += ToString(*item.expr);
    if (!item.alias.empty()) out += " AS " + QuoteIdentifier(item.alias);
  }
  if (statement.has_from) {
    const TableRef& from = statement.from;
    if (from.kind == TableRefKind::kNamed) {
      out += " FROM " + QuoteIdentifier(from.name);
    } else if (from.kind == TableRefKind::kFile) {
      out += " FROM " + QuoteString(from.path);
    } else {
      out += " FROM " + QuoteIdentifier(from.function) + "(" + QuoteString(from.path);
      for (const TableOption& option : from.options) {
        out += ", " + QuoteIdentifier(option.name) + " => " + ToString(*option.value);
      }
      out += ")";
    }
    if (!from.alias.empty()) out += " AS " + QuoteIdentifier(from.alias);
  }
  if (statement.where) out += " WHERE " + ToString(*statement.where);
  if (!statement.group_by.empty()) {
    out += " GROUP BY ";
    AppendList(statement.group_by, &out);
  }
  if (statement.having) out += " HAVING " + ToString(*statement.having);
  for (size_t i = 0; i < statement.order_by.size(); ++i) {
    const OrderItem& item = statement.order_by[i];
    out += i == 0 ? " ORDER BY " : ", ";
    out += ToString(*item.expr);
    if (item.descending) out += " DESC";
    if (item.nulls == NullsOrder::kFirst) out += " NULLS FIRST";
    if (item.nulls == NullsOrder::kLast) out += " NULLS LAST";
  }
  if (statement.has_limit) out += " LIMIT " + std::to_string(statement.limit);
  if (statement.has_offset) out += " OFFSET " + std::to_string(statement.offset);
  return out;
}

std::string ToString(const CopyStatement& statement) {
  std::string out = "COPY (" + ToString(statement.query) + ") TO " + QuoteString(statement.path);
  for (size_t i = 0; i < statement.options.size(); ++i) {
    const TableOption& option = statement.options[i];
    out += i == 0 ? " (" : ", ";
    out += QuoteIdentifier(option.name);
    if (!option.value) continue;
    // A value that would print as a bare word (a name, a function call) goes in parentheses:
    // bare, the parser reads a word there as text (FORMAT csv).
    const ExprKind kind = option.value->kind;
    const bool wrap = kind == ExprKind::kColumnRef || kind == ExprKind::kFunctionCall;
    out += wrap ? " (" + ToString(*option.value) + ")" : " " + ToString(*option.value);
  }
  if (!statement.options.empty()) out += ")";
  return out;
}

}  // namespace sql
}  // namespace laneql
