// The interactive shell: `laneql` with no script on a terminal.
#ifndef LANEQL_NATIVE_CLI_REPL_H_
#define LANEQL_NATIVE_CLI_REPL_H_

#include "session.h"

namespace laneql::cli {

// Reads statements with line editing and history (libedit) until .quit or Ctrl-D; statements
// may span lines and end with ';'. Ctrl-C discards the line being typed, or cancels the query
// running. Errors are printed and the shell goes on. Returns the exit status (0).
int RunRepl(Session* session);

}  // namespace laneql::cli

#endif  // LANEQL_NATIVE_CLI_REPL_H_
