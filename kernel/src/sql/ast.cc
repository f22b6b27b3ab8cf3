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

void AppendList(const std::vector<ExprPtr>& exprs, std::string* out) {
  for (size_t i = 0; i < exprs.size(); ++i) {
    if (i > 0) *out += ", ";
    *out += ToString(*exprs[i]);
  }
}

std::string Not(bool negated) { return negated ? " NOT " : " "; }

std::string NameList(const std::vector<std::string>& names) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i > 0 ? ", " : "") + QuoteIdentifier(names[i]);
  return out;
}

void AppendOrderBy(const std::vector<OrderItem>& order_by, bool all, std::string* out) {
  for (size_t i = 0; i < order_by.size(); ++i) {
    const OrderItem& item = order_by[i];
    *out += i == 0 ? " ORDER BY " : ", ";
    *out += all ? "ALL" : ToString(*item.expr);
    if (item.descending) *out += " DESC";
    if (item.nulls == NullsOrder::kFirst) *out += " NULLS FIRST";
    if (item.nulls == NullsOrder::kLast) *out += " NULLS LAST";
  }
}

std::string BoundText(const FrameBound& bound) {
  switch (bound.kind) {
    case FrameBoundKind::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
    case FrameBoundKind::kPreceding: return ToString(*bound.offset) + " PRECEDING";
    case FrameBoundKind::kCurrentRow: return "CURRENT ROW";
    case FrameBoundKind::kFollowing: return ToString(*bound.offset) + " FOLLOWING";
    case FrameBoundKind::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
  }
  return "?";
}

// The inside of OVER (...), as DuckDB names a window call's column.
std::string WindowText(const WindowSpec& spec) {
  std::string out;
  if (!spec.base.empty()) out += QuoteIdentifier(spec.base);
  if (!spec.partition_by.empty()) {
    out += out.empty() ? "PARTITION BY " : " PARTITION BY ";
    AppendList(spec.partition_by, &out);
  }
  std::string order;
  AppendOrderBy(spec.order_by, false, &order);
  out += out.empty() && !order.empty() ? order.substr(1) : order;
  if (spec.frame != FrameUnit::kDefault) {
    out += out.empty() ? "" : " ";
    out += spec.frame == FrameUnit::kRows ? "ROWS BETWEEN " : spec.frame == FrameUnit::kGroups ? "GROUPS BETWEEN " : "RANGE BETWEEN ";
    out += BoundText(spec.start) + " AND " + BoundText(spec.end);
    switch (spec.exclude) {
      case FrameExclude::kNone: break;
      case FrameExclude::kCurrentRow: out += " EXCLUDE CURRENT ROW"; break;
      case FrameExclude::kGroup: out += " EXCLUDE GROUP"; break;
      case FrameExclude::kTies: out += " EXCLUDE TIES"; break;
    }
  }
  return out;
}

void AppendRows(const std::vector<std::vector<ExprPtr>>& rows, std::string* out) {
  *out += "VALUES ";
  for (size_t r = 0; r < rows.size(); ++r) {
    *out += r == 0 ? "(" : ", (";
    AppendList(rows[r], out);
    *out += ")";
  }
}

const char* JoinText(const TableRef& join) {
  switch (join.join_type) {
    case JoinType::kInner: return "JOIN";
    case JoinType::kLeft: return "LEFT JOIN";
    case JoinType::kRight: return "RIGHT JOIN";
    case JoinType::kFull: return "FULL JOIN";
    case JoinType::kCross: return "CROSS JOIN";
    case JoinType::kSemi: return "SEMI JOIN";
    case JoinType::kAnti: return "ANTI JOIN";
    case JoinType::kMark: return "MARK JOIN";
    case JoinType::kSingle: return "SINGLE JOIN";
  }
  return "JOIN";
}

}  // namespace

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
    case BinaryOp::kIntegerDivide: return "//";
    case BinaryOp::kBitAnd: return "&";
    case BinaryOp::kBitOr: return "|";
    case BinaryOp::kShiftLeft: return "<<";
    case BinaryOp::kShiftRight: return ">>";
    case BinaryOp::kPower: return "^";
  }
  return "?";
}

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

// A call's arguments, its ORDER BY keys (the last order_by_args of them) after ORDER BY.
static void AppendCallArguments(const Expr& expr, std::string* out) {
  for (size_t i = 0; i < expr.args.size(); ++i) {
    const size_t key = i + static_cast<size_t>(expr.order_by_args) - expr.args.size();  // wraps below the keys
    if (i != 0) *out += key == 0 ? " ORDER BY " : ", ";
    *out += ToString(*expr.args[i]);
    if (key < expr.order_descending.size()) {
      if (expr.order_descending[key]) *out += " DESC";
      if (expr.order_nulls[key] != 0) {
        *out += expr.order_nulls[key] == static_cast<uint8_t>(NullsOrder::kFirst) ? " NULLS FIRST" : " NULLS LAST";
      }
    }
  }
}

