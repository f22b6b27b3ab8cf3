// The CLI's spelling of query limits: memory sizes ("512MB", "2GiB") and durations ("5s",
// "250ms"), for --memory-limit / --timeout and the .memory_limit / .timeout dot commands.
#ifndef LANEQL_NATIVE_CLI_QUERY_LIMITS_H_
#define LANEQL_NATIVE_CLI_QUERY_LIMITS_H_

#include <cstdint>
#include <string>

namespace laneql::cli {

// A size in bytes: a number with an optional unit, as DuckDB writes them: B, KB, MB, GB, TB
// (powers of 1000) or KiB, MiB, GiB, TiB (powers of 1024), in any letter case, with or without
// a space ("1.5GB", "512 MiB", "100000"). "0", "none" and "off" mean no limit (0). False with
// *error saying what is wrong.
bool ParseMemoryLimit(const std::string& text, int64_t* bytes, std::string* error);

// A duration in milliseconds: a number with ms, s or min ("250ms", "5s", "1.5s", "2min"); a
// bare number is seconds. "0", "none" and "off" mean no timeout (0).
bool ParseTimeout(const std::string& text, int64_t* ms, std::string* error);

// "512 MiB", "no limit": how the shell reports a limit back.
std::string DescribeMemoryLimit(uint64_t bytes);
std::string DescribeTimeout(int64_t ms);

}  // namespace laneql::cli

#endif  // LANEQL_NATIVE_CLI_QUERY_LIMITS_H_
