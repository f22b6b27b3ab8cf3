// Expressions: one function per precedence level, loosest first, as in PostgreSQL (whose
// grammar DuckDB uses):
//   OR < AND < NOT < IS [NOT] NULL < comparisons (not chainable) < [NOT] BETWEEN / IN / LIKE /
//   ILIKE < || < + - < * / % < unary minus < ::type
#include <algorithm>
#include <utility>

#include "laneql/types.h"
#include "src/sql/parser.h"
#include "src/sql/parser_internal.h"

namespace laneql {
namespace sql {
namespace {

// A node starting at `first`.
ExprPtr MakeNode(ExprKind kind, const Token& first) {
  ExprPtr node = std::make_unique<Expr>();
  node->kind = kind;
  node->pos = first.pos;
  node->offset = first.offset;
  return node;
}

// A node starting where `first` starts.
ExprPtr MakeNode(ExprKind kind, const Expr& first) {
  ExprPtr node = std::make_unique<Expr>();
  node->kind = kind;
  node->pos = first.pos;
  node->offset = first.offset;
  return node;
}

bool ComparisonOp(TokenKind kind, BinaryOp* op) {
  switch (kind) {
    case TokenKind::kEquals: *op = BinaryOp::kEquals; return true;
    case TokenKind::kNotEquals: *op = BinaryOp::kNotEquals; return true;
    case TokenKind::kLess: *op = BinaryOp::kLess; return true;
    case TokenKind::kLessEquals: *op = BinaryOp::kLessEquals; return true;
    case TokenKind::kGreater: *op = BinaryOp::kGreater; return true;
    case TokenKind::kGreaterEquals: *op = BinaryOp::kGreaterEquals; return true;
    default: return false;
  }
}

int Height(const ExprPtr& expr) { return expr ? expr->height : 0; }

std::string ToLowerAscii(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

}  // namespace

ExprPtr Parser::Finish(ExprPtr node) {
  int height = std::max({Height(node->operand), Height(node->left), Height(node->right),
                         Height(node->else_result)});
  for (const ExprPtr& arg : node->args) height = std::max(height, Height(arg));
  for (const CaseBranch& branch : node->branches) {
    height = std::max({height, Height(branch.when), Height(branch.then)});
  }
  node->height = height + 1;
  if (node->height > kMaxExpressionHeight) {
    Fail(node->pos, node->offset,
         "expression too deep: more than " + std::to_string(kMaxExpressionHeight) +
             " levels of operators");
    return nullptr;
  }
  return node;
}

ExprPtr Parser::MakeBinary(BinaryOp op, ExprPtr left, ExprPtr right) {
  ExprPtr node = MakeNode(ExprKind::kBinary, *left);
  node->binary_op = op;
  node->left = std::move(left);
  node->right = std::move(right);
  return Finish(std::move(node));
}

ExprPtr Parser::ParseExpr() {
  DepthGuard guard(this);
  if (!CheckDepth()) return nullptr;
  return ParseOr();
}

ExprPtr Parser::ParseOr() {
  ExprPtr left = ParseAnd();
  while (left && AcceptKeyword("OR")) {
    ExprPtr right = ParseAnd();
    if (!right) return nullptr;
    left = MakeBinary(BinaryOp::kOr, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseAnd() {
  ExprPtr left = ParseNot();
  while (left && AcceptKeyword("AND")) {
    ExprPtr right = ParseNot();
    if (!right) return nullptr;
    left = MakeBinary(BinaryOp::kAnd, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseNot() {
  if (!AtKeyword("NOT")) return ParseIs();
  DepthGuard guard(this);
  if (!CheckDepth()) return nullptr;
  ExprPtr node = MakeNode(ExprKind::kUnary, Current());
  Next();
  node->unary_op = UnaryOp::kNot;
  node->operand = ParseNot();
  if (!node->operand) return nullptr;
  return Finish(std::move(node));
}

ExprPtr Parser::ParseIs() {
  ExprPtr operand = ParseComparison();
  while (operand && AtKeyword("IS")) {
    Next();
    ExprPtr node = MakeNode(ExprKind::kIsNull, *operand);
    node->negated = AcceptKeyword("NOT");
    if (!ExpectKeyword("NULL", node->negated ? " after 'IS NOT'" : " after 'IS'")) {
      return nullptr;
    }
    node->operand = std::move(operand);
    operand = Finish(std::move(node));
  }
  return operand;
}

ExprPtr Parser::ParseComparison() {
  ExprPtr left = ParsePredicate();
  BinaryOp op;
  if (!left || !ComparisonOp(Current().kind, &op)) return left;
  Next();
  ExprPtr right = ParsePredicate();
  if (!right) return nullptr;
  // Comparisons do not associate in PostgreSQL or DuckDB: a = b = c is an error there too.
  BinaryOp chained;
  if (ComparisonOp(Current().kind, &chained)) {
    Fail(Current(), "unexpected " + DescribeToken(Current()) +
                        ": comparisons cannot be chained, add parentheses");
    return nullptr;
  }
  return MakeBinary(op, std::move(left), std::move(right));
}

ExprPtr Parser::ParsePredicate() {
  ExprPtr operand = ParseConcat();
  while (operand) {
    // NOT here only when it negates the predicate that follows (a NOT LIKE b).
    const Token& word = IsKeyword(Current(), "NOT") ? Ahead(1) : Current();
    const bool is_between = IsKeyword(word, "BETWEEN"), is_in = IsKeyword(word, "IN");
    const bool is_like = IsKeyword(word, "LIKE"), is_ilike = IsKeyword(word, "ILIKE");
    if (!is_between && !is_in && !is_like && !is_ilike) break;
    ExprPtr node = MakeNode(is_between ? ExprKind::kBetween
                            : is_in    ? ExprKind::kInList
                                       : ExprKind::kLike,
                            *operand);
    node->negated = AcceptKeyword("NOT");
    Next();  // BETWEEN, IN, LIKE or ILIKE
    node->operand = std::move(operand);
    if (is_between) {
      // The bounds bind tighter than AND, so "a BETWEEN 1 AND 2 AND b" splits after 2.
      ExprPtr low = ParseConcat();
      if (!low || !ExpectKeyword("AND", " in BETWEEN")) return nullptr;
      ExprPtr high = ParseConcat();
      if (!high) return nullptr;
      node->args.push_back(std::move(low));
      node->args.push_back(std::move(high));
    } else if (is_in) {
      if (!At(TokenKind::kLeftParen)) {
        FailExpected("'(' after 'IN'");
        return nullptr;
      }
      const Token& open = Current();
      Next();
      if (AtKeyword("SELECT")) {
        Fail(Current(), "unexpected 'SELECT': subqueries are not supported");
        return nullptr;
      }
      if (!ParseExprList(&node->args) || !ExpectClosingParen(open)) return nullptr;
    } else {
      node->case_insensitive = is_ilike;
      ExprPtr pattern = ParseConcat();
      if (!pattern) return nullptr;
      node->args.push_back(std::move(pattern));
      if (AcceptKeyword("ESCAPE")) {
        ExprPtr escape = ParseConcat();
        if (!escape) return nullptr;
        node->args.push_back(std::move(escape));
      }
    }
    operand = Finish(std::move(node));
  }
  return operand;
}

ExprPtr Parser::ParseConcat() {
  ExprPtr left = ParseAdditive();
  while (left && At(TokenKind::kConcat)) {
    Next();
    ExprPtr right = ParseAdditive();
    if (!right) return nullptr;
    left = MakeBinary(BinaryOp::kConcat, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseAdditive() {
  ExprPtr left = ParseMultiplicative();
  while (left && (At(TokenKind::kPlus) || At(TokenKind::kMinus))) {
    const BinaryOp op = At(TokenKind::kPlus) ? BinaryOp::kAdd : BinaryOp::kSubtract;
    Next();
    ExprPtr right = ParseMultiplicative();
    if (!right) return nullptr;
    left = MakeBinary(op, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseMultiplicative() {
  ExprPtr left = ParseUnary();
  while (left && (At(TokenKind::kStar) || At(TokenKind::kSlash) || At(TokenKind::kPercent))) {
    const BinaryOp op = At(TokenKind::kStar)    ? BinaryOp::kMultiply
                        : At(TokenKind::kSlash) ? BinaryOp::kDivide
                                                : BinaryOp::kModulo;
    Next();
    ExprPtr right = ParseUnary();
    if (!right) return nullptr;
    left = MakeBinary(op, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseUnary() {
  if (!At(TokenKind::kMinus) && !At(TokenKind::kPlus)) return ParsePostfix();
  DepthGuard guard(this);
  if (!CheckDepth()) return nullptr;
  const Token& sign = Current();
  const bool minus = sign.kind == TokenKind::kMinus;
  Next();
  ExprPtr operand = ParseUnary();
  if (!operand || !minus) return operand;  // unary plus changes nothing
  // -5 becomes the literal -5 (as in DuckDB), so the binder can type -9223372036854775808 as a
  // BIGINT although 9223372036854775808 alone is not one.
  const bool literal = operand->kind == ExprKind::kIntegerLiteral ||
                       operand->kind == ExprKind::kDecimalLiteral;
  if (literal && operand->text[0] != '-') {
    operand->text.insert(0, "-");
    operand->pos = sign.pos;
    operand->offset = sign.offset;
    return operand;
  }
  ExprPtr node = MakeNode(ExprKind::kUnary, sign);
  node->unary_op = UnaryOp::kNegate;
  node->operand = std::move(operand);
  return Finish(std::move(node));
}

ExprPtr Parser::ParsePostfix() {
  ExprPtr operand = ParsePrimary();
  while (operand && At(TokenKind::kDoubleColon)) {
    Next();
    ExprPtr node = MakeNode(ExprKind::kCast, *operand);
    if (!ParseTypeName(&node->text)) return nullptr;
    node->operand = std::move(operand);
    operand = Finish(std::move(node));
  }
  return operand;
}

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
        Fail(token, "unexpected 'SELECT': subqueries are not supported");
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
  Next();
  if (AtKeyword("SELECT")) {
    Fail(Current(), "unexpected 'SELECT': subqueries are not supported");
    return nullptr;
  }
  ExprPtr inner = ParseExpr();
  if (!inner || !ExpectClosingParen(open)) return nullptr;
  return inner;
}

// column, table.column, function(...), and the typed literals DATE '...' / TIMESTAMP '...'.
ExprPtr Parser::ParseNameOrCall() {
  const Token& name = Current();
  const bool unquoted = name.kind == TokenKind::kIdentifier;
  const Token& next = Ahead(1);
  if (unquoted && next.kind == TokenKind::kString &&
      (IsWord(name, "DATE") || IsWord(name, "TIMESTAMP"))) {
    ExprPtr node = MakeNode(ExprKind::kCast, name);
    node->text = IsWord(name, "DATE") ? "DATE" : "TIMESTAMP";
    node->operand = MakeNode(ExprKind::kStringLiteral, next);
    node->operand->text = next.value;
    Next();
    Next();
    return Finish(std::move(node));
  }
  if (next.kind == TokenKind::kLeftParen) {
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

// After the name: ( [* | [DISTINCT|ALL] expr, ...] ).
ExprPtr Parser::ParseFunctionCall(std::string name, const Token& name_token) {
  ExprPtr node = MakeNode(ExprKind::kFunctionCall, name_token);
  node->text = std::move(name);
  const Token& open = Current();
  Next();
  if (At(TokenKind::kStar)) {
    node->star_argument = true;
    Next();
  } else if (!At(TokenKind::kRightParen)) {
    if (AcceptKeyword("DISTINCT")) {
      node->distinct = true;
    } else {
      AcceptKeyword("ALL");
    }
    if (!ParseExprList(&node->args)) return nullptr;
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

ExprPtr Parser::ParseCast() {
  ExprPtr node = MakeNode(ExprKind::kCast, Current());
  Next();  // CAST
  if (!At(TokenKind::kLeftParen)) {
    FailExpected("'(' after 'CAST'");
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
    do {
      if (!At(TokenKind::kInteger)) return FailExpected("an integer type parameter");
      text += Current().value;
      Next();
    } while (At(TokenKind::kComma) && (Next(), text += ",", true));
    if (!ExpectClosingParen(open)) return false;
    text += ")";
  }
  TypeId type_id;
  if (!TypeFromSqlName(text, &type_id)) return Fail(name, "unknown type '" + text + "'");
  *type = std::move(text);
  return true;
}

}  // namespace sql
}  // namespace laneql
