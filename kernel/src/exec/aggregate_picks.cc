// The aggregates that keep one value per group, picked or built in row order: arg_min /
// arg_max (min_by / max_by), any_value, first, last, string_agg, and bit_and / bit_or / bit_xor.
// Ties and "first" go by row order: the picks keep the table row of their value and compare
// rows, so they fold and merge in any order; string_agg's groups are folded in row order by one
// thread, or by batches merged in batch order (plan::DependsOnRowOrder, FoldsByBatches), its
// Merge taking the other side's rows as coming after this side's; the bit operations are
// order-free.
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "laneql/aggregate.h"
#include "laneql/group_hash_table.h"
#include "laneql/int128.h"
#include "src/exec/aggregate_function_state.h"
#include "src/exec/aggregate_slots.h"
#include "src/exec/expr_eval.h"

namespace laneql {
namespace exec {
namespace {

using plan::AggFn;

// arg_min / arg_max, any_value, first, last. Each pick keeps the table row it came from: first
// and any_value keep the earliest row, last the latest, arg_min / arg_max the earliest of tied
// keys, so Update and Merge may see the rows in any order and split any way (SetRows).
class PickState final : public AggregateFunctionState {
 public:
  explicit PickState(const plan::Aggregate& aggregate)
      : fn_(aggregate.function),
        result_type_(aggregate.type),
        key_type_(aggregate.arg2 ? aggregate.arg2->type : aggregate.type) {}

  bool Resize(size_t groups, std::string* error) override {
    if (groups <= picks_.size()) return true;
    const size_t before = picks_.capacity();
    picks_.resize(groups);
    return ChargeAggregateMemory((picks_.capacity() - before) * sizeof(Pick), error);
  }
  size_t groups() const override { return picks_.size(); }

  bool Update(const Vec& arg, const Vec* arg2, const uint32_t* group_ids, size_t count,
              std::string*) override {
    const UpdateRows row_of = TakeRows(count);
    if ((fn_ == AggFn::kArgMin || fn_ == AggFn::kArgMax) && !IsString(arg2->type) &&
        VisitFixed(arg2->type,
                   [&](auto tag) { UpdateByFixedKey<decltype(tag)>(arg, *arg2, group_ids, count, row_of); })) {
      return true;
    }
    Slot key;
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g == kNoGroup) continue;
      Pick& p = picks_[g];
      const uint64_t row = row_of(i);
      switch (fn_) {
        case AggFn::kArgMin:
        case AggFn::kArgMax:
          if (arg.IsNull(i) || arg2->IsNull(i)) continue;
          ReadSlot(*arg2, i, &key);
          if (p.seen && !Better(key, row, p)) continue;
          ReadSlot(arg, i, &p.value);
          p.key = std::move(key);
          break;
        case AggFn::kAnyValue:
          if (arg.IsNull(i) || (p.seen && p.row < row)) continue;
          ReadSlot(arg, i, &p.value);
          break;
        case AggFn::kFirst:
          if (p.seen && p.row < row) continue;
          ReadSlot(arg, i, &p.value);
          break;
        default:  // kLast
          if (p.seen && p.row > row) continue;
          ReadSlot(arg, i, &p.value);
          break;
      }
      p.row = row;
      p.seen = true;
    }
    return true;
  }

  void Merge(const AggregateFunctionState& other, size_t g, size_t t) override {
    const Pick& o = static_cast<const PickState&>(other).picks_[g];
    Pick& p = picks_[t];
    if (!o.seen) return;
    bool take = !p.seen;
    if (!take) {
      switch (fn_) {
        case AggFn::kArgMin:
        case AggFn::kArgMax: take = Better(o.key, o.row, p); break;
        case AggFn::kLast: take = o.row > p.row; break;
        default: take = o.row < p.row; break;  // first, any_value
      }
    }
    if (take) p = o;
  }

  bool Append(size_t g, Column* out, std::string* error) const override {
    if (g >= picks_.size() || !picks_[g].seen) return out->AppendNull(error);
    return AppendSlot(picks_[g].value, result_type_, out, error);
  }

 private:
  struct Pick {
    Slot value, key;
    uint64_t row = 0;  // the table row picked
    bool seen = false;
  };
  // Whether `key` of `row` beats the kept pick: a lesser (arg_min) or greater key, or an equal
  // key of an earlier row.
  bool Better(const Slot& key, uint64_t row, const Pick& kept) const {
    const bool min = fn_ == AggFn::kArgMin;
    if (min ? SlotLess(key, kept.key, key_type_) : SlotLess(kept.key, key, key_type_)) return true;
    const bool tie = !SlotLess(key, kept.key, key_type_) && !SlotLess(kept.key, key, key_type_);
    return tie && row < kept.row;
  }

