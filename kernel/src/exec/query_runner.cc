// SQL text -> Result: parse one statement and run it. Queries go to the query tree runner
// (query_tree.h); COPY writes a query's answer to a file; CREATE, INSERT, DROP, DESCRIBE and
// SHOW TABLES read and change the catalog.
#include "src/exec/query_runner.h"

#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "src/common/query_budget.h"
#include "src/exec/executor.h"
#include "src/exec/file_tables.h"
#include "src/plan/logical_operator.h"
#include "src/plan/query_ast.h"
#include "src/exec/query_tree.h"
#include "src/exec/relation.h"
#include "src/sql/lexer.h"
#include "src/sql/parser.h"

namespace laneql {
namespace {

using exec::ErrorAt;

Result CountResult(size_t count) {
  Result result;
  Column column(TypeId::kInt64);
  std::string error;
  if (!column.Append(static_cast<int64_t>(count), &error) ||
      !result.AddColumn("Count", std::move(column), &error)) {
    return Result::Error(error);
  }
  return result;
}

Result StringColumns(const std::vector<std::string>& names,
                     const std::vector<std::vector<std::string>>& rows,
                     const std::vector<bool>& nullable) {
  Result result;
  std::string error;
  for (size_t c = 0; c < names.size(); ++c) {
    Column column(TypeId::kString);
    for (const auto& row : rows) {
      const bool ok = nullable[c] && row[c].empty() ? column.AppendNull(&error)
                                                    : column.AppendString(row[c], &error);
      if (!ok) return Result::Error(error);
    }
    if (!result.AddColumn(names[c], std::move(column), &error)) return Result::Error(error);
  }
  return result;
}

// DESCRIBE's answer, as DuckDB gives it: column_name, column_type, null, key, default, extra.
// The logical operator of a statement that changes the catalog (null for any other), and in
// *query the query whose rows it writes (null when none is run: a column list, a view's query
// stored as text, a DROP).
plan::LogicalPtr StatementOperator(const sql::Statement& statement, const sql::QueryNode** query) {
  *query = nullptr;
  auto join = [](const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return text;
  };
  plan::LogicalPtr op;
  switch (statement.kind) {
    case sql::StatementKind::kCreateTable: {
      const sql::CreateTableStatement& create = statement.create_table;
      op = plan::MakeLogical(plan::LogicalKind::kCreateTable);
      op->detail = create.name;
      if (!create.columns.empty()) {
        std::vector<std::string> columns;
        for (const sql::ColumnDef& column : create.columns) columns.push_back(column.name);
        op->detail += " (" + join(columns) + ")";
      }
      if (create.or_replace) op->detail += " OR REPLACE";
      if (create.if_not_exists) op->detail += " IF NOT EXISTS";
      *query = create.query.get();
      break;
    }
    case sql::StatementKind::kCreateView: {
      const sql::CreateViewStatement& create = statement.create_view;
      op = plan::MakeLogical(plan::LogicalKind::kCreateView);
      op->detail = create.name;
      if (!create.columns.empty()) op->detail += " (" + join(create.columns) + ")";
      if (create.or_replace) op->detail += " OR REPLACE";
      if (create.if_not_exists) op->detail += " IF NOT EXISTS";
      break;
    }
    case sql::StatementKind::kInsert: {
      const sql::InsertStatement& insert = statement.insert;
      op = plan::MakeLogical(plan::LogicalKind::kInsert);
      op->detail = insert.table;
      if (!insert.columns.empty()) op->detail += " (" + join(insert.columns) + ")";
      *query = insert.query.get();
      break;
    }
    case sql::StatementKind::kDrop:
      op = plan::MakeLogical(plan::LogicalKind::kDrop);
      op->source = statement.drop.view ? "VIEW" : "TABLE";
      op->detail = statement.drop.name + (statement.drop.if_exists ? " IF EXISTS" : "");
      break;
    default:
      break;
  }
  return op;
}

Result Describe(const std::vector<std::string>& names, const std::vector<TypeId>& types) {
  std::vector<std::vector<std::string>> rows;
  for (size_t i = 0; i < names.size(); ++i) {
    rows.push_back({names[i], DuckDbTypeName(types[i]), "YES", "", "", ""});
  }
  return StringColumns({"column_name", "column_type", "null", "key", "default", "extra"}, rows,
                       {false, false, false, true, true, true});
}

class StatementRunner {
 public:
  StatementRunner(exec::Catalog* catalog, const exec::ExecContext& ctx)
      : catalog_(catalog), ctx_(ctx), queries_(catalog, ctx) {}

