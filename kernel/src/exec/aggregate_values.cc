// The aggregates that need every value of a group: quantile_cont / quantile_disc / median,
// approx_quantile (computed exactly), mode, and sum / avg of DISTINCT values. Each group keeps
// its non-NULL values in row order (integers and times as int64, UBIGINT as uint64, HUGEINT as
// int128, floats as double, strings as bytes); the result selects from (quantiles) or sorts
// (distinct sums) a copy, which makes it independent of the order the values came in (floats
// in DuckDB's total order: -0 before +0, NaN last), so they merge in any order; mode's ties go
// to the value seen first, so its groups are folded in row order (plan::DependsOnRowOrder).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "laneql/aggregate.h"
#include "laneql/group_hash_table.h"
#include "laneql/int128.h"
#include "src/exec/aggregate_function_state.h"
#include "src/exec/expr_eval.h"
#include "src/exec/radix_select.h"

namespace laneql {
namespace exec {
namespace {

using plan::AggFn;

constexpr int64_t kMicrosPerDay = 86400LL * 1000000LL;

template <class T>
bool Less(const T& a, const T& b) {
  if constexpr (std::is_floating_point_v<T>) return AggLess(a, b);
  else return a < b;
}

template <class T>
double AsDouble(const T& v) {
  if constexpr (std::is_same_v<T, Int128>) return Int128ToDouble(v);
  else if constexpr (std::is_same_v<T, std::string>) return 0.0;
  else return static_cast<double>(v);
}

// The discrete quantile's position among n sorted values, as DuckDB places it: the smallest i
// with (i + 1) / n >= q. A fraction written with a few decimals (0.3) is taken as that decimal
// exactly, as DuckDB does with its DECIMAL literal, so n · 0.3 = 0.9 does not become 0.8999....
size_t DiscreteIndex(double q, size_t n) {
  for (int digits = 0, scale = 1; digits <= 9; ++digits, scale *= 10) {
    const double scaled = q * scale;
    const double integral = std::round(scaled);
    if (std::fabs(scaled - integral) <= 1e-9 * scale) {
      // ceil(n * integral / scale) with integers.
      const Int128 num = static_cast<Int128>(n) * static_cast<Int128>(integral);
      const Int128 up = (num + scale - 1) / scale;
      const size_t position = static_cast<size_t>(std::max<Int128>(1, up));
      return std::min(position, n) - 1;
    }
  }
  const double floored = std::floor(static_cast<double>(n) - static_cast<double>(n) * q);
  const double position = std::max(1.0, static_cast<double>(n) - floored);
  return std::min(static_cast<size_t>(position), n) - 1;
}

// Counts of 64-bit words (values' bits) with the first index each was seen at: open addressing,
// doubled at half full. For mode and the distinct sums, where sorting 10 M values to find the
// runs of equal ones cost most of the time.
class WordCounts {
 public:
  struct Slot {
    uint64_t key;
    uint32_t count;  // 0: empty
    uint32_t first;
  };
  // Room for `expected` keys without growing (at most 2^21 slots up front); none allocated
  // before the first key (a group of mode's may never get one).
  explicit WordCounts(size_t expected = 0) : expected_(expected) {}
  // Counts `count` more of `key` seen first at `index` (the earlier of it and the index kept
  // stays). Returns the bytes the table grew by.
  size_t Add(uint64_t key, uint32_t index, uint32_t count = 1) {
    size_t grown = 0;
    if (slots_.empty()) grown = Allocate();
    size_t at = Home(key);
    while (slots_[at].count != 0 && slots_[at].key != key) at = (at + 1) & mask_;
    if (slots_[at].count != 0) {
      slots_[at].count += count;
      slots_[at].first = std::min(slots_[at].first, index);
      return grown;
    }
    slots_[at] = Slot{key, count, index};
    if (++used_ * 2 > slots_.size()) grown += Grow();
    return grown;
  }
  template <class F>
  void ForEach(const F& f) const {
    for (const Slot& s : slots_) {
      if (s.count != 0) f(s);
    }
  }

