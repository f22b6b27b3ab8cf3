#include "session.h"

#include <pthread.h>
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "laneql/hits_generator.h"
#include "laneql/result_printers.h"
#include "laneql/types.h"
#include "progress.h"
#include "query_limits.h"

namespace laneql::cli {
namespace {

// The database of the query running now (nullptr between queries), for InterruptRunningQuery.
std::atomic<const Database*> g_running{nullptr};
static_assert(std::atomic<const Database*>::is_always_lock_free,
              "the SIGINT handler may only touch lock-free atomics");

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// "name rest" -> {"name", "rest"} (rest trimmed).
std::pair<std::string, std::string> SplitCommand(const std::string& line) {
  const size_t space = line.find_first_of(" \t");
  if (space == std::string::npos) return {line, ""};
  const size_t rest = line.find_first_not_of(" \t", space);
  return {line.substr(0, space), rest == std::string::npos ? "" : line.substr(rest)};
}

const char kDotHelp[] =
    ".tables            the tables queries can use\n"
    ".schema [NAME]     a table's columns and types, as CREATE TABLE (all tables without NAME)\n"
    ".timer on|off      print each statement's run time\n"
    ".mode FORMAT       output format: table, csv, tsv, json or markdown\n"
    ".threads N         threads per query (0 = the physical cores)\n"
    ".memory_limit SIZE a query's memory limit, e.g. 512MB or 2GB (none = no limit)\n"
    ".timeout TIME      stop queries running longer, e.g. 5s or 250ms (none = no timeout)\n"
    ".print TEXT        print TEXT (for scripts)\n"
    ".help              this list\n"
    ".quit, .exit       leave (Ctrl-D too)\n"
    "Statements end with ';'. Ctrl-C cancels the running query.\n";

}  // namespace

void InterruptRunningQuery() {
  if (const Database* db = g_running.load(std::memory_order_relaxed)) db->Interrupt();
}

Session::Session(SessionOptions options) : options_(std::move(options)) { MakeDatabase(); }

Session::~Session() = default;

bool Session::IsFormat(const std::string& name) {
  return name == "table" || name == "csv" || name == "tsv" || name == "json" || name == "markdown";
}

void Session::AddTable(const std::string& name, std::shared_ptr<const Table> table) {
  std::string error;
  db_->Register(name, table, &error);  // a non-empty name and a table: cannot fail
  tables_[name] = std::move(table);
}

void Session::MakeDatabase() {
  // Tables made in SQL (CREATE TABLE, INSERT) move to the new database too (a view does not).
  if (db_ != nullptr) {
    for (const std::string& name : db_->TableNames()) {
      if (std::shared_ptr<const Table> table = db_->FindTableShared(name)) tables_[name] = std::move(table);
    }
  }
  DatabaseOptions db_options;
  db_options.threads = options_.threads;
  db_options.profile = !options_.profile_path.empty();
  db_options.profile_path = options_.profile_path;
  // The pool's workers inherit this thread's signal mask: with SIGINT blocked there, Ctrl-C is
  // always handled on the thread that runs the query, never on a worker.
  sigset_t block, previous;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  pthread_sigmask(SIG_BLOCK, &block, &previous);
  db_ = std::make_unique<Database>(db_options);
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  std::string error;
  for (const auto& [name, table] : tables_) db_->Register(name, table, &error);
  db_->SetTableProvider([this](std::string_view name) { return ProvideHits(name); });
}

std::shared_ptr<const Table> Session::ProvideHits(std::string_view name) {
  if (Lower(name) != "hits") return nullptr;
  std::lock_guard<std::mutex> lock(hits_mutex_);
  if (hits_ != nullptr) return hits_;
  HitsOptions hits;
  hits.rows = options_.hits_rows;
  hits.seed = options_.hits_seed;
  hits.threads = db_->threads();  // the bytes are the same for every thread count
  ProgressBar bar("generating hits", hits.rows);
  if (bar.enabled()) hits.progress = [&bar](size_t rows) { bar.Update(rows, rows, 0); };
  Table table;
  std::string error;
  if (!GenerateHits(hits, &table, &error)) {
    bar.Finish();
    std::fprintf(stderr, "laneql: generating the hits table failed: %s\n", error.c_str());
    return nullptr;
  }
  hits_ = std::make_shared<const Table>(std::move(table));
  return hits_;
}

bool Session::RunScript(std::string_view script, const std::string& source, bool stop_on_error) {
  bool ok = true;
  for (const ScriptItem& item : SplitScript(script)) {
    const bool item_ok = item.kind == ScriptItem::Kind::kDot ? RunDotCommand(item, source)
                                                             : RunStatement(item, source);
    ok &= item_ok;
    if ((!item_ok && stop_on_error) || quit_requested_) break;
  }
  return ok;
}

bool Session::RunStatement(const ScriptItem& item, const std::string& source) {
  const std::string sql = PositionedSql(item);
  const auto start = std::chrono::steady_clock::now();
  g_running.store(db_.get(), std::memory_order_relaxed);
  QueryOptions query_options;
  query_options.memory_limit_bytes = options_.memory_limit_bytes;
  query_options.timeout_ms = options_.timeout_ms;
  const Result result = db_->Query(sql, query_options);
  g_running.store(nullptr, std::memory_order_relaxed);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!result.ok()) {
    // The message says where in the script the problem is (line and column) when it can.
    std::fprintf(stderr, "laneql: %s%s%s\n", source.c_str(), source.empty() ? "" : ": ",
                 result.error().c_str());
    return false;
  }
  if (!PrintResult(result)) return false;
  if (options_.timer) std::printf("Run Time: %.3f ms\n", ms);
  if (!options_.profile_path.empty() && db_->LastProfileJson().empty()) {
    std::fprintf(stderr, "laneql: this build records no query profile; %s was not written\n",
                 options_.profile_path.c_str());
  }
  return std::fflush(stdout) == 0;
}