  Result Run(const sql::Statement& statement) {
    switch (statement.kind) {
      case sql::StatementKind::kSelect:
        return queries_.Run(*statement.query);
      case sql::StatementKind::kCopy: {
        Result result = queries_.Run(*statement.copy.query);
        // An interrupted (or timed-out) query stopped part-way: its rows are not the answer and
        // are not written.
        if (ctx_.Interrupted()) return Result::Error(ctx_.StopMessage());
        return exec::CopyResultToFile(statement.copy, std::move(result));
      }
      case sql::StatementKind::kCreateTable:
        return CreateTable(statement.create_table);
      case sql::StatementKind::kCreateView:
        return CreateView(statement.create_view);
      case sql::StatementKind::kInsert:
        return Insert(statement.insert);
      case sql::StatementKind::kDrop:
        return Drop(statement.drop);
      case sql::StatementKind::kDescribe:
        return DescribeStatement(statement);
      case sql::StatementKind::kShowTables: {
        std::vector<std::vector<std::string>> rows;
        for (const std::string& name : catalog_->Names()) rows.push_back({name});
        return StringColumns({"name"}, rows, {false});
      }
      case sql::StatementKind::kExplain:
        return Explain(statement);
    }
    return Result::Error("internal error: an unknown statement");
  }

 private:
  Result CreateTable(const sql::CreateTableStatement& create) {
    if (create.if_not_exists && catalog_->HasTableOrView(create.name)) return Result();
    auto table = std::make_shared<Table>();
    std::string error;
    if (create.query) {
      Result answer = queries_.Run(*create.query);
      if (!answer.ok()) return answer;
      if (!answer.MoveToTable(table.get(), &error)) return ErrorAt(create.name_pos, "binder", error);
    } else {
      for (const sql::ColumnDef& def : create.columns) {
        TypeId type;
        if (!TypeFromSqlName(def.type, &type)) return ErrorAt(def.type_pos, "type", "unknown type " + def.type);
        if (!table->AddColumn(def.name, Column(type), &error)) return ErrorAt(def.pos, "binder", error);
      }
    }
    if (!catalog_->PutTable(create.name, std::move(table), create.or_replace, &error)) {
      return ErrorAt(create.name_pos, "catalog", error);
    }
    return Result();
  }

  Result CreateView(const sql::CreateViewStatement& create) {
    if (create.if_not_exists && catalog_->HasTableOrView(create.name)) return Result();
    exec::ViewDef view{create.name, create.query_text, create.columns};
    std::string error;
    if (!catalog_->PutView(view, create.or_replace, &error)) {
      return ErrorAt(create.name_pos, "catalog", error);
    }
    return Result();
  }

