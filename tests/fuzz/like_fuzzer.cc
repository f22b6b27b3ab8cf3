// libFuzzer target: LIKE / NOT LIKE (laneql/string_match.h) with any pattern over any strings,
// on every SIMD target this build compiled and this CPU runs. Every row's answer is compared with
// a matcher written here (greedy with backtracking to the last '%', a different algorithm from
// the kernel's and from reference::LikeMatch's dynamic programming), so wrong answers are found,
// not only crashes.
//
// Input: byte 0 picks the escape (bits 0-1: none, '\\', '#', '%'), NULL rows (bit 2: every
// third row is NULL) and a sliced column (bit 3: offsets[0] > 0); byte 1 is the pattern's
// length (byte % (bytes left + 1)); then the pattern; the rest is the column's text, one row per
// line, and the whole rest once more as the last row (so rows with line feeds are tried too).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "hwy/targets.h"
#include "laneql/bitmask.h"
#include "laneql/string_match.h"
#include "laneql/targets.h"

namespace {

// One pattern element: a literal byte, '_' (one code point) or '%' (any bytes).
struct Token {
  enum Kind { kByte, kOne, kAny } kind;
  uint8_t byte;
};

std::vector<Token> Tokenize(std::string_view pattern, int escape) {
  std::vector<Token> tokens;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const auto c = static_cast<uint8_t>(pattern[i]);
    if (escape >= 0 && c == escape) {
      // The escaped byte is literal; a trailing escape is itself.
      tokens.push_back({Token::kByte, i + 1 < pattern.size()
                                          ? static_cast<uint8_t>(pattern[++i]) : c});
    } else if (c == '%') {
      tokens.push_back({Token::kAny, 0});
    } else if (c == '_') {
      tokens.push_back({Token::kOne, 0});
    } else {
      tokens.push_back({Token::kByte, c});
    }
  }
  return tokens;
}

bool IsContinuation(uint8_t b) { return (b & 0xC0) == 0x80; }

// Where a token that matches at text position `t` ends, or npos if it does not match there.
size_t Step(const Token& token, std::string_view text, size_t t) {
  if (t >= text.size()) return std::string_view::npos;
  if (token.kind == Token::kByte) {
    return static_cast<uint8_t>(text[t]) == token.byte ? t + 1 : std::string_view::npos;
  }
  // '_': one byte and the continuation bytes after it.
  size_t end = t + 1;
  while (end < text.size() && IsContinuation(static_cast<uint8_t>(text[end]))) ++end;
  return end;
}

// The classic wildcard match: walk both; on a mismatch go back to the last '%' and let it take
// one more byte. Correct here because a token's end only moves right as its start does.
bool GreedyLike(std::string_view text, const std::vector<Token>& tokens) {
  size_t p = 0, t = 0;
  size_t star_p = std::string_view::npos, star_t = 0;
  while (t < text.size() || p < tokens.size()) {
    if (p < tokens.size() && tokens[p].kind == Token::kAny) {
      star_p = p++;
      star_t = t;
      continue;
    }
    if (p < tokens.size()) {
      const size_t next = Step(tokens[p], text, t);
      if (next != std::string_view::npos) {
        ++p;
        t = next;
        continue;
      }
    }
    if (star_p == std::string_view::npos || star_t >= text.size()) return false;
    p = star_p + 1;
    t = ++star_t;
  }
  return true;
}

[[noreturn]] void Fail(const char* what, std::string_view pattern, int escape,
                       std::string_view row, size_t index, bool got, bool want) {
  std::fprintf(stderr,
               "like fuzzer: %s on %s\npattern (%zu bytes, escape %d): '%.*s'\nrow %zu (%zu "
               "bytes): '%.*s'\ngot %d, want %d\n",
               what, laneql::DispatchedTarget().name.c_str(), pattern.size(), escape,
               static_cast<int>(pattern.size()), pattern.data(), index, row.size(),
               static_cast<int>(row.size()), row.data(), got, want);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  static constexpr int kEscapes[] = {laneql::kNoLikeEscape, '\\', '#', '%'};
  const int escape = kEscapes[data[0] & 3];
  const bool with_nulls = (data[0] & 4) != 0;
  const bool sliced = (data[0] & 8) != 0;
  const size_t pattern_size = data[1] % (size - 2 + 1);
  const std::string_view pattern(reinterpret_cast<const char*>(data + 2), pattern_size);
  const std::string_view rest(reinterpret_cast<const char*>(data + 2 + pattern_size),
                              size - 2 - pattern_size);

  std::vector<std::string_view> rows;
  for (size_t start = 0; start <= rest.size();) {
    size_t end = rest.find('\n', start);
    if (end == std::string_view::npos) end = rest.size();
    rows.push_back(rest.substr(start, end - start));
    start = end + 1;
  }
  rows.push_back(rest);

  // The column: a junk prefix when sliced, so that the kernels must honour offsets[0].
  std::vector<uint8_t> bytes;
  if (sliced) bytes.assign(37, '%');
  std::vector<int32_t> offsets{static_cast<int32_t>(bytes.size())};
  for (std::string_view row : rows) {
    bytes.insert(bytes.end(), row.begin(), row.end());
    offsets.push_back(static_cast<int32_t>(bytes.size()));
  }
  const size_t n = rows.size();
  std::vector<uint64_t> validity(laneql::BitmaskWords(n), 0);
  for (size_t i = 0; i < n; ++i) {
    if (!with_nulls || i % 3 != 1) validity[i / 64] |= uint64_t{1} << (i % 64);
  }
  const uint64_t* valid = with_nulls ? validity.data() : nullptr;
  // An exact-size copy, so that ASan sees any read past the last row's byte.
  std::vector<uint8_t> exact(bytes);
  const uint8_t* text = exact.empty() ? nullptr : exact.data();

  const std::vector<Token> tokens = Tokenize(pattern, escape);
  std::vector<bool> want(n);
  for (size_t i = 0; i < n; ++i) {
    want[i] = GreedyLike(rows[i], tokens);
    const bool reference = laneql::reference::LikeMatch(rows[i], pattern, escape);
    if (reference != want[i]) {
      Fail("reference::LikeMatch disagrees with the greedy matcher", pattern, escape, rows[i], i,
           reference, want[i]);
    }
  }

  std::vector<uint64_t> like(laneql::BitmaskWords(n)), not_like(laneql::BitmaskWords(n));
  for (const laneql::SimdTarget& target : laneql::SupportedTargets()) {
    hwy::SetSupportedTargetsForTest(target.bits);
    laneql::StringLike(offsets.data(), text, n, pattern, escape, valid, like.data());
    laneql::StringNotLike(offsets.data(), text, n, pattern, escape, valid, not_like.data());
    for (size_t i = 0; i < n; ++i) {
      const bool is_valid = !with_nulls || i % 3 != 1;
      const bool got_like = (like[i / 64] >> (i % 64)) & 1;
      const bool got_not = (not_like[i / 64] >> (i % 64)) & 1;
      if (got_like != (is_valid && want[i])) {
        Fail("LIKE", pattern, escape, rows[i], i, got_like, is_valid && want[i]);
      }
      if (got_not != (is_valid && !want[i])) {
        Fail("NOT LIKE", pattern, escape, rows[i], i, got_not, is_valid && !want[i]);
      }
    }
    for (size_t i = n; i < laneql::BitmaskWords(n) * 64; ++i) {
      if (((like[i / 64] | not_like[i / 64]) >> (i % 64)) & 1) {
        Fail("a bit past the last row", pattern, escape, "", i, true, false);
      }
    }
  }
  hwy::SetSupportedTargetsForTest(0);
  return 0;
}
