// ASCII case folding and suffix tests, shared by everything that compares names the way SQL
// compares unquoted identifiers (ASCII letters only, as DuckDB does): table and column names,
// type names, options, file extensions.
#ifndef LANEQL_SRC_COMMON_ASCII_H_
#define LANEQL_SRC_COMMON_ASCII_H_

#include <string>
#include <string_view>

namespace laneql {
namespace ascii {

inline char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

inline std::string Lower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) c = Lower(c);
  return lower;
}

inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

inline bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

}  // namespace ascii
}  // namespace laneql

#endif  // LANEQL_SRC_COMMON_ASCII_H_