 private:
  // The product's top bits, which every bit of the key reaches (its middle bits, taken before,
  // are 0 for every double of a short mantissa, 12.5 or a small integer's, so such keys all
  // met in one run of slots: mode over 90 K of them took seconds).
  size_t Home(uint64_t key) const { return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_); }
  size_t Allocate() {
    size_t size = 8;
    while (size < 2 * expected_ && size < (size_t{1} << 21)) size *= 2;
    slots_.assign(size, Slot{0, 0, 0});
    mask_ = size - 1;
    shift_ = 64 - __builtin_ctzll(size);
    return size * sizeof(Slot);
  }
  size_t Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{0, 0, 0});
    mask_ = slots_.size() - 1;
    shift_ = 64 - __builtin_ctzll(slots_.size());
    for (const Slot& s : old) {
      if (s.count == 0) continue;
      size_t to = Home(s.key);
      while (slots_[to].count != 0) to = (to + 1) & mask_;
      slots_[to] = s;
    }
    return old.size() * sizeof(Slot);
  }

  size_t expected_;
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 64;  // 64 - log2(slots)
  size_t used_ = 0;
};

// A double as a word in AggLess's order: NaNs made one, -0 kept below +0.
uint64_t DoubleKey(double v) {
  if (std::isnan(v)) v = std::numeric_limits<double>::quiet_NaN();
  uint64_t bits;
  std::memcpy(&bits, &v, 8);
  return (bits >> 63) != 0 ? ~bits : bits | (uint64_t{1} << 63);
}

double KeyDouble(uint64_t key) {
  const uint64_t bits = (key >> 63) != 0 ? key & ~(uint64_t{1} << 63) : ~key;
  double v;
  std::memcpy(&v, &bits, 8);
  return v;
}

template <class T>
class ValuesState final : public AggregateFunctionState {
 public:
  explicit ValuesState(const plan::Aggregate& aggregate)
      : fn_(aggregate.function),
        arg_type_(aggregate.arg->type),
        result_type_(IsList(aggregate.type) ? ListElementType(aggregate.type) : aggregate.type),
        list_(IsList(aggregate.type)),
        fractions_(aggregate.fractions.empty() ? std::vector<double>{aggregate.fraction} : aggregate.fractions) {
    // A list with a negative fraction counts every fraction from the top (0.0 too), as DuckDB.
    for (double q : fractions_) descending_ = descending_ || q < 0;
  }

  bool Resize(size_t groups, std::string* error) override {
    if (groups <= values_.size()) return true;
    const size_t before = values_.capacity();
    values_.resize(groups);
    return ChargeAggregateMemory((values_.capacity() - before) * sizeof(std::vector<T>), error);
  }
  size_t groups() const override { return values_.size(); }

  bool Update(const Vec& arg, const Vec*, const uint32_t* group_ids, size_t count,
              std::string* error) override {
    size_t bytes = 0;
    if constexpr (std::is_same_v<T, std::string>) {
      for (size_t i = 0; i < count; ++i) {
        if (group_ids[i] == kNoGroup || arg.IsNull(i)) continue;
        const std::string_view v = arg.Str(i);
        values_[group_ids[i]].emplace_back(v);
        bytes += sizeof(T) + v.size();
      }
    } else {
      // Every row in one group (ungrouped, or a batch of one key): appended in bulk, the NULLs
      // left out after (median(d) over 10 M rows spent an eighth of its time in push_back).
      const uint32_t first = count != 0 ? group_ids[0] : kNoGroup;
      uint32_t differ = 0;
      for (size_t i = 0; i < count; ++i) differ |= group_ids[i] ^ first;
      VisitFixed(arg.type, [&](auto tag) {
        using V = decltype(tag);
        if (differ == 0 && first != kNoGroup && !arg.constant) {
          std::vector<T>& to = values_[first];
          const size_t before = to.size();
          to.resize(before + count);
          T* out = to.data() + before;
          const V* in = arg.Data<V>();
          size_t kept = 0;
          for (size_t i = 0; i < count; ++i) {
            out[kept] = static_cast<T>(in[i]);
            kept += arg.IsNull(i) ? 0 : 1;
          }
          to.resize(before + kept);
          bytes += kept * sizeof(T);
          return;
        }
        for (size_t i = 0; i < count; ++i) {
          if (group_ids[i] == kNoGroup || arg.IsNull(i)) continue;
          values_[group_ids[i]].push_back(static_cast<T>(arg.Get<V>(i)));
          bytes += sizeof(T);
        }
      });
    }
    return ChargeAggregateMemory(bytes, error);
  }

