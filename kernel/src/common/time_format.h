// strftime / strptime formats (DuckDB's specifiers, a subset of C's): compiled once per query
// into pieces, then used to print a timestamp or to read one.
//
//   %Y year  %y two-digit year  %m month  %d day  %H hour  %I hour of 12  %p AM / PM  %M minute
//   %S second  %f microseconds (6 digits)  %g milliseconds (3)  %j day of the year  %a %A day
//   names  %b %h %B month names  %w weekday (Sunday 0)  %u (Monday 1)  %U %W week of the year
//   (Sunday / Monday first)  %c %x %X date-time, date, time  %z %Z (empty: no time zones)  %%
//   A '-' after '%' drops the padding (%-d, %-m, %-H, ...).
#ifndef LANEQL_SRC_COMMON_TIME_FORMAT_H_
#define LANEQL_SRC_COMMON_TIME_FORMAT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace laneql {

class TimeFormat {
 public:
  // False with "unrecognized format specifier %e in '...'" and the like.
  static bool Compile(const std::string& format, TimeFormat* out, std::string* error);
  // Appends the timestamp (microseconds since 1970-01-01) as the format spells it.
  void Format(int64_t micros, std::string* out) const;
  // The same text written at `out`, which has room for max_chars(); returns its length.
  size_t FormatTo(int64_t micros, char* out) const;
  size_t max_chars() const { return max_chars_; }
  // Reads `text` as a whole; false when it does not match the format or names an invalid date
  // or time. Fields the format lacks take 1970-01-01 00:00:00's.
  bool Parse(std::string_view text, int64_t* micros) const;
  const std::string& text() const { return text_; }

 private:
  struct Piece {
    char spec = 0;         // 0: the literal text
    bool padded = true;    // false after %-
    std::string literal;
  };
  std::vector<Piece> pieces_;
  std::string text_;
  // Whether a piece reads the day of the week / of the year (worked out a row only then).
  bool week_day_ = false, year_day_ = false;
  size_t max_chars_ = 0;  // the most characters one timestamp's text can take
};

}  // namespace laneql

#endif  // LANEQL_SRC_COMMON_TIME_FORMAT_H_
