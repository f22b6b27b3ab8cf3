// Test input for the string-keyed hash tables: Arrow utf8 rows made from optional strings
// (std::nullopt = NULL), with their validity and HashStrings hashes.
#ifndef LANEQL_TESTS_CPP_STRING_ROWS_H_
#define LANEQL_TESTS_CPP_STRING_ROWS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "laneql/bitmask.h"
#include "laneql/hash.h"

namespace laneql::testing {

struct StringRows {
  std::vector<int32_t> offsets{0};
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> validity;
  std::vector<uint64_t> hashes;
  std::vector<std::optional<std::string>> keys;
};

inline StringRows MakeStringRows(const std::vector<std::optional<std::string>>& keys) {
  StringRows rows;
  rows.keys = keys;
  rows.validity.assign(BitmaskWords(keys.size()) + 1, 0);
  for (size_t i = 0; i < keys.size(); ++i) {
    if (keys[i]) {
      BitmaskSet(rows.validity.data(), i);
      rows.bytes.insert(rows.bytes.end(), keys[i]->begin(), keys[i]->end());
    }
    rows.offsets.push_back(static_cast<int32_t>(rows.bytes.size()));
  }
  rows.bytes.push_back(0);  // never empty, so data() is a valid pointer
  rows.hashes.resize(keys.size());
  HashStrings(rows.offsets.data(), rows.bytes.data(), keys.size(), rows.validity.data(),
              rows.hashes.data());
  return rows;
}

}  // namespace laneql::testing

#endif  // LANEQL_TESTS_CPP_STRING_ROWS_H_
