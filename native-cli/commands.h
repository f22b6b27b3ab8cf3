// The laneql subcommands. Each takes its own arguments (after the subcommand name) and returns
// the process exit status: 0 ok, 1 query or data error, 2 usage error.
#ifndef LANEQL_NATIVE_CLI_COMMANDS_H_
#define LANEQL_NATIVE_CLI_COMMANDS_H_

#include <string>
#include <vector>

namespace laneql::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitDataError = 1;
inline constexpr int kExitUsage = 2;

int RunInfo(const std::vector<std::string>& args);
int RunSum(const std::vector<std::string>& args);
// `laneql -c SQL [flags]`: args[0] is the SQL text, the flags follow it.
int RunSql(const std::vector<std::string>& args);

}  // namespace laneql::cli

#endif  // LANEQL_NATIVE_CLI_COMMANDS_H_