  // arg_min / arg_max of a fixed-width key: Update's loop with each key compared as its type
  // against the kept key's slot field (SlotLess's order), read into a slot only when it wins.
  // Through ReadSlot and SlotLess a row took 10 ns (arg_min(s, d) over 10 M rows: 107 ms).
  template <class K, class RowOf>
  void UpdateByFixedKey(const Vec& arg, const Vec& keys, const uint32_t* group_ids, size_t count,
                        const RowOf& row_of) {
    const bool min = fn_ == AggFn::kArgMin;
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g == kNoGroup || arg.IsNull(i) || keys.IsNull(i)) continue;
      Pick& p = picks_[g];
      const K k = keys.Get<K>(i);
      if constexpr (std::is_floating_point_v<K>) {
        const double key = static_cast<double>(k);
        if (p.seen) {
          const bool better = min ? AggLess(key, p.key.real) : AggLess(p.key.real, key);
          const bool tie = !AggLess(key, p.key.real) && !AggLess(p.key.real, key);
          if (!better && !(tie && row_of(i) < p.row)) continue;
        }
        p.key.real = key;
      } else {
        const Int128 key = static_cast<Int128>(k);
        if (p.seen && !(min ? key < p.key.integer : p.key.integer < key) &&
            !(key == p.key.integer && row_of(i) < p.row)) {
          continue;
        }
        p.key.integer = key;
      }
      p.key.null = false;
      p.row = row_of(i);
      ReadSlot(arg, i, &p.value);
      p.seen = true;
    }
  }

  AggFn fn_;
  TypeId result_type_, key_type_;
  std::vector<Pick> picks_;
};

// string_agg(s, sep): the non-NULL strings joined in row order; with DISTINCT, each string the
// first time it comes (the group keeps them apart, and a set of them, until the result).
class StringAggState final : public AggregateFunctionState {
 public:
  explicit StringAggState(const plan::Aggregate& aggregate)
      : separator_(aggregate.separator), distinct_(aggregate.distinct) {}

  bool Resize(size_t groups, std::string* error) override {
    if (groups <= texts_.size()) return true;
    const size_t before = texts_.capacity();
    texts_.resize(groups);
    seen_.resize(groups, 0);
    if (distinct_) {
      parts_.resize(groups);
      kept_.resize(groups);
    }
    return ChargeAggregateMemory((texts_.capacity() - before) * (sizeof(std::string) + 1), error);
  }
  size_t groups() const override { return texts_.size(); }

  bool Update(const Vec& arg, const Vec*, const uint32_t* group_ids, size_t count,
              std::string* error) override {
    if (!distinct_ && count != 0 && !arg.constant) ReserveOneGroup(arg, group_ids, count);
    size_t bytes = 0;
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g == kNoGroup || arg.IsNull(i)) continue;
      const std::string_view v = arg.Str(i);
      if (Add(g, v)) bytes += (distinct_ ? 3 : 1) * v.size() + separator_.size();
    }
    return ChargeAggregateMemory(bytes, error);
  }

  size_t MergeBytes(size_t g) const override {
    return !distinct_ && g < texts_.size() && seen_[g] ? texts_[g].size() + separator_.size() : 0;
  }
  void ReserveMerge(size_t t, size_t bytes) override {
    if (!distinct_ && t < texts_.size()) texts_[t].reserve(texts_[t].size() + bytes);
  }

  void Merge(const AggregateFunctionState& other, size_t g, size_t t) override {
    const auto& o = static_cast<const StringAggState&>(other);
    if (!o.seen_[g]) return;
    if (distinct_) {
      for (const std::string& v : o.parts_[g]) Add(t, v);
      return;
    }
    if (seen_[t]) texts_[t] += separator_;
    texts_[t] += o.texts_[g];
    seen_[t] = 1;
  }

  bool Append(size_t g, Column* out, std::string* error) const override {
    if (g >= texts_.size() || !seen_[g]) return out->AppendNull(error);
    if (!distinct_) return out->AppendString(texts_[g], error);
    std::string text;
    for (size_t k = 0; k < parts_[g].size(); ++k) {
      if (k != 0) text += separator_;
      text += parts_[g][k];
    }
    return out->AppendString(text, error);
  }

 private:
  // When every row goes to one group (ungrouped: a batch's state), room for all of them at
  // once: doubling its way to a batch's 380 KB copied and faulted in each size again.
  void ReserveOneGroup(const Vec& arg, const uint32_t* group_ids, size_t count) {
    const uint32_t g = group_ids[0];
    if (g == kNoGroup || g >= texts_.size()) return;
    size_t bytes = 0;
    for (size_t i = 0; i < count; ++i) {
      if (group_ids[i] != g) return;
      if (!arg.IsNull(i)) bytes += arg.Str(i).size() + separator_.size();
    }
    // Geometric growth still: a group whose rows come a batch at a time (sorted keys) would
    // otherwise be copied whole on every batch.
    std::string& text = texts_[g];
    if (text.size() + bytes > text.capacity()) text.reserve(std::max(text.size() + bytes, 2 * text.capacity()));
  }

  // Adds one string to group g; false when DISTINCT drops it.
  bool Add(size_t g, std::string_view v) {
    if (distinct_) {
      if (!kept_[g].emplace(v).second) return false;
      parts_[g].emplace_back(v);
    } else {
      if (seen_[g]) texts_[g] += separator_;
      texts_[g] += v;
    }
    seen_[g] = 1;
    return true;
  }

  std::string separator_;
  bool distinct_;
  std::vector<std::string> texts_;
  std::vector<uint8_t> seen_;
  std::vector<std::vector<std::string>> parts_;            // DISTINCT: the strings kept, in order
  std::vector<std::unordered_set<std::string>> kept_;      // DISTINCT: the same as a set
};

