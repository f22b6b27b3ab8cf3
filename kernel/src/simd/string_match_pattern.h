// LIKE patterns compiled for the string kernels: classified into the shapes that have a
// dedicated kernel (constant, prefix, suffix, substring, match-all), or split at '%' into
// segments of literal bytes and `_` wildcards, matched by greedy left-to-right search.
//
// Why greedy search is exact: a `_` consumes one byte plus the continuation bytes after it, so a
// segment matched from a start position ends at a position that only grows with the start. The
// leftmost match of a segment therefore also ends leftmost, which leaves the most room for the
// segments after it; only the last segment, when the pattern does not end in '%', must end
// exactly at the end of the row, and that one is tried at every start.
//
// Not a per-target file: the matcher is scalar code run on the few rows the SIMD prefilter lets
// through, compiled once (inline, header-only, so the kernel family stays in its own files).
#ifndef LANEQL_SRC_SIMD_STRING_MATCH_PATTERN_H_
#define LANEQL_SRC_SIMD_STRING_MATCH_PATTERN_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace laneql {
namespace like {

enum class LikeKind {
  kAll,       // only '%'s: every row
  kEquals,    // no wildcard: = literal
  kPrefix,    // literal then '%'s
  kSuffix,    // '%'s then literal
  kContains,  // '%'s, literal, '%'s
  kGeneral,   // anything else: segments
};

// The pattern between two '%'s: `bytes[j]` must match literally unless `any[j]`, which is `_`.
struct LikeSegment {
  std::string bytes;
  std::vector<uint8_t> any;
  bool has_any = false;
};

struct LikeProgram {
  LikeKind kind = LikeKind::kGeneral;
  std::string literal;  // the needle of kEquals, kPrefix, kSuffix and kContains
  // kGeneral: whether the first / last segment is pinned to the row's start / end (no '%' there).
  bool anchored_start = false;
  bool anchored_end = false;
  std::vector<LikeSegment> segments;  // kGeneral; empty pieces between '%'s are dropped
  std::string longest_literal;        // kGeneral: a substring every matching row must contain
};

inline bool IsUtf8Continuation(uint8_t b) { return (b & 0xC0) == 0x80; }

inline LikeProgram CompileLike(std::string_view pattern, int escape) {
  LikeProgram prog;
  prog.anchored_start = true;
  prog.anchored_end = true;
  LikeSegment current;
  bool saw_percent = false;
  auto close_segment = [&] {
    if (!current.bytes.empty()) prog.segments.push_back(current);
    current = LikeSegment();
  };
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    bool literal = false;
    // The escape makes the next byte literal; a trailing escape is a literal itself, even when
    // the escape character is '%' or '_'.
    if (escape >= 0 && static_cast<uint8_t>(c) == static_cast<uint8_t>(escape)) {
      if (i + 1 < pattern.size()) c = pattern[++i];
      literal = true;
    }
    if (!literal && c == '%') {
      if (prog.segments.empty() && current.bytes.empty()) prog.anchored_start = false;
      saw_percent = true;
      close_segment();
      prog.anchored_end = false;
      continue;
    }
    const bool any = !literal && c == '_';
    current.bytes.push_back(any ? '\0' : c);
    current.any.push_back(any ? 1 : 0);
    current.has_any |= any;
    prog.anchored_end = true;
  }
  close_segment();

  // Longest run of literal bytes: the substring prefilter's needle.
  for (const LikeSegment& seg : prog.segments) {
    size_t run_begin = 0;
    for (size_t j = 0; j <= seg.bytes.size(); ++j) {
      if (j == seg.bytes.size() || seg.any[j]) {
        if (j - run_begin > prog.longest_literal.size()) {
          prog.longest_literal = seg.bytes.substr(run_begin, j - run_begin);
        }
        run_begin = j + 1;
      }
    }
  }

  if (prog.segments.empty()) {
    // '' matches only empty rows; '%', '%%', ... match every row.
    prog.kind = saw_percent ? LikeKind::kAll : LikeKind::kEquals;
  } else if (prog.segments.size() == 1 && !prog.segments[0].has_any) {
    prog.literal = prog.segments[0].bytes;
    if (prog.anchored_start && prog.anchored_end) {
      prog.kind = LikeKind::kEquals;
    } else if (prog.anchored_start) {
      prog.kind = LikeKind::kPrefix;
    } else if (prog.anchored_end) {
      prog.kind = LikeKind::kSuffix;
    } else {
      prog.kind = LikeKind::kContains;
    }
  }
  return prog;
}

inline constexpr size_t kNoMatch = ~size_t{0};

// Matches seg at text[pos]: returns the end of the match, or kNoMatch.
inline size_t MatchSegmentAt(const LikeSegment& seg, const uint8_t* text, size_t len, size_t pos) {
  if (seg.bytes.size() > len - pos) return kNoMatch;  // every element needs at least one byte
  if (!seg.has_any) {
    return std::memcmp(text + pos, seg.bytes.data(), seg.bytes.size()) == 0
               ? pos + seg.bytes.size()
               : kNoMatch;
  }
  size_t p = pos;
  for (size_t j = 0; j < seg.bytes.size(); ++j) {
    if (p >= len) return kNoMatch;
    if (seg.any[j]) {
      ++p;
      while (p < len && IsUtf8Continuation(text[p])) ++p;
    } else if (text[p++] != static_cast<uint8_t>(seg.bytes[j])) {
      return kNoMatch;
    }
  }
  return p;
}

// The end of the leftmost match of seg starting at or after pos, or kNoMatch.
inline size_t FindSegment(const LikeSegment& seg, const uint8_t* text, size_t len, size_t pos) {
  if (seg.bytes.size() > len - pos) return kNoMatch;
  const size_t last_start = len - seg.bytes.size();
  for (size_t s = pos; s <= last_start; ++s) {
    if (!seg.any[0]) {  // jump to the next occurrence of the first byte
      const void* hit =
          std::memchr(text + s, static_cast<uint8_t>(seg.bytes[0]), last_start - s + 1);
      if (hit == nullptr) return kNoMatch;
      s = static_cast<size_t>(static_cast<const uint8_t*>(hit) - text);
    }
    const size_t end = MatchSegmentAt(seg, text, len, s);
    if (end != kNoMatch) return end;
  }
  return kNoMatch;
}

// Whether one row matches a kGeneral program.
inline bool MatchLike(const LikeProgram& prog, const uint8_t* text, size_t len) {
  const std::vector<LikeSegment>& segs = prog.segments;
  size_t first = 0, last = segs.size();  // segments [first, last) are searched freely
  size_t pos = 0;
  if (prog.anchored_start) {
    pos = MatchSegmentAt(segs[0], text, len, 0);
    if (pos == kNoMatch) return false;
    if (segs.size() == 1 && prog.anchored_end) return pos == len;  // no '%' at all
    first = 1;
  }
  if (prog.anchored_end) --last;
  for (size_t j = first; j < last; ++j) {
    pos = FindSegment(segs[j], text, len, pos);
    if (pos == kNoMatch) return false;
  }
  if (!prog.anchored_end) return true;
  const LikeSegment& tail = segs.back();
  if (tail.bytes.size() > len - pos) return false;
  if (!tail.has_any) return MatchSegmentAt(tail, text, len, len - tail.bytes.size()) == len;
  for (size_t s = pos; s + tail.bytes.size() <= len; ++s) {
    if (MatchSegmentAt(tail, text, len, s) == len) return true;
  }
  return false;
}

}  // namespace like
}  // namespace laneql

#endif  // LANEQL_SRC_SIMD_STRING_MATCH_PATTERN_H_
