#include "src/common/time_format.h"

#include <charconv>
#include <cstdio>
#include <cstring>

#include "src/common/ascii.h"
#include "src/common/civil_time.h"

namespace laneql {
namespace {

using civil::kDayNames;
using civil::kMonthNames;

bool Known(char spec) {
  for (char c : std::string_view("YymdHIpMSfgjaAbhBwuUWcxX%")) {
    if (spec == c) return true;
  }
  return false;
}

// printf's "%0*lld" (padded: zeros after the sign up to `width` characters) or "%lld", without
// printf (its parsing of the format was most of strftime's time), written at `out` (room for
// 21 characters and the padding); returns the end.
char* Number(int64_t value, int width, bool padded, char* out) {
  if (value >= 0 && value < 100 && width <= 2) {  // months, days, hours, ...
    if (value >= 10 || (padded && width == 2)) *out++ = static_cast<char>('0' + value / 10);
    *out++ = static_cast<char>('0' + value % 10);
    return out;
  }
  if (value >= 1000 && value < 10000 && width <= 4) {  // a year of four digits: no padding
    out[0] = static_cast<char>('0' + value / 1000);
    out[1] = static_cast<char>('0' + value / 100 % 10);
    out[2] = static_cast<char>('0' + value / 10 % 10);
    out[3] = static_cast<char>('0' + value % 10);
    return out + 4;
  }
  char digits[24];
  const uint64_t magnitude = value < 0 ? 0 - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  char* end = std::to_chars(digits, digits + sizeof(digits), magnitude).ptr;
  const int length = static_cast<int>(end - digits) + (value < 0 ? 1 : 0);
  if (value < 0) *out++ = '-';
  for (int k = length; padded && k < width; ++k) *out++ = '0';
  std::memcpy(out, digits, static_cast<size_t>(end - digits));
  return out + (end - digits);
}

// More characters than a specifier writes: %c's date and time with a year of up to 21
// characters (a number of 20 digits and its sign) is 36.
constexpr size_t kMaxSpecChars = 48;

// Reads 1 to max_digits digits at text[*at]; false when there is none.
bool ReadNumber(std::string_view text, size_t* at, int max_digits, int64_t* value, int* digits = nullptr) {
  int n = 0;
  int64_t v = 0;
  while (*at < text.size() && n < max_digits && text[*at] >= '0' && text[*at] <= '9') {
    v = v * 10 + (text[*at] - '0');
    ++*at;
    ++n;
  }
  if (digits != nullptr) *digits = n;
  *value = v;
  return n > 0;
}

// A name (full, or its first three letters) from `names`, case-insensitively.
bool ReadName(std::string_view text, size_t* at, const char* const* names, int count, int* index) {
  for (int full = 1; full >= 0; --full) {
    for (int i = 0; i < count; ++i) {
      const std::string_view name = full ? std::string_view(names[i]) : std::string_view(names[i], 3);
      if (text.size() - *at >= name.size() && ascii::EqualsIgnoreCase(text.substr(*at, name.size()), name)) {
        *at += name.size();
        *index = i;
        return true;
      }
    }
  }
  return false;
}

}  // namespace

bool TimeFormat::Compile(const std::string& format, TimeFormat* out, std::string* error) {
  out->pieces_.clear();
  out->text_ = format;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      if (out->pieces_.empty() || out->pieces_.back().spec != 0) out->pieces_.emplace_back();
      out->pieces_.back().literal += format[i];
      continue;
    }
    Piece piece;
    if (i + 1 < format.size() && format[i + 1] == '-') {
      piece.padded = false;
      ++i;
    }
    if (i + 1 >= format.size() || !Known(format[i + 1])) {
      *error = "unrecognized format specifier " + format.substr(i, 2) + " in '" + format + "'";
      return false;
    }
    piece.spec = format[++i];
    if (piece.spec == '%') {
      piece.spec = 0;
      piece.literal = "%";
    }
    out->week_day_ |= std::strchr("aAwuUW", piece.spec) != nullptr;
    out->year_day_ |= std::strchr("jUW", piece.spec) != nullptr;
    out->pieces_.push_back(piece);
  }
  out->max_chars_ = 0;
  for (const Piece& piece : out->pieces_) out->max_chars_ += piece.spec == 0 ? piece.literal.size() : kMaxSpecChars;
  return true;
}

