// ParseCreateTable (laneql/csv.h): the column list of a CREATE TABLE statement, enough for
// ClickBench's create.sql in its DuckDB and ClickHouse spellings. Grammar:
//   CREATE [OR REPLACE] [TEMP | TEMPORARY] TABLE [IF NOT EXISTS] [schema.]name
//     ( column_def | PRIMARY KEY (col, ...) [, ...] [,] ) [table options ...] [;]
//   column_def: name type [ (n [, m]) ] { NOT NULL | NULL | PRIMARY KEY | UNIQUE }
// Identifiers may be double-quoted ("x", with "" for a quote). `--` and /* */ comments are
// skipped. Whatever follows the column list up to the end or ';' (ClickHouse's ENGINE =
// MergeTree SETTINGS ...) is ignored: it does not change the columns.
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/csv.h"

namespace laneql {
namespace {

enum class TokenKind { kWord, kQuotedName, kString, kNumber, kPunct, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // quoted names and strings without their quotes
  int line = 1;
  int column = 1;
};

class Lexer {
 public:
  explicit Lexer(std::string_view sql) : sql_(sql) {}

  // The next token; false with *error on an unterminated quote or comment.
  bool Next(Token* token, std::string* error) {
    if (!SkipSpaceAndComments(error)) return false;
    token->line = line_;
    token->column = column_;
    token->text.clear();
    if (pos_ >= sql_.size()) {
      token->kind = TokenKind::kEnd;
      return true;
    }
    const char c = sql_[pos_];
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
        static_cast<unsigned char>(c) >= 0x80) {
      token->kind = TokenKind::kWord;
      while (pos_ < sql_.size() && IsWordChar(sql_[pos_])) token->text.push_back(Advance());
      return true;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      token->kind = TokenKind::kNumber;
      while (pos_ < sql_.size() && (std::isdigit(static_cast<unsigned char>(sql_[pos_])) ||
                                    sql_[pos_] == '.')) {
        token->text.push_back(Advance());
      }
      return true;
    }
    if (c == '"' || c == '\'' || c == '`') {
      token->kind = c == '\'' ? TokenKind::kString : TokenKind::kQuotedName;
      Advance();
      while (true) {
        if (pos_ >= sql_.size()) {
          *error = Where(token->line, token->column) + "unterminated quoted " +
                   (c == '\'' ? "string" : "identifier");
          return false;
        }
        const char d = Advance();
        if (d == c) {
          if (pos_ < sql_.size() && sql_[pos_] == c) {
            token->text.push_back(Advance());
            continue;
          }
          return true;
        }
        token->text.push_back(d);
      }
    }
    token->kind = TokenKind::kPunct;
    token->text.push_back(Advance());
    return true;
  }

  static std::string Where(int line, int column) {
    return std::to_string(line) + ":" + std::to_string(column) + ": ";
  }

 private:
  static bool IsWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
           static_cast<unsigned char>(c) >= 0x80;
  }

  char Advance() {
    const char c = sql_[pos_++];
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return c;
  }

  bool SkipSpaceAndComments(std::string* error) {
    while (pos_ < sql_.size()) {
      const char c = sql_[pos_];
      if (std::isspace(static_cast<unsigned char>(c))) {
        Advance();
      } else if (sql_.substr(pos_, 2) == "--") {
        while (pos_ < sql_.size() && sql_[pos_] != '\n') Advance();
      } else if (sql_.substr(pos_, 2) == "/*") {
        const int line = line_, column = column_;
        Advance();
        Advance();
        while (pos_ < sql_.size() && sql_.substr(pos_, 2) != "*/") Advance();
        if (pos_ >= sql_.size()) {
          *error = Where(line, column) + "unterminated /* comment";
          return false;
        }
        Advance();
        Advance();
      } else {
        break;
      }
    }
    return true;
  }

  std::string_view sql_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

bool IsKeyword(const Token& t, std::string_view keyword) {
  if (t.kind != TokenKind::kWord || t.text.size() != keyword.size()) return false;
  for (size_t i = 0; i < keyword.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(t.text[i])) != keyword[i]) return false;
  }
  return true;
}

bool IsPunct(const Token& t, char c) { return t.kind == TokenKind::kPunct && t.text[0] == c; }

class Parser {
 public:
  Parser(std::string_view sql, std::string* error) : lexer_(sql), error_(error) {}

