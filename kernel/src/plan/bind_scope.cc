// Name resolution over a relation of several sources (ColumnScope): qualified and unqualified
// column references, ambiguity, and the columns *, t.* and * EXCLUDE (...) stand for.
#include <string>
#include <vector>

#include "src/common/ascii.h"
#include "src/plan/binder_internal.h"

namespace laneql {
namespace plan {

int Binder::ResolveColumn(const sql::Expr& expr) {
  const ColumnScope& scope = *scope_;
  int found = -1;
  int matches = 0;
  bool qualifier_known = expr.qualifier.empty();
  for (size_t c = 0; c < scope.size(); ++c) {
    const ScopeColumn& column = scope[c];
    if (!expr.qualifier.empty()) {
      if (!ascii::EqualsIgnoreCase(column.qualifier, expr.qualifier)) continue;
      qualifier_known = true;
    } else if (column.hidden) {
      continue;
    }
    if (!ascii::EqualsIgnoreCase(column.name, expr.text)) continue;
    if (found < 0) found = static_cast<int>(c);
    ++matches;
  }
  if (!qualifier_known) {
    Fail(expr.pos, "binder", "table \"" + expr.qualifier + "\" is not in the FROM clause");
    return -1;
  }
  if (matches > 1) {
    Fail(expr.pos, "binder", "column reference \"" + expr.text + "\" is ambiguous (it is in several "
                             "tables of the FROM clause; qualify it)");
    return -1;
  }
  if (found < 0) {
    std::string where = expr.qualifier.empty() ? "the FROM clause" : "table \"" + expr.qualifier + "\"";
    Fail(expr.pos, "binder", "column \"" + expr.text + "\" not found in " + where);
    return -1;
  }
  return found;
}

bool Binder::HasColumnNamed(const std::string& name) const {
  if (scope_ == nullptr) return table_->ColumnIndex(name) >= 0;
  for (const ScopeColumn& column : *scope_) {
    if (!column.hidden && ascii::EqualsIgnoreCase(column.name, name)) return true;
  }
  return false;
}

bool Binder::ExpandStar(const sql::Expr& star, std::vector<size_t>* columns,
                        std::vector<std::string>* names) {
  std::vector<bool> excluded_used(star.star_exclude.size(), false);
  auto excluded = [&](const std::string& name) {
    for (size_t i = 0; i < star.star_exclude.size(); ++i) {
      if (ascii::EqualsIgnoreCase(star.star_exclude[i], name)) {
        excluded_used[i] = true;
        return true;
      }
    }
    return false;
  };
  bool qualifier_known = star.qualifier.empty();
  const size_t count = table_->num_columns();
  for (size_t c = 0; c < count; ++c) {
    std::string qualifier = scope_ != nullptr ? (*scope_)[c].qualifier : table_name_;
    const std::string& name = scope_ != nullptr ? (*scope_)[c].name : table_->column_name(c);
    if (!star.qualifier.empty()) {
      if (!ascii::EqualsIgnoreCase(qualifier, star.qualifier)) continue;
      qualifier_known = true;
    } else if (scope_ != nullptr && (*scope_)[c].hidden) {
      continue;
    }
    if (excluded(name)) continue;
    columns->push_back(c);
    names->push_back(name);
  }
  if (!qualifier_known) {
    Fail(star.pos, "binder", "table \"" + star.qualifier + "\" is not in the FROM clause");
    return false;
  }
  for (size_t i = 0; i < excluded_used.size(); ++i) {
    if (!excluded_used[i]) {
      Fail(star.pos, "binder", "column \"" + star.star_exclude[i] + "\" in EXCLUDE list not found in FROM clause");
      return false;
    }
  }
  return true;
}

}  // namespace plan
}  // namespace laneql
