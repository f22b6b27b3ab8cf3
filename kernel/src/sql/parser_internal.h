// The parser's state and its functions, shared by parser.cc (statements, token helpers),
// parser_expr.cc (operators) and parser_primary.cc (operands). Not part of any API.
#ifndef LANEQL_SQL_PARSER_INTERNAL_H_
#define LANEQL_SQL_PARSER_INTERNAL_H_

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/sql/ast.h"
#include "src/sql/parse_error.h"
#include "src/sql/token.h"

namespace laneql {
namespace sql {

// A node starting at `first`.
inline ExprPtr MakeNode(ExprKind kind, const Token& first) {
  ExprPtr node = std::make_unique<Expr>();
  node->kind = kind;
  node->pos = first.pos;
  node->offset = first.offset;
  return node;
}

// A node starting where `first` starts.
inline ExprPtr MakeNode(ExprKind kind, const Expr& first) {
  ExprPtr node = std::make_unique<Expr>();
  node->kind = kind;
  node->pos = first.pos;
  node->offset = first.offset;
  return node;
}

class Parser {
 public:
  // `tokens` must end with a kEnd token (Tokenize guarantees it).
  Parser(std::string_view sql, std::vector<Token> tokens, ParseError* error)
      : sql_(sql), tokens_(std::move(tokens)), error_(error) {}

  // One statement, optionally ended by ';', then the end of the input.
  bool ParseStatement(Statement* out);
  // Any expression, OR being the loosest operator. Null after an error.
  ExprPtr ParseExpr();
  // Succeeds at the end of the input; otherwise reports the current token.
  bool ExpectEnd();

 private:
  // Counts one level of recursion for as long as it lives; see kMaxNestingDepth.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* parser) : parser_(parser) { ++parser_->depth_; }
    ~DepthGuard() { --parser_->depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    Parser* parser_;
  };

  // Tokens (parser.cc).
  const Token& Current() const { return tokens_[index_]; }
  const Token& Ahead(size_t n) const;  // the kEnd token past the end
  void Next() {
    if (index_ + 1 < tokens_.size()) ++index_;
  }
  bool At(TokenKind kind) const { return Current().kind == kind; }
  // A reserved keyword; `upper` is upper case.
  bool AtKeyword(const char* upper) const { return IsKeyword(Current(), upper); }
  static bool IsKeyword(const Token& token, const char* upper);
  // An unquoted word spelled `upper` in any case, reserved or not (DATE, NULLS, FIRST, ...).
  static bool IsWord(const Token& token, const char* upper);
  // Consume the current token when it is that kind / that keyword.
  bool Accept(TokenKind kind);
  bool AcceptKeyword(const char* upper);

  // Errors (parser.cc). Only the first one is kept; they all return false / null so callers
  // can `return Fail(...)`.
  bool Fail(const Token& at, std::string message);
  bool Fail(SourcePos pos, size_t offset, std::string message);
  // "unexpected <current token>, expected <expected>".
  bool FailExpected(const std::string& expected);
  bool ExpectKeyword(const char* upper, const char* context);
  // Expects ')' closing the '(' token `open`.
  bool ExpectClosingParen(const Token& open);
  bool CheckDepth();
  // A name: an unquoted identifier or a quoted one. `what` is e.g. "an alias".
  bool ParseName(std::string* name, SourcePos* pos, const char* what);
  static std::string Where(SourcePos pos);  // "line L, column C"

