// Scalar references for the string kernels: row by row, naive loops, no Highway. LIKE is matched
// by dynamic programming over the raw pattern, a different algorithm from the kernels' compiled
// segments and greedy search, so that a bug in one is unlikely to be repeated in the other.
#include <algorithm>
#include <cstring>
#include <string_view>
#include <vector>

#include "laneql/bitmask.h"
#include "laneql/string_match.h"

namespace laneql {
namespace reference {
namespace {

bool IsContinuation(uint8_t b) { return (b & 0xC0) == 0x80; }

std::string_view Row(const int32_t* offsets, const uint8_t* data, size_t i) {
  return std::string_view(reinterpret_cast<const char*>(data) + offsets[i],
                          static_cast<size_t>(offsets[i + 1] - offsets[i]));
}

// Fills out from a per-row predicate, negated if asked, and ANDed with validity.
template <class Pred>
void Select(size_t n, const uint64_t* validity, bool negate, uint64_t* out, const Pred& pred) {
  for (size_t w = 0; w < BitmaskWords(n); ++w) out[w] = 0;
  for (size_t i = 0; i < n; ++i) {
    if (validity != nullptr && !BitmaskGet(validity, i)) continue;
    if (pred(i) != negate) BitmaskSet(out, i);
  }
}

bool NaiveContains(std::string_view text, std::string_view needle) {
  if (needle.size() > text.size()) return false;
  for (size_t s = 0; s + needle.size() <= text.size(); ++s) {
    size_t j = 0;
    while (j < needle.size() && text[s + j] == needle[j]) ++j;
    if (j == needle.size()) return true;
  }
  return false;
}

}  // namespace

void StringContains(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view needle,
                    const uint64_t* validity, uint64_t* out) {
  Select(n, validity, false, out,
         [&](size_t i) { return NaiveContains(Row(offsets, data, i), needle); });
}

void StringNotContains(const int32_t* offsets, const uint8_t* data, size_t n,
                       std::string_view needle, const uint64_t* validity, uint64_t* out) {
  Select(n, validity, true, out,
         [&](size_t i) { return NaiveContains(Row(offsets, data, i), needle); });
}

void StringStartsWith(const int32_t* offsets, const uint8_t* data, size_t n,
                      std::string_view prefix, const uint64_t* validity, uint64_t* out) {
  Select(n, validity, false, out, [&](size_t i) {
    const std::string_view s = Row(offsets, data, i);
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
  });
}

void StringEndsWith(const int32_t* offsets, const uint8_t* data, size_t n,
                    std::string_view suffix, const uint64_t* validity, uint64_t* out) {
  Select(n, validity, false, out, [&](size_t i) {
    const std::string_view s = Row(offsets, data, i);
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
  });
}

void StringEquals(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view value,
                  const uint64_t* validity, uint64_t* out) {
  Select(n, validity, false, out, [&](size_t i) { return Row(offsets, data, i) == value; });
}

void StringNotEquals(const int32_t* offsets, const uint8_t* data, size_t n,
                     std::string_view value, const uint64_t* validity, uint64_t* out) {
  Select(n, validity, true, out, [&](size_t i) { return Row(offsets, data, i) == value; });
}

void StringNotEmpty(const int32_t* offsets, size_t n, const uint64_t* validity, uint64_t* out) {
  Select(n, validity, false, out, [&](size_t i) { return offsets[i + 1] != offsets[i]; });
}

bool LikeMatch(std::string_view text, std::string_view pattern, int escape) {
  // Tokenise: '%' -> kAnyRun, '_' -> kOneChar, anything else (or escaped) -> its byte.
  constexpr int kAnyRun = -1, kOneChar = -2;
  std::vector<int> tokens;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const uint8_t c = static_cast<uint8_t>(pattern[i]);
    if (escape >= 0 && c == static_cast<uint8_t>(escape)) {
      // The next byte, literal; a trailing escape is itself (a literal even if it is '%').
      tokens.push_back(i + 1 < pattern.size() ? static_cast<uint8_t>(pattern[++i]) : c);
    } else if (c == '%') {
      tokens.push_back(kAnyRun);
    } else if (c == '_') {
      tokens.push_back(kOneChar);
    } else {
      tokens.push_back(c);
    }
  }
  // reach[s]: the first t tokens can match exactly text[0, s). Advance one token at a time.
  const size_t len = text.size();
  std::vector<char> reach(len + 1, 0), next(len + 1, 0);
  reach[0] = 1;
  for (const int token : tokens) {
    std::fill(next.begin(), next.end(), 0);
    for (size_t s = 0; s <= len; ++s) {
      if (token == kAnyRun) {
        // Any number of bytes: reachable from any reachable position at or before s.
        next[s] = reach[s] || (s > 0 && next[s - 1]);
      } else if (!reach[s]) {
        continue;
      } else if (token == kOneChar) {
        if (s == len) continue;
        size_t e = s + 1;
        while (e < len && IsContinuation(static_cast<uint8_t>(text[e]))) ++e;
        next[e] = 1;
      } else if (s < len && static_cast<uint8_t>(text[s]) == token) {
        next[s + 1] = 1;
      }
    }
    reach.swap(next);
  }
  return reach[len] != 0;
}

void StringLike(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view pattern,
                int escape, const uint64_t* validity, uint64_t* out) {
  Select(n, validity, false, out,
         [&](size_t i) { return LikeMatch(Row(offsets, data, i), pattern, escape); });
}

void StringNotLike(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view pattern,
                   int escape, const uint64_t* validity, uint64_t* out) {
  Select(n, validity, true, out,
         [&](size_t i) { return LikeMatch(Row(offsets, data, i), pattern, escape); });
}

SubstringCandidateCounts CountSubstringCandidates(SubstringPrefilter prefilter,
                                                  const int32_t* offsets, const uint8_t* data,
                                                  size_t n, std::string_view needle,
                                                  const uint64_t* validity) {
  SubstringCandidateCounts counts;
  for (size_t i = 0; i < n; ++i) {
    const bool valid = validity == nullptr || BitmaskGet(validity, i);
    counts.rows += valid && NaiveContains(Row(offsets, data, i), needle);
  }
  const size_t k = needle.size();
  if (n == 0 || k == 0) return counts;
  size_t i1, i2;
  SubstringPrefilterPositions(prefilter, needle, &i1, &i2);
  const auto byte_at = [&](size_t pos) { return static_cast<char>(data[pos]); };
  for (size_t p = static_cast<size_t>(offsets[0]); p + k <= static_cast<size_t>(offsets[n]); ++p) {
    ++counts.positions;
    if (byte_at(p + i1) != needle[i1]) continue;
    ++counts.first_byte;
    if (byte_at(p + i2) != needle[i2]) continue;
    ++counts.two_byte;
    // The row holding byte p: the last row starting at or before it.
    const size_t row = static_cast<size_t>(
        std::upper_bound(offsets, offsets + n + 1, static_cast<int32_t>(p)) - offsets - 1);
    const bool inside = p + k <= static_cast<size_t>(offsets[row + 1]);
    counts.verified += inside && std::memcmp(data + p, needle.data(), k) == 0;
  }
  return counts;
}

void StringByteLengths(const int32_t* offsets, size_t n, int64_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = offsets[i + 1] - offsets[i];
}

void StringCodePointLengths(const int32_t* offsets, const uint8_t* data, size_t n, int64_t* out) {
  for (size_t i = 0; i < n; ++i) {
    int64_t count = 0;
    for (int32_t b = offsets[i]; b < offsets[i + 1]; ++b) count += !IsContinuation(data[b]);
    out[i] = count;
  }
}

bool BytesAreAscii(const uint8_t* data, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (data[i] >= 0x80) return false;
  }
  return true;
}

void AsciiCaseMap(const uint8_t* data, size_t n, bool upper, uint8_t* out) {
  for (size_t i = 0; i < n; ++i) {
    const uint8_t c = data[i];
    if (upper && c >= 'a' && c <= 'z') out[i] = static_cast<uint8_t>(c - 'a' + 'A');
    else if (!upper && c >= 'A' && c <= 'Z') out[i] = static_cast<uint8_t>(c - 'A' + 'a');
    else out[i] = c;
  }
}

}  // namespace reference
}  // namespace laneql
