// The string functions of the library (plan/scalar_functions.h), row by row over a batch's
// stored rows. Positions and lengths count characters (UTF-8 code points), as DuckDB's do;
// searches compare bytes. contains / starts_with / ends_with of a plain constant never reach
// here: the binder makes them LIKE, whose SIMD kernels scan whole batches.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "src/common/digest.h"
#include "src/exec/expr_eval.h"
#include "src/exec/functions_common.h"
#include "src/exec/regexp.h"

namespace laneql {
namespace exec {

using plan::BoundExpr;
using plan::ScalarFn;

namespace {

bool IsContinuation(char c) { return (static_cast<uint8_t>(c) & 0xC0) == 0x80; }

// The bytes of the first n characters of s (all of s when it has fewer).
size_t PrefixBytes(std::string_view s, int64_t n) {
  size_t at = 0;
  for (int64_t k = 0; k < n && at < s.size(); ++k) {
    ++at;
    while (at < s.size() && IsContinuation(s[at])) ++at;
  }
  return at;
}

int64_t Characters(std::string_view s) {
  int64_t n = 0;
  for (char c : s) n += !IsContinuation(c);
  return n;
}

// s cut into its characters.
std::vector<std::string_view> SplitCharacters(std::string_view s) {
  std::vector<std::string_view> out;
  for (size_t at = 0; at < s.size();) {
    const size_t len = PrefixBytes(s.substr(at), 1);
    out.push_back(s.substr(at, len));
    at += len;
  }
  return out;
}

std::string_view Left(std::string_view s, int64_t n) {
  if (n < 0) n = std::max<int64_t>(0, Characters(s) + n);
  return s.substr(0, PrefixBytes(s, n));
}

std::string_view Right(std::string_view s, int64_t n) {
  const int64_t total = Characters(s);
  const int64_t skip = n < 0 ? std::min(-n, total) : std::max<int64_t>(0, total - n);
  return s.substr(PrefixBytes(s, skip));
}

// replace(s, from, to): s itself when `from` is empty or not in it, else the text built in
// *scratch (its buffer reused from row to row: a fresh string a row was a malloc a row).
std::string_view Replace(std::string_view s, std::string_view from, std::string_view to, std::string* scratch) {
  if (from.empty()) return s;
  if (from.size() == 1 && to.size() <= 8) {
    // One byte by at most 8, without a branch a byte (find and append were two libc calls a
    // hit, and a branch per byte mispredicted on every hit): each byte writes 8 bytes, its
    // own or `to`'s, and moves on by 1 or to.size(); the bytes past a write's end are
    // overwritten by the next, and the last write's spill lands in 8 bytes of slack.
    // The scratch only grows, so it is not resized (and zeroed) a row.
    const char f = from[0];
    uint64_t to_word = 0;
    std::memcpy(&to_word, to.data(), to.size());
    const size_t step = to.size();
    const size_t room = s.size() * std::max<size_t>(step, 1) + 8;
    if (scratch->size() < room) scratch->resize(std::max(room, 2 * scratch->size()));
    char* const begin = scratch->data();
    char* out = begin;
    bool any = false;
    for (const char c : s) {
      const bool hit = c == f;
      any |= hit;
      const uint64_t word = hit ? to_word : static_cast<uint8_t>(c);
      std::memcpy(out, &word, 8);
      out += hit ? step : 1;
    }
    return any ? std::string_view(begin, static_cast<size_t>(out - begin)) : s;
  }
  size_t hit = s.find(from);
  if (hit == std::string_view::npos) return s;
  scratch->clear();
  size_t at = 0;
  for (; hit != std::string_view::npos; hit = s.find(from, at)) {
    scratch->append(s.data() + at, hit - at);
    scratch->append(to);
    at = hit + from.size();
  }
  scratch->append(s.data() + at, s.size() - at);
  return *scratch;
}

std::string_view SplitPart(std::string_view s, std::string_view separator, int64_t index) {
  std::vector<std::string_view> parts;
  if (separator.empty()) {
    parts = SplitCharacters(s);
    if (parts.empty()) parts.push_back(s);
  } else {
    size_t at = 0;
    for (size_t hit = s.find(separator); hit != std::string_view::npos; hit = s.find(separator, at)) {
      parts.push_back(s.substr(at, hit - at));
      at = hit + separator.size();
    }
    parts.push_back(s.substr(at));
  }
  const int64_t count = static_cast<int64_t>(parts.size());
  const int64_t k = index > 0 ? index - 1 : count + index;
  if (index == 0 || k < 0 || k >= count) return std::string_view();
  return parts[static_cast<size_t>(k)];
}

// s without the leading (left) and trailing (right) characters in `set` (spaces by default).
std::string_view Trim(std::string_view s, std::string_view set, bool left, bool right) {
  const std::vector<std::string_view> remove = SplitCharacters(set);
  auto removable = [&](std::string_view c) { return std::find(remove.begin(), remove.end(), c) != remove.end(); };
  size_t begin = 0, end = s.size();
  while (left && begin < end) {
    const size_t len = PrefixBytes(s.substr(begin), 1);
    if (!removable(s.substr(begin, len))) break;
    begin += len;
  }
  while (right && end > begin) {
    size_t start = end - 1;
    while (start > begin && IsContinuation(s[start])) --start;
    if (!removable(s.substr(start, end - start))) break;
    end = start;
  }
  return s.substr(begin, end - begin);
}

// reverse: a row keeps its length, so the output's offsets are the input's (rebased) and each
// row's characters (a byte and the continuation bytes after it, as PrefixBytes counts them) are
// copied straight to their mirrored place in one buffer, an ASCII row reversed byte by byte.
// (A vector of the row's characters and a string a row cost about 150 ns of the 10 M-row
// benchmark's 1.5 s.)
bool ReverseRows(const Vec& in, size_t count, Vec* out, std::string* error) {
  const size_t rows = in.constant ? 1 : count;
  out->type = TypeId::kString;
  out->count = count;
  out->constant = in.constant;
  if (!out->own_offsets.ResizeForOverwrite((rows + 1) * sizeof(int32_t), error)) return false;
  int32_t* offsets = out->own_offsets.As<int32_t>();
  const int32_t base = in.offsets[0];
  const size_t bytes = static_cast<size_t>(in.offsets[rows] - base);
  if (!out->own_values.ResizeForOverwrite(bytes > 0 ? bytes : 1, error)) return false;
  char* to = reinterpret_cast<char*>(out->own_values.data());
  const char* from = reinterpret_cast<const char*>(in.values) + base;
  for (size_t r = 0; r <= rows; ++r) offsets[r] = in.offsets[r] - base;
  for (size_t r = 0; r < rows; ++r) {
    const size_t begin = static_cast<size_t>(offsets[r]), end = static_cast<size_t>(offsets[r + 1]);
    if (in.ascii) {
      std::reverse_copy(from + begin, from + end, to + begin);
      continue;
    }
    for (size_t at = begin; at < end;) {
      size_t len = 1;
      while (at + len < end && IsContinuation(from[at + len])) ++len;
      std::memcpy(to + (end - (at - begin) - len), from + at, len);
      at += len;
    }
  }
  out->offsets = offsets;
  out->values = out->own_values.data();
  out->validity = nullptr;
  out->ascii = in.ascii;
  return CopyValidity(in, out, error);
}

// The UTF-8 bytes of a code point; false for a surrogate or past U+10FFFF.
bool EncodeCodePoint(int64_t cp, std::string* out) {
  if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
  const auto c = static_cast<uint32_t>(cp);
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
  return true;
}

int32_t FirstCodePoint(std::string_view s) {
  if (s.empty()) return 0;
  const auto b0 = static_cast<uint8_t>(s[0]);
  const size_t len = b0 < 0x80 ? 1 : b0 < 0xE0 ? 2 : b0 < 0xF0 ? 3 : 4;
  if (len == 1 || s.size() < len) return b0;
  uint32_t cp = b0 & (0xFF >> (len + 1));
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<uint8_t>(s[k]) & 0x3F);
  return static_cast<int32_t>(cp);
}

// A string result per stored row: f(i, &scratch) gives the row's text (a view into the
// arguments or into scratch), or false with *error set. Strict: NULL where an argument is.
template <class F>
bool StringRows(const std::vector<Vec>& args, size_t count, Vec* out, std::string* error, F f) {
  StringVecBuilder builder;
  if (!builder.Init(count, AllConstant(args), error)) return false;
  const size_t rows = AllConstant(args) ? 1 : count;
  std::string scratch;
  for (size_t i = 0; i < rows; ++i) {
    if (AnyNull(args, i)) {
      builder.AppendNull();
      continue;
    }
    std::string_view value;
    if (!f(i, &scratch, &value) || !builder.Append(value, error)) return false;
  }
  return builder.Finish(out, error);
}

// A fixed-width result per stored row, NULL where an argument is.
template <class T, class F>
bool FixedRows(const std::vector<Vec>& args, TypeId type, size_t count, Vec* out, std::string* error, F f) {
  T* dst = out->InitFixed<T>(type, count, AllConstant(args), error);
  if (dst == nullptr) return false;
  for (size_t i = 0; i < out->stored(); ++i) {
    if (!AnyNull(args, i)) dst[i] = f(i);
  }
  return StrictValidity(args, out, error);
}

// concat / concat_ws: NULL arguments skipped; concat_ws is NULL only for a NULL separator.
bool Concat(const BoundExpr& expr, const std::vector<Vec>& args, size_t count, Vec* out, std::string* error) {
  const bool separated = expr.scalar == ScalarFn::kConcatWs;
  StringVecBuilder builder;
  if (!builder.Init(count, AllConstant(args), error)) return false;
  const size_t rows = AllConstant(args) ? 1 : count;
  for (size_t i = 0; i < rows; ++i) {
    if (separated && args[0].IsNull(i)) {
      builder.AppendNull();
      continue;
    }
    bool first = true;
    for (size_t k = separated ? 1 : 0; k < args.size(); ++k) {
      if (args[k].IsNull(i)) continue;
      if ((separated && !first && !builder.AppendPart(args[0].Str(i), error)) ||
          !builder.AppendPart(args[k].Str(i), error)) {
        return false;
      }
      first = false;
    }
    builder.EndRow();
  }
  return builder.Finish(out, error);
}

}  // namespace

bool EvalStringFunction(const BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                        std::string* error) {
  out->count = count;
  const std::vector<Vec>& a = args;
  switch (expr.scalar) {
    case ScalarFn::kConcat:
    case ScalarFn::kConcatWs: return Concat(expr, args, count, out, error);
    case ScalarFn::kLeft:
    case ScalarFn::kRight:
      return StringRows(args, count, out, error, [&](size_t i, std::string*, std::string_view* v) {
        *v = expr.scalar == ScalarFn::kLeft ? Left(a[0].Str(i), a[1].Get<int64_t>(i))
                                            : Right(a[0].Str(i), a[1].Get<int64_t>(i));
        return true;
      });
    case ScalarFn::kReplace:
      return StringRows(args, count, out, error, [&](size_t i, std::string* scratch, std::string_view* v) {
        *v = Replace(a[0].Str(i), a[1].Str(i), a[2].Str(i), scratch);
        return true;
      });
    case ScalarFn::kSplitPart:
      return StringRows(args, count, out, error, [&](size_t i, std::string*, std::string_view* v) {
        *v = SplitPart(a[0].Str(i), a[1].Str(i), a[2].Get<int64_t>(i));
        return true;
      });
    case ScalarFn::kTrim:
    case ScalarFn::kLtrim:
    case ScalarFn::kRtrim: {
      const bool left = expr.scalar != ScalarFn::kRtrim, right = expr.scalar != ScalarFn::kLtrim;
      return StringRows(args, count, out, error, [&](size_t i, std::string*, std::string_view* v) {
        *v = Trim(a[0].Str(i), a.size() > 1 ? a[1].Str(i) : std::string_view(" "), left, right);
        return true;
      });
    }
    case ScalarFn::kLpad:
    case ScalarFn::kRpad: {
      const bool on_left = expr.scalar == ScalarFn::kLpad;
      return StringRows(args, count, out, error, [&](size_t i, std::string* scratch, std::string_view* v) {
        const std::string_view s = a[0].Str(i), pad = a[2].Str(i);
        const int64_t length = std::max<int32_t>(0, a[1].Get<int32_t>(i));
        const int64_t have = Characters(s);
        if (have >= length) {
          *v = s.substr(0, PrefixBytes(s, length));
          return true;
        }
        if (pad.empty()) {
          *error = ErrorAt(expr, "invalid input", std::string("Insufficient padding in ") + (on_left ? "LPAD." : "RPAD."));
          return false;
        }
        const std::vector<std::string_view> pad_characters = SplitCharacters(pad);
        std::string fill;
        for (int64_t k = 0; k < length - have; ++k) fill.append(pad_characters[static_cast<size_t>(k) % pad_characters.size()]);
        *scratch = on_left ? fill + std::string(s) : std::string(s) + fill;
        *v = *scratch;
        return true;
      });
    }
    case ScalarFn::kReverse: return ReverseRows(a[0], count, out, error);
    case ScalarFn::kMd5:
    case ScalarFn::kSha256:
      return StringRows(args, count, out, error, [&](size_t i, std::string* scratch, std::string_view* v) {
        char hex[kSha256HexChars];
        const bool md5 = expr.scalar == ScalarFn::kMd5;
        if (md5) Md5HexTo(a[0].Str(i), hex);
        else Sha256HexTo(a[0].Str(i), hex);
        scratch->assign(hex, md5 ? kMd5HexChars : kSha256HexChars);  // its capacity kept row to row
        *v = *scratch;
        return true;
      });
    case ScalarFn::kRepeat:
      return StringRows(args, count, out, error, [&](size_t i, std::string* scratch, std::string_view* v) {
        const std::string_view s = a[0].Str(i);
        const int64_t times = a[1].Get<int64_t>(i);
        scratch->clear();
        if (times > 0 && !s.empty()) {
          if (static_cast<uint64_t>(times) > static_cast<uint64_t>(INT32_MAX) / s.size()) {
            *error = ErrorAt(expr, "out of range", "repeat: the result would pass 2 GiB");
            return false;
          }
          scratch->reserve(s.size() * static_cast<size_t>(times));
          for (int64_t k = 0; k < times; ++k) scratch->append(s);
        }
        *v = *scratch;
        return true;
      });
    case ScalarFn::kStrpos:
      return FixedRows<int64_t>(args, TypeId::kInt64, count, out, error, [&](size_t i) -> int64_t {
        const std::string_view s = a[0].Str(i);
        const size_t hit = s.find(a[1].Str(i));
        return hit == std::string_view::npos ? 0 : Characters(s.substr(0, hit)) + 1;
      });
    case ScalarFn::kStartsWith:
    case ScalarFn::kEndsWith:
    case ScalarFn::kContains:
      return FixedRows<uint8_t>(args, TypeId::kBool, count, out, error, [&](size_t i) -> uint8_t {
        const std::string_view s = a[0].Str(i), needle = a[1].Str(i);
        if (needle.size() > s.size()) return 0;
        if (expr.scalar == ScalarFn::kStartsWith) return s.substr(0, needle.size()) == needle;
        if (expr.scalar == ScalarFn::kEndsWith) return s.substr(s.size() - needle.size()) == needle;
        return s.find(needle) != std::string_view::npos;
      });
    case ScalarFn::kAscii:
      return FixedRows<int32_t>(args, TypeId::kInt32, count, out, error,
                                [&](size_t i) { return FirstCodePoint(a[0].Str(i)); });
    case ScalarFn::kChr:
      return StringRows(args, count, out, error, [&](size_t i, std::string* scratch, std::string_view* v) {
        scratch->clear();
        const int32_t cp = a[0].Get<int32_t>(i);
        if (!EncodeCodePoint(cp, scratch)) {
          *error = ErrorAt(expr, "invalid input", "Invalid UTF8 Codepoint " + std::to_string(cp));
          return false;
        }
        *v = *scratch;
        return true;
      });
    case ScalarFn::kRegexpMatches:
    case ScalarFn::kRegexpFullMatch: {
      const auto* matcher = static_cast<const RegexpMatcher*>(expr.compiled.get());
      const bool full = expr.scalar == ScalarFn::kRegexpFullMatch;
      return FixedRows<uint8_t>(args, TypeId::kBool, count, out, error, [&](size_t i) -> uint8_t {
        return full ? matcher->FullMatch(a[0].Str(i)) : matcher->PartialMatch(a[0].Str(i));
      });
    }
    case ScalarFn::kRegexpExtract: {
      const auto* matcher = static_cast<const RegexpMatcher*>(expr.compiled.get());
      return StringRows(args, count, out, error, [&](size_t i, std::string*, std::string_view* v) {
        matcher->Extract(a[0].Str(i), a[2].Get<int32_t>(i), v);
        return true;
      });
    }
    default: break;
  }
  *error = ErrorAt(expr, "internal", "not a string function of the library");
  return false;
}

}  // namespace exec
}  // namespace laneql
