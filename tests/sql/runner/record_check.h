// Compares a query's laneql Result with a corpus record's expectation.
#ifndef LANEQL_TESTS_SQL_RECORD_CHECK_H_
#define LANEQL_TESTS_SQL_RECORD_CHECK_H_

#include <string>
#include <vector>

#include "laneql/result.h"
#include "test_file.h"

namespace laneql {
namespace corpus {

// The rows of an ok result as the corpus spells them: FormatValue(kText) per value, "(empty)"
// for an empty string, values joined by tabs.
std::vector<std::string> ResultRows(const Result& result);
// DuckDbTypeName of every column of an ok result.
std::vector<std::string> ResultTypes(const Result& result);

// True when `result` is what `record` expects: for a query, an ok result with the expected rows
// (sorted first when the record is unordered) and, when the record names them, column types;
// for an error record, an error result with exactly the expected message. Otherwise false with
// a report of expected vs actual in *report (no file:line prefix).
bool CheckRecord(const Record& record, const Result& result, std::string* report);

}  // namespace corpus
}  // namespace laneql

#endif  // LANEQL_TESTS_SQL_RECORD_CHECK_H_
