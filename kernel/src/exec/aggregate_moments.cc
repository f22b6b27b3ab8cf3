// Variance, standard deviation, covariance, correlation and the regr_ family: per group the
// running means and squared deviations of Welford's method (B. P. Welford, 1962), updated row
// by row in row order as DuckDB does, so that one thread's answer is DuckDB's to the bit; the
// covariance's co-moment as Schubert and Gertz (SSDBM 2018) give it. Both arguments arrive as
// DOUBLE (the binder casts them); a row with a NULL in either is skipped.
#include <cmath>
#include <limits>
#include <vector>

#include "src/exec/aggregate_function_state.h"
#include "laneql/bitmask.h"
#include "laneql/group_hash_table.h"

namespace laneql {
namespace exec {
namespace {

using plan::AggFn;

struct Moments {
  uint64_t count = 0;
  double mean_x = 0, squares_x = 0;  // x's mean and sum of squared deviations
  double mean_y = 0, squares_y = 0;
  double co_moment = 0;              // sum of (x - mean x)(y - mean y)
  double sum_x = 0, sum_y = 0;       // plain sums, for the regr_ averages and intercept
};

class MomentsState final : public AggregateFunctionState {
 public:
  explicit MomentsState(const plan::Aggregate& aggregate)
      : fn_(aggregate.function), pairs_(aggregate.arg2 != nullptr) {}

  bool Resize(size_t groups, std::string* error) override {
    if (groups <= groups_.size()) return true;
    const size_t before = groups_.capacity();
    groups_.resize(groups);
    return ChargeAggregateMemory((groups_.capacity() - before) * sizeof(Moments), error);
  }
  size_t groups() const override { return groups_.size(); }

  bool Update(const Vec& arg, const Vec* arg2, const uint32_t* group_ids, size_t count,
              std::string*) override {
    if (!arg.constant && (!pairs_ || !arg2->constant)) {
      if (pairs_) UpdateRows<true>(arg, arg2, group_ids, count);
      else UpdateRows<false>(arg, arg2, group_ids, count);
      return true;
    }
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g == kNoGroup || arg.IsNull(i) || (pairs_ && arg2->IsNull(i))) continue;
      // One argument: it is x. Two: (y, x), as covar_pop(y, x) and regr_slope(y, x) take them.
      const double x = pairs_ ? arg2->Get<double>(i) : arg.Get<double>(i);
      const double y = pairs_ ? arg.Get<double>(i) : 0.0;
      Add(groups_[g], x, y);
    }
    return true;
  }

  void Merge(const AggregateFunctionState& other, size_t g, size_t t) override {
    const Moments& o = static_cast<const MomentsState&>(other).groups_[g];
    Moments& s = groups_[t];
    if (o.count == 0) return;
    if (s.count == 0) {
      s = o;
      return;
    }
    // Chan, Golub and LeVeque's pairwise update (the executor merges only into empty groups for
    // these, each group's rows being folded by one thread; this keeps Merge total).
    const double n = static_cast<double>(s.count + o.count);
    const double ns = static_cast<double>(s.count), no = static_cast<double>(o.count);
    const double dx = o.mean_x - s.mean_x, dy = o.mean_y - s.mean_y;
    s.squares_x += o.squares_x + dx * dx * ns * no / n;
    s.squares_y += o.squares_y + dy * dy * ns * no / n;
    s.co_moment += o.co_moment + dx * dy * ns * no / n;
    s.mean_x = (ns * s.mean_x + no * o.mean_x) / n;
    s.mean_y = (ns * s.mean_y + no * o.mean_y) / n;
    s.sum_x += o.sum_x;
    s.sum_y += o.sum_y;
    s.count += o.count;
  }

  bool Append(size_t g, Column* out, std::string* error) const override {
    static const Moments kEmpty;
    const Moments& m = g < groups_.size() ? groups_[g] : kEmpty;
    if (fn_ == AggFn::kRegrCount) return out->Append<uint32_t>(static_cast<uint32_t>(m.count), error);
    double value = 0;
    bool null = false;
    if (!Result(m, &value, &null, error)) return false;
    return null ? out->AppendNull(error) : out->Append<double>(value, error);
  }

