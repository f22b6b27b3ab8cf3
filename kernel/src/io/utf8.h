// UTF-8 decoding helpers shared by the result printers (internal to kernel/src/io).
#ifndef LANEQL_SRC_IO_UTF8_H_
#define LANEQL_SRC_IO_UTF8_H_

#include <cstddef>
#include <string_view>

namespace laneql {
namespace utf8 {

// Length in bytes (1..4) of the well-formed UTF-8 sequence at the start of `text`, or 0 if it
// does not start with one (stray continuation byte, truncated sequence, overlong form,
// surrogate, or a code point above U+10FFFF). `text` must not be empty.
inline size_t ValidSequenceLength(std::string_view text) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  size_t length;
  unsigned char low = 0x80, high = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;   // overlong
    if (lead == 0xED) high = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;   // overlong
    if (lead == 0xF4) high = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if ((byte(i) & 0xC0) != 0x80) return 0;
  }
  return length;
}

// Bytes of the next display unit: a valid sequence, or one invalid byte (which terminals show
// as one replacement character).
inline size_t NextUnitLength(std::string_view text) {
  const size_t length = ValidSequenceLength(text);
  return length == 0 ? 1 : length;
}

// Code points in `text`, counting each invalid byte as one.
inline size_t CountCodePoints(std::string_view text) {
  size_t count = 0;
  for (size_t i = 0; i < text.size(); i += NextUnitLength(text.substr(i))) ++count;
  return count;
}

}  // namespace utf8
}  // namespace laneql

#endif  // LANEQL_SRC_IO_UTF8_H_
