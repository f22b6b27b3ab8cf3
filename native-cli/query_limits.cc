#include "query_limits.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace laneql::cli {
namespace {

std::string Lower(std::string s) {
  for (char& c : s) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return s;
}

std::string Trim(const std::string& s) {
  const size_t first = s.find_first_not_of(" \t");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

bool IsOff(const std::string& lower) { return lower == "0" || lower == "none" || lower == "off"; }

// "<number><spaces><unit>" -> number and lower-cased unit; false when no number leads.
bool SplitNumber(const std::string& text, double* number, std::string* unit) {
  const char* begin = text.c_str();
  if (text.empty() || !(text[0] == '.' || (text[0] >= '0' && text[0] <= '9'))) return false;
  char* end = nullptr;
  *number = std::strtod(begin, &end);
  if (end == begin || !std::isfinite(*number)) return false;
  *unit = Lower(Trim(end));
  return true;
}

std::string Number(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.4g", value);
  return text;
}

}  // namespace

bool ParseMemoryLimit(const std::string& text, int64_t* bytes, std::string* error) {
  const std::string trimmed = Trim(text);
  if (IsOff(Lower(trimmed))) {
    *bytes = 0;
    return true;
  }
  double number = 0;
  std::string unit;
  const auto bad = [&] {
    *error = "a memory limit is a size such as 512MB, 2GB or 1.5GiB (or 0 / none for no limit), got '" +
             text + "'";
    return false;
  };
  if (!SplitNumber(trimmed, &number, &unit)) return bad();
  struct Unit {
    const char* name;
    double bytes;
  };
  static const Unit kUnits[] = {
      {"", 1},      {"b", 1},           {"kb", 1e3},          {"mb", 1e6},
      {"gb", 1e9},  {"tb", 1e12},       {"kib", 1024.0},      {"mib", 1048576.0},
      {"gib", 1073741824.0},            {"tib", 1099511627776.0}};
  for (const Unit& u : kUnits) {
    if (unit != u.name) continue;
    const double value = std::round(number * u.bytes);
    if (value > 9.2e18) return bad();
    if (value < 1) {
      *error = "the memory limit " + text + " is less than a byte (0 or none turns it off)";
      return false;
    }
    *bytes = static_cast<int64_t>(value);
    return true;
  }
  return bad();
}

bool ParseTimeout(const std::string& text, int64_t* ms, std::string* error) {
  const std::string trimmed = Trim(text);
  if (IsOff(Lower(trimmed))) {
    *ms = 0;
    return true;
  }
  double number = 0;
  std::string unit;
  const auto bad = [&] {
    *error = "a timeout is a duration such as 5s, 250ms or 2min (or 0 / none for no timeout), got '" +
             text + "'";
    return false;
  };
  if (!SplitNumber(trimmed, &number, &unit)) return bad();
  double factor = 0;
  if (unit == "ms") factor = 1;
  else if (unit.empty() || unit == "s") factor = 1000;
  else if (unit == "min" || unit == "m") factor = 60000;
  else return bad();
  const double value = std::round(number * factor);
  if (value > 9.2e15) return bad();
  if (value < 1) {
    *error = "the timeout " + text + " is less than a millisecond (0 or none turns it off)";
    return false;
  }
  *ms = static_cast<int64_t>(value);
  return true;
}

std::string DescribeMemoryLimit(uint64_t bytes) {
  if (bytes == 0) return "no limit";
  static const char* const kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  return Number(value) + " " + kUnits[unit];
}

std::string DescribeTimeout(int64_t ms) {
  if (ms <= 0) return "no timeout";
  if (ms % 1000 == 0) return std::to_string(ms / 1000) + " s";
  return std::to_string(ms) + " ms";
}

}  // namespace laneql::cli