  void Merge(const AggregateFunctionState& other, size_t g, size_t t) override {
    const std::vector<T>& from = static_cast<const ValuesState&>(other).values_[g];
    std::vector<T>& to = values_[t];
    to.insert(to.end(), from.begin(), from.end());
  }

  bool Append(size_t g, Column* out, std::string* error) const override {
    if (g >= values_.size() || values_[g].empty()) return out->AppendNull(error);
    const std::vector<T>& values = values_[g];
    switch (fn_) {
      case AggFn::kMode: return AppendValue(values[ModeIndex(values)], out, error);
      case AggFn::kSumDistinct:
      case AggFn::kAvgDistinct: return AppendDistinctSum(values, out, error);
      default: break;
    }
    if (!list_) return AppendQuantile(values, fractions_[0], out, error);
    // quantile_cont(x, [q1, q2, ...]): the quantiles as one list row, their values packed.
    Column elements(result_type_);
    for (double q : fractions_) {
      if (!AppendQuantile(values, q, &elements, error)) return false;
    }
    const size_t bytes = elements.length() * TypeByteWidth(result_type_);
    return out->AppendString(std::string_view(reinterpret_cast<const char*>(elements.values_buffer().data()), bytes),
                             error);
  }

 private:
  // One quantile (q negative: counted from the top) of a group's values, appended to *out, a
  // column of result_type_.
  bool AppendQuantile(const std::vector<T>& values, double q, Column* out, std::string* error) const {
    const bool descending = descending_;
    const double fraction = std::fabs(q);
    const size_t n = values.size();
    if (fn_ == AggFn::kQuantileDisc) {
      const size_t at = DiscreteIndex(fraction, n);
      T low, high;
      Select(values, at, at, descending, &low, &high);
      return AppendValue(low, out, error);
    }
    if constexpr (std::is_same_v<T, std::string>) {
      *error = "quantile_cont of strings";  // the binder refuses it
      return false;
    } else {
      const double position = static_cast<double>(n - 1) * fraction;
      const size_t lo = static_cast<size_t>(std::floor(position)), hi = static_cast<size_t>(std::ceil(position));
      const double d = position - static_cast<double>(lo);
      T lo_value, hi_value;
      Select(values, lo, hi, descending, &lo_value, &hi_value);
      double low = AsDouble(lo_value), high = AsDouble(hi_value);
      if (arg_type_ == TypeId::kDate32) {
        low *= static_cast<double>(kMicrosPerDay);
        high *= static_cast<double>(kMicrosPerDay);
      }
      if (IsTemporal(result_type_)) {
        // Times interpolate in whole units, rounded to the nearest.
        const double mixed = lo == hi ? low : low * (1.0 - d) + high * d;
        return out->Append<int64_t>(std::llround(mixed), error);
      }
      const double value = lo == hi ? low : low + d * (high - low);
      if (IsDecimal(result_type_)) {
        // Interpolated on the scaled integers and cut toward zero, as DuckDB does
        // (median(0.01, 0.06) = 0.03): in doubles up to 18 digits (DuckDB's int64 storage),
        // beyond as lo + the cut double of (hi - lo) · d, so that wide values keep their digits.
        if constexpr (std::is_same_v<T, Int128>) {
          if (lo == hi) return out->Append<Int128>(lo_value, error);
          if (DecimalPrecision(result_type_) <= 18) return out->Append<Int128>(static_cast<Int128>(value), error);
          return out->Append<Int128>(lo_value + static_cast<Int128>(Int128ToDouble(hi_value - lo_value) * d), error);
        }
      }
      if (result_type_ == TypeId::kFloat64) return out->Append<double>(value, error);
      if (result_type_ == TypeId::kFloat32) return out->Append<float>(static_cast<float>(value), error);
      // approx_quantile of integers: the interpolated value rounded, in the argument's type.
      bool ok = true;
      VisitFixed(result_type_, [&](auto tag) {
        using R = decltype(tag);
        if constexpr (std::is_floating_point_v<R>) {
          ok = out->Append<R>(static_cast<R>(value), error);
        } else {
          ok = out->Append<R>(lo == hi ? static_cast<R>(lo_value) : static_cast<R>(std::llround(value)), error);
        }
      });
      return ok;
    }
  }

  bool AppendValue(const T& v, Column* out, std::string* error) const {
    if constexpr (std::is_same_v<T, std::string>) {
      return out->AppendString(v, error);
    } else {
      bool ok = true;
      VisitFixed(result_type_, [&](auto tag) {
        using R = decltype(tag);
        ok = out->Append<R>(static_cast<R>(v), error);
      });
      return ok;
    }
  }

