// The statements that change the catalog: CREATE TABLE / VIEW, INSERT, DROP.
#include <utility>

#include "src/sql/parser_internal.h"

namespace laneql {
namespace sql {

bool Parser::ParseNameList(std::vector<std::string>* names, std::vector<SourcePos>* positions,
                           const char* what) {
  if (!At(TokenKind::kLeftParen)) return FailExpected("'('");
  const Token& open = Current();
  Next();
  do {
    std::string name;
    SourcePos pos;
    if (!ParseName(&name, &pos, what)) return false;
    names->push_back(std::move(name));
    if (positions != nullptr) positions->push_back(pos);
  } while (Accept(TokenKind::kComma));
  return ExpectClosingParen(open);
}

// CREATE [OR REPLACE] [TEMP | TEMPORARY] TABLE | VIEW [IF NOT EXISTS] name ...
bool Parser::ParseCreate(Statement* out) {
  Next();  // CREATE
  bool or_replace = false, temporary = false, if_not_exists = false;
  if (AcceptKeyword("OR")) {
    if (!IsWord(Current(), "REPLACE")) return FailExpected("'REPLACE' after 'CREATE OR'");
    Next();
    or_replace = true;
  }
  if (IsWord(Current(), "TEMP") || IsWord(Current(), "TEMPORARY")) {
    temporary = true;
    Next();
  }
  const bool view = IsWord(Current(), "VIEW");
  if (!view && !IsWord(Current(), "TABLE")) return FailExpected("'TABLE' or 'VIEW' after 'CREATE'");
  Next();
  if (IsWord(Current(), "IF")) {
    Next();
    if (!ExpectKeyword("NOT", " after 'IF'")) return false;
    if (!IsWord(Current(), "EXISTS")) return FailExpected("'EXISTS' after 'IF NOT'");
    Next();
    if_not_exists = true;
  }
  if (or_replace && if_not_exists) {
    return Fail(Current(), "OR REPLACE and IF NOT EXISTS cannot be used together");
  }
  if (view) {
    out->kind = StatementKind::kCreateView;
    CreateViewStatement& v = out->create_view;
    v.or_replace = or_replace;
    v.temporary = temporary;
    v.if_not_exists = if_not_exists;
    if (!ParseName(&v.name, &v.name_pos, "a view name")) return false;
    if (At(TokenKind::kLeftParen) && !ParseNameList(&v.columns, nullptr, "a column name")) return false;
    if (!ExpectKeyword("AS", " before the view's query")) return false;
    const size_t begin = Current().offset;
    v.query = ParseQuery();
    if (!v.query) return false;
    const size_t end = Current().offset;
    v.query_text = std::string(sql_.substr(begin, end - begin));
    while (!v.query_text.empty() && (v.query_text.back() == ' ' || v.query_text.back() == '\n' ||
                                     v.query_text.back() == '\t' || v.query_text.back() == '\r')) {
      v.query_text.pop_back();
    }
    return true;
  }
  out->kind = StatementKind::kCreateTable;
  CreateTableStatement& t = out->create_table;
  t.or_replace = or_replace;
  t.temporary = temporary;
  t.if_not_exists = if_not_exists;
  if (!ParseName(&t.name, &t.name_pos, "a table name")) return false;
  if (AcceptKeyword("AS")) {
    t.query = ParseQuery();
    return t.query != nullptr;
  }
  if (!At(TokenKind::kLeftParen)) return FailExpected("'(' with the columns, or 'AS' and a query");
  return ParseColumnDefs(&t.columns);
}

// (name TYPE [NOT NULL | NULL], ...)
bool Parser::ParseColumnDefs(std::vector<ColumnDef>* columns) {
  const Token& open = Current();
  Next();
  do {
    ColumnDef column;
    if (!ParseName(&column.name, &column.pos, "a column name")) return false;
    column.type_pos = Current().pos;
    if (!ParseTypeName(&column.type)) return false;
    if (AcceptKeyword("NOT")) {
      if (!ExpectKeyword("NULL", " after 'NOT'")) return false;
      column.not_null = true;
    } else {
      AcceptKeyword("NULL");
    }
    columns->push_back(std::move(column));
  } while (Accept(TokenKind::kComma));
  return ExpectClosingParen(open);
}

// INSERT INTO name [(a, b)] query
bool Parser::ParseInsert(Statement* out) {
  Next();  // INSERT
  if (!IsWord(Current(), "INTO")) return FailExpected("'INTO' after 'INSERT'");
  Next();
  out->kind = StatementKind::kInsert;
  InsertStatement& insert = out->insert;
  if (!ParseName(&insert.table, &insert.table_pos, "a table name")) return false;
  if (At(TokenKind::kLeftParen) && !AtQueryStart(Ahead(1))) {
    if (!ParseNameList(&insert.columns, &insert.column_pos, "a column name")) return false;
  }
  if (!AtQueryStart(Current()) && !At(TokenKind::kLeftParen)) {
    return FailExpected("VALUES or a query after the table");
  }
  insert.query = ParseQuery();
  return insert.query != nullptr;
}

// DROP TABLE | VIEW [IF EXISTS] name
bool Parser::ParseDrop(Statement* out) {
  Next();  // DROP
  out->kind = StatementKind::kDrop;
  DropStatement& drop = out->drop;
  if (IsWord(Current(), "VIEW")) {
    drop.view = true;
  } else if (!IsWord(Current(), "TABLE")) {
    return FailExpected("'TABLE' or 'VIEW' after 'DROP'");
  }
  Next();
  if (IsWord(Current(), "IF")) {
    Next();
    if (!IsWord(Current(), "EXISTS")) return FailExpected("'EXISTS' after 'IF'");
    Next();
    drop.if_exists = true;
  }
  return ParseName(&drop.name, &drop.name_pos, drop.view ? "a view name" : "a table name");
}

}  // namespace sql
}  // namespace laneql