// bit_and / bit_or / bit_xor of integers (up to 64 bits), in the argument's type.
class BitState final : public AggregateFunctionState {
 public:
  explicit BitState(const plan::Aggregate& aggregate) : fn_(aggregate.function), type_(aggregate.type) {}

  bool Resize(size_t groups, std::string* error) override {
    if (groups <= bits_.size()) return true;
    const size_t before = bits_.capacity();
    bits_.resize(groups, Initial());
    seen_.resize(groups, 0);
    return ChargeAggregateMemory((bits_.capacity() - before) * (sizeof(uint64_t) + 1), error);
  }
  size_t groups() const override { return bits_.size(); }

  bool Update(const Vec& arg, const Vec*, const uint32_t* group_ids, size_t count, std::string*) override {
    VisitFixed(arg.type, [&](auto tag) {
      using V = decltype(tag);
      if constexpr (std::is_integral_v<V>) {
        for (size_t i = 0; i < count; ++i) {
          const uint32_t g = group_ids[i];
          if (g == kNoGroup || arg.IsNull(i)) continue;
          Fold(&bits_[g], static_cast<uint64_t>(arg.Get<V>(i)));
          seen_[g] = 1;
        }
      }
    });
    return true;
  }

  void Merge(const AggregateFunctionState& other, size_t g, size_t t) override {
    const auto& o = static_cast<const BitState&>(other);
    if (!o.seen_[g]) return;
    Fold(&bits_[t], o.bits_[g]);
    seen_[t] = 1;
  }

  bool Append(size_t g, Column* out, std::string* error) const override {
    if (g >= bits_.size() || !seen_[g]) return out->AppendNull(error);
    bool ok = true;
    VisitFixed(type_, [&](auto tag) {
      using R = decltype(tag);
      ok = out->Append<R>(static_cast<R>(bits_[g]), error);
    });
    return ok;
  }

 private:
  uint64_t Initial() const { return fn_ == AggFn::kBitAnd ? ~uint64_t{0} : 0; }
  void Fold(uint64_t* acc, uint64_t v) const {
    if (fn_ == AggFn::kBitAnd) *acc &= v;
    else if (fn_ == AggFn::kBitOr) *acc |= v;
    else *acc ^= v;
  }

  AggFn fn_;
  TypeId type_;
  std::vector<uint64_t> bits_;
  std::vector<uint8_t> seen_;
};

}  // namespace

std::unique_ptr<AggregateFunctionState> MakePickState(const plan::Aggregate& aggregate) {
  switch (aggregate.function) {
    case AggFn::kStringAgg: return std::make_unique<StringAggState>(aggregate);
    case AggFn::kBitAnd:
    case AggFn::kBitOr:
    case AggFn::kBitXor: return std::make_unique<BitState>(aggregate);
    default: return std::make_unique<PickState>(aggregate);
  }
}

}  // namespace exec
}  // namespace laneql
