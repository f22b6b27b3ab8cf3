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
  TableRefPtr from = ParseFromList();
  if (!from) return false;
  out->has_from = true;
  out->from = std::move(*from);
  return true;
}

// item, item, ...: a cross join each comma, which WHERE usually turns into an inner one.
TableRefPtr Parser::ParseFromList() {
  TableRefPtr from = ParseFromItem();
  while (from && At(TokenKind::kComma)) {
    auto join = std::make_unique<TableRef>();
    join->kind = TableRefKind::kJoin;
    join->join_type = JoinType::kCross;
    join->comma_join = true;
    join->pos = Current().pos;
    Next();
    join->left = std::move(from);
    join->right = ParseFromItem();
    if (!join->right) return nullptr;
    from = std::move(join);
  }
  return from;
}

TableRefPtr Parser::ParseFromItem() {
  TableRefPtr left = ParseTablePrimary();
  while (left) {
    const Token& at = Current();
    JoinType type = JoinType::kInner;
    bool natural = false, found = false;
    if (!ParseJoinType(&type, &natural, &found)) return nullptr;
    if (!found) return left;
    auto join = std::make_unique<TableRef>();
    join->kind = TableRefKind::kJoin;
    join->pos = at.pos;
    join->join_type = type;
    join->natural = natural;
    join->left = std::move(left);
    join->right = ParseTablePrimary();
    if (!join->right) return nullptr;
    if (type != JoinType::kCross && !natural) {
      if (AcceptKeyword("ON")) {
        join->on = ParseExpr();
        if (!join->on) return nullptr;
      } else if (AcceptKeyword("USING")) {
        if (!ParseNameList(&join->using_columns, nullptr, "a column name")) return nullptr;
      } else {
        FailExpected("'ON' or 'USING' after the joined table");
        return nullptr;
      }
    }
    left = std::move(join);
  }
  return nullptr;
}

// [NATURAL] [INNER | LEFT [OUTER] | RIGHT [OUTER] | FULL [OUTER] | SEMI | ANTI] JOIN, or
// CROSS JOIN. *found is false (and nothing consumed) when no join follows.
bool Parser::ParseJoinType(JoinType* type, bool* natural, bool* found) {
  *found = false;
  if (IsWord(Current(), "NATURAL")) {
    *natural = true;
    Next();
  }
  const Token& word = Current();
  if (IsWord(word, "CROSS")) {
    if (*natural) return FailExpected("a join type after 'NATURAL'");
    *type = JoinType::kCross;
    Next();
  } else if (IsWord(word, "INNER")) {
    Next();
  } else if (IsWord(word, "LEFT") || IsWord(word, "RIGHT") || IsWord(word, "FULL")) {
    *type = IsWord(word, "LEFT") ? JoinType::kLeft : IsWord(word, "RIGHT") ? JoinType::kRight : JoinType::kFull;
    Next();
    if (IsWord(Current(), "OUTER")) Next();
  } else if (IsWord(word, "SEMI") || IsWord(word, "ANTI")) {
    *type = IsWord(word, "SEMI") ? JoinType::kSemi : JoinType::kAnti;
    Next();
  } else if (!IsKeyword(word, "JOIN")) {
    if (*natural) return FailExpected("'JOIN' after 'NATURAL'");
    return true;
  }
  if (!ExpectKeyword("JOIN", "")) return false;
  *found = true;
  return true;
}

