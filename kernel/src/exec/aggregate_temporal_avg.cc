// avg of INTERVAL, TIMESTAMP (a DATE read as one) and TIME values, as DuckDB computes them.
//
// Sums are exact integers kept wider than the values (an interval's months and days in 64
// bits, its microseconds and a timestamp's in 128), so they are order-free: any split of the
// rows merges to the same answer. DuckDB adds intervals part by part in their own widths and
// fails as soon as a running sum overflows; here only a total that does not fit its part
// fails, whatever the rows' order.
//  - TIMESTAMP / TIME: the sum divided by the count, truncated, plus one where the remainder
//    is more than half the count (so a negative sum's remainder never rounds).
//  - INTERVAL: each part divided by the count, truncated; the months' remainder goes on as 30
//    days a month into the days and the days' remainder on into microseconds, where DuckDB adds
//    the microseconds' own remainder undivided ('3 microseconds' and '0' average to 2 µs).
#include <string>
#include <vector>

#include "laneql/group_hash_table.h"
#include "laneql/int128.h"
#include "laneql/interval.h"
#include "src/common/civil_time.h"
#include "src/exec/aggregate_function_state.h"

namespace laneql {
namespace exec {
namespace {

constexpr int64_t kDaysPerMonth = 30;

struct TemporalSum {
  int64_t count = 0;
  int64_t months = 0, days = 0;  // intervals only
  Int128 micros = 0;             // an interval's microseconds, or the timestamps' / times'
};

class TemporalAvgState final : public AggregateFunctionState {
 public:
  explicit TemporalAvgState(const plan::Aggregate& aggregate)
      : interval_(aggregate.arg->type == TypeId::kInterval) {}

  bool Resize(size_t groups, std::string* error) override {
    if (groups <= sums_.size()) return true;
    const size_t before = sums_.capacity();
    sums_.resize(groups);
    return ChargeAggregateMemory((sums_.capacity() - before) * sizeof(TemporalSum), error);
  }
  size_t groups() const override { return sums_.size(); }

  bool Update(const Vec& arg, const Vec*, const uint32_t* group_ids, size_t count, std::string*) override {
    for (size_t i = 0; i < count; ++i) {
      const uint32_t g = group_ids[i];
      if (g == kNoGroup || arg.IsNull(i)) continue;
      TemporalSum& s = sums_[g];
      ++s.count;
      if (interval_) {
        const Interval v = UnpackInterval(arg.Get<Int128>(i));
        s.months += v.months;
        s.days += v.days;
        s.micros += v.micros;
      } else {
        s.micros += arg.Get<int64_t>(i);
      }
    }
    return true;
  }

  void Merge(const AggregateFunctionState& other, size_t g, size_t t) override {
    const TemporalSum& o = static_cast<const TemporalAvgState&>(other).sums_[g];
    TemporalSum& s = sums_[t];
    s.count += o.count;
    s.months += o.months;
    s.days += o.days;
    s.micros += o.micros;
  }

  bool Append(size_t g, Column* out, std::string* error) const override {
    if (g >= sums_.size() || sums_[g].count == 0) return out->AppendNull(error);
    const TemporalSum& s = sums_[g];
    const int64_t n = s.count;
    if (!interval_) {
      Int128 quotient = s.micros / n;
      const Int128 remainder = s.micros % n;
      quotient += remainder > n / 2 ? 1 : 0;
      return out->Append<int64_t>(static_cast<int64_t>(quotient), error);
    }
    if (s.months < INT32_MIN || s.months > INT32_MAX || s.days < INT32_MIN || s.days > INT32_MAX ||
        s.micros < INT64_MIN || s.micros > INT64_MAX) {
      *error = "Out of Range Error: Overflow in avg(INTERVAL): the sum of the " +
               std::string(s.months < INT32_MIN || s.months > INT32_MAX ? "months"
                           : s.days < INT32_MIN || s.days > INT32_MAX   ? "days"
                                                                        : "microseconds") +
               " does not fit an INTERVAL";
      return false;
    }
    const int64_t micros = static_cast<int64_t>(s.micros);
    Interval v;
    v.months = static_cast<int32_t>(s.months / n);
    const int64_t months_left = s.months % n * kDaysPerMonth;
    v.days = static_cast<int32_t>(s.days / n + months_left / n);
    const Int128 days_left = static_cast<Int128>(s.days % n + months_left % n) * civil::kMicrosPerDay;
    v.micros = static_cast<int64_t>(micros / n + micros % n + days_left / n);
    return out->Append<Int128>(PackInterval(v), error);
  }

 private:
  bool interval_;
  std::vector<TemporalSum> sums_;
};

}  // namespace

std::unique_ptr<AggregateFunctionState> MakeTemporalAvgState(const plan::Aggregate& aggregate) {
  return std::make_unique<TemporalAvgState>(aggregate);
}

}  // namespace exec
}  // namespace laneql
