// A database: named in-memory tables and the SQL that runs over them.
//
//   laneql::Database db;
//   db.Register("hits", std::move(table), &error);
//   laneql::Result r = db.Query("SELECT count(*) FROM hits");
//   if (!r.ok()) std::cerr << r.error() << "\n";  // "... at line 1, column 8: ..."
//
// Query never throws: syntax, name, type and run-time errors (overflow, out of memory) come back
// as an error Result whose message says what is wrong and, where it comes from the SQL text,
// where (line and column, also in Result::error_line / error_column).
#ifndef LANEQL_DATABASE_H_
#define LANEQL_DATABASE_H_

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/result.h"
#include "laneql/table.h"

namespace laneql {

class Database {
 public:
  Database();
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Registers `table` under `name` (looked up case-insensitively, as SQL identifiers are),
  // replacing a table of that name. Fails with a message for an empty name.
  bool Register(std::string name, Table table, std::string* error);
  bool Register(std::string name, std::shared_ptr<const Table> table, std::string* error);
  // The table registered under `name` in any letter case, or nullptr.
  const Table* FindTable(std::string_view name) const;
  // Registered names, in their original spelling, sorted.
  std::vector<std::string> TableNames() const;

  // Parses, binds, plans and runs one SELECT statement.
  Result Query(std::string_view sql) const;

 private:
  struct Entry {
    std::string name;
    std::shared_ptr<const Table> table;
  };
  std::map<std::string, Entry> tables_;  // by ASCII-lower-cased name
};

}  // namespace laneql

#endif  // LANEQL_DATABASE_H_