  Result Insert(const sql::InsertStatement& insert) {
    exec::ViewDef view;
    if (catalog_->FindView(insert.table, &view)) {
      return ErrorAt(insert.table_pos, "binder", "cannot insert into view \"" + insert.table + "\"");
    }
    std::shared_ptr<const Table> target = catalog_->FindTable(insert.table);
    if (target == nullptr) {
      return ErrorAt(insert.table_pos, "catalog", "table \"" + insert.table + "\" does not exist");
    }
    // Which table column each inserted column goes to.
    std::vector<int> columns;
    if (insert.columns.empty()) {
      for (size_t c = 0; c < target->num_columns(); ++c) columns.push_back(static_cast<int>(c));
    } else {
      for (size_t i = 0; i < insert.columns.size(); ++i) {
        const int c = target->ColumnIndex(insert.columns[i]);
        if (c < 0) {
          return ErrorAt(insert.column_pos[i], "binder", "table \"" + insert.table +
                                                             "\" does not have a column named \"" +
                                                             insert.columns[i] + "\"");
        }
        columns.push_back(c);
      }
    }
    exec::Relation rows;
    Result error;
    if (!queries_.RunToRelation(*insert.query, "", &rows, &error)) return error;
    if (rows.scope.size() != columns.size()) {
      return ErrorAt(insert.table_pos, "binder",
                     "table \"" + insert.table + "\" has " + std::to_string(columns.size()) +
                         " columns but " + std::to_string(rows.scope.size()) + " values were supplied");
    }
    std::vector<TypeId> types;
    for (int c : columns) types.push_back(target->column(static_cast<size_t>(c)).type());
    if (!queries_.CastTo(&rows, types, insert.query->pos, &error)) return error;
    // Read, append, swap; again if another INSERT swapped the table in between.
    while (true) {
      std::shared_ptr<const Table> current = catalog_->FindTable(insert.table);
      if (current == nullptr) {
        return ErrorAt(insert.table_pos, "catalog", "table \"" + insert.table + "\" does not exist");
      }
      auto grown = std::make_shared<Table>();
      std::string message;
      for (size_t c = 0; c < current->num_columns(); ++c) {
        Column column;
        if (!exec::CopyColumn(current->column(c), &column, &message)) return Result::Error(message);
        int source = -1;
        for (size_t i = 0; i < columns.size(); ++i) {
          if (columns[i] == static_cast<int>(c)) source = static_cast<int>(i);
        }
        Column added;
        const bool ok = source >= 0
                            ? exec::CopyColumn(rows.table->column(static_cast<size_t>(source)), &added, &message)
                            : exec::NullColumn(current->column(c).type(), rows.table->num_rows(), &added, &message);
        if (!ok || !exec::AppendColumn(added, &column, &message) ||
            !grown->AddColumn(current->column_name(c), std::move(column), &message)) {
          return Result::Error(message);
        }
      }
      if (catalog_->SwapTable(insert.table, current, std::move(grown))) break;
    }
    return CountResult(rows.table->num_rows());
  }

  // EXPLAIN [ANALYZE] statement: DuckDB's two columns, explain_key and explain_value, one row
  // per operator of the optimized logical plan (query_execute.cc). A statement that changes
  // the catalog is its operator, over the plan of the query whose rows it writes; EXPLAIN
  // ANALYZE, which would run it, explains queries alone.
  Result Explain(const sql::Statement& statement) {
    const sql::Statement& explained = *statement.explained;
    const sql::QueryNode* query = nullptr;
    plan::LogicalPtr top;
    if (explained.kind == sql::StatementKind::kSelect) {
      query = explained.query.get();
    } else if (!statement.explain_analyze) {
      top = StatementOperator(explained, &query);
    }
    if (query == nullptr && top == nullptr) {
      return ErrorAt(statement.pos, "binder", statement.explain_analyze
                                                  ? "EXPLAIN ANALYZE explains queries (SELECT, WITH, VALUES, set operations) only"
                                                  : "EXPLAIN explains queries and CREATE, INSERT and DROP statements only");
    }
    std::string text;
    Result error;
    if (query != nullptr && !queries_.ExplainQuery(*query, statement.explain_analyze, &text, &error)) return error;
    if (top != nullptr) {
      top->subplan = std::move(text);
      text = plan::ExplainText(*top);
    }
    const std::string key = statement.explain_analyze ? "analyzed_plan" : "logical_plan";
    std::vector<std::vector<std::string>> rows;
    size_t begin = 0;
    while (begin < text.size()) {
      size_t end = text.find('\n', begin);
      if (end == std::string::npos) end = text.size();
      rows.push_back({key, text.substr(begin, end - begin)});
      begin = end + 1;
    }
    return StringColumns({"explain_key", "explain_value"}, rows, {false, false});
  }

  Result Drop(const sql::DropStatement& drop) {
    if (catalog_->Drop(drop.name, drop.view) || drop.if_exists) return Result();
    return ErrorAt(drop.name_pos, "catalog",
                   std::string(drop.view ? "view" : "table") + " \"" + drop.name + "\" does not exist");
  }