  // The values at positions lo and hi (lo <= hi, hi - lo <= 1) of `values` sorted in the
  // aggregate's order (descending for a negative fraction): a selection, not a sort (the
  // quantiles need two order statistics, O(n), where sorting a 10 M-value group was most of
  // median's time). Doubles are selected as order words (-0 before +0, every NaN one value,
  // last), one integer compare instead of AggLess's tests.
  static void Select(const std::vector<T>& values, size_t lo, size_t hi, bool descending, T* low, T* high) {
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t> ||
                  std::is_same_v<T, int32_t>) {
      if (values.size() >= kRadixSelectMin) {
        // As order words (descending: complemented), by radix selection.
        const uint64_t flip = descending ? ~uint64_t{0} : 0;
        const auto word = [flip](T v) { return OrderWord(v) ^ flip; };
        const uint64_t low_word = RadixSelect(values.data(), values.size(), lo, word);
        *low = FromOrderWord(low_word ^ flip);
        if (hi == lo) {
          *high = *low;
          return;
        }
        // hi = lo + 1: low again when more than hi values are at or below it, else the least
        // value above it; one pass instead of a second selection.
        size_t at_or_below = 0;
        uint64_t above = ~uint64_t{0};
        for (const T& v : values) {
          const uint64_t w = word(v);
          at_or_below += w <= low_word ? 1 : 0;
          above = w > low_word && w < above ? w : above;
        }
        *high = at_or_below > hi ? *low : FromOrderWord(above ^ flip);
        return;
      }
    }
    if constexpr (std::is_floating_point_v<T>) {
      std::vector<uint64_t> keys(values.size());
      for (size_t i = 0; i < values.size(); ++i) keys[i] = DoubleKey(values[i]);
      uint64_t a, b;
      if (descending) {
        SelectPair(&keys, lo, hi, std::greater<uint64_t>(), &a, &b);
      } else {
        SelectPair(&keys, lo, hi, std::less<uint64_t>(), &a, &b);
      }
      *low = KeyDouble(a);
      *high = KeyDouble(b);
    } else {
      std::vector<T> copy = values;
      SelectPair(&copy, lo, hi, [descending](const T& x, const T& y) { return descending ? Less(y, x) : Less(x, y); },
                 low, high);
    }
  }

  // From this many values a quantile is selected by RadixSelect (radix_select.h).
  static constexpr size_t kRadixSelectMin = 65536;
  // A value as a word in the aggregate's ascending order, and back.
  static uint64_t OrderWord(T v) {
    if constexpr (std::is_floating_point_v<T>) return DoubleKey(v);
    else if constexpr (std::is_signed_v<T>) return static_cast<uint64_t>(v) ^ (uint64_t{1} << 63);
    else return static_cast<uint64_t>(v);
  }
  static T FromOrderWord(uint64_t w) {
    if constexpr (std::is_floating_point_v<T>) return KeyDouble(w);
    else if constexpr (std::is_signed_v<T>) return static_cast<T>(w ^ (uint64_t{1} << 63));
    else return static_cast<T>(w);
  }

  template <class K, class Cmp>
  static void SelectPair(std::vector<K>* keys, size_t lo, size_t hi, const Cmp& cmp, K* low, K* high) {
    std::nth_element(keys->begin(), keys->begin() + static_cast<std::ptrdiff_t>(lo), keys->end(), cmp);
    *low = (*keys)[lo];
    *high = hi == lo ? *low : *std::min_element(keys->begin() + static_cast<std::ptrdiff_t>(lo) + 1, keys->end(), cmp);
  }

  // The most frequent value's position in row order; ties go to the value seen first (strings
  // and HUGEINTs: numbers are counted as they come, ModeState).
  static size_t ModeIndex(const std::vector<T>& values) {
    std::vector<uint32_t> order(values.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return Less(values[a], values[b]); });
    size_t best = order[0], best_count = 0;
    for (size_t run = 0; run < order.size();) {
      size_t end = run + 1;
      while (end < order.size() && !Less(values[order[run]], values[order[end]])) ++end;
      const size_t count = end - run;
      const size_t first = order[run];  // stable: the run's earliest row
      if (count > best_count || (count == best_count && first < best)) {
        best = first;
        best_count = count;
      }
      run = end;
    }
    return best;
  }

  bool AppendDistinctSum(const std::vector<T>& values, Column* out, std::string* error) const {
    if constexpr (std::is_same_v<T, std::string>) {
      *error = "sum of strings";  // the binder refuses it
      return false;
    } else {
      // The distinct values: by hash for 64-bit numbers (doubles as AggLess words: -0 apart
      // from +0, NaNs one), by sort and unique for HUGEINTs; doubles then ascending, so their
      // sum is the same on every thread count (integer sums are exact in any order).
      std::vector<T> sorted;
      if constexpr (std::is_same_v<T, Int128>) {
        sorted = values;
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
      } else {
        WordCounts counts(values.size());
        for (size_t i = 0; i < values.size(); ++i) {
          if constexpr (std::is_floating_point_v<T>) {
            counts.Add(DoubleKey(values[i]), static_cast<uint32_t>(i));
          } else {
            counts.Add(static_cast<uint64_t>(values[i]), static_cast<uint32_t>(i));
          }
        }
        counts.ForEach([&](const WordCounts::Slot& slot) { sorted.push_back(values[slot.first]); });
        if constexpr (std::is_floating_point_v<T>) {
          std::sort(sorted.begin(), sorted.end(), [](const T& a, const T& b) { return Less(a, b); });
        }
      }
      const double n = static_cast<double>(sorted.size());
      if constexpr (std::is_floating_point_v<T>) {
        double sum = 0;
        for (const T& v : sorted) sum += v;  // ascending: the same sum on every thread count
        return out->Append<double>(fn_ == AggFn::kAvgDistinct ? sum / n : sum, error);
      } else {
        Int128 sum = 0;
        for (const T& v : sorted) {
          if (__builtin_add_overflow(sum, static_cast<Int128>(v), &sum)) {
            *error = "Out of Range Error: Overflow in HUGEINT addition";
            return false;
          }
        }
        if (fn_ == AggFn::kAvgDistinct) return out->Append<double>(Int128ToDouble(sum) / n, error);
        return out->Append<Int128>(sum, error);
      }
    }
  }

  AggFn fn_;
  TypeId arg_type_, result_type_;  // result_type_: a list's element type
  bool list_;                      // a list of fractions: one list row per group
  std::vector<double> fractions_;  // negative: from the top
  bool descending_ = false;        // any fraction negative
  std::vector<std::vector<T>> values_;
};

