#include "script.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace laneql::cli {
namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

// Walks the script byte by byte, keeping the line and column as the SQL lexer counts them: a
// line ends at \n, \r\n or a lone \r; UTF-8 continuation bytes do not start a column.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}
  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  size_t pos() const { return pos_; }
  int line() const { return line_; }
  int column() const { return column_; }
  void Advance() {
    const char c = text_[pos_++];
    if (c == '\n' || (c == '\r' && Peek() != '\n')) {
      ++line_;
      column_ = 1;
    } else if (c != '\r' && (static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++column_;
    }
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

// Skips a quoted string or identifier ('' and "" inside stand for the quote itself).
void SkipQuoted(Cursor* cursor) {
  const char quote = cursor->Peek();
  cursor->Advance();
  while (!cursor->AtEnd()) {
    const char c = cursor->Peek();
    cursor->Advance();
    if (c == quote) {
      if (cursor->Peek() != quote) return;
      cursor->Advance();
    }
  }
}

// At "--" or "/*": skips the comment and returns true; otherwise false.
bool SkipComment(Cursor* cursor) {
  if (cursor->Peek() == '-' && cursor->Peek(1) == '-') {
    while (!cursor->AtEnd() && cursor->Peek() != '\n' && cursor->Peek() != '\r') cursor->Advance();
    return true;
  }
  if (cursor->Peek() == '/' && cursor->Peek(1) == '*') {
    cursor->Advance();
    cursor->Advance();
    while (!cursor->AtEnd() && !(cursor->Peek() == '*' && cursor->Peek(1) == '/')) cursor->Advance();
    if (!cursor->AtEnd()) {
      cursor->Advance();
      cursor->Advance();
    }
    return true;
  }
  return false;
}

}  // namespace

std::vector<ScriptItem> SplitScript(std::string_view script) {
  std::vector<ScriptItem> items;
  Cursor cursor(script);
  while (true) {
    // Between statements: blanks and comments, then a dot command, a statement or the end.
    while (!cursor.AtEnd() && (IsBlank(cursor.Peek()) || SkipComment(&cursor))) {
      if (IsBlank(cursor.Peek())) cursor.Advance();
    }
    if (cursor.AtEnd()) break;
    ScriptItem item;
    item.line = cursor.line();
    item.column = cursor.column();
    const size_t begin = cursor.pos();
    if (cursor.Peek() == '.') {
      item.kind = ScriptItem::Kind::kDot;
      while (!cursor.AtEnd() && cursor.Peek() != '\n' && cursor.Peek() != '\r') cursor.Advance();
      item.text = std::string(script.substr(begin, cursor.pos() - begin));
      while (!item.text.empty() && IsBlank(item.text.back())) item.text.pop_back();
      items.push_back(std::move(item));
      continue;
    }
    // A statement: to the next ';' outside quotes and comments.
    while (!cursor.AtEnd() && cursor.Peek() != ';') {
      const char c = cursor.Peek();
      if (c == '\'' || c == '"') {
        SkipQuoted(&cursor);
      } else if (!SkipComment(&cursor)) {
        cursor.Advance();
      }
    }
    item.text = std::string(script.substr(begin, cursor.pos() - begin));
    item.terminated = !cursor.AtEnd();
    if (item.terminated) cursor.Advance();  // the ';'
    if (item.text.empty()) continue;       // a lone ';'
    items.push_back(std::move(item));
  }
  return items;
}

std::string PositionedSql(const ScriptItem& item) {
  std::string sql(static_cast<size_t>(item.line - 1), '\n');
  sql.append(static_cast<size_t>(item.column - 1), ' ');
  return sql + item.text;
}

bool ReadTextFile(const std::string& path, std::string* text, std::string* error) {
  std::ifstream in(path, std::ios::binary);
  if (in) text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) {
    *error = "cannot read '" + path + "': " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace laneql::cli
