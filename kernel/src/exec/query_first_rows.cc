// Correlated subqueries with ORDER BY ... LIMIT / OFFSET (the latest order of a customer, the
// two largest items of an order) whose conditions on the outer query are equalities only: the
// rows a binding's run would keep are the first rows of its correlation key in the subquery's
// order, so the subquery's relation is made once and cut to those rows per key; the joins of
// DecorrelateExpr then unnest it as they do any other (a scalar as a single join, EXISTS, IN,
// ANY and ALL as mark joins). The rows kept are those whose number within their key, in the
// ORDER BY's order (ties in the relation's order), lies in [OFFSET, OFFSET + LIMIT), as
// row_number() OVER (PARTITION BY key ORDER BY ...) would number them.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "src/common/ascii.h"
#include "src/exec/decorrelate.h"
#include "src/exec/expr_eval.h"
#include "src/exec/query_tree.h"
#include "src/sql/ast_clone.h"

namespace laneql {
namespace exec {

bool OrderPositionsValid(const sql::SelectStatement& select) {
  for (const sql::OrderItem& item : select.order_by) {
    if (item.expr->kind != sql::ExprKind::kIntegerLiteral) continue;
    const std::string& text = item.expr->text;
    if (text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos) return false;
    const size_t position = static_cast<size_t>(std::atoi(text.c_str()));
    if (position < 1 || position > select.select_list.size()) return false;
  }
  return true;
}

bool IsLimitedSelect(const sql::QueryNode& query) {
  const sql::SelectStatement& s = query.select;
  if (query.kind != sql::QueryKind::kSelect || !(s.has_limit || s.has_offset) || s.distinct) return false;
  if (!query.ctes.empty() || !s.has_from || !s.group_by.empty() || s.group_by_all || s.having ||
      !s.distinct_on.empty() || s.order_by_all || plan::Aggregates(s) || !OrderPositionsValid(s)) {
    return false;
  }
  for (const sql::OrderItem& item : s.order_by) {
    if (FindAnySubquery(item.expr.get()) != nullptr) return false;
  }
  return true;
}

sql::SelectStatement WithoutLimit(const sql::SelectStatement& select, std::vector<sql::ExprPtr>* order_exprs) {
  sql::SelectStatement out;
  sql::CloneInto(select, &out);
  out.has_limit = out.has_offset = false;
  out.order_by.clear();
  for (const sql::OrderItem& item : select.order_by) {
    const sql::Expr& e = *item.expr;
    const sql::Expr* resolved = &e;
    // ORDER BY 2 and ORDER BY an item's alias name that item.
    if (e.kind == sql::ExprKind::kIntegerLiteral) {
      // (Callers check the positions first: OrderPositionsValid.)
      const size_t position = OrderPositionsValid(select) ? static_cast<size_t>(std::atoi(e.text.c_str())) : 0;
      if (position >= 1 && position <= select.select_list.size()) resolved = select.select_list[position - 1].expr.get();
    } else if (e.kind == sql::ExprKind::kColumnRef && e.qualifier.empty()) {
      for (const sql::SelectItem& s : select.select_list) {
        if (!s.alias.empty() && ascii::EqualsIgnoreCase(s.alias, e.text)) resolved = s.expr.get();
      }
    }
    order_exprs->push_back(sql::Clone(*resolved));
    sql::SelectItem kept;  // listed so that column pruning keeps what the order reads
    kept.expr = sql::Clone(*resolved);
    kept.alias = "__order" + std::to_string(order_exprs->size());
    out.select_list.push_back(std::move(kept));
  }
  return out;
}

namespace {

// Row a against row b of `column` in the ORDER BY item's order (DuckDB's: NULLs last unless
// NULLS FIRST, in both directions).
int CompareForOrder(const Column& column, size_t a, size_t b, const sql::OrderItem& how) {
  const bool an = !column.IsValid(a), bn = !column.IsValid(b);
  const bool nulls_first = how.nulls == sql::NullsOrder::kFirst;
  if (an || bn) return an && bn ? 0 : (an == nulls_first ? -1 : 1);
  int c = 0;
  if (IsString(column.type())) {
    const int raw = column.StringAt(a).compare(column.StringAt(b));
    c = raw < 0 ? -1 : (raw > 0 ? 1 : 0);
  } else {
    VisitFixed(column.type(), [&](auto tag) {
      using T = decltype(tag);
      const T* values = column.Values<T>();
      c = TotalCompare(values[a], values[b]);
    });
  }
  return how.descending ? -c : c;
}

constexpr uint32_t kNoKey = UINT32_MAX;

// One integer-like key (integers, dates, timestamps: equal exactly when their bits are) numbered
// without hashing strings: through an array over its range when that is dense, else a hash map
// of the values. False for any other key (several keys, floats, wide or string types).
bool NumberIntegerKeys(const Column* column, std::vector<uint32_t>* key_id, size_t* key_count) {
  if (column == nullptr) return false;
  std::vector<int64_t> wide(column->length());
  bool integer = false;
  VisitFixed(column->type(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T> && sizeof(T) <= 8) {
      integer = true;
      const T* v = column->Values<T>();
      for (size_t r = 0; r < wide.size(); ++r) wide[r] = static_cast<int64_t>(v[r]);
    }
  });
  if (!integer) return false;
  const size_t rows = wide.size();
  int64_t low = INT64_MAX, high = INT64_MIN;
  for (size_t r = 0; r < rows; ++r) {
    if (!column->IsValid(r)) continue;
    low = std::min(low, wide[r]);
    high = std::max(high, wide[r]);
  }
  uint32_t next = 0;
  if (low <= high && static_cast<uint64_t>(high) - static_cast<uint64_t>(low) < 4 * rows + 1024) {
    std::vector<uint32_t> dense(static_cast<size_t>(static_cast<uint64_t>(high) - static_cast<uint64_t>(low)) + 1, kNoKey);
    for (size_t r = 0; r < rows; ++r) {
      if (!column->IsValid(r)) continue;
      uint32_t& id = dense[static_cast<size_t>(static_cast<uint64_t>(wide[r]) - static_cast<uint64_t>(low))];
      if (id == kNoKey) id = next++;
      (*key_id)[r] = id;
    }
  } else {
    std::unordered_map<int64_t, uint32_t> id_of;
    for (size_t r = 0; r < rows; ++r) {
      if (!column->IsValid(r)) continue;
      (*key_id)[r] = id_of.emplace(wide[r], next).first->second;
      next = static_cast<uint32_t>(id_of.size());
    }
  }
  *key_count = next;
  return true;
}

}  // namespace

bool QueryTreeRunner::KeepFirstRowsPerKey(Relation* inner, const std::vector<const sql::Expr*>& keys,
                                          const std::vector<sql::ExprPtr>& order_exprs,
                                          const sql::SelectStatement& select, Result* error) {
  std::vector<const sql::Expr*> exprs = keys;
  for (const sql::ExprPtr& e : order_exprs) exprs.push_back(e.get());
  Result values;
  if (!Evaluate(*inner, exprs, &values)) {
    *error = std::move(values);
    return false;
  }
  std::string message;
  const size_t rows = inner->table->num_rows();
  const size_t offset = select.has_offset ? static_cast<size_t>(select.offset) : 0;
  // Without a LIMIT every row of a key from the OFFSET on is kept: the same as a limit of all.
  const size_t limit = select.has_limit ? static_cast<size_t>(select.limit) : rows;
  const size_t want = std::min(rows, offset + std::min(limit, rows));
  // Each key's id (rows with a NULL key equal no outer value: no id, never kept).
  std::vector<uint32_t> key_id(rows, kNoKey);
  size_t key_count = 0;
  if (!NumberIntegerKeys(keys.size() == 1 ? &values.column(0) : nullptr, &key_id, &key_count)) {
    Table key_table;
    for (size_t k = 0; k < keys.size(); ++k) {
      Column copy;
      if (!CopyColumn(values.column(k), &copy, &message) ||
          !key_table.AddColumn(RelationColumnName(k), std::move(copy), &message)) {
        *error = Result::Error(message);
        return false;
      }
    }
    const std::vector<std::string> key_rows = RowKeys(key_table);
    std::unordered_map<std::string_view, uint32_t> id_of;
    for (size_t r = 0; r < rows; ++r) {
      bool has_null = false;
      for (size_t k = 0; k < keys.size() && !has_null; ++k) has_null = !key_table.column(k).IsValid(r);
      if (!has_null) key_id[r] = id_of.emplace(key_rows[r], static_cast<uint32_t>(id_of.size())).first->second;
    }
    key_count = id_of.size();
  }
  // Row a before row b: by the ORDER BY, then in the relation's order (as a stable sort).
  auto before = [&](uint32_t a, uint32_t b) {
    for (size_t o = 0; o < order_exprs.size(); ++o) {
      const int c = CompareForOrder(values.column(keys.size() + o), a, b, select.order_by[o]);
      if (c != 0) return c < 0;
    }
    return a < b;
  };
  std::vector<uint32_t> keep;
  const Column* only_order = order_exprs.size() == 1 ? &values.column(keys.size()) : nullptr;
  bool done = false;
  if (want == 1 && offset == 0 && only_order != nullptr && only_order->null_count() == 0) {
    // LIMIT 1 by one column without NULLs: each key's best value kept beside its row, so a row
    // is compared with a value in a dense array, not with a row anywhere in the column.
    VisitFixed(only_order->type(), [&](auto tag) {
      using T = decltype(tag);
      const T* v = only_order->Values<T>();
      const bool descending = select.order_by[0].descending;
      std::vector<T> best_value(key_count);
      std::vector<uint32_t> best_row(key_count, kNoKey);
      for (size_t r = 0; r < rows; ++r) {
        const uint32_t id = key_id[r];
        if (id == kNoKey) continue;
        const int c = TotalCompare(v[r], best_value[id]);
        if (best_row[id] == kNoKey || (descending ? -c : c) < 0) {  // ties keep the earlier row
          best_value[id] = v[r];
          best_row[id] = static_cast<uint32_t>(r);
        }
      }
      for (const uint32_t row : best_row) {
        if (row != kNoKey) keep.push_back(row);
      }
      done = true;
    });
  }
  if (done) {
  } else if (want <= 64 && key_count * want <= 4 * rows + 1024) {
    // The first `want` rows of each key, kept in order while the rows pass: one comparison a
    // row for LIMIT 1 (the latest order of each customer), no sort. (Slots for every key: only
    // while they are no more than a few per row, else the sort below.)
    std::vector<uint32_t> best(key_count * want);
    std::vector<uint32_t> held(key_count, 0);
    for (size_t r = 0; r < rows && want > 0; ++r) {
      const uint32_t id = key_id[r];
      if (id == kNoKey) continue;
      uint32_t* slots = best.data() + static_cast<size_t>(id) * want;
      uint32_t& n = held[id];
      size_t at = n;
      while (at > 0 && before(static_cast<uint32_t>(r), slots[at - 1])) --at;
      if (at >= want) continue;
      for (size_t i = std::min<size_t>(n, want - 1); i > at; --i) slots[i] = slots[i - 1];
      slots[at] = static_cast<uint32_t>(r);
      n = static_cast<uint32_t>(std::min<size_t>(n + 1, want));
    }
    for (size_t id = 0; id < held.size(); ++id) {
      for (size_t i = offset; i < held[id]; ++i) keep.push_back(best[id * want + i]);
    }
  } else {
    // Many rows a key: every key's rows sorted (key, then order), its run cut by number.
    std::vector<uint32_t> order;
    for (size_t r = 0; r < rows; ++r) {
      if (key_id[r] != kNoKey) order.push_back(static_cast<uint32_t>(r));
    }
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return key_id[a] != key_id[b] ? key_id[a] < key_id[b] : before(a, b);
    });
    size_t in_key = 0;
    for (size_t i = 0; i < order.size(); ++i) {
      in_key = i > 0 && key_id[order[i]] == key_id[order[i - 1]] ? in_key + 1 : 0;
      if (in_key >= offset && in_key < want) keep.push_back(order[i]);
    }
  }
  std::sort(keep.begin(), keep.end());
  if (!KeepRelationRows(inner, keep, &message)) {
    *error = Result::Error(message);
    return false;
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
