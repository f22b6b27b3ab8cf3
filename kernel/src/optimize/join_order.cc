// Join ordering over clusters of inner and cross joins. Up to kMaxDpInputs inputs joined by
// equalities: dynamic programming over the connected subsets (DPsize restricted to connected
// pairs, as DPccp enumerates them), minimizing the sum of the intermediate results' estimated
// rows (C_out), which may give bushy trees. Larger clusters, and those that need a cross
// product, are ordered greedily: the smallest input first, then the smallest one an equality
// connects. In both, the smaller side of each join builds the hash table.
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "src/optimize/estimates.h"
#include "src/optimize/optimizer.h"
#include "src/plan/query_ast.h"

namespace laneql {
namespace optimize {
namespace {

using plan::LogicalKind;
using plan::LogicalOperator;
using plan::LogicalPtr;

bool InCluster(const LogicalOperator& op) {
  return op.kind == LogicalKind::kJoin && op.using_columns.empty() &&
         (op.join_type == sql::JoinType::kInner || op.join_type == sql::JoinType::kCross);
}

struct Condition {
  sql::ExprPtr expr;
  uint64_t mask = 0;
  bool unknown = false;
  bool used = false;
};

// The cluster under `op`: its inputs (each ordered on its own first) and every key equality
// and condition of its joins.
void Collect(LogicalPtr* slot, std::vector<LogicalPtr>* leaves, std::vector<sql::ExprPtr>* conditions) {
  LogicalOperator* op = slot->get();
  if (!InCluster(*op)) {
    OrderJoins(slot);
    leaves->push_back(std::move(*slot));
    return;
  }
  for (size_t k = 0; k < op->left_keys.size(); ++k) {
    conditions->push_back(plan::MakeBinary(sql::BinaryOp::kEquals, std::move(op->left_keys[k]),
                                           std::move(op->right_keys[k])));
  }
  for (sql::ExprPtr& c : op->conditions) conditions->push_back(std::move(c));
  Collect(&op->children[0], leaves, conditions);
  Collect(&op->children[1], leaves, conditions);
}

// Whether equality `c` joins `bit` to what `joined` holds; sets which of its sides reads `bit`.
bool Connects(const Condition& c, uint64_t joined, uint64_t bit, const std::vector<const plan::ColumnScope*>& scopes,
              bool* left_is_new) {
  if (c.used || c.unknown || c.expr->kind != sql::ExprKind::kBinary || c.expr->binary_op != sql::BinaryOp::kEquals) {
    return false;
  }
  bool u = false;
  const uint64_t l = plan::ReadsOf(c.expr->left.get(), scopes, &u);
  const uint64_t r = plan::ReadsOf(c.expr->right.get(), scopes, &u);
  if (u || l == 0 || r == 0) return false;
  if ((l & ~joined) == 0 && r == bit) {
    *left_is_new = false;
    return true;
  }
  if ((r & ~joined) == 0 && l == bit) {
    *left_is_new = true;
    return true;
  }
  return false;
}

constexpr size_t kMaxDpInputs = 10;

bool IsEquality(const Condition& c) {
  return !c.unknown && c.expr->kind == sql::ExprKind::kBinary && c.expr->binary_op == sql::BinaryOp::kEquals;
}

// The DP's view of a cluster: each input's rows and which inputs an equality connects.
struct JoinGraph {
  size_t n = 0;
  std::vector<double> rows;
  std::vector<uint64_t> adjacent;
  std::vector<std::vector<double>> distinct;  // largest key distinct count per connected pair
};

class DpOrder {
 public:
  DpOrder(const JoinGraph& graph) : g_(graph), size_(size_t{1} << graph.n) {
    card_.assign(size_, 1);
    connected_.assign(size_, false);
    cost_.assign(size_, std::numeric_limits<double>::infinity());
    split_.assign(size_, 0);
    for (uint64_t s = 1; s < size_; ++s) {
      const int i = __builtin_ctzll(s);
      const uint64_t rest = s & (s - 1);
      double card = (rest == 0 ? 1 : card_[rest]) * g_.rows[static_cast<size_t>(i)];
      for (uint64_t r = rest; r != 0; r &= r - 1) {
        const int j = __builtin_ctzll(r);
        if ((g_.adjacent[static_cast<size_t>(i)] >> j) & 1) card /= g_.distinct[static_cast<size_t>(i)][static_cast<size_t>(j)];
      }
      card_[s] = std::max(1.0, card);
      connected_[s] = Connected(s);
      if (rest == 0) cost_[s] = 0;
    }
    for (uint64_t s = 1; s < size_; ++s) {
      if ((s & (s - 1)) == 0 || !connected_[s]) continue;
      const uint64_t low = s & (~s + 1);
      for (uint64_t a = (s - 1) & s; a != 0; a = (a - 1) & s) {
        if ((a & low) == 0) continue;  // each split once
        const uint64_t b = s ^ a;
        if (!connected_[a] || !connected_[b] || !Touch(a, b)) continue;
        const double cost = cost_[a] + cost_[b] + card_[s];
        if (cost < cost_[s]) {
          cost_[s] = cost;
          split_[s] = a;
        }
      }
    }
  }
  bool Possible() const { return connected_[size_ - 1] && std::isfinite(cost_[size_ - 1]); }
  uint64_t Split(uint64_t s) const { return split_[s]; }
  double Rows(uint64_t s) const { return card_[s]; }

