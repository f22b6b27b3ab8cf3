// A script (a .sql file, stdin, `-c` text or what was typed at the REPL) cut into its SQL
// statements and dot commands. Statements end at a ';' outside strings ('...'), quoted
// identifiers ("...") and comments (-- to the end of the line, /* ... */); a dot command is a
// line that starts with '.' where a statement could start.
#ifndef LANEQL_NATIVE_CLI_SCRIPT_H_
#define LANEQL_NATIVE_CLI_SCRIPT_H_

#include <string>
#include <string_view>
#include <vector>

namespace laneql::cli {

struct ScriptItem {
  enum class Kind { kSql, kDot };
  Kind kind = Kind::kSql;
  std::string text;  // the statement without its ';', or the dot command's line
  // Where text starts in the script, 1-based, columns in characters as the SQL lexer counts.
  int line = 1;
  int column = 1;
  // kSql: ended by ';' (false: the script ended first, e.g. a statement still being typed).
  bool terminated = false;
};

// Statements holding only blanks and comments are left out.
std::vector<ScriptItem> SplitScript(std::string_view script);

// The statement's SQL moved to where it stands in the script (blank lines and spaces before
// it), so the line and column the engine reports in an error are those of the script.
std::string PositionedSql(const ScriptItem& item);

// The whole file at `path`; false with "cannot read 'path': why" in *error.
bool ReadTextFile(const std::string& path, std::string* text, std::string* error);

}  // namespace laneql::cli

#endif  // LANEQL_NATIVE_CLI_SCRIPT_H_
