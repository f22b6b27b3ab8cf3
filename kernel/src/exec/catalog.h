// What the query runner needs of a database's catalog: its tables (registered, created in SQL,
// or handed over by a table provider), its views, and the changes DDL and DML make. Database
// implements it (exec/database.cc) under one mutex; a query holds the tables it reads by
// shared_ptr, so a concurrent INSERT (which swaps in a new table) or DROP never changes what a
// running query sees.
#ifndef LANEQL_EXEC_CATALOG_H_
#define LANEQL_EXEC_CATALOG_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/table.h"

namespace laneql {
namespace exec {

struct ViewDef {
  std::string name;
  std::string sql;                   // the view's query, as written
  std::vector<std::string> columns;  // its column list, empty without one
};

class Catalog {
 public:
  virtual ~Catalog() = default;
  // The table of that name (any letter case), asking the table provider when there is none;
  // null when neither has one.
  virtual std::shared_ptr<const Table> FindTable(std::string_view name) = 0;
  virtual bool FindView(std::string_view name, ViewDef* out) = 0;
  // Adds or (replace) replaces a table or a view; fails with a message when the name is taken
  // (by a table or a view) and replace is false.
  virtual bool PutTable(const std::string& name, std::shared_ptr<const Table> table, bool replace,
                        std::string* error) = 0;
  virtual bool PutView(const ViewDef& view, bool replace, std::string* error) = 0;
  // Swaps the table `name` for `table` if it is still `expected` (an INSERT's read-modify-write:
  // false when another statement changed it in between, and the INSERT is retried).
  virtual bool SwapTable(const std::string& name, const std::shared_ptr<const Table>& expected,
                         std::shared_ptr<const Table> table) = 0;
  // Removes a table (view = false) or view; false when there is none of that kind.
  virtual bool Drop(const std::string& name, bool view) = 0;
  virtual bool HasTableOrView(std::string_view name) = 0;
  // Every table and view name, sorted.
  virtual std::vector<std::string> Names() = 0;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_CATALOG_H_
