// `laneql [OPTIONS] -c SQL`, `laneql [OPTIONS] FILE.sql`, SQL on stdin, and the REPL.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "commands.h"
#include "flags.h"
#include "laneql/hits_generator.h"
#include "query_limits.h"
#include "repl.h"
#include "script.h"
#include "session.h"
#include "table_loader.h"

namespace laneql::cli {
namespace {

bool ReadStdin(std::string* text) {
  text->assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  return !std::cin.bad();
}

}  // namespace

int RunSql(const std::vector<std::string>& args) {
  if (!args.empty() && args.back() == "-c") {
    std::fprintf(stderr, "laneql -c: missing SQL (laneql -c \"SELECT ...\"; try laneql --help)\n");
    return kExitUsage;
  }
  const FlagSpec spec{{"-c", "--table", "--format", "--threads", "--target", "--profile", "--rows",
                       "--seed", "--memory-limit", "--timeout"},
                      {"--timer"},
                      1};
  Flags flags;
  if (!ParseFlags("", args, spec, &flags)) return kExitUsage;
  const bool inline_sql = flags.Has("-c");
  if (inline_sql && !flags.positionals.empty()) {
    std::fprintf(stderr, "laneql -c: unexpected argument '%s' (the SQL is the text after -c)\n",
                 flags.positionals[0].c_str());
    return kExitUsage;
  }
  const std::string sql = flags.Get("-c", "");
  if (inline_sql && sql.find_first_not_of(" \t\r\n") == std::string::npos) {
    std::fprintf(stderr, "laneql -c: the SQL text is empty\n");
    return kExitUsage;
  }
  uint64_t rows = 0, seed = 0, threads = 0;
  if (!ParseCount("", "--rows", flags.Get("--rows", "1000000"), 0, uint64_t{1} << 34, &rows) ||
      !ParseCount("", "--seed", flags.Get("--seed", std::to_string(HitsOptions().seed)), 0,
                  UINT64_MAX, &seed) ||
      !ParseCount("", "--threads", flags.Get("--threads", "0"), 0, 1024, &threads)) {
    return kExitUsage;
  }
  SessionOptions options;
  // Without --format: the aligned table for a person at a terminal, TSV for a pipe or a file.
  options.format = flags.Get("--format", isatty(STDOUT_FILENO) ? "table" : "tsv");
  if (!Session::IsFormat(options.format)) {
    std::fprintf(stderr, "laneql: --format must be table, csv, tsv, json or markdown, got '%s'\n",
                 options.format.c_str());
    return kExitUsage;
  }
  options.profile_path = flags.Get("--profile", "");
  if (flags.Has("--profile") && options.profile_path.empty()) {
    std::fprintf(stderr, "laneql: --profile needs a file name\n");
    return kExitUsage;
  }
  options.threads = static_cast<int>(threads);
  options.timer = flags.Has("--timer");
  std::string limit_error;
  if (flags.Has("--memory-limit") &&
      !ParseMemoryLimit(flags.Get("--memory-limit", ""), &options.memory_limit_bytes, &limit_error)) {
    std::fprintf(stderr, "laneql: --memory-limit: %s\n", limit_error.c_str());
    return kExitUsage;
  }
  if (flags.Has("--timeout") && !ParseTimeout(flags.Get("--timeout", ""), &options.timeout_ms, &limit_error)) {
    std::fprintf(stderr, "laneql: --timeout: %s\n", limit_error.c_str());
    return kExitUsage;
  }
  options.hits_rows = static_cast<size_t>(rows);
  options.hits_seed = seed;
  std::vector<TableSpec> specs;
  std::string error;
  if (!ParseTableSpecs(flags.All("--table"), &specs, &error)) {
    std::fprintf(stderr, "laneql: %s\n", error.c_str());
    return kExitUsage;
  }
  if (!ApplyTarget("", flags)) return kExitUsage;

  Session session(options);
  for (const TableSpec& spec : specs) {
    std::shared_ptr<const Table> table;
    if (!LoadTable(spec.path, session.threads(), {}, 0, &table, &error)) {
      std::fprintf(stderr, "laneql: --table %s: %s\n", spec.name.c_str(), error.c_str());
      return kExitDataError;
    }
    session.AddTable(spec.name, std::move(table));
  }

  if (inline_sql) return session.RunScript(sql, "", true) ? kExitOk : kExitDataError;
  std::string script, source;
  if (!flags.positionals.empty() && flags.positionals[0] != "-") {
    source = flags.positionals[0];
    if (!ReadTextFile(source, &script, &error)) {
      std::fprintf(stderr, "laneql: %s\n", error.c_str());
      return kExitDataError;
    }
  } else if (flags.positionals.empty() && isatty(STDIN_FILENO)) {
    return RunRepl(&session);
  } else {
    source = "<stdin>";
    if (!ReadStdin(&script)) {
      std::fprintf(stderr, "laneql: reading stdin failed: %s\n", std::strerror(errno));
      return kExitDataError;
    }
  }
  return session.RunScript(script, source, true) ? kExitOk : kExitDataError;
}

}  // namespace laneql::cli
