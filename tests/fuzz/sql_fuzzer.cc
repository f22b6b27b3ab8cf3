// libFuzzer target: any text as SQL. Parsing must give a statement or a located error; what
// parses must print as SQL that parses to the same text again; and the whole query (parse, bind,
// plan, execute) on two tiny tables must give a result or a clean error. ASan and UBSan turn a
// stray read, a leak or undefined behaviour into a crash, libFuzzer's -timeout a hang.
//
// Tables: `hits` (the ClickBench schema, 64 generated rows) and `t` (a few typed columns with
// NULLs, NaN, -0.0 and Cyrillic). Statements that would touch the file system (COPY, a file or
// a table function in FROM) are only parsed, never run: the fuzzer must not read /dev/zero or
// write files wherever its input says.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/database.h"
#include "laneql/hits_generator.h"
#include "laneql/result.h"
#include "laneql/table.h"
#include "src/sql/ast.h"
#include "src/sql/parser.h"

namespace {

using laneql::Column;
using laneql::TypeId;

[[noreturn]] void Fail(const char* what, std::string_view sql, const std::string& detail) {
  std::fprintf(stderr, "sql fuzzer: %s\nSQL: %.*s\n%s\n", what, static_cast<int>(sql.size()),
               sql.data(), detail.c_str());
  std::abort();
}

void Check(bool ok, const std::string& error) {
  if (!ok) {
    std::fprintf(stderr, "sql fuzzer set-up failed: %s\n", error.c_str());
    std::abort();
  }
}

template <class T>
Column Fixed(TypeId type, const std::vector<T>& values, const std::vector<int>& null_rows) {
  Column column(type);
  std::string error;
  for (size_t i = 0; i < values.size(); ++i) {
    bool is_null = false;
    for (int r : null_rows) is_null |= static_cast<size_t>(r) == i;
    Check(is_null ? column.AppendNull(&error) : column.Append<T>(values[i], &error), error);
  }
  return column;
}

laneql::Table SmallTable() {
  laneql::Table t;
  std::string error;
  Check(t.AddColumn("k", Fixed<int64_t>(TypeId::kInt64, {1, 2, 1, 3, 2, 1, 0}, {6}), &error),
        error);
  Check(t.AddColumn("x", Fixed<int32_t>(TypeId::kInt32, {10, -20, 30, 40, INT32_MAX, INT32_MIN, 7},
                                        {3}),
                    &error),
        error);
  Check(t.AddColumn("f", Fixed<double>(TypeId::kFloat64, {0.5, -0.0, 0.0, NAN, 2.5, 1e300, -1},
                                       {1}),
                    &error),
        error);
  Check(t.AddColumn("d", Fixed<int32_t>(TypeId::kDate32,
                                        {15887, 15888, -1, 15900, 2932896, 0, 15887}, {}),
                    &error),
        error);
  Check(t.AddColumn("u", Fixed<uint8_t>(TypeId::kUInt8, {0, 1, 255, 3, 4, 5, 6}, {0}), &error),
        error);
  Column s(TypeId::kString);
  const char* strings[] = {"apple", "", "google.com", "Яндекс", nullptr, "%_\\", "x"};
  for (const char* v : strings) {
    Check(v == nullptr ? s.AppendNull(&error) : s.AppendString(v, &error), error);
  }
  Check(t.AddColumn("s", std::move(s), &error), error);
  return t;
}

const laneql::Database& Db() {
  static laneql::Database* db = [] {
    laneql::DatabaseOptions options;
    options.threads = 1;
    auto* d = new laneql::Database(options);
    laneql::HitsOptions hits_options;
    hits_options.rows = 64;
    laneql::Table hits;
    std::string error;
    Check(laneql::GenerateHits(hits_options, &hits, &error), error);
    Check(d->Register("hits", std::move(hits), &error), error);
    Check(d->Register("t", SmallTable(), &error), error);
    return d;
  }();
  return *db;
}

std::string Print(const laneql::sql::Statement& statement) {
  return laneql::sql::ToString(statement);
}

bool NamesFile(const laneql::sql::QueryNode& query);

bool NamesFile(const laneql::sql::Expr* expr) {
  if (expr == nullptr) return false;
  if (expr->subquery && NamesFile(*expr->subquery)) return true;
  if (NamesFile(expr->operand.get()) || NamesFile(expr->left.get()) || NamesFile(expr->right.get()) ||
      NamesFile(expr->else_result.get())) {
    return true;
  }
  for (const auto& arg : expr->args) {
    if (NamesFile(arg.get())) return true;
  }
  for (const auto& branch : expr->branches) {
    if (NamesFile(branch.when.get()) || NamesFile(branch.then.get())) return true;
  }
  return false;
}

bool NamesFile(const laneql::sql::TableRef& ref) {
  using laneql::sql::TableRefKind;
  if (ref.kind == TableRefKind::kFile || ref.kind == TableRefKind::kFunction) return true;
  if (ref.subquery && NamesFile(*ref.subquery)) return true;
  if (ref.left && NamesFile(*ref.left)) return true;
  if (ref.right && NamesFile(*ref.right)) return true;
  return NamesFile(ref.on.get());
}

// Whether running the query would read a file (the fuzzer never touches files).
bool NamesFile(const laneql::sql::QueryNode& query) {
  for (const auto& cte : query.ctes) {
    if (NamesFile(*cte.query)) return true;
  }
  if (query.left && NamesFile(*query.left)) return true;
  if (query.right && NamesFile(*query.right)) return true;
  const laneql::sql::SelectStatement& select = query.select;
  if (select.has_from && NamesFile(select.from)) return true;
  for (const auto& item : select.select_list) {
    if (NamesFile(item.expr.get())) return true;
  }
  return NamesFile(select.where.get()) || NamesFile(select.having.get());
}

// What parses prints as SQL that parses again to the same text. The printed form puts every
// operator in parentheses, so a deep but legal tree may pass the nesting limit when read back:
// that error is the only one allowed.
void CheckRoundTrip(std::string_view sql, const laneql::sql::Statement& statement) {
  const std::string printed = Print(statement);
  laneql::sql::Statement again;
  laneql::sql::ParseError error;
  if (!laneql::sql::ParseStatement(printed, &again, &error)) {
    if (error.message.find("nested too deeply") != std::string::npos) return;
    Fail("the printed statement does not parse", sql, printed + "\n" + error.ToString());
  }
  const std::string reprinted = Print(again);
  if (reprinted != printed) Fail("printing is not stable", sql, printed + "\n" + reprinted);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view sql(reinterpret_cast<const char*>(data), size);
  const laneql::Database& db = Db();

  laneql::sql::Statement statement;
  laneql::sql::ParseError parse_error;
  const bool parsed = laneql::sql::ParseStatement(sql, &statement, &parse_error);
  if (!parsed) {
    if (parse_error.message.empty() || parse_error.line < 1 || parse_error.column < 1) {
      Fail("a parse error without a message or position", sql, parse_error.ToString());
    }
  } else {
    CheckRoundTrip(sql, statement);
    // Only queries run: the other statements write files or change the shared database.
    if (statement.kind != laneql::sql::StatementKind::kSelect || NamesFile(*statement.query)) return 0;
  }

  const laneql::Result result = db.Query(sql);
  if (!result.ok()) {
    if (result.error().empty()) Fail("an error result without a message", sql, "");
    if (!parsed && result.error().rfind("syntax error", 0) != 0) {
      Fail("the parser failed but the query's error is not a syntax error", sql, result.error());
    }
    return 0;
  }
  if (!parsed) Fail("the parser failed but the query ran", sql, parse_error.ToString());
  // Every value formats (the printers read every buffer).
  for (size_t c = 0; c < result.num_columns(); ++c) {
    for (size_t r = 0; r < result.num_rows(); ++r) {
      (void)laneql::FormatValue(result.column(c), r, laneql::ValueStyle::kText);
    }
  }
  return 0;
}
