// agg(x ORDER BY k, ...) for the aggregates whose answer depends on the order of their rows
// (string_agg, first, last, any_value, arg_min / arg_max, mode): each group keeps its rows'
// keys and values in row order; the result sorts them stably by the keys (ties stay in row
// order, DuckDB's NULLS LAST unless asked otherwise) and folds them in that order.
#include <algorithm>
#include <numeric>
#include <vector>

#include "laneql/group_hash_table.h"
#include "src/exec/aggregate_function_state.h"
#include "src/exec/aggregate_slots.h"

namespace laneql {
namespace exec {
namespace {

using plan::AggFn;

class OrderedState final : public AggregateFunctionState {
 public:
  explicit OrderedState(const plan::Aggregate& aggregate)
      : fn_(aggregate.function),
        result_type_(aggregate.type),
        value2_type_(aggregate.arg2 ? aggregate.arg2->type : aggregate.type),
        separator_(aggregate.separator),
        order_(aggregate.order) {
    for (const plan::BoundExprPtr& key : aggregate.order_keys) key_types_.push_back(key->type);
  }

  bool Resize(size_t groups, std::string* error) override {
    if (groups <= rows_.size()) return true;
    const size_t before = rows_.capacity();
    rows_.resize(groups);
    return ChargeAggregateMemory((rows_.capacity() - before) * sizeof(std::vector<Row>), error);
  }
  size_t groups() const override { return rows_.size(); }

  bool Update(const Vec&, const Vec*, const uint32_t*, size_t, std::string* error) override {
    *error = "internal error: an aggregate with ORDER BY was given no keys";
    return false;
  }

  bool UpdateWithKeys(const Vec& arg, const Vec* arg2, const std::vector<Vec>& keys, const uint32_t* group_ids,
                      size_t count, std::string* error) override {
    size_t bytes = 0;
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g == kNoGroup) continue;
      Row row;
      ReadSlot(arg, i, &row.value);
      if (arg2 != nullptr) ReadSlot(*arg2, i, &row.value2);
      row.keys.resize(keys.size());
      for (size_t k = 0; k < keys.size(); ++k) {
        ReadSlot(keys[k], i, &row.keys[k]);
        bytes += row.keys[k].text.size();
      }
      bytes += sizeof(Row) + keys.size() * sizeof(Slot) + row.value.text.size();
      rows_[g].push_back(std::move(row));
    }
    return ChargeAggregateMemory(bytes, error);
  }

  void Merge(const AggregateFunctionState& other, size_t g, size_t t) override {
    const std::vector<Row>& from = static_cast<const OrderedState&>(other).rows_[g];
    rows_[t].insert(rows_[t].end(), from.begin(), from.end());
  }

  bool Append(size_t g, Column* out, std::string* error) const override {
    if (g >= rows_.size() || rows_[g].empty()) return out->AppendNull(error);
    const std::vector<Row>& rows = rows_[g];
    std::vector<uint32_t> order(rows.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return KeysLess(rows[a], rows[b]); });
    switch (fn_) {
      case AggFn::kFirst: return AppendSlot(rows[order.front()].value, result_type_, out, error);
      case AggFn::kLast: return AppendSlot(rows[order.back()].value, result_type_, out, error);
      case AggFn::kAnyValue:
        for (uint32_t r : order) {
          if (!rows[r].value.null) return AppendSlot(rows[r].value, result_type_, out, error);
        }
        return out->AppendNull(error);
      case AggFn::kStringAgg: {
        std::string text;
        bool any = false;
        for (uint32_t r : order) {
          if (rows[r].value.null) continue;
          if (any) text += separator_;
          text += rows[r].value.text;
          any = true;
        }
        return any ? out->AppendString(text, error) : out->AppendNull(error);
      }
      case AggFn::kArgMin:
      case AggFn::kArgMax: {
        const Row* best = nullptr;
        for (uint32_t r : order) {
          const Row& row = rows[r];
          if (row.value.null || row.value2.null) continue;
          const bool better = best == nullptr || (fn_ == AggFn::kArgMin ? SlotLess(row.value2, best->value2, value2_type_)
                                                                        : SlotLess(best->value2, row.value2, value2_type_));
          if (better) best = &row;
        }
        return best == nullptr ? out->AppendNull(error) : AppendSlot(best->value, result_type_, out, error);
      }
      default: {  // kMode: the most frequent value; ties go to the one first in the ORDER BY's order
        std::vector<uint32_t> by_value;
        for (uint32_t r : order) {
          if (!rows[r].value.null) by_value.push_back(r);
        }
        if (by_value.empty()) return out->AppendNull(error);
        std::vector<uint32_t> rank(rows.size());
        for (size_t k = 0; k < order.size(); ++k) rank[order[k]] = static_cast<uint32_t>(k);
        std::stable_sort(by_value.begin(), by_value.end(), [&](uint32_t a, uint32_t b) {
          return SlotLess(rows[a].value, rows[b].value, result_type_);
        });
        uint32_t best = by_value[0];
        size_t best_count = 0;
        for (size_t run = 0; run < by_value.size();) {
          size_t end = run + 1;
          while (end < by_value.size() && !SlotLess(rows[by_value[run]].value, rows[by_value[end]].value, result_type_)) ++end;
          if (end - run > best_count || (end - run == best_count && rank[by_value[run]] < rank[best])) {
            best = by_value[run];
            best_count = end - run;
          }
          run = end;
        }
        return AppendSlot(rows[best].value, result_type_, out, error);
      }
    }
  }

 private:
  struct Row {
    std::vector<Slot> keys;
    Slot value, value2;
  };

  bool KeysLess(const Row& a, const Row& b) const {
    for (size_t k = 0; k < order_.size(); ++k) {
      const Slot &x = a.keys[k], &y = b.keys[k];
      if (x.null || y.null) {
        if (x.null == y.null) continue;
        return x.null == order_[k].nulls_first;  // the NULL first exactly when NULLS FIRST
      }
      if (SlotLess(x, y, key_types_[k])) return !order_[k].descending;
      if (SlotLess(y, x, key_types_[k])) return order_[k].descending;
    }
    return false;
  }

  AggFn fn_;
  TypeId result_type_, value2_type_;
  std::string separator_;
  std::vector<plan::SortKey> order_;
  std::vector<TypeId> key_types_;
  std::vector<std::vector<Row>> rows_;
};

}  // namespace

std::unique_ptr<AggregateFunctionState> MakeOrderedState(const plan::Aggregate& aggregate) {
  return std::make_unique<OrderedState>(aggregate);
}

}  // namespace exec
}  // namespace laneql