void TimeFormat::Format(int64_t micros, std::string* out) const {
  char buffer[256];
  if (max_chars_ <= sizeof(buffer)) {
    out->append(buffer, FormatTo(micros, buffer));
    return;
  }
  std::string text(max_chars_, '\0');
  text.resize(FormatTo(micros, text.data()));
  *out += text;
}

size_t TimeFormat::FormatTo(int64_t micros, char* begin) const {
  int64_t days, micros_of_day;
  civil::SplitTimestamp(micros, civil::kMicrosPerDay, &days, &micros_of_day);
  const civil::Date date = civil::CivilFromDays(days);
  const civil::TimeOfDay time = civil::TimeOfDayFromMicros(micros_of_day);
  const int64_t dow = week_day_ ? civil::DayOfWeek(days) : 0;
  const int64_t doy = year_day_ ? days - civil::DaysFromCivil(date.year, 1, 1) : 0;  // 0-based
  char* out = begin;
  const auto text = [&](const char* s, size_t n) {
    std::memcpy(out, s, n);
    out += n;
  };
  for (const Piece& p : pieces_) {
    const bool pad = p.padded;
    switch (p.spec) {
      case 0: text(p.literal.data(), p.literal.size()); break;
      // Years before 1 BC as DuckDB writes them: -5 (not padded) and 05.
      case 'Y': out = Number(date.year, 4, pad && date.year >= 0, out); break;
      case 'y': out = Number((date.year < 0 ? -date.year : date.year) % 100, 2, pad, out); break;
      case 'm': out = Number(date.month, 2, pad, out); break;
      case 'd': out = Number(date.day, 2, pad, out); break;
      case 'H': out = Number(time.hour, 2, pad, out); break;
      case 'I': out = Number(time.hour % 12 == 0 ? 12 : time.hour % 12, 2, pad, out); break;
      case 'p': text(time.hour < 12 ? "AM" : "PM", 2); break;
      case 'M': out = Number(time.minute, 2, pad, out); break;
      case 'S': out = Number(time.second, 2, pad, out); break;
      case 'f': out = Number(time.micros, 6, pad, out); break;
      case 'g': out = Number(time.micros / 1000, 3, pad, out); break;
      case 'j': out = Number(doy + 1, 3, pad, out); break;
      case 'a': text(kDayNames[dow], 3); break;
      case 'A': text(kDayNames[dow], std::strlen(kDayNames[dow])); break;
      case 'b':
      case 'h': text(kMonthNames[date.month - 1], 3); break;
      case 'B': text(kMonthNames[date.month - 1], std::strlen(kMonthNames[date.month - 1])); break;
      case 'w': out = Number(dow, 1, false, out); break;
      case 'u': out = Number(dow == 0 ? 7 : dow, 1, false, out); break;
      case 'U': out = Number((doy + 7 - dow) / 7, 2, pad, out); break;
      case 'W': out = Number((doy + 7 - (dow + 6) % 7) / 7, 2, pad, out); break;
      case 'c':
      case 'x':
      case 'X': {
        // YYYY-MM-DD and / or HH:MM:SS, as printf's %04lld-%02d-%02d and %02d:%02d:%02d.
        if (p.spec != 'X') {
          out = Number(date.year, 4, true, out);
          *out++ = '-';
          out = Number(date.month, 2, true, out);
          *out++ = '-';
          out = Number(date.day, 2, true, out);
        }
        if (p.spec == 'c') *out++ = ' ';
        if (p.spec != 'x') {
          out = Number(time.hour, 2, true, out);
          *out++ = ':';
          out = Number(time.minute, 2, true, out);
          *out++ = ':';
          out = Number(time.second, 2, true, out);
        }
        break;
      }
      default: break;
    }
  }
  return static_cast<size_t>(out - begin);
}