  Result DescribeStatement(const sql::Statement& statement) {
    std::vector<std::string> names;
    std::vector<TypeId> types;
    if (statement.query) {
      Result answer = queries_.Run(*statement.query);
      if (!answer.ok()) return answer;
      for (size_t c = 0; c < answer.num_columns(); ++c) {
        names.push_back(answer.name(c));
        types.push_back(answer.type(c));
      }
      return Describe(names, types);
    }
    sql::QueryNode query;
    query.pos = statement.describe_pos;
    query.select.pos = statement.describe_pos;
    sql::SelectItem star;
    star.expr = std::make_unique<sql::Expr>();
    star.expr->kind = sql::ExprKind::kStar;
    star.expr->pos = statement.describe_pos;
    query.select.select_list.push_back(std::move(star));
    query.select.has_from = true;
    query.select.from.name = statement.describe_name;
    query.select.from.pos = statement.describe_pos;
    query.select.has_limit = true;
    query.select.limit = 0;
    Result answer = queries_.Run(query);
    if (!answer.ok()) return answer;
    for (size_t c = 0; c < answer.num_columns(); ++c) {
      names.push_back(answer.name(c));
      types.push_back(answer.type(c));
    }
    return Describe(names, types);
  }

  exec::Catalog* catalog_;
  const exec::ExecContext& ctx_;
  exec::QueryTreeRunner queries_;
};

// Runs one statement with the query's memory budget installed for all of it: the relations the
// query tree runner builds (joins, subquery answers) count against the memory limit as the
// executor's own memory does, and an allocation over the limit fails the statement instead of
// the process.
Result RunGuarded(StatementRunner* runner, const sql::Statement& statement, const exec::ExecContext& ctx) {
  const ScopedQueryBudget scope(ctx.budget, "running the query");
  return exec::CatchQueryAborts([&] { return runner->Run(statement); });
}

}  // namespace

Result RunQuery(std::string_view sql, exec::Catalog* catalog, const exec::ExecContext& ctx) {
  // Several statements run one after another, the answer being the last one's (as DuckDB's
  // clients do); the first error stops them. Each statement is parsed from the whole text with
  // everything outside it blanked (newlines kept), so its errors point into the whole text.
  sql::ParseError parse_error;
  if (sql.find(';') == std::string_view::npos) {
    // One statement (the usual case): no second pass of the lexer to find where they end.
    sql::Statement statement;
    if (!sql::ParseStatement(sql, &statement, &parse_error)) {
      return Result::Error(parse_error.ToString(), parse_error.line, parse_error.column);
    }
    StatementRunner runner(catalog, ctx);
    Result result = RunGuarded(&runner, statement, ctx);
    if (ctx.Interrupted()) return Result::Error(ctx.StopMessage());
    return result;
  }
  std::vector<sql::Token> tokens;
  if (!sql::Tokenize(sql, &tokens, &parse_error)) {
    return Result::Error(parse_error.ToString(), parse_error.line, parse_error.column);
  }
  std::vector<std::pair<size_t, size_t>> pieces;  // [begin, end) byte ranges
  size_t begin = 0;
  bool has_words = false;
  for (const sql::Token& token : tokens) {
    if (token.kind == sql::TokenKind::kSemicolon || token.kind == sql::TokenKind::kEnd) {
      if (has_words) pieces.emplace_back(begin, token.kind == sql::TokenKind::kEnd ? sql.size() : token.offset + 1);
      begin = token.offset + 1;
      has_words = false;
    } else {
      has_words = true;
    }
  }
  if (pieces.empty()) pieces.assign(1, {0, sql.size()});  // no statement: the parser says so
  StatementRunner runner(catalog, ctx);
  Result result;
  std::string shifted;
  size_t line_start = 0, lines = 0, scanned = 0;
  for (const auto& [from, to] : pieces) {
    std::string_view text = sql;
    if (from > 0 || to < sql.size()) {
      // The statement after as many newlines and spaces as put it at its line and column.
      for (; scanned < from; ++scanned) {
        if (sql[scanned] == '\n') {
          ++lines;
          line_start = scanned + 1;
        }
      }
      shifted.assign(lines, '\n');
      shifted.append(from - line_start, ' ');
      shifted.append(sql.substr(from, to - from));
      text = shifted;
    }
    sql::Statement statement;
    if (!sql::ParseStatement(text, &statement, &parse_error)) {
      return Result::Error(parse_error.ToString(), parse_error.line, parse_error.column);
    }
    result = RunGuarded(&runner, statement, ctx);
    if (ctx.Interrupted()) return Result::Error(ctx.StopMessage());
    if (!result.ok()) return result;
  }
  return result;
}

}  // namespace laneql
