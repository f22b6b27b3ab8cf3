#include "repl.h"

#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// libedit's readline-compatible interface (BSD licence; Debian's libedit-dev).
#include <editline/readline.h>

#include "laneql/targets.h"
#include "laneql/version.h"
#include "script.h"

namespace laneql::cli {
namespace {

volatile sig_atomic_t g_sigint = 0;

// Ctrl-C: stops the running query, if one runs; while a line is being read, the read returns
// (the handler is installed without SA_RESTART) and the loop sees g_sigint.
void OnSigint(int) {
  g_sigint = 1;
  InterruptRunningQuery();
}

std::string HistoryPath() {
  if (const char* path = std::getenv("LANEQL_HISTORY")) return path;
  if (const char* home = std::getenv("HOME")) return std::string(home) + "/.laneql_history";
  return "";
}

// True when `buffer` holds what should run now: complete statements (the last one ended by
// ';') or a dot command; false while a statement is still being typed.
bool Complete(const std::vector<ScriptItem>& items) {
  return items.empty() || items.back().kind == ScriptItem::Kind::kDot || items.back().terminated;
}

// History keeps one line per entry: a statement typed over several lines is joined.
std::string HistoryEntry(const std::string& buffer) {
  std::string entry;
  for (char c : buffer) entry += (c == '\n' || c == '\r') ? ' ' : c;
  while (!entry.empty() && entry.back() == ' ') entry.pop_back();
  return entry;
}

}  // namespace

int RunRepl(Session* session) {
  struct sigaction action;
  std::memset(&action, 0, sizeof(action));
  action.sa_handler = OnSigint;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a Ctrl-C ends readline's wait for a key
  struct sigaction previous;
  sigaction(SIGINT, &action, &previous);

  const std::string history = HistoryPath();
  using_history();
  stifle_history(2000);
  if (!history.empty()) read_history(history.c_str());

  std::printf("laneql %s, SIMD target %s, %d threads. Statements end with ';'; .help for more.\n",
              Version(), DispatchedTarget().name.c_str(), session->threads());
  std::string buffer;
  while (!session->quit_requested()) {
    g_sigint = 0;
    char* line = readline(buffer.empty() ? "laneql> " : "   ...> ");
    if (line == nullptr) {
      if (g_sigint) {  // Ctrl-C while typing: drop what was typed
        buffer.clear();
        std::printf("\n");
        continue;
      }
      std::printf("\n");  // Ctrl-D
      break;
    }
    buffer += line;
    buffer += '\n';
    std::free(line);
    const std::vector<ScriptItem> items = SplitScript(buffer);
    if (!Complete(items)) continue;
    const std::string entry = HistoryEntry(buffer);
    if (!entry.empty()) {
      add_history(entry.c_str());
      if (!history.empty()) write_history(history.c_str());
    }
    session->RunScript(buffer, "", /*stop_on_error=*/false);
    buffer.clear();
  }
  sigaction(SIGINT, &previous, nullptr);
  return 0;
}

}  // namespace laneql::cli
