// The regexp_ functions through RE2 (Debian's libre2 natively, the same release compiled from
// source in the WebAssembly builds). RE2 matches in linear time, so a hostile pattern cannot
// hang a query.
#ifndef LANEQL_EXEC_REGEXP_H_
#define LANEQL_EXEC_REGEXP_H_

#include <memory>
#include <string>
#include <string_view>

namespace laneql {
namespace exec {

class RegexpReplacer {
 public:
  virtual ~RegexpReplacer() = default;
  // `options` as DuckDB's: "" (replace the first match), "g" (every match), "i"
  // (case-insensitive), or both. The replacement uses \1 .. \9 for groups and \0 for the match.
  // Null with a message on a bad pattern or options.
  static std::shared_ptr<const RegexpReplacer> Compile(const std::string& pattern,
                                                       const std::string& replacement,
                                                       const std::string& options,
                                                       std::string* error);
  // `text` with the match(es) replaced, appended to *out.
  virtual void Replace(std::string_view text, std::string* out) const = 0;
};

// regexp_matches, regexp_full_match and regexp_extract: a compiled pattern with DuckDB's options
// "i" (case-insensitive), "c" (sensitive) and "s" (. matches a newline, the default here as in
// DuckDB); its multi-line options are not taken.
class RegexpMatcher {
 public:
  virtual ~RegexpMatcher() = default;
  // `function` names the caller in messages. Null with a message on a bad pattern or options.
  static std::shared_ptr<const RegexpMatcher> Compile(const std::string& function, const std::string& pattern,
                                                      const std::string& options, std::string* error);
  virtual bool PartialMatch(std::string_view text) const = 0;
  virtual bool FullMatch(std::string_view text) const = 0;
  // The first match's group `group` (0: the whole match) into *out ("" without a match or
  // when the group did not take part); false when the pattern has no such group.
  virtual bool Extract(std::string_view text, int group, std::string_view* out) const = 0;
  virtual int Groups() const = 0;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_REGEXP_H_