TableRefPtr Parser::ParseTablePrimary() {
  auto ref = std::make_unique<TableRef>();
  TableRef& from = *ref;
  if (IsWord(Current(), "LATERAL") && Ahead(1).kind == TokenKind::kLeftParen && AtQueryStart(Ahead(2))) {
    from.lateral = true;  // DuckDB's reading: any derived table may read the items left of it
    Next();
  }
  const Token& first = Current();
  from.pos = first.pos;
  if (At(TokenKind::kLeftParen)) {
    DepthGuard guard(this);
    if (!CheckDepth()) return nullptr;
    const Token& after = Ahead(1);
    if (AtQueryStart(after) || after.kind == TokenKind::kLeftParen) {
      Next();
      if (IsWord(Current(), "VALUES")) {
        from.kind = TableRefKind::kValues;
        Next();
        if (!ParseValuesRows(&from.values)) return nullptr;
      } else {
        from.kind = TableRefKind::kSubquery;
        from.subquery = ParseQuery();
        if (!from.subquery) return nullptr;
      }
      if (!ExpectClosingParen(first)) return nullptr;
    } else {
      // A parenthesized join: (a JOIN b ON ...), or (a, b).
      Next();
      TableRefPtr inner = ParseFromList();
      if (!inner || !ExpectClosingParen(first)) return nullptr;
      if (inner->kind != TableRefKind::kJoin) {
        Fail(first, "expected a join inside the parentheses");
        return nullptr;
      }
      return inner;
    }
  } else if (IsWord(first, "VALUES")) {
    from.kind = TableRefKind::kValues;
    Next();
    if (!ParseValuesRows(&from.values)) return nullptr;
  } else if (At(TokenKind::kString)) {
    from.kind = TableRefKind::kFile;
    from.path = Current().value;
    if (from.path.empty()) {
      Fail(Current(), "empty file name in FROM");
      return nullptr;
    }
    from.name = FileStem(from.path);
    Next();
  } else if (At(TokenKind::kIdentifier) && Ahead(1).kind == TokenKind::kLeftParen) {
    if (!ParseTableFunction(&from)) return nullptr;
  } else if (!ParseName(&from.name, &from.pos,
                        "a table name, a file name in quotes, a table function or '('")) {
    return nullptr;
  }
  if (!ParseTableAlias(&from)) return nullptr;
  return ref;
}

// [AS] alias [(column, ...)]; a clause word (LEFT, WHERE, ...) is never an implicit alias.
bool Parser::ParseTableAlias(TableRef* ref) {
  if (AcceptKeyword("AS")) {
    if (!ParseName(&ref->alias, nullptr, "an alias after 'AS'")) return false;
  } else if (At(TokenKind::kQuotedIdentifier) ||
             (At(TokenKind::kIdentifier) && !IsClauseWord(Current()))) {
    if (!ParseName(&ref->alias, nullptr, "an alias")) return false;
  } else {
    return true;
  }
  if (At(TokenKind::kLeftParen)) return ParseNameList(&ref->column_aliases, nullptr, "a column name");
  return true;
}

bool Parser::ParseTableFunction(TableRef* ref) {
  const Token& name = Current();
  ref->kind = TableRefKind::kFunction;
  ref->function = ascii::Lower(name.value);
  Next();
  const Token& open = Current();
  Next();  // (
  if (ref->function == "range" || ref->function == "generate_series") {
    // DuckDB's series: range(end), range(start, end[, step]); generate_series includes end.
    ref->name = ref->function;
    std::vector<ExprPtr> args;
    if (!At(TokenKind::kRightParen)) {
      do {
        ExprPtr arg = ParseExpr();
        if (arg == nullptr) return false;
        args.push_back(std::move(arg));
      } while (Accept(TokenKind::kComma));
    }
    if (args.empty() || args.size() > 3) {
      return Fail(name, ref->function + "() takes 1 to 3 arguments (end; start, end; start, end, step)");
    }
    ref->values.push_back(std::move(args));
    return ExpectClosingParen(open);
  }
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
    if (!AtQueryStart(Current()) && !At(TokenKind::kLeftParen)) {
      return FailExpected("a query after 'COPY ('");
    }
    out->query = ParseQuery();
    if (!out->query || !ExpectClosingParen(open)) return false;
  } else {
    // COPY table TO ...: a SELECT * over the table.
    out->query = std::make_unique<QueryNode>();
    out->query->pos = Current().pos;
    SelectStatement& query = out->query->select;
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