bool Session::PrintResult(const Result& result) {
  std::string out;
  const std::string& format = options_.format;
  if (format == "table") {
    out = PrintTable(result);
  } else if (format == "csv") {
    out = PrintCsv(result);
  } else if (format == "json") {
    out = PrintJson(result);
  } else if (format == "markdown") {
    out = PrintMarkdown(result);
  } else {
    out = PrintTsv(result);
  }
  if (std::fwrite(out.data(), 1, out.size(), stdout) != out.size() || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "laneql: writing the result failed: %s\n", std::strerror(errno));
    return false;
  }
  return true;
}

bool Session::ShowSchema(const std::string& name) {
  const Table* table = db_->FindTable(name);
  std::shared_ptr<const Table> provided;
  if (table == nullptr && (provided = ProvideHits(name)) != nullptr) table = provided.get();
  if (table == nullptr) {
    std::fprintf(stderr, "laneql: .schema: no table named '%s' (see .tables)\n", name.c_str());
    return false;
  }
  std::string out = "CREATE TABLE " + name + " (";
  for (size_t c = 0; c < table->num_columns(); ++c) {
    out += std::string(c ? "," : "") + "\n    " + table->column_name(c) + " " +
           DuckDbTypeName(table->column(c).type());
  }
  out += "\n);\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return true;
}

bool Session::RunDotCommand(const ScriptItem& item, const std::string& source) {
  const auto [command, argument] = SplitCommand(item.text);
  const auto fail = [&](const std::string& why) {
    if (source.empty()) {  // typed at the shell or given with -c
      std::fprintf(stderr, "laneql: %s\n", why.c_str());
    } else {
      std::fprintf(stderr, "laneql: %s: line %d: %s\n", source.c_str(), item.line, why.c_str());
    }
    return false;
  };
  bool ok = true;
  if (command == ".help") {
    std::fputs(kDotHelp, stdout);
  } else if (command == ".print") {
    std::printf("%s\n", argument.c_str());
  } else if (command == ".quit" || command == ".exit") {
    quit_requested_ = true;
  } else if (command == ".tables") {
    std::vector<std::string> names = db_->TableNames();
    if (db_->FindTable("hits") == nullptr) names.push_back("hits");
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) std::printf("%s\n", name.c_str());
  } else if (command == ".schema") {
    if (!argument.empty()) {
      ok = ShowSchema(argument);
    } else {
      for (const std::string& name : db_->TableNames()) ok &= ShowSchema(name);
    }
  } else if (command == ".timer") {
    if (argument != "on" && argument != "off") return fail(".timer takes on or off");
    options_.timer = argument == "on";
  } else if (command == ".mode") {
    if (!IsFormat(argument)) return fail(".mode takes table, csv, tsv, json or markdown");
    options_.format = argument;
  } else if (command == ".threads" && argument.empty()) {
    std::printf("threads: %d\n", db_->threads());  // as .memory_limit and .timeout: the value in force
  } else if (command == ".threads") {
    char* end = nullptr;
    const long threads = std::strtol(argument.c_str(), &end, 10);
    if (argument.empty() || *end != '\0' || threads < 0 || threads > 1024) {
      return fail(".threads takes a whole number from 0 (the physical cores) to 1024");
    }
    options_.threads = static_cast<int>(threads);
    MakeDatabase();
    std::printf("threads: %d\n", db_->threads());
  } else if (command == ".memory_limit") {
    std::string error;
    if (!argument.empty() && !ParseMemoryLimit(argument, &options_.memory_limit_bytes, &error)) {
      return fail(".memory_limit: " + error);
    }
    const uint64_t limit = options_.memory_limit_bytes < 0
                               ? db_->memory_limit_bytes()
                               : static_cast<uint64_t>(options_.memory_limit_bytes);
    std::printf("memory limit: %s\n", DescribeMemoryLimit(limit).c_str());
  } else if (command == ".timeout") {
    std::string error;
    if (!argument.empty() && !ParseTimeout(argument, &options_.timeout_ms, &error)) {
      return fail(".timeout: " + error);
    }
    std::printf("timeout: %s\n", DescribeTimeout(options_.timeout_ms).c_str());
  } else {
    return fail("unknown command '" + command + "' (try .help)");
  }
  std::fflush(stdout);
  return ok;
}

}  // namespace laneql::cli
