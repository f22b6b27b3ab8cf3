// The function catalogs (plan/scalar_functions.h, plan/aggregate_functions.h) against
// docs/sql.md and the binder: the docs list exactly the catalogs' entries, every name binds, and
// unknown names suggest. (tools/docs/function_tables.py rewrites the docs' tables.)
#include "src/plan/aggregate_functions.h"
#include "src/plan/scalar_functions.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "laneql/database.h"

namespace laneql {
namespace {

// The first cell of every table row under "## Functions" up to the next "## " heading: the
// backticked signature.
std::vector<std::string> DocumentedSignatures(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) inside = line == "## Functions";
    if (!inside || line.rfind("| `", 0) != 0) continue;
    const size_t end = line.find("` |");
    if (end != std::string::npos) out.push_back(line.substr(3, end - 3));
  }
  return out;
}

TEST(FunctionCatalog, DocsListEveryFunction) {
  const std::string path = std::string(LANEQL_DOCS_DIR) + "/sql.md";
  if (!std::ifstream(path)) GTEST_SKIP() << path << " is not readable here";
  std::vector<std::string> catalog;
  for (const plan::ScalarFunctionInfo& info : plan::ScalarFunctionCatalog()) catalog.push_back(info.signature);
  for (const plan::AggregateFunctionInfo& info : plan::AggregateFunctionCatalog()) catalog.push_back(info.signature);
  EXPECT_EQ(DocumentedSignatures(path), catalog)
      << "docs/sql.md's Functions tables must list the catalogs' signatures in their order "
         "(python3 tools/docs/function_tables.py)";
}

TEST(FunctionCatalog, NamesAreUniqueAndLowerCaseAndSignaturesStartWithThem) {
  std::set<std::string> names;
  for (const plan::ScalarFunctionInfo& info : plan::ScalarFunctionCatalog()) {
    const std::string name = info.name;
    EXPECT_TRUE(names.insert(name).second) << name;
    for (char c : name) EXPECT_FALSE(c >= 'A' && c <= 'Z') << name;
    const std::string signature = info.signature;
    EXPECT_EQ(signature.rfind(name, 0), 0u) << signature;
    EXPECT_TRUE(signature.size() == name.size() || signature[name.size()] == '(') << signature;
    EXPECT_EQ(plan::FindScalarFunction(name), &info);
  }
  EXPECT_EQ(plan::FindScalarFunction("no_such_function"), nullptr);
}

// Every catalog name binds: called with a fitting number of numeric or string arguments, it
// either answers or fails with an error about its arguments, never "unknown function".
TEST(FunctionCatalog, EveryNameBinds) {
  Database db;
  for (const plan::ScalarFunctionInfo& info : plan::ScalarFunctionCatalog()) {
    const std::string name = info.name;
    bool known = false;
    for (const char* args : {"", "1", "'x'", "1, 2", "'month', DATE '2020-02-03'", "'abc', 2", "'a', 'b'",
                             "'a', 'b', 'c'", "'a', 'b', 1", "'a', 2, 'b'", "1, 2, 3", "DATE '2020-02-03'",
                             "'day', DATE '2020-01-01', DATE '2020-02-03'", "2020, 1, 2, 3, 4, 5", "DATE '2020-02-03', '%Y'",
                             "'2020', '%Y'", "DATE '2020-02-03', INTERVAL 1 DAY"}) {
      const Result result = db.Query("SELECT " + name + "(" + args + ")");
      if (result.ok()) {
        known = true;
        break;
      }
      EXPECT_EQ(result.error().find("unknown function"), std::string::npos) << name << ": " << result.error();
    }
    EXPECT_TRUE(known) << name << " answered none of the argument lists";
  }
}

TEST(FunctionCatalog, AggregateNamesAreUniqueAndEveryOneBinds) {
  std::set<std::string> names;
  Database db;
  for (const plan::AggregateFunctionInfo& info : plan::AggregateFunctionCatalog()) {
    const std::string name = info.name;
    EXPECT_TRUE(names.insert(name).second) << name;
    EXPECT_EQ(plan::FindScalarFunction(name), nullptr) << name << " is both a function and an aggregate";
    EXPECT_EQ(plan::FindAggregateFunction(name), &info);
    EXPECT_EQ(std::string(info.signature).rfind(name + "(", 0), 0u) << info.signature;
    bool bound = false;
    for (const char* args : {"i", "i, 0.5", "s", "s, ','", "*", "i > 1", "i, d"}) {
      const Result result =
          db.Query("SELECT " + name + "(" + args + ") FROM (VALUES (1, 2.5, 'a'), (3, NULL, 'b')) AS v(i, d, s)");
      if (result.ok()) {
        bound = true;
        break;
      }
      EXPECT_EQ(result.error().find("unknown function"), std::string::npos) << name << ": " << result.error();
    }
    EXPECT_TRUE(bound) << name << " answered none of the argument lists";
  }
}

TEST(FunctionCatalog, UnknownNamesSuggestTheNearest) {
  EXPECT_EQ(plan::NearestFunctionName("sqroot"), "sqrt");
  EXPECT_EQ(plan::NearestFunctionName("coalesc"), "coalesce");
  EXPECT_EQ(plan::NearestFunctionName("summ"), "sum");
  EXPECT_EQ(plan::NearestFunctionName("stdev"), "stddev");
  EXPECT_EQ(plan::NearestFunctionName("completely_unlike"), "");
  Database db;
  const Result result = db.Query("SELECT 1 +\n  greatst(1, 2)");
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error(), "binder error at line 2, column 3: unknown function greatst(); did you mean greatest()?");
}

}  // namespace
}  // namespace laneql
