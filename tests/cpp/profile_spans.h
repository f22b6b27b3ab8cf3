// Reading a query's profile (Database::LastProfileJson) in tests: whether a span of a given name
// is in it, i.e. which path the executor took; and a path's answer against a reference's.
#ifndef LANEQL_TESTS_CPP_PROFILE_SPANS_H_
#define LANEQL_TESTS_CPP_PROFILE_SPANS_H_

#include <string>

#include "gtest/gtest.h"
#include "laneql/database.h"
#include "laneql/result_printers.h"

namespace laneql::testing {

inline bool HasSpan(const std::string& json, const std::string& name) {
  return json.find("\"name\": \"" + name + "\"") != std::string::npos ||
         json.find("\"name\":\"" + name + "\"") != std::string::npos;
}

// How many spans named `name` the profile holds.
inline size_t SpanCount(const std::string& json, const std::string& name) {
  size_t count = 0;
  for (const std::string& quoted : {"\"name\": \"" + name + "\"", "\"name\":\"" + name + "\""}) {
    for (size_t at = json.find(quoted); at != std::string::npos; at = json.find(quoted, at + 1)) ++count;
  }
  return count;
}

// Runs `sql` on both databases: the answers must be the same, `db` must take the path whose
// profile has a span `span` and `reference` must not (both profile).
inline void ExpectSamePathAnswer(Database& reference, Database& db, const char* sql, const std::string& span,
                                 int threads) {
  const Result expected = reference.Query(sql);
  const Result got = db.Query(sql);
  ASSERT_TRUE(expected.ok() && got.ok()) << sql << ": " << expected.error() << got.error();
  EXPECT_EQ(PrintCsv(expected), PrintCsv(got)) << sql << " on " << threads << " threads";
  EXPECT_FALSE(HasSpan(reference.LastProfileJson(), span)) << sql;
  EXPECT_TRUE(HasSpan(db.LastProfileJson(), span)) << sql;
}

}  // namespace laneql::testing

#endif  // LANEQL_TESTS_CPP_PROFILE_SPANS_H_