 private:
  bool Touch(uint64_t a, uint64_t b) const {
    for (uint64_t r = a; r != 0; r &= r - 1) {
      if (g_.adjacent[static_cast<size_t>(__builtin_ctzll(r))] & b) return true;
    }
    return false;
  }
  bool Connected(uint64_t s) const {
    uint64_t reached = s & (~s + 1), frontier = reached;
    while (frontier != 0) {
      uint64_t next = 0;
      for (uint64_t r = frontier; r != 0; r &= r - 1) next |= g_.adjacent[static_cast<size_t>(__builtin_ctzll(r))] & s;
      frontier = next & ~reached;
      reached |= next;
    }
    return reached == s;
  }

  const JoinGraph& g_;
  const size_t size_;
  std::vector<double> card_;
  std::vector<bool> connected_;
  std::vector<double> cost_;
  std::vector<uint64_t> split_;
};

// The join tree of subset `s` by the DP's splits; conditions are used once, each at the lowest
// join that has all it reads (equalities between the two sides as keys).
LogicalPtr BuildDp(const DpOrder& dp, uint64_t s, std::vector<LogicalPtr>* leaves, std::vector<Condition>* conditions,
                   const std::vector<const plan::ColumnScope*>& scopes, sql::SourcePos pos) {
  if ((s & (s - 1)) == 0) return std::move((*leaves)[static_cast<size_t>(__builtin_ctzll(s))]);
  uint64_t a = dp.Split(s), b = s ^ a;
  if (dp.Rows(a) < dp.Rows(b)) std::swap(a, b);  // the smaller side builds (on the right)
  LogicalPtr left = BuildDp(dp, a, leaves, conditions, scopes, pos);
  LogicalPtr right = BuildDp(dp, b, leaves, conditions, scopes, pos);
  LogicalPtr join = plan::MakeLogical(LogicalKind::kJoin);
  join->pos = pos;
  for (Condition& c : *conditions) {
    if (c.used || !IsEquality(c)) continue;
    bool u = false;
    const uint64_t l = plan::ReadsOf(c.expr->left.get(), scopes, &u), r = plan::ReadsOf(c.expr->right.get(), scopes, &u);
    if (u || l == 0 || r == 0) continue;
    const bool forward = (l & ~a) == 0 && (r & ~b) == 0, backward = (l & ~b) == 0 && (r & ~a) == 0;
    if (!forward && !backward) continue;
    join->left_keys.push_back(std::move(forward ? c.expr->left : c.expr->right));
    join->right_keys.push_back(std::move(forward ? c.expr->right : c.expr->left));
    c.used = true;
  }
  for (Condition& c : *conditions) {
    if (!c.used && !c.unknown && c.mask != 0 && (c.mask & ~s) == 0) {
      join->conditions.push_back(std::move(c.expr));
      c.used = true;
    }
  }
  join->join_type = join->left_keys.empty() && join->conditions.empty() ? sql::JoinType::kCross : sql::JoinType::kInner;
  join->scope = left->scope;
  join->scope.insert(join->scope.end(), right->scope.begin(), right->scope.end());
  join->children.push_back(std::move(left));
  join->children.push_back(std::move(right));
  EstimateCardinality(join.get());
  return join;
}

// The cluster ordered by the DP, or null when it cannot (too many inputs, or a cross product).
LogicalPtr OrderByDp(std::vector<LogicalPtr>* leaves, std::vector<Condition>* conditions,
                     const std::vector<const plan::ColumnScope*>& scopes, sql::SourcePos pos) {
  JoinGraph graph;
  graph.n = leaves->size();
  if (graph.n < 2 || graph.n > kMaxDpInputs) return nullptr;
  graph.adjacent.assign(graph.n, 0);
  graph.distinct.assign(graph.n, std::vector<double>(graph.n, 1));
  for (const LogicalPtr& leaf : *leaves) graph.rows.push_back(std::max(1.0, leaf->estimated_rows));
  for (const Condition& c : *conditions) {
    if (!IsEquality(c)) continue;
    bool u = false;
    const uint64_t l = plan::ReadsOf(c.expr->left.get(), scopes, &u), r = plan::ReadsOf(c.expr->right.get(), scopes, &u);
    if (u || l == 0 || r == 0 || (l & (l - 1)) != 0 || (r & (r - 1)) != 0 || l == r) continue;
    const size_t i = static_cast<size_t>(__builtin_ctzll(l)), j = static_cast<size_t>(__builtin_ctzll(r));
    const double d = std::max(EstimateDistinct(*(*leaves)[i], *c.expr->left), EstimateDistinct(*(*leaves)[j], *c.expr->right));
    graph.adjacent[i] |= uint64_t{1} << j;
    graph.adjacent[j] |= uint64_t{1} << i;
    graph.distinct[i][j] = graph.distinct[j][i] = std::max(graph.distinct[i][j], d);
  }
  DpOrder dp(graph);
  if (!dp.Possible()) return nullptr;
  const uint64_t all = (uint64_t{1} << graph.n) - 1;
  LogicalPtr root = BuildDp(dp, all, leaves, conditions, scopes, pos);
  for (Condition& c : *conditions) {  // what no join could take (unknown names) goes on top
    if (!c.used) {
      root->conditions.push_back(std::move(c.expr));
      c.used = true;
      root->join_type = sql::JoinType::kInner;
    }
  }
  return root;
}

}  // namespace

void OrderJoins(LogicalPtr* slot) {
  LogicalOperator* op = slot->get();
  if (!InCluster(*op)) {
    for (LogicalPtr& child : op->children) OrderJoins(&child);
    return;
  }
  const plan::ColumnScope original = op->scope;
  const sql::SourcePos pos = op->pos;
  std::vector<LogicalPtr> leaves;
  std::vector<sql::ExprPtr> exprs;
  Collect(slot, &leaves, &exprs);
  if (leaves.size() > 64) return;  // cannot happen: the planner refuses more than 63 tables
  std::vector<const plan::ColumnScope*> scopes;
  for (const LogicalPtr& leaf : leaves) scopes.push_back(&leaf->scope);
  std::vector<Condition> conditions;
  for (sql::ExprPtr& e : exprs) {
    Condition c;
    c.mask = plan::ReadsOf(e.get(), scopes, &c.unknown);
    c.expr = std::move(e);
    conditions.push_back(std::move(c));
  }
  if (LogicalPtr ordered = OrderByDp(&leaves, &conditions, scopes, pos)) {
    // The FROM clause's column order, whatever the join order (SELECT * lists it).
    LogicalPtr reorder = plan::MakeLogical(LogicalKind::kProject);
    reorder->detail = "columns in FROM order";
    reorder->scope = original;
    reorder->estimated_rows = ordered->estimated_rows;
    reorder->children.push_back(std::move(ordered));
    *slot = std::move(reorder);
    return;
  }
  size_t first = 0;
  for (size_t i = 1; i < leaves.size(); ++i) {
    if (leaves[i]->estimated_rows < leaves[first]->estimated_rows) first = i;
  }
  std::vector<bool> joined(leaves.size(), false);
  joined[first] = true;
  uint64_t mask = uint64_t{1} << first;
  LogicalPtr current = std::move(leaves[first]);
  for (size_t step = 1; step < leaves.size(); ++step) {
    size_t pick = leaves.size();
    bool connected = false;
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (joined[i]) continue;
      bool has_equality = false, unused;
      for (const Condition& c : conditions) has_equality = has_equality || Connects(c, mask, uint64_t{1} << i, scopes, &unused);
      const bool better = pick == leaves.size() || (has_equality && !connected) ||
                          (has_equality == connected && leaves[i]->estimated_rows < leaves[pick]->estimated_rows);
      if (better) {
        pick = i;
        connected = has_equality;
      }
    }
    const uint64_t bit = uint64_t{1} << pick;
    LogicalPtr join = plan::MakeLogical(LogicalKind::kJoin);
    join->pos = pos;
    for (Condition& c : conditions) {
      bool left_is_new = false;
      if (!Connects(c, mask, bit, scopes, &left_is_new)) continue;
      join->left_keys.push_back(std::move(left_is_new ? c.expr->right : c.expr->left));
      join->right_keys.push_back(std::move(left_is_new ? c.expr->left : c.expr->right));
      c.used = true;
    }
    mask |= bit;
    joined[pick] = true;
    for (Condition& c : conditions) {
      const bool last = step + 1 == leaves.size();
      if (!c.used && ((!c.unknown && (c.mask & ~mask) == 0) || last)) {
        join->conditions.push_back(std::move(c.expr));
        c.used = true;
      }
    }
    join->join_type = join->left_keys.empty() && join->conditions.empty() ? sql::JoinType::kCross
                                                                            : sql::JoinType::kInner;
    LogicalPtr next = std::move(leaves[pick]);
    // The hash table is built on the right: the smaller side goes there.
    if (next->estimated_rows > current->estimated_rows && !join->left_keys.empty()) {
      std::swap(current, next);
      std::swap(join->left_keys, join->right_keys);
    }
    join->scope = current->scope;
    join->scope.insert(join->scope.end(), next->scope.begin(), next->scope.end());
    join->children.push_back(std::move(current));
    join->children.push_back(std::move(next));
    EstimateCardinality(join.get());
    current = std::move(join);
  }
  // The FROM clause's column order, whatever the join order (SELECT * lists it).
  LogicalPtr reorder = plan::MakeLogical(LogicalKind::kProject);
  reorder->detail = "columns in FROM order";
  reorder->scope = original;
  reorder->estimated_rows = current->estimated_rows;
  reorder->children.push_back(std::move(current));
  *slot = std::move(reorder);
}

}  // namespace optimize
}  // namespace laneql