std::string ToString(const Expr& expr) {
  std::string out;
  switch (expr.kind) {
    case ExprKind::kColumnRef:
      if (!expr.qualifier.empty()) out = QuoteIdentifier(expr.qualifier) + ".";
      return out + QuoteIdentifier(expr.text);
    case ExprKind::kStar:
      out = expr.qualifier.empty() ? "*" : QuoteIdentifier(expr.qualifier) + ".*";
      if (!expr.star_exclude.empty()) out += " EXCLUDE (" + NameList(expr.star_exclude) + ")";
      return out;
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
      if (expr.unary_op == UnaryOp::kBitNot) return "(~" + out + ")";
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
      return std::string(expr.try_cast ? "TRY_CAST(" : "CAST(") + ToString(*expr.operand) + " AS " + expr.text + ")";
    case ExprKind::kFunctionCall:
      out = QuoteIdentifier(ToLowerAscii(expr.text)) + "(";
      if (expr.star_argument) return out + "*)";
      if (expr.distinct) out += "DISTINCT ";
      AppendCallArguments(expr, &out);
      return out + ")";
    case ExprKind::kWindowCall:
      out = QuoteIdentifier(ToLowerAscii(expr.text)) + "(";
      if (expr.distinct) out += "DISTINCT ";
      if (!expr.star_argument) AppendCallArguments(expr, &out);
      if (expr.null_treatment == NullTreatment::kIgnore) out += " IGNORE NULLS";  // RESPECT is the default
      if (!expr.window->base.empty() && !expr.window->copies_base) {
        return out + ") OVER " + QuoteIdentifier(expr.window->base);  // OVER w, as written
      }
      return out + ") OVER (" + WindowText(*expr.window) + ")";
    case ExprKind::kExtract:
      return "extract(" + QuoteIdentifier(expr.text) + " FROM " + ToString(*expr.operand) + ")";
    case ExprKind::kSubquery:
      return "(" + ToString(*expr.subquery) + ")";
    case ExprKind::kExists:
      return "EXISTS (" + ToString(*expr.subquery) + ")";
    case ExprKind::kInSubquery:
      return "(" + ToString(*expr.operand) + Not(expr.negated) + "IN (" + ToString(*expr.subquery) + "))";
    case ExprKind::kQuantified:
      return "(" + ToString(*expr.operand) + " " + BinaryOpText(expr.binary_op) +
             (expr.quantifier_all ? " ALL (" : " ANY (") + ToString(*expr.subquery) + "))";
    case ExprKind::kInterval:
      out = "INTERVAL ";
      out += expr.operand->kind == ExprKind::kStringLiteral ? ToString(*expr.operand)
                                                            : "(" + ToString(*expr.operand) + ")";
      if (!expr.text.empty()) out += " " + ToUpperAscii(expr.text);
      return out;
  }
  return "?";
}

std::string ToString(const TableRef& from) {
  std::string out;
  switch (from.kind) {
    case TableRefKind::kNamed:
      out = QuoteIdentifier(from.name);
      break;
    case TableRefKind::kFile:
      out = QuoteString(from.path);
      break;
    case TableRefKind::kFunction:
      if (from.path.empty() && from.values.size() == 1) {  // range / generate_series
        out = QuoteIdentifier(from.function) + "(";
        for (size_t i = 0; i < from.values[0].size(); ++i) {
          out += (i ? ", " : "") + ToString(*from.values[0][i]);
        }
        out += ")";
        break;
      }
      out = QuoteIdentifier(from.function) + "(" + QuoteString(from.path);
      for (const TableOption& option : from.options) {
        out += ", " + QuoteIdentifier(option.name) + " => " + ToString(*option.value);
      }
      out += ")";
      break;
    case TableRefKind::kSubquery:
      out = std::string(from.lateral ? "LATERAL (" : "(") + ToString(*from.subquery) + ")";
      break;
    case TableRefKind::kValues:
      out = "(";
      AppendRows(from.values, &out);
      out += ")";
      break;
    case TableRefKind::kJoin:
      out = "(" + ToString(*from.left);
      if (from.comma_join) {
        out += ", " + ToString(*from.right);
      } else {
        out += std::string(from.natural ? " NATURAL " : " ") + JoinText(from) + " " + ToString(*from.right);
        if (from.on) out += " ON " + ToString(*from.on);
        if (!from.using_columns.empty()) out += " USING (" + NameList(from.using_columns) + ")";
      }
      return out + ")";
  }
  if (!from.alias.empty()) out += " AS " + QuoteIdentifier(from.alias);
  if (!from.column_aliases.empty()) out += "(" + NameList(from.column_aliases) + ")";
  return out;
}

