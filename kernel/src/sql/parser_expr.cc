// Expressions: one function per precedence level, loosest first, as in PostgreSQL (whose
// grammar DuckDB uses):
//   OR < AND < NOT < IS [NOT] NULL < comparisons (not chainable) < [NOT] BETWEEN / IN / LIKE /
//   ILIKE < || < + - < * / % < unary minus < ::type
#include <algorithm>
#include <utility>

#include "src/sql/parser.h"
#include "src/sql/parser_internal.h"

namespace laneql {
namespace sql {
namespace {

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

}  // namespace

ExprPtr Parser::Finish(ExprPtr node) {
  int height = std::max({Height(node->operand), Height(node->left), Height(node->right),
                         Height(node->else_result)});
  for (const ExprPtr& arg : node->args) height = std::max(height, Height(arg));
  for (const CaseBranch& branch : node->branches) {
    height = std::max({height, Height(branch.when), Height(branch.then)});
  }
  if (node->window) {
    for (const ExprPtr& key : node->window->partition_by) height = std::max(height, Height(key));
    for (const OrderItem& item : node->window->order_by) height = std::max(height, Height(item.expr));
    height = std::max({height, Height(node->window->start.offset), Height(node->window->end.offset)});
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
  // x = ANY (query), x > ALL (query), SOME = ANY.
  const Token& quantifier = Current();
  if ((IsWord(quantifier, "ANY") || IsWord(quantifier, "SOME") || IsKeyword(quantifier, "ALL")) &&
      Ahead(1).kind == TokenKind::kLeftParen) {
    Next();
    ExprPtr node = ParseSubqueryExpr(ExprKind::kQuantified, quantifier);
    if (!node) return nullptr;
    node->pos = left->pos;
    node->offset = left->offset;
    node->binary_op = op;
    node->quantifier_all = IsKeyword(quantifier, "ALL");
    node->operand = std::move(left);
    return Finish(std::move(node));
  }
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
      if (AtQueryStart(Ahead(1))) {
        ExprPtr sub = ParseSubqueryExpr(ExprKind::kInSubquery, open);
        if (!sub) return nullptr;
        node->kind = ExprKind::kInSubquery;
        node->subquery = std::move(sub->subquery);
        operand = Finish(std::move(node));
        continue;
      }
      Next();
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

// ||, &, |, << and >>: one level, left to right, between comparisons and + / - (as
// PostgreSQL and DuckDB rank their "other" operators).
ExprPtr Parser::ParseConcat() {
  ExprPtr left = ParseAdditive();
  while (left && (At(TokenKind::kConcat) || At(TokenKind::kAmpersand) || At(TokenKind::kPipe) ||
                  At(TokenKind::kShiftLeft) || At(TokenKind::kShiftRight))) {
    const BinaryOp op = At(TokenKind::kConcat)      ? BinaryOp::kConcat
                        : At(TokenKind::kAmpersand) ? BinaryOp::kBitAnd
                        : At(TokenKind::kPipe)      ? BinaryOp::kBitOr
                        : At(TokenKind::kShiftLeft) ? BinaryOp::kShiftLeft
                                                    : BinaryOp::kShiftRight;
    Next();
    ExprPtr right = ParseAdditive();
    if (!right) return nullptr;
    left = MakeBinary(op, std::move(left), std::move(right));
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
  ExprPtr left = ParsePower();
  while (left && (At(TokenKind::kStar) || At(TokenKind::kSlash) || At(TokenKind::kPercent) ||
                  At(TokenKind::kSlashSlash))) {
    const BinaryOp op = At(TokenKind::kStar)         ? BinaryOp::kMultiply
                        : At(TokenKind::kSlash)      ? BinaryOp::kDivide
                        : At(TokenKind::kSlashSlash) ? BinaryOp::kIntegerDivide
                                                     : BinaryOp::kModulo;
    Next();
    ExprPtr right = ParsePower();
    if (!right) return nullptr;
    left = MakeBinary(op, std::move(left), std::move(right));
  }
  return left;
}

// ^ and **, left to right, above * and / and below the signs (-2 ^ 2 is 4, as in DuckDB).
ExprPtr Parser::ParsePower() {
  ExprPtr left = ParseUnary();
  while (left && At(TokenKind::kCaret)) {
    Next();
    ExprPtr right = ParseUnary();
    if (!right) return nullptr;
    left = MakeBinary(BinaryOp::kPower, std::move(left), std::move(right));
  }
  return left;
}

ExprPtr Parser::ParseUnary() {
  if (!At(TokenKind::kMinus) && !At(TokenKind::kPlus) && !At(TokenKind::kTilde)) return ParsePostfix();
  DepthGuard guard(this);
  if (!CheckDepth()) return nullptr;
  const Token& sign = Current();
  if (sign.kind == TokenKind::kTilde) {
    Next();
    ExprPtr operand = ParseUnary();
    if (!operand) return nullptr;
    ExprPtr node = MakeNode(ExprKind::kUnary, sign);
    node->unary_op = UnaryOp::kBitNot;
    node->operand = std::move(operand);
    return Finish(std::move(node));
  }
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
  while (operand && (At(TokenKind::kDoubleColon) || At(TokenKind::kLeftBracket))) {
    if (At(TokenKind::kLeftBracket)) {
      // l[i]: list_extract(l, i) (of a string, its i-th character), as DuckDB.
      const Token& open = Current();
      Next();
      ExprPtr node = MakeNode(ExprKind::kFunctionCall, *operand);
      node->text = "list_extract";
      node->args.push_back(std::move(operand));
      ExprPtr index = ParseExpr();
      if (!index) return nullptr;
      if (!At(TokenKind::kRightBracket)) {
        FailExpected("']' to close '[' at " + Where(open.pos) + " (slices l[a:b] are not supported)");
        return nullptr;
      }
      Next();
      node->args.push_back(std::move(index));
      operand = Finish(std::move(node));
      continue;
    }
    Next();
    ExprPtr node = MakeNode(ExprKind::kCast, *operand);
    if (!ParseTypeName(&node->text)) return nullptr;
    node->operand = std::move(operand);
    operand = Finish(std::move(node));
  }
  return operand;
}

}  // namespace sql
}  // namespace laneql
