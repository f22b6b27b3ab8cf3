// The simple regexp_replace patterns (regexp_simple.h): parsed here, replaced in one pass.
#include "src/exec/regexp_simple.h"

#include <cstdint>
#include <cstring>

namespace laneql {
namespace exec {
namespace {

bool IsMeta(char c) { return c != '\0' && std::strchr("\\.+*?()|[]{}^$", c) != nullptr; }

// ASCII punctuation: escaped, it stands for itself in RE2's syntax.
bool IsPunct(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u > 0x20 && u < 0x7F && !((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'));
}

// RE2's \d, \s and \w (ASCII only); false for any other letter.
bool AddPerlClass(char letter, std::array<bool, 128>* set) {
  const auto add = [&](char lo, char hi) {
    for (int c = lo; c <= hi; ++c) (*set)[static_cast<size_t>(c)] = true;
  };
  switch (letter) {
    case 'd': add('0', '9'); return true;
    case 's':
      for (char c : {'\t', '\n', '\f', '\r', ' '}) (*set)[static_cast<size_t>(c)] = true;
      return true;
    case 'w':
      add('0', '9');
      add('A', 'Z');
      add('a', 'z');
      (*set)['_'] = true;
      return true;
    default: return false;
  }
}

// The body of a bracket expression (between "[" or "[^" and "]"): ASCII characters, escaped
// punctuation, ranges of those and \d \s \w. False for anything else (nested brackets, POSIX
// classes, a leading ']', non-ASCII characters, \D inside).
bool ParseBracketBody(std::string_view body, std::array<bool, 128>* set) {
  if (body.empty() || body[0] == ']') return false;
  size_t j = 0;
  // One character of the body at j (plain or escaped punctuation) into *c; false otherwise.
  const auto character = [&](size_t at, char* c, size_t* used) {
    const char b = body[at];
    if (b == '[' || b == ']' || static_cast<unsigned char>(b) >= 0x80) return false;
    if (b != '\\') {
      *c = b;
      *used = 1;
      return true;
    }
    if (at + 1 >= body.size() || !IsPunct(body[at + 1])) return false;
    *c = body[at + 1];
    *used = 2;
    return true;
  };
  while (j < body.size()) {
    if (body[j] == '\\' && j + 1 < body.size() && AddPerlClass(body[j + 1], set)) {
      j += 2;
      if (j + 1 < body.size() && body[j] == '-') return false;  // "[\d-z]": leave it to RE2
      continue;
    }
    char lo = 0;
    size_t used = 0;
    if (!character(j, &lo, &used)) return false;
    j += used;
    char hi = lo;
    if (j + 1 < body.size() && body[j] == '-') {
      if (!character(j + 1, &hi, &used) || hi < lo) return false;
      j += 1 + used;
    }
    for (int c = lo; c <= hi; ++c) (*set)[static_cast<size_t>(c)] = true;
  }
  return true;
}

// The length of the valid UTF-8 sequence at text[i] (a byte >= 0x80), or 0 when it is not one.
size_t Utf8Length(std::string_view text, size_t i) {
  const auto at = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b = at(i);
  size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (b >= 0xC2 && b <= 0xDF) {
    length = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    length = 3;
    if (b == 0xE0) lo = 0xA0;  // no overlong forms
    if (b == 0xED) hi = 0x9F;  // no surrogates
  } else if (b >= 0xF0 && b <= 0xF4) {
    length = 4;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;  // not past U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size() || at(i + 1) < lo || at(i + 1) > hi) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (at(i + k) < 0x80 || at(i + k) > 0xBF) return 0;
  }
  return length;
}

}  // namespace

std::unique_ptr<SimpleReplace> SimpleReplace::Parse(std::string_view pattern, std::string_view replacement,
                                                    bool global) {
  if (pattern.empty() || replacement.find('\\') != std::string_view::npos) return nullptr;
  auto simple = std::make_unique<SimpleReplace>();
  simple->global_ = global;
  simple->replacement_ = std::string(replacement);
  // A literal: every character plain, or escaped punctuation.
  std::string literal;
  bool is_literal = true;
  for (size_t i = 0; i < pattern.size() && is_literal; ++i) {
    if (pattern[i] == '\\' && i + 1 < pattern.size() && IsPunct(pattern[i + 1])) {
      literal.push_back(pattern[++i]);
    } else if (IsMeta(pattern[i])) {
      is_literal = false;
    } else {
      literal.push_back(pattern[i]);
    }
  }
  if (is_literal) {
    simple->literal_ = true;
    simple->text_ = std::move(literal);
    return simple;
  }
  // One class, perhaps repeated.
  std::string_view atom = pattern;
  if (atom.size() > 1 && atom.back() == '+') {
    simple->repeated_ = true;
    atom.remove_suffix(1);
  }
  std::array<bool, 128>& set = simple->in_class_;
  if (atom.size() == 1 && !IsMeta(atom[0]) && static_cast<unsigned char>(atom[0]) < 0x80) {
    set[static_cast<size_t>(atom[0])] = true;
  } else if (atom.size() == 2 && atom[0] == '\\') {
    const char e = atom[1];
    if (AddPerlClass(e, &set)) {
    } else if ((e == 'D' || e == 'S' || e == 'W') && AddPerlClass(static_cast<char>(e - 'A' + 'a'), &set)) {
      simple->negated_ = true;
    } else if (IsPunct(e)) {
      set[static_cast<size_t>(e)] = true;
    } else {
      return nullptr;
    }
  } else if (atom.size() >= 3 && atom.front() == '[' && atom.back() == ']') {
    std::string_view body = atom.substr(1, atom.size() - 2);
    if (body[0] == '^') {
      simple->negated_ = true;
      body.remove_prefix(1);
    }
    if (!ParseBracketBody(body, &set)) return nullptr;
  } else {
    return nullptr;
  }
  return simple;
}

bool SimpleReplace::Replace(std::string_view text, std::string* out) const {
  if (!literal_) return ReplaceClass(text, out);
  size_t from = 0;
  for (;;) {
    const size_t hit = text.find(text_, from);
    if (hit == std::string_view::npos) break;
    out->append(text.data() + from, hit - from);
    out->append(replacement_);
    from = hit + text_.size();
    if (!global_) break;
  }
  out->append(text.data() + from, text.size() - from);
  return true;
}

bool SimpleReplace::ReplaceClass(std::string_view text, std::string* out) const {
  const size_t size_before = out->size();
  bool invalid = false;
  // The bytes of the code point at i if the class matches it, else 0 (and `invalid` for a
  // broken sequence where a negated class would need its length).
  const auto match_at = [&](size_t i) -> size_t {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) return in_class_[b] != negated_ ? 1 : 0;
    if (!negated_) return 0;  // a byte of a longer code point, never in an ASCII class
    const size_t length = Utf8Length(text, i);
    invalid |= length == 0;
    return length;
  };
  size_t copied = 0, i = 0;
  while (i < text.size()) {
    const size_t length = match_at(i);
    if (length == 0) {
      if (invalid) break;
      ++i;
      continue;
    }
    size_t end = i + length;
    while (repeated_ && end < text.size()) {
      const size_t more = match_at(end);
      if (more == 0) break;
      end += more;
    }
    if (invalid) break;
    out->append(text.data() + copied, i - copied);
    out->append(replacement_);
    copied = i = end;
    if (!global_) break;
  }
  if (invalid) {
    out->resize(size_before);
    return false;
  }
  out->append(text.data() + copied, text.size() - copied);
  return true;
}

}  // namespace exec
}  // namespace laneql
