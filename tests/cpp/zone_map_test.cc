// Zone maps (src/storage/zone_map.h) and the filter's use of them (src/exec/filter_zones.h):
// block ranges equal a plain loop's (NULLs, NaN, -0.0, extremes, tails, all-NULL blocks); the
// order keys order as the predicate kernels compare; a filter over clustered columns gives the
// row-by-row answer with the zones unknown and known, skips the blocks it can (a row changed
// behind a kept zone's back is not read), and stops working out zones of a column they do not
// help.
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include "bind_sql.h"
#include "laneql/bitmask.h"
#include "src/exec/executor.h"
#include "src/exec/filter.h"
#include "src/storage/zone_map.h"

namespace laneql {
namespace {

using internal::kZoneRows;
using internal::Zone;
using internal::ZoneKey;

template <class T>
Column MakeColumn(TypeId type, const std::vector<T>& values, const std::vector<bool>& null) {
  Column column(type);
  std::string error;
  for (size_t i = 0; i < values.size(); ++i) {
    EXPECT_TRUE(null[i] ? column.AppendNull(&error) : column.Append<T>(values[i], &error)) << error;
  }
  return column;
}

// The zone of rows [begin, end) by a loop over the keys.
template <class T>
Zone LoopZone(const std::vector<T>& values, const std::vector<bool>& null, size_t begin, size_t end) {
  Zone zone;
  for (size_t i = begin; i < end; ++i) {
    if (null[i]) {
      zone.any_null = true;
      continue;
    }
    const int64_t key = ZoneKey(values[i]);
    zone.min = zone.any_value ? std::min(zone.min, key) : key;
    zone.max = zone.any_value ? std::max(zone.max, key) : key;
    zone.any_value = true;
  }
  return zone;
}

template <class T>
void CheckZones(TypeId type, const std::vector<T>& values, const std::vector<bool>& null) {
  const Column column = MakeColumn(type, values, null);
  internal::ZoneMap* zones = column.Zones();
  ASSERT_NE(zones, nullptr);
  ASSERT_EQ(zones->blocks(), (values.size() + kZoneRows - 1) / kZoneRows);
  for (size_t b = 0; b < zones->blocks(); ++b) {
    EXPECT_FALSE(zones->Known(b));
    const Zone got = zones->Get(column, b);
    EXPECT_TRUE(zones->Known(b));
    const Zone want = LoopZone(values, null, b * kZoneRows, std::min(values.size(), (b + 1) * kZoneRows));
    EXPECT_EQ(want.any_value, got.any_value) << b;
    EXPECT_EQ(want.any_null, got.any_null) << b;
    if (want.any_value) {
      EXPECT_EQ(want.min, got.min) << b;
      EXPECT_EQ(want.max, got.max) << b;
    }
    const Zone again = zones->Get(column, b);  // the kept answer
    EXPECT_EQ(got.min, again.min);
    EXPECT_EQ(got.max, again.max);
    EXPECT_EQ(got.any_null, again.any_null);
  }
}

TEST(ZoneMap, BlockRangesEqualALoop) {
  std::mt19937 rng(7);
  const size_t n = 3 * kZoneRows + 100;  // a tail block
  std::vector<bool> null(n), none(n, false);
  for (size_t i = 0; i < n; ++i) null[i] = rng() % 9 == 0 || (i >= kZoneRows && i < 2 * kZoneRows);  // block 1 all NULL
  std::vector<int32_t> ints(n);
  for (auto& v : ints) v = static_cast<int32_t>(rng());
  ints[5] = std::numeric_limits<int32_t>::min();
  ints[n - 1] = std::numeric_limits<int32_t>::max();
  CheckZones(TypeId::kInt32, ints, null);
  CheckZones(TypeId::kInt32, ints, none);
  std::vector<int8_t> bytes(n);
  for (auto& v : bytes) v = static_cast<int8_t>(rng());
  CheckZones(TypeId::kInt8, bytes, null);
  std::vector<uint32_t> unsigned_ints(n);
  for (auto& v : unsigned_ints) v = static_cast<uint32_t>(rng());
  unsigned_ints[7] = std::numeric_limits<uint32_t>::max();
  CheckZones(TypeId::kUInt32, unsigned_ints, null);
  std::vector<int64_t> micros(n);
  for (size_t i = 0; i < n; ++i) micros[i] = static_cast<int64_t>(i) * 1000000 - (int64_t{1} << 40);
  CheckZones(TypeId::kTimestampMicros, micros, null);
  std::vector<double> reals(n);
  for (auto& v : reals) v = std::ldexp(static_cast<double>(rng()) - 2e9, static_cast<int>(rng() % 40) - 20);
  reals[1] = -0.0;
  reals[2] = std::numeric_limits<double>::infinity();
  reals[3] = -std::numeric_limits<double>::infinity();
  reals[2 * kZoneRows + 4] = std::nan("");  // NaN is the block's largest value
  CheckZones(TypeId::kFloat64, reals, null);
  CheckZones(TypeId::kFloat64, reals, none);
  std::vector<float> floats(n, -0.0f);
  for (size_t i = 0; i < n; i += 3) floats[i] = 0.0f;
  CheckZones(TypeId::kFloat32, floats, none);  // -0.0 and +0.0 one key
  std::vector<double> nans(n, -std::nan(""));
  CheckZones(TypeId::kFloat64, nans, none);
}

TEST(ZoneMap, FloatKeysOrderAsThePredicateKernels) {
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> ascending = {-inf, -1e308, -2.0, -1.0, -1e-310, 0.0, 1e-310, 1.0, 2.0, 1e308, inf};
  for (size_t i = 0; i + 1 < ascending.size(); ++i) {
    EXPECT_LT(ZoneKey(ascending[i]), ZoneKey(ascending[i + 1])) << ascending[i];
  }
  EXPECT_EQ(ZoneKey(-0.0), ZoneKey(0.0));
  EXPECT_EQ(ZoneKey(std::nan("")), ZoneKey(-std::nan("1")));  // NaN equals NaN, any payload
  EXPECT_LT(ZoneKey(inf), ZoneKey(std::nan("")));
  EXPECT_EQ(ZoneKey(int64_t{-5}), -5);
  EXPECT_EQ(ZoneKey(uint32_t{4000000000u}), 4000000000);
}

TEST(ZoneMap, AppendingForgetsTheMap) {
  std::string error;
  Column column(TypeId::kInt64);
  for (int64_t i = 0; i < 100; ++i) ASSERT_TRUE(column.Append<int64_t>(i, &error));
  ASSERT_EQ(column.Zones()->Get(column, 0).max, 99);
  ASSERT_TRUE(column.Append<int64_t>(1000, &error));
  EXPECT_FALSE(column.Zones()->Known(0));
  EXPECT_EQ(column.Zones()->Get(column, 0).max, 1000);
  Column strings(TypeId::kString);
  ASSERT_TRUE(strings.AppendString("a", &error));
  EXPECT_EQ(strings.Zones(), nullptr);
  EXPECT_EQ(Column(TypeId::kInt32).Zones(), nullptr);
}

// A table clustered by `ts` (ascending, NULLs in runs), `f` (doubles ascending, NaN last, -0.0
// and +0.0 together), `b` (int8 in blocks), `u` (unclustered) and `s` (short strings).
struct Clustered {
  std::vector<int64_t> ts;
  std::vector<double> f;
  std::vector<int8_t> b;
  std::vector<int32_t> u;
  std::vector<std::string> s;
  std::vector<bool> ts_null, none;
  std::shared_ptr<Table> table;
};

Clustered MakeClustered(size_t n) {
  Clustered c;
  std::mt19937 rng(11);
  for (size_t i = 0; i < n; ++i) {
    c.ts.push_back(static_cast<int64_t>(i) * 100);
    c.ts_null.push_back((i / 1000) % 17 == 3);
    c.none.push_back(false);
    c.f.push_back(i + 5000 >= n ? std::nan("") : i < 3000 ? (i % 2 ? -0.0 : 0.0) : static_cast<double>(i) - 0.5);
    c.b.push_back(static_cast<int8_t>(static_cast<int>(i / 10000) - 100));
    c.u.push_back(static_cast<int32_t>(rng() % 1000));
    c.s.push_back("x" + std::to_string(i % 50));
  }
  std::string error;
  auto table = std::make_shared<Table>();
  EXPECT_TRUE(table->AddColumn("ts", MakeColumn(TypeId::kTimestampMicros, c.ts, c.ts_null), &error));
  EXPECT_TRUE(table->AddColumn("f", MakeColumn(TypeId::kFloat64, c.f, c.none), &error));
  EXPECT_TRUE(table->AddColumn("b", MakeColumn(TypeId::kInt8, c.b, c.none), &error));
  EXPECT_TRUE(table->AddColumn("u", MakeColumn(TypeId::kInt32, c.u, c.none), &error));
  Column s(TypeId::kString);
  for (const std::string& v : c.s) EXPECT_TRUE(s.AppendString(v, &error));
  EXPECT_TRUE(table->AddColumn("s", std::move(s), &error));
  c.table = table;
  return c;
}

// Runs the WHERE of `sql` batch by batch with one Filter, as a scan thread does, against
// want(row); returns the rows selected.
size_t RunFilter(const Table& table, const std::string& sql, const std::function<bool(size_t)>& want) {
  const plan::Plan plan = BindSql(table, sql);
  EXPECT_TRUE(plan.where != nullptr);
  if (plan.where == nullptr) return 0;
  exec::Filter filter(table, *plan.where);
  std::vector<uint64_t> mask(BitmaskWords(exec::kBatchRows) + 1);
  size_t selected = 0;
  for (size_t begin = 0; begin < table.num_rows(); begin += exec::kBatchRows) {
    const size_t count = std::min(exec::kBatchRows, table.num_rows() - begin);
    std::string error;
    EXPECT_TRUE(filter.Eval(begin, count, mask.data(), &error)) << sql << ": " << error;
    for (size_t i = 0; i < count; ++i) {
      const bool got = (mask[i / 64] >> (i % 64)) & 1;
      EXPECT_EQ(want(begin + i), got) << sql << " row " << begin + i;
      selected += got;
    }
    if (count % 64 != 0) EXPECT_EQ(0u, mask[count / 64] & ~BitmaskTailMask(count)) << sql;
  }
  return selected;
}

TEST(FilterZones, ClusteredColumnsGiveTheRowByRowAnswer) {
  const Clustered c = MakeClustered(9 * exec::kBatchRows + 333);
  const auto ts = [&](size_t i, const std::function<bool(int64_t)>& f) { return !c.ts_null[i] && f(c.ts[i]); };
  const auto nan = [](double x) { return std::isnan(x); };
  struct Case {
    std::string where;
    std::function<bool(size_t)> want;
  };
  const std::vector<Case> cases = {
      {"ts = '1970-01-01 00:00:01.2345'::TIMESTAMP", [&](size_t i) { return ts(i, [](int64_t v) { return v == 1234500; }); }},
      {"ts < '1970-01-01 00:00:00.5'::TIMESTAMP", [&](size_t i) { return ts(i, [](int64_t v) { return v < 500000; }); }},
      {"ts >= '1970-01-01 00:00:10'::TIMESTAMP AND u < 500",
       [&](size_t i) { return ts(i, [](int64_t v) { return v >= 10000000; }) && c.u[i] < 500; }},
      {"ts BETWEEN '1970-01-01 00:00:03'::TIMESTAMP AND '1970-01-01 00:00:07'::TIMESTAMP",
       [&](size_t i) { return ts(i, [](int64_t v) { return v >= 3000000 && v <= 7000000; }); }},
      {"ts <> '1970-01-01 00:00:00'::TIMESTAMP", [&](size_t i) { return ts(i, [](int64_t v) { return v != 0; }); }},
      {"ts > '1970-01-01 00:00:00'::TIMESTAMP", [&](size_t i) { return ts(i, [](int64_t v) { return v > 0; }); }},
      {"f = 0", [&](size_t i) { return c.f[i] == 0; }},
      {"f > 100000", [&](size_t i) { return nan(c.f[i]) || c.f[i] > 100000; }},
      {"f < 'NaN'::DOUBLE", [&](size_t i) { return !nan(c.f[i]); }},
      {"f = 'NaN'::DOUBLE", [&](size_t i) { return nan(c.f[i]); }},
      {"f <> 0 AND f <= 20000.5", [&](size_t i) { return c.f[i] != 0 && !nan(c.f[i]) && c.f[i] <= 20000.5; }},
      {"b IN (-100, -95, 7)", [&](size_t i) { return c.b[i] == -100 || c.b[i] == -95 || c.b[i] == 7; }},
      {"b >= -90 AND b <= -89", [&](size_t i) { return c.b[i] >= -90 && c.b[i] <= -89; }},
      {"u = 7", [&](size_t i) { return c.u[i] == 7; }},
      {"ts < '1970-01-01 00:00:01'::TIMESTAMP AND s LIKE '%7'",
       [&](size_t i) { return ts(i, [](int64_t v) { return v < 1000000; }) && c.s[i].back() == '7'; }},
  };
  for (int round = 0; round < 2; ++round) {  // zones worked out, then kept
    for (const Case& test : cases) {
      const size_t selected = RunFilter(*c.table, "SELECT ts FROM x WHERE " + test.where, test.want);
      EXPECT_GT(selected, 0u) << test.where;
    }
  }
}

TEST(FilterZones, SkipsBlocksAndStopsOnUnclusteredColumns) {
  const size_t blocks = 2 * exec::kZoneTrialBlocks + 10;
  const Clustered c = MakeClustered(blocks * kZoneRows);
  // `u` is not clustered: after its trial blocks the filter stops working out its zones.
  RunFilter(*c.table, "SELECT u FROM x WHERE u = 3", [&](size_t i) { return c.u[i] == 3; });
  internal::ZoneMap* u = c.table->column(3).Zones();
  size_t known = 0;
  for (size_t b = 0; b < u->blocks(); ++b) known += u->Known(b);
  EXPECT_EQ(known, exec::kZoneTrialBlocks);
  // `ts` is: its zones decide every block, so all are worked out; `b`'s, never read for the
  // blocks ts rules out, stay unknown there.
  RunFilter(*c.table, "SELECT ts FROM x WHERE ts < '1970-01-01 00:00:01'::TIMESTAMP AND b = -100",
            [&](size_t i) { return !c.ts_null[i] && c.ts[i] < 1000000 && c.b[i] == -100; });
  internal::ZoneMap* ts = c.table->column(0).Zones();
  internal::ZoneMap* b = c.table->column(2).Zones();
  for (size_t k = 0; k < ts->blocks(); ++k) EXPECT_TRUE(ts->Known(k)) << k;
  EXPECT_TRUE(b->Known(0));
  EXPECT_FALSE(b->Known(ts->blocks() - 1));
  // A value changed behind the kept zones' back (never done outside this test: a column changes
  // only through calls that forget them) in a block they rule out is not read.
  const size_t last = c.ts.size() - 1;
  const_cast<int64_t*>(c.table->column(0).Values<int64_t>())[last] = 5;
  const size_t found =
      RunFilter(*c.table, "SELECT ts FROM x WHERE ts < '1970-01-01 00:00:00.0001'::TIMESTAMP",
                [&](size_t i) { return !c.ts_null[i] && c.ts[i] < 100; });
  EXPECT_EQ(found, 1u);  // row 0 alone; the changed last row was skipped
}

}  // namespace
}  // namespace laneql
