#include "src/plan/date_parts.h"

#include <utility>

#include "src/common/ascii.h"

namespace laneql {
namespace plan {
namespace {

struct PartName {
  const char* name;
  DatePart part;
  bool canonical;  // listed in error messages
};

const PartName kPartNames[] = {
    {"year", DatePart::kYear, true},        {"y", DatePart::kYear, false},
    {"yr", DatePart::kYear, false},         {"yrs", DatePart::kYear, false},
    {"years", DatePart::kYear, false},      {"quarter", DatePart::kQuarter, true},
    {"quarters", DatePart::kQuarter, false}, {"month", DatePart::kMonth, true},
    {"mon", DatePart::kMonth, false},       {"mons", DatePart::kMonth, false},
    {"months", DatePart::kMonth, false},    {"week", DatePart::kWeek, true},
    {"w", DatePart::kWeek, false},          {"weeks", DatePart::kWeek, false},
    {"weekofyear", DatePart::kWeek, false}, {"day", DatePart::kDay, true},
    {"d", DatePart::kDay, false},           {"days", DatePart::kDay, false},
    {"dayofmonth", DatePart::kDay, false},  {"hour", DatePart::kHour, true},
    {"h", DatePart::kHour, false},          {"hr", DatePart::kHour, false},
    {"hours", DatePart::kHour, false},      {"minute", DatePart::kMinute, true},
    {"m", DatePart::kMinute, false},        {"min", DatePart::kMinute, false},
    {"mins", DatePart::kMinute, false},     {"minutes", DatePart::kMinute, false},
    {"second", DatePart::kSecond, true},    {"s", DatePart::kSecond, false},
    {"sec", DatePart::kSecond, false},      {"secs", DatePart::kSecond, false},
    {"seconds", DatePart::kSecond, false},  {"millisecond", DatePart::kMillisecond, true},
    {"ms", DatePart::kMillisecond, false},  {"msec", DatePart::kMillisecond, false},
    {"msecs", DatePart::kMillisecond, false}, {"milliseconds", DatePart::kMillisecond, false},
    {"microsecond", DatePart::kMicrosecond, true}, {"us", DatePart::kMicrosecond, false},
    {"usec", DatePart::kMicrosecond, false}, {"usecs", DatePart::kMicrosecond, false},
    {"microseconds", DatePart::kMicrosecond, false}, {"dow", DatePart::kDow, true},
    {"dayofweek", DatePart::kDow, false},   {"weekday", DatePart::kDow, false},
    {"isodow", DatePart::kIsoDow, true},    {"doy", DatePart::kDoy, true},
    {"dayofyear", DatePart::kDoy, false},   {"decade", DatePart::kDecade, true},
    {"decades", DatePart::kDecade, false},  {"century", DatePart::kCentury, true},
    {"centuries", DatePart::kCentury, false}, {"millennium", DatePart::kMillennium, true},
    {"millennia", DatePart::kMillennium, false}, {"isoyear", DatePart::kIsoYear, true},
    {"yearweek", DatePart::kYearWeek, true}, {"era", DatePart::kEra, true},
    {"epoch", DatePart::kEpoch, true},      {"julian", DatePart::kJulian, true},
};

}  // namespace

bool ParseDatePart(const std::string& name, DatePart* part) {
  for (const PartName& p : kPartNames) {
    if (ascii::EqualsIgnoreCase(name, p.name)) {
      *part = p.part;
      return true;
    }
  }
  return false;
}

std::string DatePartNames() {
  std::string names;
  for (const PartName& p : kPartNames) {
    if (p.canonical) names += (names.empty() ? "" : ", ") + std::string(p.name);
  }
  return names;
}

}  // namespace plan
}  // namespace laneql
