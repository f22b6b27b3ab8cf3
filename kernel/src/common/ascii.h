// ASCII case folding and suffix tests, shared by everything that compares names the way SQL
// compares unquoted identifiers (ASCII letters only, as DuckDB does): table and column names,
// type names, options, file extensions.
#ifndef LANEQL_SRC_COMMON_ASCII_H_
#define LANEQL_SRC_COMMON_ASCII_H_

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

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

// Edit distance (insertions, deletions, substitutions) ignoring case: "did you mean" picks the
// known name nearest to an unknown one.
inline size_t DistanceIgnoreCase(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (Lower(a[i - 1]) == Lower(b[j - 1]) ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

}  // namespace ascii
}  // namespace laneql

#endif  // LANEQL_SRC_COMMON_ASCII_H_
