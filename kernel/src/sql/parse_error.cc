#include "src/sql/parse_error.h"

#include <algorithm>
#include <utility>

namespace laneql {
namespace sql {
namespace {

// Bytes of context kept on each side of the column in an excerpt of a long line (the 90-SUM
// ClickBench query is one 3,000-byte line; a caret under it would be useless).
constexpr size_t kExcerptContext = 60;

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Moves `i` back to the first byte of the UTF-8 sequence it points into.
size_t StartOfCodePoint(std::string_view text, size_t i) {
  while (i > 0 && i < text.size() && IsContinuationByte(text[i])) --i;
  return i;
}

std::string MakeExcerpt(std::string_view sql, size_t offset) {
  offset = std::min(offset, sql.size());
  size_t line_start = offset;
  while (line_start > 0 && sql[line_start - 1] != '\n' && sql[line_start - 1] != '\r') {
    --line_start;
  }
  size_t line_end = offset;
  while (line_end < sql.size() && sql[line_end] != '\n' && sql[line_end] != '\r') ++line_end;

  size_t begin = line_start;
  std::string text;
  if (offset - line_start > kExcerptContext) {
    begin = StartOfCodePoint(sql, offset - kExcerptContext);
    text = "...";
  }
  size_t end = line_end;
  bool cut_end = false;
  if (line_end - offset > kExcerptContext) {
    end = StartOfCodePoint(sql, offset + kExcerptContext);
    cut_end = true;
  }
  std::string caret(text.size(), ' ');
  for (size_t i = begin; i < end; ++i) {
    const char c = sql[i];
    // Control characters would garble a terminal; tabs are kept so the caret lines up.
    const bool control = static_cast<unsigned char>(c) < 0x20 && c != '\t';
    text.push_back(control ? '?' : c);
    if (i < offset && !IsContinuationByte(c)) caret.push_back(c == '\t' ? '\t' : ' ');
  }
  if (cut_end) text += "...";
  caret.push_back('^');
  return text + "\n" + caret;
}

}  // namespace

std::string ParseError::ToString() const {
  return "syntax error at line " + std::to_string(line) + ", column " + std::to_string(column) +
         ": " + message;
}

std::string ParseError::ToStringWithExcerpt() const {
  return excerpt.empty() ? ToString() : ToString() + "\n" + excerpt;
}

void SetParseError(std::string_view sql, size_t offset, SourcePos pos, std::string message,
                   ParseError* error) {
  if (error == nullptr) return;
  error->message = std::move(message);
  error->line = pos.line;
  error->column = pos.column;
  error->excerpt = MakeExcerpt(sql, offset);
}

}  // namespace sql
}  // namespace laneql
