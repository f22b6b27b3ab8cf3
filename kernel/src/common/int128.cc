#include "laneql/int128.h"

#include <algorithm>

namespace laneql {

std::string Int128ToString(Int128 value) {
  if (value == 0) return "0";
  // Work with the magnitude as unsigned: -INT128_MIN does not fit in Int128.
  const bool negative = value < 0;
  unsigned __int128 magnitude =
      negative ? static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(value)
               : static_cast<unsigned __int128>(value);
  std::string digits;
  while (magnitude != 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  }
  if (negative) digits.push_back('-');
  std::reverse(digits.begin(), digits.end());
  return digits;
}

}  // namespace laneql