  // Statements (parser.cc, parser_statements.cc).
  bool ParseStatementEnd();  // an optional ';', then the end
  bool ParseStatementBody(Statement* out);  // any statement, without the ';'
  bool ParseCreate(Statement* out);
  bool ParseColumnDefs(std::vector<ColumnDef>* columns);
  bool ParseInsert(Statement* out);
  bool ParseDrop(Statement* out);
  bool ParseNameList(std::vector<std::string>* names, std::vector<SourcePos>* positions,
                     const char* what);  // (a, b, ...)
  // Queries (parser_query.cc): [WITH ...] a set expression of SELECT / VALUES / (query)
  // terms, then ORDER BY / LIMIT / OFFSET.
  static bool AtQueryStart(const Token& token);  // SELECT, WITH, VALUES
  QueryPtr ParseQuery();
  QueryPtr ParseSetExpr();
  QueryPtr ParseSetTerm();   // terms joined by INTERSECT (it binds tighter than UNION, EXCEPT)
  QueryPtr ParseQueryPrimary();
  bool ParseWith(QueryNode* out);
  bool ParseValuesRows(std::vector<std::vector<ExprPtr>>* rows);  // after VALUES
  bool ParseSelectBody(SelectStatement* out);  // SELECT ... HAVING, no ORDER BY / LIMIT
  bool ParseSelectList(SelectStatement* out);
  bool ParseStarExclude(Expr* star);  // after * or t.*: [EXCLUDE (a, b)]
  // The ORDER BY / LIMIT / OFFSET after a query, attached where they belong.
  bool ParseQueryModifiers(QueryNode* query);
  // A word that ends an expression or a table rather than naming its alias (LEFT, EXCEPT, ...).
  static bool IsClauseWord(const Token& token);
  // FROM sources and COPY (parser_sources.cc).
  bool ParseFrom(SelectStatement* out);
  TableRefPtr ParseFromList();      // sources separated by commas
  TableRefPtr ParseFromItem();      // a source and the joins that follow it
  TableRefPtr ParseTablePrimary();  // one source, with its alias
  bool ParseJoinType(JoinType* type, bool* natural, bool* found);
  bool ParseTableAlias(TableRef* ref);
  bool ParseTableFunction(TableRef* ref);
  // `name => value` (or `name = value`) after a table function's path.
  bool ParseFunctionOption(TableOption* option);
  bool ParseCopy(CopyStatement* out);
  // COPY's `(name [value], ...)`; names may be keywords (NULL 'x'), bare words as values are
  // read as strings (FORMAT csv).
  bool ParseCopyOptions(std::vector<TableOption>* options);
  bool ParseOrderBy(std::vector<OrderItem>* order_by, bool* all);
  bool ParseLimitOffset(bool* has_limit, int64_t* limit, SourcePos* limit_pos, bool* has_offset,
                        int64_t* offset, SourcePos* offset_pos);
  bool ParseCount(const char* clause, int64_t* value, SourcePos* pos);
  bool ParseExprList(std::vector<ExprPtr>* out);

  // Expressions, loosest to tightest (parser_expr.cc, from ParsePrimary on parser_primary.cc).
  ExprPtr ParseOr();
  ExprPtr ParseAnd();
  ExprPtr ParseNot();
  ExprPtr ParseIs();
  ExprPtr ParseComparison();
  ExprPtr ParsePredicate();  // BETWEEN, IN, LIKE, ILIKE
  ExprPtr ParseConcat();
  ExprPtr ParseAdditive();
  ExprPtr ParseMultiplicative();
  ExprPtr ParsePower();
  ExprPtr ParseUnary();
  ExprPtr ParsePostfix();  // ::type
  ExprPtr ParsePrimary();
  ExprPtr ParseNameOrCall();
  ExprPtr ParseParenthesized();
  ExprPtr ParseListLiteral();  // at '['
  ExprPtr ParseCase();
  ExprPtr ParseCast(bool try_cast = false);  // CAST / TRY_CAST (x AS type)
  ExprPtr ParseExtract();
  ExprPtr ParseSubqueryExpr(ExprKind kind, const Token& first);  // at '(' of (query)
  ExprPtr ParseInterval();
  ExprPtr ParseSubstring(const Token& name_token);  // substring(s FROM a [FOR b])
  ExprPtr ParsePosition(const Token& name_token);   // position(needle IN s)
  bool ParseFilterClause(Expr* call);               // agg(...) FILTER (WHERE c)
  bool ParseCallOrderBy(Expr* call);                // agg(x ORDER BY k)
  // Windows (parser_window.cc): OVER after a call makes it a kWindowCall.
  bool AtOver() const;
  bool ParseOver(Expr* call);
  bool ParseWindowSpec(WindowSpec* spec);  // at '(': ( [name] [PARTITION BY] [ORDER BY] [frame] )
  bool ParseFrame(WindowSpec* spec);       // at ROWS / RANGE / GROUPS
  // IGNORE NULLS / RESPECT NULLS at the end of a call's arguments; *word: its first token.
  void ParseNullTreatment(Expr* call, const Token** word);
  bool ParseFrameBound(FrameBound* bound);
  bool ParseFrameExclude(WindowSpec* spec);  // after the bounds: [EXCLUDE ...]
  static bool IsFrameUnit(const Token& token);  // ROWS, RANGE, GROUPS
  bool ParseWindowClause(SelectStatement* out);  // after WINDOW: name AS (spec), ...
  bool ParseMoreArguments(Expr* call);              // (, expr)*
  ExprPtr ParseFunctionCall(std::string name, const Token& name_token);
  bool ParseTypeName(std::string* type);
  // Sets `node`'s height from its children; null (and an error) past the depth limit.
  ExprPtr Finish(ExprPtr node);
  ExprPtr MakeBinary(BinaryOp op, ExprPtr left, ExprPtr right);

  std::string_view sql_;
  std::vector<Token> tokens_;
  ParseError* error_;
  size_t index_ = 0;
  int depth_ = 0;
  bool failed_ = false;
};

}  // namespace sql
}  // namespace laneql

#endif  // LANEQL_SQL_PARSER_INTERNAL_H_
