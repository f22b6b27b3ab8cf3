// A query result as text rows for test expectations: "v1|v2|..." per row in DuckDB's text
// spelling, or a single "ERROR <message>" row for a failed query (so a failure shows its
// message in the test output instead of an empty list).
#ifndef LANEQL_TESTS_CPP_RESULT_ROWS_H_
#define LANEQL_TESTS_CPP_RESULT_ROWS_H_

#include <string>
#include <vector>

#include "laneql/result.h"

namespace laneql::testing {

inline std::vector<std::string> ResultRows(const Result& result) {
  if (!result.ok()) return {"ERROR " + result.error()};
  std::vector<std::string> rows;
  for (size_t r = 0; r < result.num_rows(); ++r) {
    std::string row;
    for (size_t c = 0; c < result.num_columns(); ++c) {
      if (c != 0) row += "|";
      row += FormatValue(result.column(c), r, ValueStyle::kText);
    }
    rows.push_back(row);
  }
  return rows;
}

}  // namespace laneql::testing

#endif  // LANEQL_TESTS_CPP_RESULT_ROWS_H_
