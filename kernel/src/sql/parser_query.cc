// Queries: WITH, set operations (INTERSECT binds tighter than UNION and EXCEPT, as in
// PostgreSQL and DuckDB), SELECT cores, VALUES lists, and the ORDER BY / LIMIT / OFFSET that
// close a query.
#include <utility>

#include "src/sql/parser_internal.h"

namespace laneql {
namespace sql {

bool Parser::AtQueryStart(const Token& token) {
  return IsKeyword(token, "SELECT") || IsWord(token, "WITH") || IsWord(token, "VALUES");
}

bool Parser::IsClauseWord(const Token& token) {
  static const char* const kWords[] = {"LEFT",  "RIGHT",     "FULL",   "INNER",  "OUTER",
                                       "CROSS", "NATURAL",   "SEMI",   "ANTI",   "INTERSECT",
                                       "EXCEPT", "UNION",    "WINDOW", "QUALIFY", "LIMIT",
                                       "OFFSET", "ORDER",    "GROUP",  "HAVING", "WHERE"};
  if (token.kind != TokenKind::kIdentifier && token.kind != TokenKind::kKeyword) return false;
  for (const char* word : kWords) {
    if (IsWord(token, word)) return true;
  }
  return false;
}

// Nested queries count against the nesting limit where their parenthesis opens
// (ParseQueryPrimary, ParseTablePrimary, ParseSubqueryExpr).
QueryPtr Parser::ParseQuery() {
  const Token& first = Current();
  auto with = std::make_unique<QueryNode>();
  if (IsWord(first, "WITH")) {
    if (!ParseWith(with.get())) return nullptr;
  }
  QueryPtr body = ParseSetExpr();
  if (!body) return nullptr;
  if (!with->ctes.empty()) {
    if (!body->ctes.empty()) {
      // (WITH a AS (...) SELECT ...) under another WITH: keep both scopes apart.
      auto outer = std::make_unique<QueryNode>();
      outer->kind = QueryKind::kSelect;
      outer->pos = body->pos;
      SelectItem star;
      star.expr = MakeNode(ExprKind::kStar, first);
      outer->select.pos = body->pos;
      outer->select.select_list.push_back(std::move(star));
      outer->select.has_from = true;
      outer->select.from.kind = TableRefKind::kSubquery;
      outer->select.from.pos = body->pos;
      outer->select.from.subquery = std::move(body);
      body = std::move(outer);
    }
    body->ctes = std::move(with->ctes);
    body->recursive = with->recursive;
    body->pos = first.pos;
  }
  if (!ParseQueryModifiers(body.get())) return nullptr;
  return body;
}

bool Parser::ParseWith(QueryNode* out) {
  Next();  // WITH
  if (IsWord(Current(), "RECURSIVE")) {
    out->recursive = true;
    Next();
  }
  do {
    CommonTableExpr cte;
    if (!ParseName(&cte.name, &cte.pos, "a name for the WITH query")) return false;
    if (At(TokenKind::kLeftParen) && !ParseNameList(&cte.columns, nullptr, "a column name")) {
      return false;
    }
    if (!ExpectKeyword("AS", " after the WITH query's name")) return false;
    if (IsWord(Current(), "MATERIALIZED")) {
      Next();
    } else if (IsKeyword(Current(), "NOT") && IsWord(Ahead(1), "MATERIALIZED")) {
      Next();
      Next();
    }
    if (!At(TokenKind::kLeftParen)) return FailExpected("'(' before the WITH query");
    const Token& open = Current();
    Next();
    cte.query = ParseQuery();
    if (!cte.query || !ExpectClosingParen(open)) return false;
    out->ctes.push_back(std::move(cte));
  } while (Accept(TokenKind::kComma));
  return true;
}

QueryPtr Parser::ParseSetExpr() {
  QueryPtr left = ParseSetTerm();
  while (left && (IsKeyword(Current(), "UNION") || IsWord(Current(), "EXCEPT"))) {
    auto node = std::make_unique<QueryNode>();
    node->kind = QueryKind::kSetOperation;
    node->pos = left->pos;
    node->set_op = IsKeyword(Current(), "UNION") ? SetOpKind::kUnion : SetOpKind::kExcept;
    Next();
    if (!AcceptKeyword("ALL")) AcceptKeyword("DISTINCT");
    else node->all = true;
    node->left = std::move(left);
    node->right = ParseSetTerm();
    if (!node->right) return nullptr;
    left = std::move(node);
  }
  return left;
}

QueryPtr Parser::ParseSetTerm() {
  QueryPtr left = ParseQueryPrimary();
  while (left && IsWord(Current(), "INTERSECT")) {
    auto node = std::make_unique<QueryNode>();
    node->kind = QueryKind::kSetOperation;
    node->pos = left->pos;
    node->set_op = SetOpKind::kIntersect;
    Next();
    if (!AcceptKeyword("ALL")) AcceptKeyword("DISTINCT");
    else node->all = true;
    node->left = std::move(left);
    node->right = ParseQueryPrimary();
    if (!node->right) return nullptr;
    left = std::move(node);
  }
  return left;
}

QueryPtr Parser::ParseQueryPrimary() {
  const Token& first = Current();
  if (At(TokenKind::kLeftParen)) {
    DepthGuard guard(this);
    if (!CheckDepth()) return nullptr;
    Next();
    QueryPtr inner = ParseQuery();
    if (!inner || !ExpectClosingParen(first)) return nullptr;
    return inner;
  }
  auto node = std::make_unique<QueryNode>();
  node->pos = first.pos;
  if (IsWord(first, "VALUES")) {
    node->kind = QueryKind::kValues;
    Next();
    if (!ParseValuesRows(&node->values)) return nullptr;
    return node;
  }
  if (IsWord(first, "WITH")) {
    FailExpected("'(' around a WITH query used inside a set operation");
    return nullptr;
  }
  node->kind = QueryKind::kSelect;
  if (!ParseSelectBody(&node->select)) return nullptr;
  return node;
}

bool Parser::ParseValuesRows(std::vector<std::vector<ExprPtr>>* rows) {
  do {
    if (!At(TokenKind::kLeftParen)) return FailExpected("'(' to start a row of VALUES");
    const Token& open = Current();
    Next();
    std::vector<ExprPtr> row;
    if (!ParseExprList(&row) || !ExpectClosingParen(open)) return false;
    if (!rows->empty() && row.size() != rows->front().size()) {
      return Fail(open, "VALUES rows must all have the same number of values (" +
                            std::to_string(rows->front().size()) + " in the first, " +
                            std::to_string(row.size()) + " here)");
    }
    rows->push_back(std::move(row));
  } while (Accept(TokenKind::kComma));
  return true;
}

bool Parser::ParseSelectBody(SelectStatement* out) {
  *out = SelectStatement();
  out->pos = Current().pos;
  if (!ExpectKeyword("SELECT", "")) return false;
  if (AcceptKeyword("DISTINCT")) {
    out->distinct = true;
    if (AcceptKeyword("ON")) {
      if (!At(TokenKind::kLeftParen)) return FailExpected("'(' after 'DISTINCT ON'");
      const Token& open = Current();
      Next();
      if (!ParseExprList(&out->distinct_on) || !ExpectClosingParen(open)) return false;
    }
  } else {
    AcceptKeyword("ALL");
  }
  if (!ParseSelectList(out)) return false;
  if (AtKeyword("FROM") && !ParseFrom(out)) return false;
  if (AcceptKeyword("WHERE")) {
    out->where = ParseExpr();
    if (!out->where) return false;
  }
  if (AcceptKeyword("GROUP")) {
    if (!ExpectKeyword("BY", " after 'GROUP'")) return false;
    if (AcceptKeyword("ALL")) {
      out->group_by_all = true;
    } else if (!ParseExprList(&out->group_by)) {
      return false;
    }
  }
  if (AcceptKeyword("HAVING")) {
    out->having = ParseExpr();
    if (!out->having) return false;
  }
  if (IsWord(Current(), "WINDOW")) {
    Next();
    if (!ParseWindowClause(out)) return false;
  }
  if (IsWord(Current(), "QUALIFY")) {
    Next();
    out->qualify = ParseExpr();
    if (!out->qualify) return false;
  }
  return true;
}

bool Parser::ParseSelectList(SelectStatement* out) {
  do {
    SelectItem item;
    const bool qualified_star = (At(TokenKind::kIdentifier) || At(TokenKind::kQuotedIdentifier)) &&
                                Ahead(1).kind == TokenKind::kDot &&
                                Ahead(2).kind == TokenKind::kStar;
    if (At(TokenKind::kStar) || qualified_star) {
      item.expr = MakeNode(ExprKind::kStar, Current());
      if (qualified_star) {
        item.expr->qualifier = Current().value;
        Next();
        Next();
      }
      Next();  // *
      if (!ParseStarExclude(item.expr.get())) return false;
    } else {
      item.expr = ParseExpr();
      if (!item.expr) return false;
      if (AcceptKeyword("AS")) {
        if (!ParseName(&item.alias, &item.alias_pos, "an alias after 'AS'")) return false;
      } else if ((At(TokenKind::kIdentifier) || At(TokenKind::kQuotedIdentifier)) &&
                 !(At(TokenKind::kIdentifier) && IsClauseWord(Current()))) {
        ParseName(&item.alias, &item.alias_pos, "an alias");
      }
    }
    out->select_list.push_back(std::move(item));
  } while (Accept(TokenKind::kComma));
  return true;
}

bool Parser::ParseStarExclude(Expr* star) {
  if (!IsWord(Current(), "EXCLUDE")) return true;
  Next();
  if (At(TokenKind::kLeftParen)) return ParseNameList(&star->star_exclude, nullptr, "a column name");
  std::string name;
  if (!ParseName(&name, nullptr, "a column name or '(' after EXCLUDE")) return false;
  star->star_exclude.push_back(std::move(name));
  return true;
}

bool Parser::ParseQueryModifiers(QueryNode* query) {
  const bool has_order = IsKeyword(Current(), "ORDER");
  const bool has_limit = IsKeyword(Current(), "LIMIT") || IsKeyword(Current(), "OFFSET");
  if (!has_order && !has_limit) return true;
  if (query->kind == QueryKind::kSelect) {
    SelectStatement& select = query->select;
    if (!select.order_by.empty() || select.has_limit || select.has_offset) {
      // (SELECT ... LIMIT 3) ORDER BY ...: the outer clauses apply to the inner result.
      // The WITH clause scopes the whole query: it moves to the outer node.
      std::vector<CommonTableExpr> ctes = std::move(query->ctes);
      const bool recursive = query->recursive;
      auto inner = std::make_unique<QueryNode>(std::move(*query));
      inner->ctes.clear();
      inner->recursive = false;
      *query = QueryNode();
      query->kind = QueryKind::kSelect;
      query->pos = inner->pos;
      query->ctes = std::move(ctes);
      query->recursive = recursive;
      SelectItem star;
      star.expr = MakeNode(ExprKind::kStar, Current());
      query->select.pos = inner->pos;
      query->select.select_list.push_back(std::move(star));
      query->select.has_from = true;
      query->select.from.kind = TableRefKind::kSubquery;
      query->select.from.pos = inner->pos;
      query->select.from.subquery = std::move(inner);
    }
    if (AcceptKeyword("ORDER")) {
      if (!ExpectKeyword("BY", " after 'ORDER'") ||
          !ParseOrderBy(&query->select.order_by, &query->select.order_by_all)) {
        return false;
      }
    }
    return ParseLimitOffset(&select.has_limit, &select.limit, &select.limit_pos,
                            &select.has_offset, &select.offset, &select.offset_pos);
  }
  if (!query->order_by.empty() || query->has_limit || query->has_offset) {
    return FailExpected("end of statement");
  }
  if (AcceptKeyword("ORDER")) {
    if (!ExpectKeyword("BY", " after 'ORDER'") ||
        !ParseOrderBy(&query->order_by, &query->order_by_all)) {
      return false;
    }
  }
  return ParseLimitOffset(&query->has_limit, &query->limit, &query->limit_pos,
                          &query->has_offset, &query->offset, &query->offset_pos);
}

}  // namespace sql
}  // namespace laneql
