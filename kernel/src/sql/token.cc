#include "src/sql/token.h"

#include <algorithm>
#include <iterator>

namespace laneql {
namespace sql {
namespace {

// The words that start or separate clauses, or that the expression grammar needs to see as
// operators, so they can never be read as a name (e.g. as an implicit alias in `SELECT a FROM`).
// A subset of PostgreSQL's reserved words; everything else (DATE, EXTRACT, FIRST, ...) stays
// usable as a column name. JOIN, ON, UNION and USING are here so that `FROM t JOIN u` is not
// read as table t with alias JOIN. Sorted, for binary search.
constexpr std::string_view kReserved[] = {
    "ALL", "AND", "AS", "ASC", "BETWEEN", "BY", "CASE", "CAST", "DESC", "DISTINCT", "ELSE", "END",
    "ESCAPE", "FALSE", "FROM", "GROUP", "HAVING", "ILIKE", "IN", "IS", "JOIN", "LIKE", "LIMIT",
    "NOT", "NULL", "OFFSET", "ON", "OR", "ORDER", "SELECT", "THEN", "TRUE", "UNION", "USING",
    "WHEN", "WHERE",
};

// Shown tokens are cut at this many bytes (a 10 kB string literal would drown the message).
constexpr size_t kMaxShownBytes = 40;

std::string Shorten(std::string_view text) {
  if (text.size() <= kMaxShownBytes) return std::string(text);
  size_t cut = kMaxShownBytes;
  // Do not split a UTF-8 sequence.
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

}  // namespace

bool IsReservedKeyword(std::string_view upper) {
  static_assert(std::size(kReserved) > 0, "");
  return std::binary_search(std::begin(kReserved), std::end(kReserved), upper);
}

std::string DescribeToken(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of input";
    case TokenKind::kString:
      return "string literal " + Shorten(token.source);
    default:
      return "'" + Shorten(token.source) + "'";
  }
}

}  // namespace sql
}  // namespace laneql