// mode of integers, times and doubles, counted as the values come instead of stored: per group
// a WordCounts of the values with the table row each was first seen at (SetRows), how many
// were seen, and the first value and its row. Ties go to the earliest row, whichever side saw
// it, so the rows may come in any order and split any way (ModeCountsValues).
// Doubles are counted as DuckDB counts them (its hash map compares with ==): -0 with +0 (the
// first zero seen stands for both), and every NaN a value of its own, seen once.
template <class T>
class ModeState final : public AggregateFunctionState {
 public:
  explicit ModeState(const plan::Aggregate& aggregate) : result_type_(aggregate.type) {}

  bool Resize(size_t groups, std::string* error) override {
    if (groups <= groups_.size()) return true;
    const size_t before = groups_.capacity();
    groups_.resize(groups);
    return ChargeAggregateMemory((groups_.capacity() - before) * sizeof(Group), error);
  }
  size_t groups() const override { return groups_.size(); }

  bool Update(const Vec& arg, const Vec*, const uint32_t* group_ids, size_t count, std::string* error) override {
    size_t bytes = 0;
    const UpdateRows row_of = TakeRows(count);
    VisitFixed(arg.type, [&](auto tag) {
      using V = decltype(tag);
      for (size_t i = 0; i < count; ++i) {
        if (group_ids[i] == kNoGroup || arg.IsNull(i)) continue;
        // Rows as 32 bits, as a RowSet's ids are (a table's rows are numbered in 32 bits).
        bytes += Add(groups_[group_ids[i]], static_cast<T>(arg.Get<V>(i)), static_cast<uint32_t>(row_of(i)));
      }
    });
    return ChargeAggregateMemory(bytes, error);
  }

