// The domain of a correlated subquery's bindings pushed into the parts of the subquery that
// read it (query_binding_domain.cc makes the domain D and runs the subquery over it). Where the
// subquery's FROM holds a derived table, a set operation or a CTE reading the outer query, D
// must reach inside: Neumann and Kemper push the dependent join down through every operator.
// Here, on the syntax tree:
//  - WITH (not RECURSIVE): each CTE becomes a derived table where it is named, so what reads
//    the outer query is a derived table;
//  - a derived table reading D: D joins its FROM, and it yields D's binding number as a last
//    column __bid (grouped: D's binding number joins its GROUP BY); the SELECT around it keeps
//    only the rows whose binding numbers agree (D.__bid = t.__bid);
//  - a set operation: each branch pushed so, so that its rows compare with their binding
//    number (UNION, INTERSECT and EXCEPT per binding, ALL counts too).
// Shapes left to the per-binding path (false): an aggregate without GROUP BY, LIMIT, OFFSET,
// DISTINCT ON or a window below the top (each binding's rows would need a cut or a row of
// their own), a derived table reading D on the side of an outer join that may be padded, a
// set-operation branch with a FROM that does not read D (it would be repeated per binding),
// VALUES or table functions reading D, a * beside a pushed derived table (it would show
// __bid), and WITH RECURSIVE.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "src/common/ascii.h"
#include "src/exec/decorrelate.h"
#include "src/exec/query_tree.h"
#include "src/sql/ast_clone.h"
#include "src/sql/ast_walk.h"

