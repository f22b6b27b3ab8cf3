// The one-pass regexp_replace patterns (exec/regexp_simple.h) against RE2 on random texts:
// RE2 replaces through the same pattern wrapped in a group, (?:p), which is never a simple one.
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/exec/regexp.h"
#include "src/exec/regexp_simple.h"

namespace laneql {
namespace {

using exec::RegexpMatcher;
using exec::RegexpReplacer;
using exec::SimpleReplace;

// Texts of ASCII letters, digits, spaces and punctuation, 2-, 3- and 4-byte code points, and
// (with `broken`) a byte that is no UTF-8.
std::string RandomText(std::mt19937* random, bool broken) {
  static const std::vector<std::string> pieces = {
      "a", "e", "i", "o", "u", "x", "Z", "_", "0", "7", "9", " ", "  ", "\t", "\n", "\r", "\f", "\v",
      "-", ".", "+", "[", "]", "\\", "ab", "aaa", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9D\x84\x9E", "http://"};
  std::uniform_int_distribution<size_t> count(0, 14), pick(0, pieces.size() - 1), flip(0, 30);
  std::string text;
  for (size_t n = count(*random); n > 0; --n) {
    text += pieces[pick(*random)];
    if (broken && flip(*random) == 0) text += '\xFF';
  }
  return text;
}

TEST(RegexpSimple, ReplacesAsRe2Does) {
  const char* patterns[] = {"a",        "ab",     "aaa",    "http://", "\\.",      "\\+",      "\\\\",
                            "a+",       "\\d",    "\\d+",   "\\s",     "\\s+",     "\\w+",     "\\D",
                            "\\S+",     "\\W",    "\\W+",   "[aeiou]", "[aeiou]+", "[^aeiou]", "[^a-z]+",
                            "[a-z0-9]", "[-.]",   "[.-]+",  "[\\]]",   "[\\d_]+",  "[^\\s]",   "[\\--/]+",
                            "[^\\w]+",  "\xC3\xA9", "x\xE2\x82\xAC"};
  std::mt19937 random(42);
  for (const char* pattern : patterns) {
    for (bool global : {false, true}) {
      for (const std::string replacement : {"", "#", "<>"}) {
        const std::unique_ptr<SimpleReplace> simple = SimpleReplace::Parse(pattern, replacement, global);
        ASSERT_NE(simple, nullptr) << pattern;
        std::string error;
        const auto re2 = RegexpReplacer::Compile(std::string("(?:") + pattern + ")", replacement, global ? "g" : "", &error);
        ASSERT_NE(re2, nullptr) << pattern << ": " << error;
        for (int k = 0; k < 300; ++k) {
          const std::string text = RandomText(&random, k % 3 == 0);
          std::string got = "kept:", want = "kept:";
          re2->Replace(text, &want);
          if (!simple->Replace(text, &got)) {
            // Only a negated class over bytes that are no UTF-8 hands the row back to RE2,
            // leaving what was there untouched.
            EXPECT_NE(text.find('\xFF'), std::string::npos) << pattern;
            EXPECT_EQ(got, "kept:");
            continue;
          }
          EXPECT_EQ(got, want) << "pattern " << pattern << " replacement '" << replacement << "' global " << global
                               << " text '" << text << "'";
        }
      }
    }
  }
}

TEST(RegexpSimple, LeavesOtherPatternsToRe2) {
  const char* patterns[] = {"",      "a*",    "a?",        "(a)",    "a|b",        "^a",      "a$",    ".",
                            "ab+",   "a{2}",  "[[:alpha:]]", "[]a]", "[\\d-z]",    "[\\D]",   "\\n",   "\\bx",
                            "[z-a]", "[é]",   "\\pL",      "[a",     "+",          "\\1"};
  for (const char* pattern : patterns) {
    EXPECT_EQ(SimpleReplace::Parse(pattern, "x", true), nullptr) << pattern;
  }
  // A replacement with a backslash (\0 .. \9, \\) is RE2's to rewrite.
  EXPECT_EQ(SimpleReplace::Parse("a", "\\0", true), nullptr);
  EXPECT_EQ(SimpleReplace::Parse("a", "\\\\", true), nullptr);
  EXPECT_NE(SimpleReplace::Parse("a", "x", true), nullptr);
}

// Through SQL: the same answers with the simple form as through RE2, and case folding ('i')
// still RE2's.
TEST(RegexpSimple, CaseInsensitiveStaysWithRe2) {
  std::string error;
  const auto folded = RegexpReplacer::Compile("[a-c]+", "-", "gi", &error);
  ASSERT_NE(folded, nullptr) << error;
  std::string out;
  folded->Replace("xAbCyabc", &out);
  EXPECT_EQ(out, "x-y-");
  const auto exact = RegexpReplacer::Compile("[a-c]+", "-", "g", &error);
  ASSERT_NE(exact, nullptr) << error;
  out.clear();
  exact->Replace("xAbCyabc", &out);
  EXPECT_EQ(out, "xA-Cy-");
}

}  // namespace
}  // namespace laneql