  bool Parse(std::string* table_name, std::vector<ColumnSpec>* columns) {
    if (!Advance()) return false;
    if (!Expect("CREATE")) return false;
    if (IsKeyword(token_, "OR")) {
      if (!Advance() || !Expect("REPLACE")) return false;
    }
    if (IsKeyword(token_, "TEMP") || IsKeyword(token_, "TEMPORARY")) {
      if (!Advance()) return false;
    }
    if (!Expect("TABLE")) return false;
    if (IsKeyword(token_, "IF")) {
      if (!Advance() || !Expect("NOT") || !Expect("EXISTS")) return false;
    }
    std::string name;
    if (!Name("a table name", &name)) return false;
    while (IsPunct(token_, '.')) {  // schema.table: the last part names the table
      if (!Advance() || !Name("a table name", &name)) return false;
    }
    if (!ExpectPunct('(')) return false;
    std::vector<ColumnSpec> parsed;
    while (true) {
      if (IsPunct(token_, ')') && !parsed.empty()) break;  // a trailing comma is accepted
      if (IsKeyword(token_, "PRIMARY")) {
        if (!Advance() || !Expect("KEY") || !SkipParenthesized()) return false;
      } else if (!ColumnDef(&parsed)) {
        return false;
      }
      if (IsPunct(token_, ',')) {
        if (!Advance()) return false;
        continue;
      }
      if (!IsPunct(token_, ')')) return Fail("expected ',' or ')' after a column");
      break;
    }
    if (parsed.empty()) return Fail("a table needs at least one column");
    *table_name = std::move(name);
    *columns = std::move(parsed);
    return true;  // the ')' and any table options after it are not needed
  }

 private:
  bool Advance() { return lexer_.Next(&token_, error_); }

  bool Fail(const std::string& problem) {
    std::string found = token_.kind == TokenKind::kEnd ? "the end of the statement"
                                                        : "'" + token_.text + "'";
    *error_ = Lexer::Where(token_.line, token_.column) + problem + ", found " + found;
    return false;
  }

  bool Expect(std::string_view keyword) {
    if (!IsKeyword(token_, keyword)) return Fail("expected " + std::string(keyword));
    return Advance();
  }

  bool ExpectPunct(char c) {
    if (!IsPunct(token_, c)) return Fail(std::string("expected '") + c + "'");
    return Advance();
  }

  bool Name(const char* what, std::string* out) {
    if (token_.kind != TokenKind::kWord && token_.kind != TokenKind::kQuotedName) {
      return Fail(std::string("expected ") + what);
    }
    *out = token_.text;
    return Advance();
  }

  // ( ... ) with nesting, contents ignored.
  // Past a parenthesized list; its tokens, with the parentheses, go to *text when given.
  bool SkipParenthesized(std::string* text = nullptr) {
    if (!ExpectPunct('(')) return false;
    if (text != nullptr) *text += "(";
    int depth = 1;
    while (depth > 0) {
      if (token_.kind == TokenKind::kEnd) return Fail("expected ')'");
      if (IsPunct(token_, '(')) ++depth;
      if (IsPunct(token_, ')')) --depth;
      if (text != nullptr) *text += token_.text;
      if (!Advance()) return false;
    }
    return true;
  }

  bool ColumnDef(std::vector<ColumnSpec>* columns) {
    ColumnSpec spec;
    const Token name_token = token_;
    if (!Name("a column name", &spec.name)) return false;
    for (const ColumnSpec& c : *columns) {
      if (c.name == spec.name) {
        *error_ = Lexer::Where(name_token.line, name_token.column) + "column '" + spec.name +
                  "' is defined twice";
        return false;
      }
    }
    if (token_.kind != TokenKind::kWord) return Fail("expected the type of column " + spec.name);
    const Token type_token = token_;
    std::string type_name = token_.text;
    if (!Advance()) return false;
    // Two-word spellings, as SQL writes them.
    if ((IsKeyword(type_token, "DOUBLE") && IsKeyword(token_, "PRECISION")) ||
        (IsKeyword(type_token, "CHARACTER") && IsKeyword(token_, "VARYING"))) {
      if (!Advance()) return false;
      type_name = IsKeyword(type_token, "DOUBLE") ? "DOUBLE" : "VARCHAR";
    }
    // VARCHAR(255), CHAR(2), DECIMAL(15,2)
    if (IsPunct(token_, '(') && !SkipParenthesized(&type_name)) return false;
    if (!TypeFromSqlName(type_name, &spec.type)) {
      *error_ = Lexer::Where(type_token.line, type_token.column) + "unknown type '" + type_name +
                "' of column " + spec.name;
      return false;
    }
    // Constraints: accepted and ignored (they do not change how values are read).
    while (true) {
      if (IsKeyword(token_, "NOT")) {
        if (!Advance() || !Expect("NULL")) return false;
      } else if (IsKeyword(token_, "NULL") || IsKeyword(token_, "UNIQUE")) {
        if (!Advance()) return false;
      } else if (IsKeyword(token_, "PRIMARY")) {
        if (!Advance() || !Expect("KEY")) return false;
      } else {
        break;
      }
    }
    columns->push_back(std::move(spec));
    return true;
  }

  Lexer lexer_;
  Token token_;
  std::string* error_;
};

}  // namespace

bool ParseCreateTable(std::string_view sql, std::string* table_name,
                      std::vector<ColumnSpec>* columns, std::string* error) {
  std::string message;
  Parser parser(sql, &message);
  if (parser.Parse(table_name, columns)) return true;
  if (error != nullptr) *error = message;
  return false;
}

}  // namespace laneql