std::string ToString(const SelectStatement& statement) {
  std::string out = statement.distinct ? "SELECT DISTINCT " : "SELECT ";
  if (!statement.distinct_on.empty()) {
    out += "ON (";
    AppendList(statement.distinct_on, &out);
    out += ") ";
  }
  for (size_t i = 0; i < statement.select_list.size(); ++i) {
    const SelectItem& item = statement.select_list[i];
    if (i > 0) out += ", ";
    out += ToString(*item.expr);
    if (!item.alias.empty()) out += " AS " + QuoteIdentifier(item.alias);
  }
  if (statement.has_from) out += " FROM " + ToString(statement.from);
  if (statement.where) out += " WHERE " + ToString(*statement.where);
  if (statement.group_by_all) out += " GROUP BY ALL";
  if (!statement.group_by.empty()) {
    out += " GROUP BY ";
    AppendList(statement.group_by, &out);
  }
  if (statement.having) out += " HAVING " + ToString(*statement.having);
  for (size_t i = 0; i < statement.windows.size(); ++i) {
    out += i == 0 ? " WINDOW " : ", ";
    out += QuoteIdentifier(statement.windows[i].name) + " AS (" + WindowText(statement.windows[i].spec) + ")";
  }
  if (statement.qualify) out += " QUALIFY " + ToString(*statement.qualify);
  AppendOrderBy(statement.order_by, statement.order_by_all, &out);
  if (statement.has_limit) out += " LIMIT " + std::to_string(statement.limit);
  if (statement.has_offset) out += " OFFSET " + std::to_string(statement.offset);
  return out;
}

std::string ToString(const QueryNode& query) {
  std::string out;
  if (!query.ctes.empty()) {
    out = query.recursive ? "WITH RECURSIVE " : "WITH ";
    for (size_t i = 0; i < query.ctes.size(); ++i) {
      const CommonTableExpr& cte = query.ctes[i];
      if (i > 0) out += ", ";
      out += QuoteIdentifier(cte.name);
      if (!cte.columns.empty()) out += "(" + NameList(cte.columns) + ")";
      out += " AS (" + ToString(*cte.query) + ")";
    }
    out += " ";
  }
  switch (query.kind) {
    case QueryKind::kSelect:
      return out + ToString(query.select);
    case QueryKind::kValues:
      AppendRows(query.values, &out);
      break;
    case QueryKind::kSetOperation: {
      static const char* const kOps[] = {" UNION ", " INTERSECT ", " EXCEPT "};
      out += "(" + ToString(*query.left) + ")" + kOps[static_cast<int>(query.set_op)] +
             (query.all ? "ALL " : "") + "(" + ToString(*query.right) + ")";
      break;
    }
  }
  AppendOrderBy(query.order_by, query.order_by_all, &out);
  if (query.has_limit) out += " LIMIT " + std::to_string(query.limit);
  if (query.has_offset) out += " OFFSET " + std::to_string(query.offset);
  return out;
}

std::string ToString(const Statement& statement) {
  std::string out;
  switch (statement.kind) {
    case StatementKind::kSelect:
      return ToString(*statement.query);
    case StatementKind::kCopy:
      return ToString(statement.copy);
    case StatementKind::kCreateTable: {
      const CreateTableStatement& t = statement.create_table;
      out = std::string("CREATE ") + (t.or_replace ? "OR REPLACE " : "") + (t.temporary ? "TEMP " : "") +
            "TABLE " + (t.if_not_exists ? "IF NOT EXISTS " : "") + QuoteIdentifier(t.name);
      if (t.query) return out + " AS " + ToString(*t.query);
      for (size_t i = 0; i < t.columns.size(); ++i) {
        out += (i == 0 ? " (" : ", ") + QuoteIdentifier(t.columns[i].name) + " " + t.columns[i].type;
        if (t.columns[i].not_null) out += " NOT NULL";
      }
      return out + ")";
    }
    case StatementKind::kCreateView: {
      const CreateViewStatement& v = statement.create_view;
      out = std::string("CREATE ") + (v.or_replace ? "OR REPLACE " : "") + (v.temporary ? "TEMP " : "") +
            "VIEW " + (v.if_not_exists ? "IF NOT EXISTS " : "") + QuoteIdentifier(v.name);
      if (!v.columns.empty()) out += "(" + NameList(v.columns) + ")";
      return out + " AS " + ToString(*v.query);
    }
    case StatementKind::kInsert: {
      const InsertStatement& insert = statement.insert;
      out = "INSERT INTO " + QuoteIdentifier(insert.table);
      if (!insert.columns.empty()) out += " (" + NameList(insert.columns) + ")";
      return out + " " + ToString(*insert.query);
    }
    case StatementKind::kDrop:
      return std::string("DROP ") + (statement.drop.view ? "VIEW " : "TABLE ") +
             (statement.drop.if_exists ? "IF EXISTS " : "") + QuoteIdentifier(statement.drop.name);
    case StatementKind::kDescribe:
      return "DESCRIBE " + (statement.query ? ToString(*statement.query) : QuoteIdentifier(statement.describe_name));
    case StatementKind::kShowTables:
      return "SHOW TABLES";
    case StatementKind::kExplain:
      return std::string("EXPLAIN ") + (statement.explain_analyze ? "ANALYZE " : "") +
             ToString(*statement.explained);
  }
  return out;
}

std::string ToString(const CopyStatement& statement) {
  std::string out = "COPY (" + ToString(*statement.query) + ") TO " + QuoteString(statement.path);
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
