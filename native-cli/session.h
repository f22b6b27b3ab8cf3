// What `laneql -c`, `laneql FILE.sql`, SQL on stdin and the REPL share: the tables, the
// database, the output format and the dot commands. A Session runs scripts (statements and dot
// commands) and prints their results on stdout and their errors on stderr.
#ifndef LANEQL_NATIVE_CLI_SESSION_H_
#define LANEQL_NATIVE_CLI_SESSION_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "laneql/database.h"
#include "laneql/table.h"
#include "script.h"

namespace laneql::cli {

struct SessionOptions {
  int threads = 0;            // 0 = the physical cores
  std::string format = "tsv";  // table, csv, tsv, json or markdown
  bool timer = false;          // print each statement's time
  std::string profile_path;    // write each query's timeline here ("" = no profile)
  // Per query: the memory limit in bytes (-1 = the default, 80 % of physical memory; 0 = none)
  // and the timeout in milliseconds (0 = none).
  int64_t memory_limit_bytes = -1;
  int64_t timeout_ms = 0;
  // The generated `hits` table, made the first time a query names `hits` when no table of that
  // name was registered.
  size_t hits_rows = 1'000'000;
  uint64_t hits_seed = 1;
};

class Session {
 public:
  explicit Session(SessionOptions options);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void AddTable(const std::string& name, std::shared_ptr<const Table> table);

  // Runs the statements and dot commands of `script` in order. `source` names the script in
  // messages ("q.sql"; "" for -c text and the REPL). With stop_on_error the first failure ends
  // the script. False when something failed (its message is on stderr already).
  bool RunScript(std::string_view script, const std::string& source, bool stop_on_error);
  // .quit or .exit ran.
  bool quit_requested() const { return quit_requested_; }

  static bool IsFormat(const std::string& name);
  int threads() const { return db_->threads(); }

 private:
  bool RunStatement(const ScriptItem& item, const std::string& source);
  bool RunDotCommand(const ScriptItem& item, const std::string& source);
  bool PrintResult(const Result& result);
  bool ShowSchema(const std::string& name);
  // (Re)creates the database with options_.threads, registering the tables again.
  void MakeDatabase();
  std::shared_ptr<const Table> ProvideHits(std::string_view name);

  SessionOptions options_;
  std::map<std::string, std::shared_ptr<const Table>> tables_;  // as registered
  std::unique_ptr<Database> db_;
  std::mutex hits_mutex_;
  std::shared_ptr<const Table> hits_;  // generated on first use
  bool quit_requested_ = false;
};

// Stops the query a Session is running now, if any: the REPL's SIGINT handler calls it (it only
// loads an atomic pointer and increments an atomic counter, so it is async-signal-safe).
void InterruptRunningQuery();

}  // namespace laneql::cli

#endif  // LANEQL_NATIVE_CLI_SESSION_H_
