// TIME and INTERVAL text as DuckDB reads it: "HH:MM[:SS[.ffffff]]" for a time of day, and for an
// interval a list of "<number> <unit>" (fractions allowed, carried into the smaller units as
// DuckDB does: 1.5 months = 1 month 15 days), an optional "[-]H:M[:S[.f]]" time, and a final
// "ago" that negates the whole.
#include <cmath>
#include <string>

#include "src/common/interval_text.h"

#include "src/common/ascii.h"

namespace laneql {
namespace civil {
namespace {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerMinute = 60 * kMicrosPerSecond;
constexpr int64_t kMicrosPerHour = 60 * kMicrosPerMinute;
constexpr int64_t kMicrosPerDay = 24 * kMicrosPerHour;
constexpr int kDaysPerMonth = 30;

enum class Unit { kMonth, kDay, kMicro };
struct UnitName {
  const char* name;
  Unit unit;
  int64_t scale;  // months, days or microseconds per one of it
};

constexpr UnitName kUnits[] = {
    {"millennium", Unit::kMonth, 12000}, {"millennia", Unit::kMonth, 12000}, {"millenniums", Unit::kMonth, 12000},
    {"century", Unit::kMonth, 1200},     {"centuries", Unit::kMonth, 1200},  {"decade", Unit::kMonth, 120},
    {"decades", Unit::kMonth, 120},      {"year", Unit::kMonth, 12},         {"years", Unit::kMonth, 12},
    {"y", Unit::kMonth, 12},             {"yr", Unit::kMonth, 12},           {"yrs", Unit::kMonth, 12},
    {"quarter", Unit::kMonth, 3},        {"quarters", Unit::kMonth, 3},      {"month", Unit::kMonth, 1},
    {"months", Unit::kMonth, 1},         {"mon", Unit::kMonth, 1},           {"mons", Unit::kMonth, 1},
    {"week", Unit::kDay, 7},             {"weeks", Unit::kDay, 7},           {"w", Unit::kDay, 7},
    {"day", Unit::kDay, 1},              {"days", Unit::kDay, 1},            {"d", Unit::kDay, 1},
    {"hour", Unit::kMicro, kMicrosPerHour}, {"hours", Unit::kMicro, kMicrosPerHour}, {"h", Unit::kMicro, kMicrosPerHour},
    {"hr", Unit::kMicro, kMicrosPerHour},   {"hrs", Unit::kMicro, kMicrosPerHour},
    {"minute", Unit::kMicro, kMicrosPerMinute}, {"minutes", Unit::kMicro, kMicrosPerMinute},
    {"m", Unit::kMicro, kMicrosPerMinute},      {"min", Unit::kMicro, kMicrosPerMinute},
    {"mins", Unit::kMicro, kMicrosPerMinute},
    {"second", Unit::kMicro, kMicrosPerSecond}, {"seconds", Unit::kMicro, kMicrosPerSecond},
    {"s", Unit::kMicro, kMicrosPerSecond},      {"sec", Unit::kMicro, kMicrosPerSecond},
    {"secs", Unit::kMicro, kMicrosPerSecond},
    {"millisecond", Unit::kMicro, 1000}, {"milliseconds", Unit::kMicro, 1000}, {"ms", Unit::kMicro, 1000},
    {"msec", Unit::kMicro, 1000},        {"msecs", Unit::kMicro, 1000},
    {"microsecond", Unit::kMicro, 1},    {"microseconds", Unit::kMicro, 1},  {"us", Unit::kMicro, 1},
    {"usec", Unit::kMicro, 1},           {"usecs", Unit::kMicro, 1},
};

const UnitName* FindUnit(const std::string& word) {
  for (const UnitName& u : kUnits) {
    if (ascii::EqualsIgnoreCase(word, u.name)) return &u;
  }
  return nullptr;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// [-]H:M[:S[.f]] at text[*pos] (the sign already consumed into `negative`): microseconds.
bool ParseClock(const std::string& text, size_t* pos, bool allow_unbounded_hours, int64_t* micros) {
  int64_t fields[3] = {0, 0, 0};
  int count = 0;
  while (count < 3) {
    const size_t start = *pos;
    int64_t v = 0;
    while (*pos < text.size() && IsDigit(text[*pos]) && *pos - start < 12) v = v * 10 + (text[(*pos)++] - '0');
    if (*pos == start) return false;
    fields[count++] = v;
    if (*pos < text.size() && text[*pos] == ':' && count < 3) {
      ++*pos;
      continue;
    }
    break;
  }
  if (count < 2) return false;
  int64_t fraction = 0;
  if (count == 3 && *pos < text.size() && text[*pos] == '.') {
    ++*pos;
    int digits = 0;
    while (*pos < text.size() && IsDigit(text[*pos])) {
      if (digits < 6) fraction = fraction * 10 + (text[*pos] - '0');
      ++digits;
      ++*pos;
    }
    if (digits == 0) return false;
    for (; digits < 6; ++digits) fraction *= 10;
  }
  if (!allow_unbounded_hours && fields[0] > 24) return false;
  if (fields[1] > 59 || fields[2] > 59) return false;
  *micros = fields[0] * kMicrosPerHour + fields[1] * kMicrosPerMinute + fields[2] * kMicrosPerSecond + fraction;
  return true;
}

bool Spaces(const std::string& text, size_t* pos) {
  const size_t start = *pos;
  while (*pos < text.size() && (text[*pos] == ' ' || text[*pos] == '\t')) ++*pos;
  return *pos > start;
}

}  // namespace

bool ParseTime(const std::string& text, int64_t* micros) {
  size_t pos = 0;
  Spaces(text, &pos);
  if (!ParseClock(text, &pos, false, micros) || *micros > kMicrosPerDay) return false;
  Spaces(text, &pos);
  return pos == text.size();
}

bool ParseInterval(const std::string& text, Interval* out) {
  // Each part adds whole months, days and microseconds; fractions carry down.
  long double months = 0, days = 0, micros = 0;
  size_t pos = 0;
  bool any = false, ago = false;
  Spaces(text, &pos);
  while (pos < text.size()) {
    if (ago) return false;  // "ago" ends the text
    bool negative = false;
    if (text[pos] == '-') {
      negative = true;
      ++pos;
    }
    const size_t number_start = pos;
    while (pos < text.size() && IsDigit(text[pos])) ++pos;
    if (pos < text.size() && text[pos] == ':') {  // a clock
      pos = number_start;
      int64_t clock = 0;
      if (!ParseClock(text, &pos, true, &clock)) return false;
      micros += negative ? -clock : clock;
      any = true;
      Spaces(text, &pos);
      continue;
    }
    if (pos < text.size() && text[pos] == '.') {
      ++pos;
      while (pos < text.size() && IsDigit(text[pos])) ++pos;
    }
    if (pos == number_start) {
      if (negative) return false;
      // A word with no number: only "ago" after some part.
      std::string word;
      while (pos < text.size() && !IsDigit(text[pos]) && text[pos] != ' ' && text[pos] != '-') word += text[pos++];
      if (!any || !ascii::EqualsIgnoreCase(word, "ago")) return false;
      ago = true;
      Spaces(text, &pos);
      continue;
    }
    const std::string digits = text.substr(number_start, pos - number_start);
    if (digits == ".") return false;
    long double value = std::stold(digits);
    if (negative) value = -value;
    Spaces(text, &pos);
    std::string word;
    while (pos < text.size() && !IsDigit(text[pos]) && text[pos] != ' ' && text[pos] != '-' &&
           text[pos] != '.' && text[pos] != ':') {
      word += text[pos++];
    }
    const UnitName* unit = FindUnit(word);
    if (unit == nullptr) return false;
    switch (unit->unit) {
      case Unit::kMonth: months += value * unit->scale; break;
      case Unit::kDay: days += value * unit->scale; break;
      case Unit::kMicro: micros += value * unit->scale; break;
    }
    any = true;
    Spaces(text, &pos);
  }
  if (!any) return false;
  // Fractions of a month are days (30 to a month); fractions of a day are microseconds.
  const long double whole_months = std::trunc(months);
  days += (months - whole_months) * kDaysPerMonth;
  const long double whole_days = std::trunc(days);
  micros += (days - whole_days) * kMicrosPerDay;
  const long double whole_micros = std::nearbyint(micros);
  if (std::fabs(whole_months) > 2147483647.0L || std::fabs(whole_days) > 2147483647.0L ||
      std::fabs(whole_micros) > 9.2e18L) {
    return false;
  }
  out->months = static_cast<int32_t>(whole_months);
  out->days = static_cast<int32_t>(whole_days);
  out->micros = static_cast<int64_t>(whole_micros);
  if (ago) {
    out->months = -out->months;
    out->days = -out->days;
    out->micros = -out->micros;
  }
  return true;
}

}  // namespace civil
}  // namespace laneql
