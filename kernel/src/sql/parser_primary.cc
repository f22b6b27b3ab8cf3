// Primary expressions: literals, names, function calls, parentheses, CASE, CAST, EXTRACT and
// the typed literals DATE '...' / TIMESTAMP '...'; and type names.
#include <cstdio>
#include <utility>

#include "laneql/types.h"
#include "src/sql/ast_clone.h"
#include "src/sql/parser_internal.h"

namespace laneql {
namespace sql {
namespace {

std::string ToLowerAscii(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

}  // namespace

ExprPtr Parser::ParsePrimary() {
  const Token& token = Current();
  ExprPtr node;
  switch (token.kind) {
    case TokenKind::kInteger:
    case TokenKind::kDecimal:
    case TokenKind::kString:
      node = MakeNode(token.kind == TokenKind::kInteger   ? ExprKind::kIntegerLiteral
                      : token.kind == TokenKind::kDecimal ? ExprKind::kDecimalLiteral
                                                          : ExprKind::kStringLiteral,
                      token);
      node->text = token.value;
      Next();
      return node;
    case TokenKind::kLeftParen:
      return ParseParenthesized();
    case TokenKind::kLeftBracket:
      return ParseListLiteral();
    case TokenKind::kIdentifier:
    case TokenKind::kQuotedIdentifier:
      return ParseNameOrCall();
    case TokenKind::kKeyword:
      if (token.value == "TRUE" || token.value == "FALSE") {
        node = MakeNode(ExprKind::kBooleanLiteral, token);
        node->bool_value = token.value == "TRUE";
        Next();
        return node;
      }
      if (token.value == "NULL") {
        node = MakeNode(ExprKind::kNullLiteral, token);
        Next();
        return node;
      }
      if (token.value == "CASE") return ParseCase();
      if (token.value == "CAST") return ParseCast();
      if (token.value == "SELECT") {
        Fail(token, "unexpected 'SELECT': put a subquery in parentheses");
        return nullptr;
      }
      break;
    default:
      break;
  }
  FailExpected("an expression");
  return nullptr;
}

ExprPtr Parser::ParseParenthesized() {
  const Token& open = Current();
  if (AtQueryStart(Ahead(1))) return ParseSubqueryExpr(ExprKind::kSubquery, open);
  Next();
  ExprPtr inner = ParseExpr();
  if (!inner || !ExpectClosingParen(open)) return nullptr;
  return inner;
}

// [a, b, ...]: DuckDB's list literal, the call list_value(a, b, ...) (the binder's).
ExprPtr Parser::ParseListLiteral() {
  const Token& open = Current();
  ExprPtr node = MakeNode(ExprKind::kFunctionCall, open);
  node->text = "list_value";
  Next();
  if (!At(TokenKind::kRightBracket) && !ParseExprList(&node->args)) return nullptr;
  if (!At(TokenKind::kRightBracket)) {
    FailExpected("']' to close '[' at " + Where(open.pos));
    return nullptr;
  }
  Next();
  return Finish(std::move(node));
}

// column, table.column, function(...), and the typed literals DATE '...' / TIMESTAMP '...'.
ExprPtr Parser::ParseNameOrCall() {
  const Token& name = Current();
  const bool unquoted = name.kind == TokenKind::kIdentifier;
  const Token& next = Ahead(1);
  if (unquoted && next.kind == TokenKind::kString &&
      (IsWord(name, "DATE") || IsWord(name, "TIMESTAMP") || IsWord(name, "TIME"))) {
    ExprPtr node = MakeNode(ExprKind::kCast, name);
    node->text = IsWord(name, "DATE") ? "DATE" : IsWord(name, "TIME") ? "TIME" : "TIMESTAMP";
    node->operand = MakeNode(ExprKind::kStringLiteral, next);
    node->operand->text = next.value;
    Next();
    Next();
    return Finish(std::move(node));
  }
  if (unquoted && IsWord(name, "INTERVAL") &&
      (next.kind == TokenKind::kString || next.kind == TokenKind::kInteger ||
       next.kind == TokenKind::kDecimal || next.kind == TokenKind::kLeftParen)) {
    return ParseInterval();
  }
  if (next.kind == TokenKind::kLeftParen) {
    if (unquoted && IsWord(name, "EXISTS")) {
      Next();  // EXISTS
      return ParseSubqueryExpr(ExprKind::kExists, name);
    }
    if (unquoted && IsWord(name, "SUBSTRING")) return ParseSubstring(name);
    if (unquoted && IsWord(name, "TRY_CAST")) return ParseCast(/*try_cast=*/true);
    if (unquoted && IsWord(name, "POSITION")) return ParsePosition(name);
    if (unquoted && IsWord(name, "EXTRACT")) {
      // EXTRACT(part FROM x); anything else is the plain function extract(...).
      const Token& part = Ahead(2);
      if ((part.kind == TokenKind::kIdentifier || part.kind == TokenKind::kQuotedIdentifier ||
           part.kind == TokenKind::kString) &&
          IsKeyword(Ahead(3), "FROM")) {
        return ParseExtract();
      }
    }
    std::string function_name = name.value;
    Next();
    return ParseFunctionCall(std::move(function_name), name);
  }
  if (unquoted && (IsWord(name, "CURRENT_DATE") || IsWord(name, "CURRENT_TIMESTAMP"))) {
    // The SQL standard's niladic functions, written without parentheses.
    ExprPtr call = MakeNode(ExprKind::kFunctionCall, name);
    call->text = name.value;
    Next();
    return Finish(std::move(call));
  }
  ExprPtr node = MakeNode(ExprKind::kColumnRef, name);
  node->text = name.value;
  Next();
  if (At(TokenKind::kDot)) {
    Next();
    node->qualifier = std::move(node->text);
    if (!ParseName(&node->text, nullptr, "a column name after '.'")) return nullptr;
  }
  return node;
}

// After the name: ( [* | [DISTINCT|ALL] expr, ... [ORDER BY ...]] [IGNORE | RESPECT NULLS] ).
ExprPtr Parser::ParseFunctionCall(std::string name, const Token& name_token) {
  ExprPtr node = MakeNode(ExprKind::kFunctionCall, name_token);
  node->text = std::move(name);
  const Token& open = Current();
  Next();
  const Token* nulls_word = nullptr;  // RESPECT / IGNORE NULLS, only for a window call
  if (At(TokenKind::kStar)) {
    node->star_argument = true;
    Next();
    ParseNullTreatment(node.get(), &nulls_word);
  } else if (!At(TokenKind::kRightParen)) {
    if (AcceptKeyword("DISTINCT")) {
      node->distinct = true;
    } else {
      AcceptKeyword("ALL");
    }
    if (!ParseExprList(&node->args)) return nullptr;
    if (IsWord(Current(), "ORDER") && !ParseCallOrderBy(node.get())) return nullptr;
    ParseNullTreatment(node.get(), &nulls_word);
  }
  if (!ExpectClosingParen(open)) return nullptr;
  if (IsWord(Current(), "FILTER") && Ahead(1).kind == TokenKind::kLeftParen && !ParseFilterClause(node.get())) {
    return nullptr;
  }
  if (nulls_word != nullptr && !AtOver()) {
    Fail(*nulls_word, "RESPECT/IGNORE NULLS is not supported for non-window functions");
    return nullptr;
  }
  if (AtOver() && !ParseOver(node.get())) return nullptr;
  return Finish(std::move(node));
}

// agg(x ORDER BY k1 DESC, k2): the keys go after the arguments (Expr::order_by_args).
bool Parser::ParseCallOrderBy(Expr* call) {
  Next();  // ORDER
  if (!ExpectKeyword("BY", " after ORDER in a function call")) return false;
  std::vector<OrderItem> items;
  bool all = false;
  if (IsWord(Current(), "ALL")) return FailExpected("an expression after ORDER BY in a function call");
  if (!ParseOrderBy(&items, &all)) return false;
  for (OrderItem& item : items) {
    call->args.push_back(std::move(item.expr));
    call->order_descending.push_back(item.descending);
    call->order_nulls.push_back(static_cast<uint8_t>(item.nulls));
  }
  call->order_by_args = static_cast<int>(items.size());
  return true;
}

// agg(x) FILTER (WHERE c) becomes agg(CASE WHEN c THEN x END) (each argument so wrapped), and
// count(*) FILTER (WHERE c) count(CASE WHEN c THEN 1 END): an aggregate skips NULLs, so it sees
// the rows where c holds.
// The call is marked `filtered`, and the binder refuses a FILTER on anything but an aggregate.
bool Parser::ParseFilterClause(Expr* call) {
  Next();  // FILTER
  const Token& open = Current();
  Next();  // (
  if (!ExpectKeyword("WHERE", " in FILTER (WHERE ...)")) return false;
  ExprPtr condition = ParseExpr();
  if (!condition || !ExpectClosingParen(open)) return false;
  if (call->star_argument || call->args.empty()) {
    ExprPtr one = MakeNode(ExprKind::kIntegerLiteral, open);
    one->text = "1";
    call->star_argument = false;
    call->args.clear();
    call->args.push_back(std::move(one));
  }
  // Every argument but a literal (quantile_cont's fraction, string_agg's separator) is NULL on
  // the rows the condition drops: covar_pop(y, x) and arg_min(a, v) then skip those rows too.
  bool first = true;
  for (ExprPtr& arg : call->args) {
    const bool literal = arg->kind == ExprKind::kIntegerLiteral || arg->kind == ExprKind::kDecimalLiteral ||
                         arg->kind == ExprKind::kStringLiteral || arg->kind == ExprKind::kNullLiteral;
    if (literal && !first) continue;
    ExprPtr when = MakeNode(ExprKind::kCase, open);
    when->branches.push_back(CaseBranch{Clone(*condition), std::move(arg)});
    arg = std::move(when);
    first = false;
  }
  call->filtered = true;
  return true;
}

// At the '(' of (query): a scalar subquery, EXISTS (query) or the list of IN (query).
ExprPtr Parser::ParseSubqueryExpr(ExprKind kind, const Token& first) {
  DepthGuard guard(this);
  if (!CheckDepth()) return nullptr;
  ExprPtr node = MakeNode(kind, first);
  const Token& open = Current();
  if (!Accept(TokenKind::kLeftParen)) {
    FailExpected("'(' before the subquery");
    return nullptr;
  }
  if (!AtQueryStart(Current()) && !At(TokenKind::kLeftParen)) {
    FailExpected("a query (SELECT, WITH or VALUES)");
    return nullptr;
  }
  node->subquery = ParseQuery();
  if (!node->subquery || !ExpectClosingParen(open)) return nullptr;
  return Finish(std::move(node));
}

// INTERVAL '3' MONTH, INTERVAL 3 MONTH, INTERVAL (expr) DAY, INTERVAL '90 days'.
ExprPtr Parser::ParseInterval() {
  ExprPtr node = MakeNode(ExprKind::kInterval, Current());
  Next();  // INTERVAL
  const Token& value = Current();
  if (At(TokenKind::kLeftParen)) {
    Next();
    node->operand = ParseExpr();
    if (!node->operand || !ExpectClosingParen(value)) return nullptr;
  } else {
    node->operand = MakeNode(value.kind == TokenKind::kString    ? ExprKind::kStringLiteral
                             : value.kind == TokenKind::kInteger ? ExprKind::kIntegerLiteral
                                                                 : ExprKind::kDecimalLiteral,
                             value);
    node->operand->text = value.value;
    Next();
  }
  static const char* const kUnits[][2] = {
      {"YEAR", "year"},     {"YEARS", "year"},       {"MONTH", "month"},   {"MONTHS", "month"},
      {"DAY", "day"},       {"DAYS", "day"},         {"HOUR", "hour"},     {"HOURS", "hour"},
      {"MINUTE", "minute"}, {"MINUTES", "minute"},   {"SECOND", "second"}, {"SECONDS", "second"},
      {"WEEK", "week"},     {"WEEKS", "week"},       {"QUARTER", "quarter"}, {"QUARTERS", "quarter"},
      {"MILLISECOND", "millisecond"}, {"MILLISECONDS", "millisecond"},
      {"MICROSECOND", "microsecond"}, {"MICROSECONDS", "microsecond"}};
  if (At(TokenKind::kIdentifier)) {
    for (const auto& unit : kUnits) {
      if (IsWord(Current(), unit[0])) {
        node->text = unit[1];
        Next();
        break;
      }
    }
  }
  if (node->text.empty() && node->operand->kind != ExprKind::kStringLiteral) {
    FailExpected("an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, ...)");
    return nullptr;
  }
  return Finish(std::move(node));
}

// substring(s, start[, length]) and substring(s FROM start [FOR length]): both become the call
// substring(s, start[, length]).
ExprPtr Parser::ParseSubstring(const Token& name_token) {
  ExprPtr node = MakeNode(ExprKind::kFunctionCall, name_token);
  node->text = name_token.value;
  Next();  // substring
  const Token& open = Current();
  Next();  // (
  ExprPtr subject = ParseExpr();
  if (!subject) return nullptr;
  node->args.push_back(std::move(subject));
  if (AcceptKeyword("FROM")) {
    ExprPtr start = ParseExpr();
    if (!start) return nullptr;
    node->args.push_back(std::move(start));
    if (IsWord(Current(), "FOR")) {
      Next();
      ExprPtr length = ParseExpr();
      if (!length) return nullptr;
      node->args.push_back(std::move(length));
    }
  } else if (!ParseMoreArguments(node.get())) {
    return nullptr;
  }
  if (!ExpectClosingParen(open)) return nullptr;
  return Finish(std::move(node));
}

// The arguments after a first one: (, expr)*.
bool Parser::ParseMoreArguments(Expr* call) {
  while (Accept(TokenKind::kComma)) {
    ExprPtr arg = ParseExpr();
    if (!arg) return false;
    call->args.push_back(std::move(arg));
  }
  return true;
}

// position(needle IN haystack) becomes the call position(haystack, needle), as strpos takes
// them; position(haystack, needle) stays as written. The needle is parsed above the IN
// predicate (a concatenation at most), so that IN is read as this syntax's.
ExprPtr Parser::ParsePosition(const Token& name_token) {
  ExprPtr node = MakeNode(ExprKind::kFunctionCall, name_token);
  node->text = name_token.value;
  Next();  // position
  const Token& open = Current();
  Next();  // (
  ExprPtr first = ParseConcat();
  if (!first) return nullptr;
  if (AcceptKeyword("IN")) {
    ExprPtr haystack = ParseConcat();
    if (!haystack) return nullptr;
    node->args.push_back(std::move(haystack));
    node->args.push_back(std::move(first));
  } else {
    node->args.push_back(std::move(first));
    if (!ParseMoreArguments(node.get())) return nullptr;
  }
  if (!ExpectClosingParen(open)) return nullptr;
  return Finish(std::move(node));
}

ExprPtr Parser::ParseExtract() {
  ExprPtr node = MakeNode(ExprKind::kExtract, Current());
  Next();  // EXTRACT
  const Token& open = Current();
  Next();
  node->text = ToLowerAscii(Current().value);
  Next();  // the part (checked by the caller)
  Next();  // FROM
  node->operand = ParseExpr();
  if (!node->operand || !ExpectClosingParen(open)) return nullptr;
  return Finish(std::move(node));
}

ExprPtr Parser::ParseCast(bool try_cast) {
  ExprPtr node = MakeNode(ExprKind::kCast, Current());
  node->try_cast = try_cast;
  Next();  // CAST / TRY_CAST
  if (!At(TokenKind::kLeftParen)) {
    FailExpected(try_cast ? "'(' after 'TRY_CAST'" : "'(' after 'CAST'");
    return nullptr;
  }
  const Token& open = Current();
  Next();
  node->operand = ParseExpr();
  if (!node->operand || !ExpectKeyword("AS", " in CAST") || !ParseTypeName(&node->text) ||
      !ExpectClosingParen(open)) {
    return nullptr;
  }
  return Finish(std::move(node));
}

ExprPtr Parser::ParseCase() {
  const Token& case_token = Current();
  ExprPtr node = MakeNode(ExprKind::kCase, case_token);
  Next();
  if (!AtKeyword("WHEN")) {
    node->operand = ParseExpr();
    if (!node->operand) return nullptr;
    if (!AtKeyword("WHEN")) {
      FailExpected("'WHEN'");
      return nullptr;
    }
  }
  while (AcceptKeyword("WHEN")) {
    CaseBranch branch;
    branch.when = ParseExpr();
    if (!branch.when || !ExpectKeyword("THEN", "")) return nullptr;
    branch.then = ParseExpr();
    if (!branch.then) return nullptr;
    node->branches.push_back(std::move(branch));
  }
  if (AcceptKeyword("ELSE")) {
    node->else_result = ParseExpr();
    if (!node->else_result) return nullptr;
  } else if (!AtKeyword("END")) {
    FailExpected("'WHEN', 'ELSE' or 'END'");
    return nullptr;
  }
  if (!AcceptKeyword("END")) {
    FailExpected("'END' to close 'CASE' at " + Where(case_token.pos));
    return nullptr;
  }
  return Finish(std::move(node));
}

// name [(n [, n])], upper-cased, checked against the types laneql knows.
bool Parser::ParseTypeName(std::string* type) {
  const Token& name = Current();
  if (name.kind != TokenKind::kIdentifier) return FailExpected("a type name");
  std::string text = name.value;
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  Next();
  if (At(TokenKind::kLeftParen)) {
    const Token& open = Current();
    Next();
    text += "(";
    while (true) {
      if (!At(TokenKind::kInteger)) return FailExpected("an integer type parameter");
      text += Current().value;
      Next();
      if (!Accept(TokenKind::kComma)) break;
      text += ",";
    }
    if (!ExpectClosingParen(open)) return false;
    text += ")";
  }
  TypeId type_id;
  if (!TypeFromSqlName(text, &type_id)) {
    const std::string base = text.substr(0, text.find('('));
    if ((base == "DECIMAL" || base == "NUMERIC" || base == "DEC") && text.size() > base.size()) {
      int width = 0, scale = 0;
      std::sscanf(text.c_str() + base.size(), "(%d,%d)", &width, &scale);
      return Fail(name, width < 1 || width > kMaxDecimalPrecision
                            ? base + " width must be between 1 and 38, not " + std::to_string(width)
                            : base + " scale cannot be bigger than its width (" + text + ")");
    }
    return Fail(name, "unknown type '" + text + "'");
  }
  *type = std::move(text);
  return true;
}

}  // namespace sql
}  // namespace laneql
