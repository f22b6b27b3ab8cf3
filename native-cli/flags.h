// Command-line arguments of one subcommand: `--name value`, `--name=value`, bare switches,
// repeatable flags (--table) and positional arguments, plus the checks every command shares.
#ifndef LANEQL_NATIVE_CLI_FLAGS_H_
#define LANEQL_NATIVE_CLI_FLAGS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace laneql::cli {

struct FlagSpec {
  std::vector<std::string> with_value;  // flags followed by a value ("-c" counts too)
  std::vector<std::string> switches;    // flags without one
  size_t max_positionals = 0;           // arguments that are not flags ("-" is one)
};

struct Flags {
  std::vector<std::pair<std::string, std::string>> given;  // in command-line order
  std::vector<std::string> positionals;
  bool Has(const std::string& name) const;
  // The last value given for `name`, or `fallback`.
  std::string Get(const std::string& name, const std::string& fallback) const;
  // Every value given for a repeatable flag, in order.
  std::vector<std::string> All(const std::string& name) const;
};

// Fills *flags; on an unknown flag, a missing value or too many positionals prints why on
// stderr ("laneql COMMAND: ...") and returns false (the caller exits with status 2).
bool ParseFlags(const char* command, const std::vector<std::string>& args, const FlagSpec& spec,
                Flags* flags);

// A whole number in [min, max], or an error on stderr naming the flag.
bool ParseCount(const char* command, const std::string& flag, const std::string& text,
                uint64_t min, uint64_t max, uint64_t* out);

// --target NAME, when given: makes dispatch use that SIMD target, or says why it cannot.
bool ApplyTarget(const char* command, const Flags& flags);

// `s` as a JSON string literal.
std::string JsonString(const std::string& s);

}  // namespace laneql::cli

#endif  // LANEQL_NATIVE_CLI_FLAGS_H_
