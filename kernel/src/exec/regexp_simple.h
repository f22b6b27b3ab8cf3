// regexp_replace patterns simple enough to replace without a regular-expression engine: RE2
// runs a search per match (regexp_replace(s, '[aeiou]', '', 'g') took about 1 us a row on one
// thread, most of it in RE2's per-call setup), where these need one pass over the bytes.
//
// Taken: a literal (characters with no meaning in RE2's syntax, and backslash-escaped
// punctuation), or one character class followed by an optional '+': a bracket expression of
// ASCII characters, ranges and \d \s \w (negated with '^' or not), one of \d \s \w \D \S \W,
// or one ASCII character. RE2's meaning is kept: classes hold ASCII characters only, so a
// negated one matches every other code point (a UTF-8 sequence as one); \s is [\t\n\f\r ] and
// \w is [0-9A-Za-z_]; '+' takes the longest run; matches do not overlap. Anything else (case
// folding, other quantifiers, groups, anchors, '.', a replacement with a backslash) stays with
// RE2, which also checks every pattern first, so errors read the same.
#ifndef LANEQL_EXEC_REGEXP_SIMPLE_H_
#define LANEQL_EXEC_REGEXP_SIMPLE_H_

#include <array>
#include <memory>
#include <string>
#include <string_view>

namespace laneql {
namespace exec {

class SimpleReplace {
 public:
  // Null when the pattern or replacement is not one of the simple forms above.
  static std::unique_ptr<SimpleReplace> Parse(std::string_view pattern, std::string_view replacement,
                                              bool global);
  // `text` with the match(es) replaced, appended to *out; false (nothing appended) when a
  // negated class meets bytes that are not UTF-8, for the caller to hand to RE2.
  bool Replace(std::string_view text, std::string* out) const;

 private:
  bool ReplaceClass(std::string_view text, std::string* out) const;

  bool global_ = false;
  std::string replacement_;
  // A literal pattern: its bytes.
  bool literal_ = false;
  std::string text_;
  // A class: which ASCII bytes it holds, whether negated (then every non-ASCII code point
  // matches), and whether repeated ('+').
  std::array<bool, 128> in_class_{};
  bool negated_ = false;
  bool repeated_ = false;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_REGEXP_SIMPLE_H_
