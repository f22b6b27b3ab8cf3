// Tokens of laneql's SQL dialect (the ClickBench subset of DuckDB's), as the lexer produces them.
#ifndef LANEQL_SQL_TOKEN_H_
#define LANEQL_SQL_TOKEN_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace laneql {
namespace sql {

// Where something starts in the SQL text: 1-based line, and 1-based column counted in UTF-8
// code points (so a caret lines up under the character in a terminal).
struct SourcePos {
  int line = 1;
  int column = 1;
};

enum class TokenKind {
  kEnd,               // end of input (always the last token)
  kIdentifier,        // unquoted word that is not a reserved keyword; value = its spelling
  kKeyword,           // reserved word (SELECT, FROM, AND, ...); value = upper case
  kQuotedIdentifier,  // "double quoted"; value = the name with "" unescaped
  kInteger,           // digits only; value = the digits (any length: the binder types it)
  kDecimal,           // 1.5, .5, 1., 1e10, 1.5E-3; value = the text
  kString,            // 'text'; value = the contents with '' unescaped
  kPlus,
  kMinus,
  kStar,
  kSlash,
  kPercent,
  kEquals,
  kNotEquals,  // <> or !=
  kLess,
  kLessEquals,
  kGreater,
  kGreaterEquals,
  kConcat,  // ||
  kAmpersand,   // & (bitwise and)
  kPipe,        // | (bitwise or)
  kTilde,       // ~ (bitwise not)
  kCaret,       // ^ (power; also **)
  kShiftLeft,   // <<
  kShiftRight,  // >>
  kSlashSlash,  // // (integer division)
  kLeftParen,
  kRightParen,
  kLeftBracket,   // [ (a list: [1, 2, 3])
  kRightBracket,  // ]
  kComma,
  kDot,
  kSemicolon,
  kDoubleColon,  // :: (cast)
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string value;        // see TokenKind
  std::string_view source;  // the token's bytes in the SQL text (for messages)
  size_t offset = 0;        // byte offset of the first byte in the SQL text
  SourcePos pos;
};

// True for the words the parser reserves: they can only be used as names when double-quoted.
// `upper` must be upper case.
bool IsReservedKeyword(std::string_view upper);

// How a token is named in an error message: 'FROM', ')', string literal 'abc', end of input.
// Long tokens are shortened.
std::string DescribeToken(const Token& token);

}  // namespace sql
}  // namespace laneql

#endif  // LANEQL_SQL_TOKEN_H_