namespace laneql {
namespace exec {
namespace {

constexpr const char* kBid = "__bid";

bool ReadsQualifier(sql::QueryNode* query, const std::string& qualifier) {
  bool reads = false;
  sql::WalkExprs(query, [&](sql::ExprPtr* slot) {
    reads |= (*slot)->kind == sql::ExprKind::kColumnRef && ascii::EqualsIgnoreCase((*slot)->qualifier, qualifier);
  });
  return reads;
}

bool ExprReadsQualifier(sql::ExprPtr* expr, const std::string& qualifier) {
  bool reads = false;
  if (*expr == nullptr) return false;
  sql::WalkExprs(expr, [&](sql::ExprPtr* slot) {
    reads |= (*slot)->kind == sql::ExprKind::kColumnRef && ascii::EqualsIgnoreCase((*slot)->qualifier, qualifier);
  });
  return reads;
}

// Every query node under `query` (itself included): CTE bodies, derived tables, set-operation
// branches and the subqueries of expressions, at any depth.
void CollectNodes(sql::QueryNode* query, std::vector<sql::QueryNode*>* out);

void CollectFromNodes(sql::TableRef* ref, std::vector<sql::QueryNode*>* out) {
  if (ref->kind == sql::TableRefKind::kJoin) {
    CollectFromNodes(ref->left.get(), out);
    CollectFromNodes(ref->right.get(), out);
  } else if (ref->kind == sql::TableRefKind::kSubquery && ref->subquery) {
    CollectNodes(ref->subquery.get(), out);
  }
}

void CollectNodes(sql::QueryNode* query, std::vector<sql::QueryNode*>* out) {
  out->push_back(query);
  for (sql::CommonTableExpr& cte : query->ctes) CollectNodes(cte.query.get(), out);
  if (query->kind == sql::QueryKind::kSetOperation) {
    CollectNodes(query->left.get(), out);
    CollectNodes(query->right.get(), out);
  } else if (query->kind == sql::QueryKind::kSelect && query->select.has_from) {
    CollectFromNodes(&query->select.from, out);
  }
}

// Every query node reachable from `query`, the subqueries of expressions included (WalkExprs
// reaches those at every depth; their own FROM items are collected from each).
std::vector<sql::QueryNode*> AllNodes(sql::QueryNode* query) {
  std::vector<sql::QueryNode*> nodes;
  CollectNodes(query, &nodes);
  std::vector<sql::QueryNode*> from_expressions;
  sql::WalkExprs(query, [&](sql::ExprPtr* slot) {
    if ((*slot)->subquery) from_expressions.push_back((*slot)->subquery.get());
  });
  for (sql::QueryNode* node : from_expressions) CollectNodes(node, &nodes);
  return nodes;
}

// Named references to `cte` in `ref`'s FROM tree replaced by derived tables of its body.
void ReplaceCteRefs(sql::TableRef* ref, const sql::CommonTableExpr& cte) {
  if (ref->kind == sql::TableRefKind::kJoin) {
    ReplaceCteRefs(ref->left.get(), cte);
    ReplaceCteRefs(ref->right.get(), cte);
    return;
  }
  if (ref->kind != sql::TableRefKind::kNamed || !ascii::EqualsIgnoreCase(ref->name, cte.name)) return;
  ref->kind = sql::TableRefKind::kSubquery;
  ref->subquery = sql::Clone(*cte.query);
  if (ref->alias.empty()) ref->alias = cte.name;
  if (ref->column_aliases.empty()) ref->column_aliases = cte.columns;
}

}  // namespace

bool QueryTreeRunner::InlineCtes(sql::QueryNode* query) {
  if (query->ctes.empty()) return true;
  if (query->recursive) return false;
  // First first: each is inlined into the query and into the bodies of the CTEs after it (the
  // only ones that may name it), which are inlined in turn.
  while (!query->ctes.empty()) {
    const sql::CommonTableExpr cte{query->ctes.front().name, query->ctes.front().pos, query->ctes.front().columns,
                                   std::move(query->ctes.front().query)};
    query->ctes.erase(query->ctes.begin());
    for (sql::QueryNode* node : AllNodes(query)) {
      // A WITH below that names the same CTE hides this one there: not followed.
      for (const sql::CommonTableExpr& inner : node->ctes) {
        if (node != query && ascii::EqualsIgnoreCase(inner.name, cte.name)) return false;
      }
      if (node->kind == sql::QueryKind::kSelect && node->select.has_from) ReplaceCteRefs(&node->select.from, cte);
    }
  }
  return true;
}

bool QueryTreeRunner::JoinDomainIntoFrom(sql::SelectStatement* select, const std::string& domain,
                                         const std::vector<std::string>& names, sql::SourcePos pos) {
  std::vector<std::string> pushed;  // the aliases of the derived tables D was pushed into
  // `open`: the rows of `ref` reach the SELECT unpadded (inner and cross joins, the preserved
  // side of a LEFT, RIGHT, SEMI or ANTI join), so its __bid can be compared in the WHERE.
  std::function<bool(sql::TableRef*, bool)> visit = [&](sql::TableRef* ref, bool open) {
    switch (ref->kind) {
      case sql::TableRefKind::kJoin: {
        bool left = open, right = open;
        switch (ref->join_type) {
          case sql::JoinType::kInner:
          case sql::JoinType::kCross: break;
          case sql::JoinType::kLeft:
          case sql::JoinType::kSemi:
          case sql::JoinType::kAnti: right = false; break;
          case sql::JoinType::kRight: left = false; break;
          default: left = right = false; break;
        }
        return visit(ref->left.get(), left) && visit(ref->right.get(), right);
      }
      case sql::TableRefKind::kSubquery: {
        if (!ReadsQualifier(ref->subquery.get(), domain)) return true;
        if (!open || ref->lateral || ref->alias.empty()) return false;
        if (!PushDomainInto(ref->subquery.get(), domain, names)) return false;
        if (!ref->column_aliases.empty()) ref->column_aliases.push_back(kBid);
        pushed.push_back(ref->alias);
        return true;
      }
      case sql::TableRefKind::kValues:
      case sql::TableRefKind::kFunction:
        for (std::vector<sql::ExprPtr>& row : ref->values) {
          for (sql::ExprPtr& value : row) {
            if (ExprReadsQualifier(&value, domain)) return false;
          }
        }
        return true;
      default: return true;
    }
  };
  if (select->has_from && !visit(&select->from, true)) return false;
  if (!pushed.empty()) {
    for (const sql::SelectItem& item : select->select_list) {
      if (item.expr->kind == sql::ExprKind::kStar) return false;
    }
  }
  auto domain_ref = std::make_unique<sql::TableRef>();
  domain_ref->kind = sql::TableRefKind::kNamed;
  domain_ref->name = domain;
  domain_ref->pos = pos;
  if (!select->has_from) {
    select->from = std::move(*domain_ref);
    select->has_from = true;
  } else {
    // D at the leftmost leaf, where every ON condition of the FROM sees it; at the top of the
    // FROM when that leaf is on a side an outer join may pad.
    sql::TableRef* leaf = &select->from;
    bool padded = false;
    while (leaf->kind == sql::TableRefKind::kJoin) {
      padded |= leaf->join_type == sql::JoinType::kRight || leaf->join_type == sql::JoinType::kFull;
      leaf = leaf->left.get();
    }
    sql::TableRef* at = padded ? &select->from : leaf;
    auto joined = std::make_unique<sql::TableRef>();
    joined->kind = sql::TableRefKind::kJoin;
    joined->join_type = sql::JoinType::kCross;
    joined->comma_join = true;
    joined->pos = at->pos;
    joined->left = std::move(domain_ref);
    joined->right = std::make_unique<sql::TableRef>(std::move(*at));
    *at = std::move(*joined);
  }
  std::vector<sql::ExprPtr> conditions;
  if (select->where) conditions.push_back(std::move(select->where));
  for (const std::string& alias : pushed) {
    conditions.push_back(MakeBinary(sql::BinaryOp::kEquals, MakeColumnRef(domain, kBid, pos),
                                    MakeColumnRef(alias, kBid, pos)));
  }
  if (!conditions.empty()) select->where = JoinAnd(std::move(conditions));
  return true;
}

void QueryTreeRunner::GroupByDomain(sql::SelectStatement* select, const std::string& domain,
                                    const std::vector<std::string>& names, sql::SourcePos pos) {
  // The binding number, and the domain's columns where the grouped clauses read them (each is
  // one value per binding number; only grouping makes them readable there).
  select->group_by.push_back(MakeColumnRef(domain, kBid, pos));
  bool read_above_where = false;
  auto note = [&](sql::ExprPtr* slot) {
    read_above_where |= (*slot)->kind == sql::ExprKind::kColumnRef && (*slot)->text != kBid &&
                        ascii::EqualsIgnoreCase((*slot)->qualifier, domain);
  };
  for (sql::SelectItem& item : select->select_list) sql::WalkExprs(&item.expr, note);
  if (select->having) sql::WalkExprs(&select->having, note);
  for (sql::OrderItem& item : select->order_by) sql::WalkExprs(&item.expr, note);
  for (sql::ExprPtr& key : select->group_by) sql::WalkExprs(&key, note);
  if (read_above_where) {
    for (const std::string& name : names) select->group_by.push_back(MakeColumnRef(domain, name, pos));
  }
}

bool QueryTreeRunner::PushDomainInto(sql::QueryNode* query, const std::string& domain,
                                     const std::vector<std::string>& names) {
  if (!InlineCtes(query)) return false;
  switch (query->kind) {
    case sql::QueryKind::kValues: return false;
    case sql::QueryKind::kSetOperation: {
      if (!query->order_by.empty() || query->order_by_all || query->has_limit || query->has_offset) return false;
      for (sql::QueryNode* branch : {query->left.get(), query->right.get()}) {
        // A branch with rows of its own that D does not reach would be repeated per binding.
        if (branch->kind == sql::QueryKind::kSelect && branch->select.has_from &&
            !ReadsQualifier(branch, domain)) {
          return false;
        }
        if (!PushDomainInto(branch, domain, names)) return false;
      }
      return true;
    }
    case sql::QueryKind::kSelect: break;
  }
  sql::SelectStatement& select = query->select;
  bool grouped = !select.group_by.empty();
  bool windows = !select.windows.empty() || select.qualify != nullptr;
  for (sql::SelectItem& item : select.select_list) {
    if (select.group_by_all) grouped |= item.expr->kind != sql::ExprKind::kStar && !ContainsAggregate(item.expr.get());
    sql::WalkExprs(&item.expr, [&](sql::ExprPtr* slot) { windows |= (*slot)->kind == sql::ExprKind::kWindowCall; });
  }
  if (select.has_limit || select.has_offset || !select.distinct_on.empty() || windows ||
      (!grouped && plan::Aggregates(select)) || !OrderPositionsValid(select)) {
    return false;
  }
  if (!JoinDomainIntoFrom(&select, domain, names, query->pos)) return false;
  ExpandAllClauses(&select);
  sql::SelectItem bid;
  bid.expr = MakeColumnRef(domain, kBid, query->pos);
  bid.alias = kBid;
  select.select_list.push_back(std::move(bid));
  if (grouped) GroupByDomain(&select, domain, names, query->pos);
  return true;
}

}  // namespace exec
}  // namespace laneql
