// The laneql subcommands. Each takes its own arguments (after the subcommand name; RunSql takes
// them all) and returns the process exit status: 0 ok, 1 query or data error, 2 usage error.
#ifndef LANEQL_NATIVE_CLI_COMMANDS_H_
#define LANEQL_NATIVE_CLI_COMMANDS_H_

#include <string>
#include <vector>

namespace laneql::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitDataError = 1;
inline constexpr int kExitUsage = 2;

// `laneql [OPTIONS] -c SQL | FILE.sql | -` and, with none of those, SQL on stdin or the REPL.
int RunSql(const std::vector<std::string>& args);
int RunGen(const std::vector<std::string>& args);     // laneql gen hits|tpch ...
int RunGenTpch(const std::vector<std::string>& args); // laneql gen tpch ... (after "tpch")
int RunImport(const std::vector<std::string>& args);  // laneql import IN OUT.laneql ...
int RunBench(const std::vector<std::string>& args);   // laneql bench --queries ...
int RunInfo(const std::vector<std::string>& args);
int RunSum(const std::vector<std::string>& args);

}  // namespace laneql::cli

#endif  // LANEQL_NATIVE_CLI_COMMANDS_H_