 private:
  // The same additions as the loop in Update, in the same order, over columns (no constant):
  // the NULL tests and reads hoisted out of Vec's per-row accessors, one argument's Welford
  // without the second's (its y is 0, so nothing of y that a one-argument function reads
  // changes), and when every row is in one group (ungrouped) the state in registers rather than
  // loaded and stored a row: each row's mean waits for the previous row's division, and the
  // store-to-load round trip made that chain half as long again.
  template <bool kPairs>
  void UpdateRows(const Vec& arg, const Vec* arg2, const uint32_t* group_ids, size_t count) {
    const double* a = arg.Data<double>();
    const double* b = kPairs ? arg2->Data<double>() : nullptr;
    const uint64_t* valid_a = arg.validity;
    const uint64_t* valid_b = kPairs ? arg2->validity : nullptr;
    const auto skip = [&](size_t i) {
      return (valid_a != nullptr && !BitmaskGet(valid_a, i)) || (valid_b != nullptr && !BitmaskGet(valid_b, i));
    };
    // One argument: it is x. Two: (y, x), as covar_pop(y, x) and regr_slope(y, x) take them.
    const auto add = [&](Moments& m, size_t i) {
      if constexpr (kPairs) Add(m, b[i], a[i]);
      else AddX(m, a[i]);
    };
    // Every row in one group (ungrouped: the group, or the batch's of an ungrouped scan by
    // batches).
    const uint32_t first = count != 0 ? group_ids[0] : kNoGroup;
    uint32_t differ = 0;
    for (size_t i = 0; i < count; ++i) differ |= group_ids[i] ^ first;
    if (differ == 0 && first != kNoGroup) {
      Moments m = groups_[first];
      for (size_t i = 0; i < count; ++i) {
        if (!skip(i)) add(m, i);
      }
      groups_[first] = m;
      return;
    }
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g != kNoGroup && !skip(i)) add(groups_[g], i);
    }
  }

  // Add's steps for x alone.
  static void AddX(Moments& m, double x) {
    ++m.count;
    const double n = static_cast<double>(m.count);
    const double dx = x - m.mean_x;
    const double mean_x = m.mean_x + dx / n;
    m.squares_x += (x - mean_x) * dx;
    m.mean_x = mean_x;
    m.sum_x += x;
  }

  static void Add(Moments& m, double x, double y) {
    ++m.count;
    const double n = static_cast<double>(m.count);
    const double dx = x - m.mean_x;
    const double mean_x = m.mean_x + dx / n;
    m.squares_x += (x - mean_x) * dx;
    const double dy = y - m.mean_y;
    const double mean_y = m.mean_y + dy / n;
    m.squares_y += (y - mean_y) * dy;
    m.co_moment += dx * (y - mean_y);
    m.mean_x = mean_x;
    m.mean_y = mean_y;
    m.sum_x += x;
    m.sum_y += y;
  }

  // The population variance of x or y as DuckDB finishes it (0 for one value).
  static double VarPop(const Moments& m, double squares) {
    return m.count > 1 ? squares / static_cast<double>(m.count) : 0.0;
  }

  bool Result(const Moments& m, double* value, bool* null, std::string* error) const {
    const double n = static_cast<double>(m.count);
    *null = m.count == 0;
    switch (fn_) {
      case AggFn::kVarSamp:
      case AggFn::kStddevSamp:
        *null = m.count <= 1;
        *value = *null ? 0 : m.squares_x / (n - 1);
        if (fn_ == AggFn::kStddevSamp) *value = std::sqrt(*value);
        return true;
      case AggFn::kVarPop:
      case AggFn::kStddevPop:
        *value = VarPop(m, m.squares_x);
        if (fn_ == AggFn::kStddevPop) *value = std::sqrt(*value);
        return true;
      case AggFn::kCovarPop: *value = m.co_moment / n; return true;
      case AggFn::kCovarSamp:
        *null = m.count < 2;
        *value = m.co_moment / (n - 1);
        return true;
      case AggFn::kCorr: *value = Corr(m); return true;
      case AggFn::kRegrSlope: *value = Slope(m); return true;
      case AggFn::kRegrIntercept: {
        const double slope = Slope(m);
        *null = *null || std::isnan(slope);
        *value = m.sum_y / n - slope * (m.sum_x / n);
        return true;
      }
      case AggFn::kRegrR2: {
        const double var_x = VarPop(m, m.squares_x), var_y = VarPop(m, m.squares_y);
        if (!std::isfinite(var_x) || !std::isfinite(var_y)) {
          *error = std::string("Out of Range Error: VARPOP(") + (std::isfinite(var_x) ? "Y" : "X") +
                   ") is out of range!";
          return false;
        }
        *null = var_x == 0;
        *value = var_y == 0 ? 1.0 : std::pow(Corr(m), 2);
        return true;
      }
      case AggFn::kRegrAvgX: *value = m.sum_x / n; return true;
      case AggFn::kRegrAvgY: *value = m.sum_y / n; return true;
      case AggFn::kRegrSxx:
      case AggFn::kRegrSyy: {
        const double var = VarPop(m, fn_ == AggFn::kRegrSxx ? m.squares_x : m.squares_y);
        if (!*null && !std::isfinite(var)) {
          *error = "Out of Range Error: VARPOP is out of range!";
          return false;
        }
        *value = n * var;
        return true;
      }
      case AggFn::kRegrSxy: *value = m.co_moment / n * n; return true;
      default: *value = 0; return true;
    }
  }

  static double Corr(const Moments& m) {
    const double n = static_cast<double>(m.count);
    const double cov = m.co_moment / n;
    const double sx = m.count > 1 ? std::sqrt(m.squares_x / n) : 0.0;
    const double sy = m.count > 1 ? std::sqrt(m.squares_y / n) : 0.0;
    return sx * sy != 0 ? cov / (sx * sy) : std::numeric_limits<double>::quiet_NaN();
  }
  static double Slope(const Moments& m) {
    const double var = VarPop(m, m.squares_x);
    return var != 0 ? m.co_moment / static_cast<double>(m.count) / var : std::numeric_limits<double>::quiet_NaN();
  }

  AggFn fn_;
  bool pairs_;
  std::vector<Moments> groups_;
};

}  // namespace

std::unique_ptr<AggregateFunctionState> MakeMomentsState(const plan::Aggregate& aggregate) {
  return std::make_unique<MomentsState>(aggregate);
}

}  // namespace exec
}  // namespace laneql
