#include "src/common/unicode_case.h"

#include <algorithm>

namespace laneql {
namespace unicode {
namespace {

uint32_t Lookup(const CaseMapping* table, size_t n, uint32_t cp) {
  const CaseMapping* end = table + n;
  const CaseMapping* it =
      std::lower_bound(table, end, cp, [](const CaseMapping& m, uint32_t value) { return m.source < value; });
  return it != end && it->source == cp ? it->target : cp;
}

// The code point of the well-formed UTF-8 sequence at text[i] and its length, or length 0.
size_t Decode(std::string_view text, size_t i, uint32_t* cp) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(text[i + k]); };
  const uint8_t lead = byte(0);
  size_t length;
  uint32_t value;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    value = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    value = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    value = lead & 0x07;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(k) & 0xC0) != 0x80) return 0;
    value = (value << 6) | (byte(k) & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are not well-formed.
  if ((length == 3 && value < 0x800) || (length == 4 && (value < 0x10000 || value > 0x10FFFF)) ||
      (value >= 0xD800 && value <= 0xDFFF)) {
    return 0;
  }
  *cp = value;
  return length;
}

void Encode(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

uint32_t ToUpper(uint32_t cp) {
  if (cp < 0x80) return cp >= 'a' && cp <= 'z' ? cp - 32 : cp;
  return Lookup(kUpperMappings, kUpperMappingCount, cp);
}

uint32_t ToLower(uint32_t cp) {
  if (cp < 0x80) return cp >= 'A' && cp <= 'Z' ? cp + 32 : cp;
  return Lookup(kLowerMappings, kLowerMappingCount, cp);
}

void AppendCaseMapped(std::string_view text, bool upper, std::string* out) {
  for (size_t i = 0; i < text.size();) {
    const uint8_t c = static_cast<uint8_t>(text[i]);
    if (c < 0x80) {
      out->push_back(static_cast<char>(upper ? ToUpper(c) : ToLower(c)));
      ++i;
      continue;
    }
    uint32_t cp = 0;
    const size_t length = Decode(text, i, &cp);
    if (length == 0) {
      out->push_back(static_cast<char>(c));  // not UTF-8: the byte as it is
      ++i;
      continue;
    }
    Encode(upper ? ToUpper(cp) : ToLower(cp), out);
    i += length;
  }
}

}  // namespace unicode
}  // namespace laneql
