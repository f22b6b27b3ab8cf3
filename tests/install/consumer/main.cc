// consumer [FILE.parquet]: runs SELECT 42 (and, with a Parquet file and an install that has
// Parquet input, a query over it) through laneql's public API, and prints the answers; exits 1
// on any wrong answer or error. tests/install/test_install.sh checks the output.
#include <cstdio>
#include <cstring>
#include <string>

#include "laneql/database.h"
#include "laneql/result.h"
#include "laneql/version.h"
#ifdef LANEQL_HAVE_PARQUET
#include "laneql/parquet.h"
#endif

namespace {

// Row 0 of every column, tab-separated; "error: ..." when the query failed.
std::string FirstRow(const laneql::Database& db, const char* sql) {
  const laneql::Result result = db.Query(sql);
  if (!result.ok()) return "error: " + result.error();
  std::string row;
  for (size_t c = 0; c < result.num_columns(); ++c) {
    if (c > 0) row += '\t';
    if (result.num_rows() > 0) {
      row += laneql::FormatValue(result.column(c), 0, laneql::ValueStyle::kText);
    }
  }
  return row;
}

bool Expect(const std::string& what, const std::string& got, const std::string& want) {
  std::printf("%s: %s\n", what.c_str(), got.c_str());
  if (got == want) return true;
  std::fprintf(stderr, "consumer: %s gave '%s', expected '%s'\n", what.c_str(), got.c_str(),
               want.c_str());
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  bool ok = Expect("version", laneql::Version(), LANEQL_PACKAGE_VERSION);
  laneql::Database db;
  ok = Expect("SELECT 42", FirstRow(db, "SELECT 42 AS answer"), "42") && ok;
  if (argc > 1) {
#ifdef LANEQL_HAVE_PARQUET
    laneql::InstallParquetReader();
    const std::string sql = "SELECT count(*), sum(x), max(s) FROM '" + std::string(argv[1]) + "'";
    ok = Expect("parquet", FirstRow(db, sql.c_str()), "3\t60\tgamma") && ok;
#else
    std::printf("parquet: not in this install\n");
#endif
  }
  return ok ? 0 : 1;
}