bool TimeFormat::Parse(std::string_view text, int64_t* micros) const {
  int64_t year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0, fraction = 0, doy = -1;
  bool pm = false, twelve = false;
  size_t at = 0;
  for (const Piece& p : pieces_) {
    int64_t v = 0;
    int index = 0, digits = 0;
    switch (p.spec) {
      case 0:
        if (text.substr(at, p.literal.size()) != p.literal) return false;
        at += p.literal.size();
        break;
      case 'Y': {
        const bool negative = at < text.size() && text[at] == '-';
        if (negative) ++at;
        if (!ReadNumber(text, &at, 6, &v)) return false;
        year = negative ? -v : v;
        break;
      }
      case 'y':
        if (!ReadNumber(text, &at, 2, &v)) return false;
        year = v < 69 ? 2000 + v : 1900 + v;
        break;
      case 'm': if (!ReadNumber(text, &at, 2, &month)) return false; break;
      case 'd': if (!ReadNumber(text, &at, 2, &day)) return false; break;
      case 'H': if (!ReadNumber(text, &at, 2, &hour)) return false; break;
      case 'I':
        if (!ReadNumber(text, &at, 2, &hour) || hour < 1 || hour > 12) return false;
        twelve = true;
        break;
      case 'p':
        if (text.size() - at < 2) return false;
        if (ascii::EqualsIgnoreCase(text.substr(at, 2), "PM")) pm = true;
        else if (!ascii::EqualsIgnoreCase(text.substr(at, 2), "AM")) return false;
        at += 2;
        break;
      case 'M': if (!ReadNumber(text, &at, 2, &minute)) return false; break;
      case 'S': if (!ReadNumber(text, &at, 2, &second)) return false; break;
      case 'f':
      case 'g': {
        const int width = p.spec == 'f' ? 6 : 3;
        if (!ReadNumber(text, &at, width, &v, &digits)) return false;
        for (int k = digits; k < 6; ++k) v *= 10;  // the digits read are the fraction's first
        fraction = v;
        break;
      }
      case 'j': if (!ReadNumber(text, &at, 3, &doy) || doy < 1 || doy > 366) return false; break;
      case 'a':
      case 'A': if (!ReadName(text, &at, kDayNames, 7, &index)) return false; break;
      case 'b':
      case 'h':
      case 'B':
        if (!ReadName(text, &at, kMonthNames, 12, &index)) return false;
        month = index + 1;
        break;
      case 'w':
      case 'u': if (!ReadNumber(text, &at, 1, &v)) return false; break;
      case 'U':
      case 'W': if (!ReadNumber(text, &at, 2, &v)) return false; break;
      case 'c':
      case 'x':
      case 'X': {
        int64_t parts[6] = {year, month, day, hour, minute, second};
        const int first = p.spec == 'X' ? 3 : 0, last = p.spec == 'x' ? 3 : 6;
        for (int k = first; k < last; ++k) {
          if (k != first) {
            const char separator = k == 3 ? ' ' : k < 3 ? '-' : ':';
            if (at >= text.size() || text[at] != separator) return false;
            ++at;
          }
          if (!ReadNumber(text, &at, k == 0 ? 6 : 2, &parts[k])) return false;
        }
        year = parts[0], month = parts[1], day = parts[2], hour = parts[3], minute = parts[4], second = parts[5];
        break;
      }
      default: return false;
    }
  }
  if (at != text.size()) return false;
  if (twelve) hour = hour % 12 + (pm ? 12 : 0);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59 || year < -290000 || year > 290000) {
    return false;
  }
  int64_t days;
  if (doy > 0) {
    if (doy > (civil::IsLeapYear(year) ? 366 : 365)) return false;
    days = civil::DaysFromCivil(year, 1, 1) + doy - 1;
  } else {
    if (day < 1 || day > civil::DaysInMonth(year, static_cast<int>(month))) return false;
    days = civil::DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  }
  *micros = days * civil::kMicrosPerDay + civil::MicrosOfDay(hour, minute, second, fraction);
  return true;
}

}  // namespace laneql
