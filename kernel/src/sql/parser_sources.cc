// What a query reads from and COPY writes to: FROM a table, a file or a table function, and the
// COPY statement. The readers themselves are the executor's business (src/exec/file_tables.cc);
// the parser only records paths and options.
#include <string>
#include <utility>

#include "src/sql/parser_internal.h"
#include "src/common/ascii.h"

namespace laneql {
namespace sql {
namespace {

// DuckDB's implicit alias for a file: its name without folders and extensions
// ('data/hits.csv.gz' -> hits), so `SELECT hits.URL FROM 'data/hits.csv'` works.
std::string FileStem(const std::string& path) {
  const size_t slash = path.find_last_of("/\\");
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const size_t dot = name.find('.');
  if (dot != std::string::npos && dot > 0) name.resize(dot);
  return name.empty() ? path : name;
}

}  // namespace

bool Parser::ParseFrom(SelectStatement* out) {
  Next();  // FROM
  if (At(TokenKind::kLeftParen)) {
    return Fail(Current(), "unexpected '(': subqueries in FROM are not supported");
  }
  out->has_from = true;
  TableRef& from = out->from;
  from.pos = Current().pos;
  if (At(TokenKind::kString)) {
    from.kind = TableRefKind::kFile;
    from.path = Current().value;
    if (from.path.empty()) return Fail(Current(), "empty file name in FROM");
    from.name = FileStem(from.path);
    Next();
  } else if (At(TokenKind::kIdentifier) && Ahead(1).kind == TokenKind::kLeftParen) {
    if (!ParseTableFunction(&from)) return false;
  } else if (!ParseName(&from.name, &from.pos,
                        "a table name, a file name in quotes or a table function")) {
    return false;
  }
  if (AcceptKeyword("AS")) {
    return ParseName(&from.alias, nullptr, "an alias after 'AS'");
  }
  if (At(TokenKind::kIdentifier) || At(TokenKind::kQuotedIdentifier)) {
    return ParseName(&from.alias, nullptr, "an alias");
  }
  if (At(TokenKind::kComma)) {
    return Fail(Current(), "unexpected ',' after the table: joins are not supported");
  }
  return true;
}

bool Parser::ParseTableFunction(TableRef* ref) {
  const Token& name = Current();
  ref->kind = TableRefKind::kFunction;
  ref->function = ascii::Lower(name.value);
  Next();
  const Token& open = Current();
  Next();  // (
  if (!At(TokenKind::kString)) {
    return FailExpected("a file name in quotes as the first argument of " + ref->function + "()");
  }
  ref->path = Current().value;
  if (ref->path.empty()) return Fail(Current(), "empty file name");
  ref->name = FileStem(ref->path);
  Next();
  while (Accept(TokenKind::kComma)) {
    TableOption option;
    if (!ParseFunctionOption(&option)) return false;
    ref->options.push_back(std::move(option));
  }
  return ExpectClosingParen(open);
}

bool Parser::ParseFunctionOption(TableOption* option) {
  option->pos = Current().pos;
  if (!At(TokenKind::kIdentifier) && !At(TokenKind::kQuotedIdentifier) &&
      !At(TokenKind::kKeyword)) {
    return FailExpected("an option name (e.g. delim => '\\t')");
  }
  option->name = Current().value;
  Next();
  // `=>` is lexed as '=' then '>'; DuckDB also accepts a plain '='.
  if (!Accept(TokenKind::kEquals)) {
    return FailExpected("'=>' after option " + option->name);
  }
  Accept(TokenKind::kGreater);
  option->value = ParseExpr();
  return option->value != nullptr;
}

bool Parser::ParseCopy(CopyStatement* out) {
  out->pos = Current().pos;
  Next();  // COPY
  if (At(TokenKind::kLeftParen)) {
    const Token& open = Current();
    Next();
    if (!AtKeyword("SELECT")) return FailExpected("SELECT after 'COPY ('");
    if (!ParseSelectBody(&out->query) || !ExpectClosingParen(open)) return false;
  } else {
    // COPY table TO ...: a SELECT * over the table.
    SelectStatement& query = out->query;
    query.pos = Current().pos;
    SelectItem star;
    star.expr = std::make_unique<Expr>();
    star.expr->kind = ExprKind::kStar;
    star.expr->pos = Current().pos;
    query.select_list.push_back(std::move(star));
    query.has_from = true;
    if (!ParseName(&query.from.name, &query.from.pos,
                   "a table name or '(SELECT ...)' after COPY")) {
      return false;
    }
  }
  if (!IsWord(Current(), "TO")) {
    if (IsKeyword(Current(), "FROM") || IsWord(Current(), "FROM")) {
      return Fail(Current(),
                  "COPY ... FROM is not supported: read files with SELECT ... FROM 'file'");
    }
    return FailExpected("'TO' after the query of COPY");
  }
  Next();
  if (!At(TokenKind::kString)) return FailExpected("a file name in quotes after 'TO'");
  out->path = Current().value;
  out->path_pos = Current().pos;
  if (out->path.empty()) return Fail(Current(), "empty file name after 'TO'");
  Next();
  if (IsWord(Current(), "WITH")) Next();
  if (At(TokenKind::kLeftParen)) return ParseCopyOptions(&out->options);
  return true;
}

bool Parser::ParseCopyOptions(std::vector<TableOption>* options) {
  const Token& open = Current();
  Next();  // (
  do {
    TableOption option;
    option.pos = Current().pos;
    if (!At(TokenKind::kIdentifier) && !At(TokenKind::kQuotedIdentifier) &&
        !At(TokenKind::kKeyword)) {
      return FailExpected("a COPY option (FORMAT, DELIMITER, HEADER, NULL, QUOTE)");
    }
    option.name = Current().value;
    Next();
    if (!At(TokenKind::kComma) && !At(TokenKind::kRightParen)) {
      if (At(TokenKind::kIdentifier)) {
        // A bare word such as csv in FORMAT csv: its text.
        option.value = MakeNode(ExprKind::kStringLiteral, Current());
        option.value->text = Current().value;
        Next();
      } else {
        option.value = ParseExpr();
        if (!option.value) return false;
      }
    }
    options->push_back(std::move(option));
  } while (Accept(TokenKind::kComma));
  return ExpectClosingParen(open);
}

}  // namespace sql
}  // namespace laneql
