// Reading a query's profile (Database::LastProfileJson) in tests: whether a span of a given name
// is in it, i.e. which path the executor took.
#ifndef LANEQL_TESTS_CPP_PROFILE_SPANS_H_
#define LANEQL_TESTS_CPP_PROFILE_SPANS_H_

#include <string>

namespace laneql::testing {

inline bool HasSpan(const std::string& json, const std::string& name) {
  return json.find("\"name\": \"" + name + "\"") != std::string::npos ||
         json.find("\"name\":\"" + name + "\"") != std::string::npos;
}

}  // namespace laneql::testing

#endif  // LANEQL_TESTS_CPP_PROFILE_SPANS_H_
