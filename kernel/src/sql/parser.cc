// The statement level of the parser, its token and error helpers, and the public entry points.
// Expressions are in parser_expr.cc.
#include "src/sql/parser.h"

#include <cstdint>
#include <utility>

#include "src/sql/lexer.h"
#include "src/sql/parser_internal.h"

namespace laneql {
namespace sql {

// ---- Tokens and errors ----

const Token& Parser::Ahead(size_t n) const {
  const size_t i = index_ + n;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

bool Parser::IsKeyword(const Token& token, const char* upper) {
  return token.kind == TokenKind::kKeyword && token.value == upper;
}

bool Parser::IsWord(const Token& token, const char* upper) {
  if (token.kind != TokenKind::kKeyword && token.kind != TokenKind::kIdentifier) return false;
  const std::string& text = token.value;
  size_t i = 0;
  for (; upper[i] != '\0'; ++i) {
    if (i >= text.size()) return false;
    char c = text[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != upper[i]) return false;
  }
  return i == text.size();
}

bool Parser::Accept(TokenKind kind) {
  if (!At(kind)) return false;
  Next();
  return true;
}

bool Parser::AcceptKeyword(const char* upper) {
  if (!AtKeyword(upper)) return false;
  Next();
  return true;
}

std::string Parser::Where(SourcePos pos) {
  return "line " + std::to_string(pos.line) + ", column " + std::to_string(pos.column);
}

bool Parser::Fail(SourcePos pos, size_t offset, std::string message) {
  if (!failed_) {
    failed_ = true;
    SetParseError(sql_, offset, pos, std::move(message), error_);
  }
  return false;
}

bool Parser::Fail(const Token& at, std::string message) {
  return Fail(at.pos, at.offset, std::move(message));
}

bool Parser::FailExpected(const std::string& expected) {
  return Fail(Current(), "unexpected " + DescribeToken(Current()) + ", expected " + expected);
}

bool Parser::ExpectKeyword(const char* upper, const char* context) {
  if (AcceptKeyword(upper)) return true;
  return FailExpected(std::string("'") + upper + "'" + context);
}

bool Parser::ExpectClosingParen(const Token& open) {
  if (At(TokenKind::kRightParen)) {
    Next();
    return true;
  }
  return FailExpected("')' to close '(' at " + Where(open.pos));
}

bool Parser::CheckDepth() {
  if (depth_ <= kMaxNestingDepth) return true;
  return Fail(Current(), "expression nested too deeply: more than " +
                             std::to_string(kMaxNestingDepth) + " levels");
}

bool Parser::ParseName(std::string* name, SourcePos* pos, const char* what) {
  if (!At(TokenKind::kIdentifier) && !At(TokenKind::kQuotedIdentifier)) {
    return FailExpected(what);
  }
  *name = Current().value;
  if (pos != nullptr) *pos = Current().pos;
  Next();
  return true;
}

bool Parser::ExpectEnd() {
  if (At(TokenKind::kEnd)) return true;
  return FailExpected("end of statement");
}

// ---- Statements ----

bool Parser::ParseStatement(Statement* out) {
  *out = Statement();
  if (!ParseStatementBody(out)) return false;
  return ParseStatementEnd();
}

bool Parser::ParseStatementEnd() {
  if (At(TokenKind::kSemicolon)) {
    Next();
    if (!At(TokenKind::kEnd)) {
      return Fail(Current(), "unexpected " + DescribeToken(Current()) +
                                 " after ';': only one statement is supported");
    }
  }
  return ExpectEnd();
}

bool Parser::ParseStatementBody(Statement* out) {
  const Token& first = Current();
  out->pos = first.pos;
  if (IsWord(first, "COPY")) {
    out->kind = StatementKind::kCopy;
    return ParseCopy(&out->copy);
  }
  if (IsWord(first, "CREATE")) return ParseCreate(out);
  if (IsWord(first, "INSERT")) return ParseInsert(out);
  if (IsWord(first, "DROP")) return ParseDrop(out);
  if (IsWord(first, "SHOW") && IsWord(Ahead(1), "TABLES")) {
    out->kind = StatementKind::kShowTables;
    Next();
    Next();
    return true;
  }
  if (IsWord(first, "DESCRIBE") || IsWord(first, "DESC") || IsKeyword(first, "DESC")) {
    out->kind = StatementKind::kDescribe;
    Next();
    if (AtQueryStart(Current()) || At(TokenKind::kLeftParen)) {
      out->query = ParseQuery();
      return out->query != nullptr;
    }
    return ParseName(&out->describe_name, &out->describe_pos, "a table name or a query after DESCRIBE");
  }
  if (IsWord(first, "EXPLAIN")) {
    out->kind = StatementKind::kExplain;
    Next();
    if (IsWord(Current(), "ANALYZE") || IsWord(Current(), "ANALYSE")) {
      out->explain_analyze = true;
      Next();
    }
    if (IsWord(Current(), "EXPLAIN")) return FailExpected("a statement to explain");
    out->explained = std::make_unique<Statement>();
    return ParseStatementBody(out->explained.get());
  }
  if (AtQueryStart(first) || first.kind == TokenKind::kLeftParen) {
    out->kind = StatementKind::kSelect;
    out->query = ParseQuery();
    return out->query != nullptr;
  }
  return FailExpected("a statement (SELECT, WITH, VALUES, CREATE, INSERT, DROP, COPY, DESCRIBE, "
                      "SHOW TABLES or EXPLAIN)");
}

bool Parser::ParseExprList(std::vector<ExprPtr>* out) {
  do {
    ExprPtr expr = ParseExpr();
    if (!expr) return false;
    out->push_back(std::move(expr));
  } while (Accept(TokenKind::kComma));
  return true;
}

// ORDER BY item, ... or ORDER BY ALL [ASC|DESC] [NULLS FIRST|LAST] (then one item, null expr).
bool Parser::ParseOrderBy(std::vector<OrderItem>* order_by, bool* all) {
  *all = AcceptKeyword("ALL");
  do {
    OrderItem item;
    if (!*all) {
      item.expr = ParseExpr();
      if (!item.expr) return false;
    }
    if (AcceptKeyword("DESC")) {
      item.descending = true;
    } else {
      AcceptKeyword("ASC");
    }
    // NULLS, FIRST and LAST are not reserved (PostgreSQL does not reserve them either).
    if (IsWord(Current(), "NULLS")) {
      Next();
      if (IsWord(Current(), "FIRST")) {
        item.nulls = NullsOrder::kFirst;
      } else if (IsWord(Current(), "LAST")) {
        item.nulls = NullsOrder::kLast;
      } else {
        return FailExpected("'FIRST' or 'LAST' after 'NULLS'");
      }
      Next();
    }
    order_by->push_back(std::move(item));
  } while (!*all && Accept(TokenKind::kComma));
  return true;
}

// LIMIT and OFFSET, each at most once, in either order (PostgreSQL and DuckDB accept both).
bool Parser::ParseLimitOffset(bool* has_limit, int64_t* limit, SourcePos* limit_pos,
                              bool* has_offset, int64_t* offset, SourcePos* offset_pos) {
  while (true) {
    if (!*has_limit && AcceptKeyword("LIMIT")) {
      *has_limit = true;
      if (!ParseCount("LIMIT", limit, limit_pos)) return false;
    } else if (!*has_offset && AcceptKeyword("OFFSET")) {
      *has_offset = true;
      if (!ParseCount("OFFSET", offset, offset_pos)) return false;
    } else {
      return true;
    }
  }
}

bool Parser::ParseCount(const char* clause, int64_t* value, SourcePos* pos) {
  const Token& token = Current();
  if (token.kind != TokenKind::kInteger) {
    return FailExpected(std::string("a non-negative integer after '") + clause + "'");
  }
  *pos = token.pos;
  int64_t result = 0;
  for (char c : token.value) {
    const int digit = c - '0';
    if (result > (INT64_MAX - digit) / 10) {
      return Fail(token, std::string(clause) + " value " + DescribeToken(token) +
                             " is out of range");
    }
    result = result * 10 + digit;
  }
  *value = result;
  Next();
  return true;
}

// ---- Entry points ----

bool ParseStatement(std::string_view sql, Statement* out, ParseError* error) {
  std::vector<Token> tokens;
  if (!Tokenize(sql, &tokens, error)) return false;
  Parser parser(sql, std::move(tokens), error);
  return parser.ParseStatement(out);
}

bool ParseSelect(std::string_view sql, SelectStatement* out, ParseError* error) {
  Statement statement;
  if (!ParseStatement(sql, &statement, error)) return false;
  if (statement.kind != StatementKind::kSelect || statement.query->kind != QueryKind::kSelect ||
      !statement.query->ctes.empty()) {
    if (error != nullptr) {
      SetParseError(sql, 0, statement.pos, "expected a single SELECT statement", error);
    }
    return false;
  }
  *out = std::move(statement.query->select);
  return true;
}

bool ParseExpression(std::string_view sql, ExprPtr* out, ParseError* error) {
  std::vector<Token> tokens;
  if (!Tokenize(sql, &tokens, error)) return false;
  Parser parser(sql, std::move(tokens), error);
  *out = parser.ParseExpr();
  return *out != nullptr && parser.ExpectEnd();
}

}  // namespace sql
}  // namespace laneql