  void Merge(const AggregateFunctionState& other, size_t g, size_t t) override {
    const Group& o = static_cast<const ModeState&>(other).groups_[g];
    Group& s = groups_[t];
    if (o.seen == 0) return;
    if (s.seen == 0) {
      s = o;
      return;
    }
    o.counts.ForEach([&](const WordCounts::Slot& slot) { s.counts.Add(slot.key, slot.first, slot.count); });
    if (o.first_row < s.first_row) {
      s.first = o.first;
      s.first_row = o.first_row;
    }
    if (o.has_zero && (!s.has_zero || o.zero_row < s.zero_row)) {
      s.zero = o.zero;
      s.zero_row = o.zero_row;
      s.has_zero = true;
    }
    s.seen += o.seen;
  }

  bool Append(size_t g, Column* out, std::string* error) const override {
    if (g >= groups_.size() || groups_[g].seen == 0) return out->AppendNull(error);
    const Group& s = groups_[g];
    uint32_t best_first = 0, best_count = 0;
    uint64_t best_key = 0;
    s.counts.ForEach([&](const WordCounts::Slot& slot) {
      if (slot.count > best_count || (slot.count == best_count && slot.first < best_first)) {
        best_first = slot.first;
        best_count = slot.count;
        best_key = slot.key;
      }
    });
    T value = s.first;  // every value seen once (NaNs included): the first of them
    if (best_count > 1) {
      if constexpr (std::is_floating_point_v<T>) {
        value = best_key == DoubleKey(0.0) ? s.zero : KeyDouble(best_key);
      } else {
        value = static_cast<T>(best_key);
      }
    }
    bool ok = true;
    VisitFixed(result_type_, [&](auto tag) {
      using R = decltype(tag);
      ok = out->Append<R>(static_cast<R>(value), error);
    });
    return ok;
  }

 private:
  struct Group {
    WordCounts counts;
    uint32_t seen = 0;
    T first{};  // the value of the earliest row, and that row
    uint32_t first_row = 0;
    T zero{};  // the earliest zero (-0 or +0), and its row
    uint32_t zero_row = 0;
    bool has_zero = false;
  };

  // Counts v of table row `row` in s; returns the bytes its table grew by.
  static size_t Add(Group& s, T v, uint32_t row) {
    if (s.seen == 0 || row < s.first_row) {
      s.first = v;
      s.first_row = row;
    }
    ++s.seen;
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(v)) return 0;  // counted once: only a tie of ones can pick it
      if (v == 0 && (!s.has_zero || row < s.zero_row)) {
        s.zero = v;
        s.zero_row = row;
        s.has_zero = true;
      }
      return s.counts.Add(DoubleKey(v == 0 ? 0.0 : v), row);
    } else {
      return s.counts.Add(static_cast<uint64_t>(v), row);
    }
  }

  TypeId result_type_;
  std::vector<Group> groups_;
};

}  // namespace

bool ModeCountsValues(TypeId type) { return !IsString(type) && TypeByteWidth(type) != 16; }

std::unique_ptr<AggregateFunctionState> MakeValuesState(const plan::Aggregate& aggregate) {
  const TypeId type = aggregate.arg->type;
  if (aggregate.function == AggFn::kMode && ModeCountsValues(type)) {
    if (IsFloat(type)) return std::make_unique<ModeState<double>>(aggregate);
    if (type == TypeId::kUInt64) return std::make_unique<ModeState<uint64_t>>(aggregate);
    return std::make_unique<ModeState<int64_t>>(aggregate);
  }
  if (IsString(type)) return std::make_unique<ValuesState<std::string>>(aggregate);
  if (IsFloat(type)) return std::make_unique<ValuesState<double>>(aggregate);
  if (TypeByteWidth(type) == 16) return std::make_unique<ValuesState<Int128>>(aggregate);  // int128, interval
  if (type == TypeId::kUInt64) return std::make_unique<ValuesState<uint64_t>>(aggregate);
  // Quantiles of narrow signed integers keep 4 bytes a value, not 8 (median(i) over 10 M rows
  // wrote and faulted in 80 MB); distinct sums and the rest keep int64.
  const bool quantile = aggregate.function == AggFn::kQuantileCont || aggregate.function == AggFn::kQuantileDisc ||
                        aggregate.function == AggFn::kApproxQuantile;
  if (quantile && (type == TypeId::kInt8 || type == TypeId::kInt16 || type == TypeId::kInt32)) {
    return std::make_unique<ValuesState<int32_t>>(aggregate);
  }
  return std::make_unique<ValuesState<int64_t>>(aggregate);
}

}  // namespace exec
}  // namespace laneql
