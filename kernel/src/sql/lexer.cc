#include "src/sql/lexer.h"

#include <cstdio>
#include <string>
#include <utility>

namespace laneql {
namespace sql {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
// Bytes >= 0x80 are parts of non-ASCII UTF-8 characters, which PostgreSQL and DuckDB accept in
// unquoted identifiers.
bool IsIdentifierStart(char c) {
  return IsAsciiLetter(c) || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool IsIdentifierPart(char c) { return IsIdentifierStart(c) || IsDigit(c) || c == '$'; }

std::string ToUpperAscii(std::string_view text) {
  std::string upper(text);
  for (char& c : upper) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return upper;
}

class Lexer {
 public:
  Lexer(std::string_view sql, std::vector<Token>* tokens, ParseError* error)
      : sql_(sql), tokens_(tokens), error_(error) {}

  bool Run() {
    tokens_->clear();
    if (sql_.size() > kMaxSqlBytes) {
      while (offset_ < kMaxSqlBytes) Advance();  // the line and column of the first byte over
      return Fail(offset_, pos_,
                  "SQL text too long: " + std::to_string(sql_.size()) +
                      " bytes, more than the limit of " + std::to_string(kMaxSqlBytes) +
                      " bytes (1 MiB)");
    }
    while (true) {
      if (!SkipSpaceAndComments()) return false;
      if (offset_ >= sql_.size()) break;
      if (!LexToken()) return false;
    }
    Token end;
    end.kind = TokenKind::kEnd;
    end.offset = sql_.size();
    end.source = sql_.substr(sql_.size());
    end.pos = pos_;
    tokens_->push_back(std::move(end));
    return true;
  }

 private:
  char Peek(size_t ahead = 0) const {
    return offset_ + ahead < sql_.size() ? sql_[offset_ + ahead] : '\0';
  }
  bool AtEnd() const { return offset_ >= sql_.size(); }

  // Moves one byte forward, keeping line and column: a line ends at \n, \r\n or a lone \r, and
  // UTF-8 continuation bytes do not start a new column.
  void Advance() {
    const char c = sql_[offset_++];
    if (c == '\n' || (c == '\r' && Peek() != '\n')) {
      ++pos_.line;
      pos_.column = 1;
    } else if (c != '\r' && (static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++pos_.column;
    }
  }
  void Advance(size_t n) {
    for (size_t i = 0; i < n; ++i) Advance();
  }

  bool Fail(size_t offset, SourcePos pos, std::string message) {
    SetParseError(sql_, offset, pos, std::move(message), error_);
    return false;
  }

  bool SkipSpaceAndComments() {
    while (!AtEnd()) {
      const char c = Peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        Advance();
      } else if (c == '-' && Peek(1) == '-') {
        while (!AtEnd() && Peek() != '\n' && Peek() != '\r') Advance();
      } else if (c == '/' && Peek(1) == '*') {
        if (!SkipBlockComment()) return false;
      } else {
        break;
      }
    }
    return true;
  }

  // Block comments nest, as in PostgreSQL (and so DuckDB): /* a /* b */ c */ is one comment.
  bool SkipBlockComment() {
    const size_t start_offset = offset_;
    const SourcePos start_pos = pos_;
    Advance(2);
    int depth = 1;
    while (depth > 0) {
      if (AtEnd()) return Fail(start_offset, start_pos, "unterminated block comment");
      if (Peek() == '*' && Peek(1) == '/') {
        --depth;
        Advance(2);
      } else if (Peek() == '/' && Peek(1) == '*') {
        ++depth;
        Advance(2);
      } else {
        Advance();
      }
    }
    return true;
  }

  void Emit(TokenKind kind, size_t start_offset, SourcePos start_pos, std::string value) {
    Token token;
    token.kind = kind;
    token.value = std::move(value);
    token.offset = start_offset;
    token.source = sql_.substr(start_offset, offset_ - start_offset);
    token.pos = start_pos;
    tokens_->push_back(std::move(token));
  }

  bool LexToken() {
    const size_t start = offset_;
    const SourcePos start_pos = pos_;
    const char c = Peek();
    if (IsIdentifierStart(c)) {
      while (!AtEnd() && IsIdentifierPart(Peek())) Advance();
      const std::string_view word = sql_.substr(start, offset_ - start);
      std::string upper = ToUpperAscii(word);
      if (IsReservedKeyword(upper)) {
        Emit(TokenKind::kKeyword, start, start_pos, std::move(upper));
      } else {
        Emit(TokenKind::kIdentifier, start, start_pos, std::string(word));
      }
      return true;
    }
    if (IsDigit(c) || (c == '.' && IsDigit(Peek(1)))) return LexNumber();
    if (c == '\'') return LexQuoted('\'', TokenKind::kString, "unterminated string literal");
    if (c == '"') {
      return LexQuoted('"', TokenKind::kQuotedIdentifier, "unterminated quoted identifier");
    }
    TokenKind kind;
    size_t length = 1;
    switch (c) {
      case '+': kind = TokenKind::kPlus; break;
      case '-': kind = TokenKind::kMinus; break;
      case '*':
        if (Peek(1) == '*') {
          kind = TokenKind::kCaret, length = 2;  // ** is ^
        } else {
          kind = TokenKind::kStar;
        }
        break;
      case '/':
        if (Peek(1) == '/') {
          kind = TokenKind::kSlashSlash, length = 2;
        } else {
          kind = TokenKind::kSlash;
        }
        break;
      case '&': kind = TokenKind::kAmpersand; break;
      case '~': kind = TokenKind::kTilde; break;
      case '^': kind = TokenKind::kCaret; break;
      case '%': kind = TokenKind::kPercent; break;
      case '=': kind = TokenKind::kEquals; break;
      case '(': kind = TokenKind::kLeftParen; break;
      case ')': kind = TokenKind::kRightParen; break;
      case '[': kind = TokenKind::kLeftBracket; break;
      case ']': kind = TokenKind::kRightBracket; break;
      case ',': kind = TokenKind::kComma; break;
      case '.': kind = TokenKind::kDot; break;
      case ';': kind = TokenKind::kSemicolon; break;
      case '<':
        if (Peek(1) == '=') {
          kind = TokenKind::kLessEquals, length = 2;
        } else if (Peek(1) == '>') {
          kind = TokenKind::kNotEquals, length = 2;
        } else if (Peek(1) == '<') {
          kind = TokenKind::kShiftLeft, length = 2;
        } else {
          kind = TokenKind::kLess;
        }
        break;
      case '>':
        if (Peek(1) == '=') {
          kind = TokenKind::kGreaterEquals, length = 2;
        } else if (Peek(1) == '>') {
          kind = TokenKind::kShiftRight, length = 2;
        } else {
          kind = TokenKind::kGreater;
        }
        break;
      case '!':
        if (Peek(1) != '=') return UnexpectedCharacter();
        kind = TokenKind::kNotEquals, length = 2;
        break;
      case '|':
        if (Peek(1) == '|') {
          kind = TokenKind::kConcat, length = 2;
        } else {
          kind = TokenKind::kPipe;
        }
        break;
      case ':':
        if (Peek(1) != ':') return UnexpectedCharacter();
        kind = TokenKind::kDoubleColon, length = 2;
        break;
      default:
        return UnexpectedCharacter();
    }
    Advance(length);
    Emit(kind, start, start_pos, std::string());
    return true;
  }

  bool UnexpectedCharacter() {
    const unsigned char c = static_cast<unsigned char>(Peek());
    std::string shown;
    if (c >= 0x21 && c < 0x7F) {
      shown = std::string("'") + static_cast<char>(c) + "'";
    } else {
      char hex[8];
      std::snprintf(hex, sizeof(hex), "0x%02X", c);
      shown = hex;
    }
    return Fail(offset_, pos_, "unexpected character " + shown);
  }

  // digits [. digits] [e [+-] digits], or . digits [e ...]. The text is kept: the binder picks
  // the type and reports values out of range.
  bool LexNumber() {
    const size_t start = offset_;
    const SourcePos start_pos = pos_;
    bool is_decimal = false;
    while (IsDigit(Peek())) Advance();
    if (Peek() == '.') {
      is_decimal = true;
      Advance();
      while (IsDigit(Peek())) Advance();
    }
    if (Peek() == 'e' || Peek() == 'E') {
      const size_t sign = (Peek(1) == '+' || Peek(1) == '-') ? 1 : 0;
      if (IsDigit(Peek(1 + sign))) {
        is_decimal = true;
        Advance(1 + sign);
        while (IsDigit(Peek())) Advance();
      }
    }
    // "123abc" or "1.5e" is a typo, not a number followed by an alias.
    if (IsIdentifierStart(Peek())) {
      while (!AtEnd() && IsIdentifierPart(Peek())) Advance();
      return Fail(start, start_pos,
                  "invalid number '" + std::string(sql_.substr(start, offset_ - start)) + "'");
    }
    Emit(is_decimal ? TokenKind::kDecimal : TokenKind::kInteger, start, start_pos,
         std::string(sql_.substr(start, offset_ - start)));
    return true;
  }

  // 'string' or "identifier"; a doubled quote stands for one quote character.
  bool LexQuoted(char quote, TokenKind kind, const char* unterminated) {
    const size_t start = offset_;
    const SourcePos start_pos = pos_;
    Advance();
    std::string value;
    while (true) {
      if (AtEnd()) return Fail(start, start_pos, unterminated);
      const char c = Peek();
      if (c == quote) {
        if (Peek(1) != quote) break;
        value.push_back(quote);
        Advance(2);
      } else {
        value.push_back(c);
        Advance();
      }
    }
    Advance();  // the closing quote
    if (kind == TokenKind::kQuotedIdentifier && value.empty()) {
      return Fail(start, start_pos, "zero-length quoted identifier");
    }
    Emit(kind, start, start_pos, std::move(value));
    return true;
  }

  std::string_view sql_;
  std::vector<Token>* tokens_;
  ParseError* error_;
  size_t offset_ = 0;
  SourcePos pos_;
};

}  // namespace

bool Tokenize(std::string_view sql, std::vector<Token>* tokens, ParseError* error) {
  return Lexer(sql, tokens, error).Run();
}

}  // namespace sql
}  // namespace laneql
