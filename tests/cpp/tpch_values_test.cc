// The TPC-H generator's values against the specification's rules (clause 4.2.3): dates and the
// flags that follow from them, prices and order totals, ranges, names and phones, and the
// string predicates of the 22 queries selecting rows. Checked at SF 0.01.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "tpch_test_util.h"

namespace laneql {
namespace {

using namespace tpch_test;

constexpr int32_t kStartDate = 8035;    // 1992-01-01
constexpr int32_t kCurrentDate = 9298;  // 1995-06-17
constexpr int32_t kEndDate = 10591;     // 1998-12-31

TEST(TpchValuesTest, LineDatesAndFlagsFollowTheOrderDate) {
  const Table& orders = Get(Small(), "orders");
  std::unordered_map<int64_t, int32_t> order_date;
  for (size_t r = 0; r < orders.num_rows(); ++r) {
    const int32_t date = static_cast<int32_t>(Int(Col(orders, "o_orderdate"), r));
    ASSERT_GE(date, kStartDate);
    ASSERT_LE(date, kEndDate - 151);
    order_date[Int(Col(orders, "o_orderkey"), r)] = date;
  }
  const Table& lines = Get(Small(), "lineitem");
  std::set<std::string_view> flags_seen;
  for (size_t r = 0; r < lines.num_rows(); ++r) {
    const int32_t ordered = order_date.at(Int(Col(lines, "l_orderkey"), r));
    const int64_t ship = Int(Col(lines, "l_shipdate"), r);
    const int64_t commit = Int(Col(lines, "l_commitdate"), r);
    const int64_t receipt = Int(Col(lines, "l_receiptdate"), r);
    ASSERT_TRUE(ship >= ordered + 1 && ship <= ordered + 121) << r;
    ASSERT_TRUE(commit >= ordered + 30 && commit <= ordered + 90) << r;
    ASSERT_TRUE(receipt >= ship + 1 && receipt <= ship + 30) << r;
    ASSERT_LE(receipt, kEndDate);
    const std::string_view flag = Col(lines, "l_returnflag").StringAt(r);
    const std::string_view status = Col(lines, "l_linestatus").StringAt(r);
    if (receipt <= kCurrentDate) {
      ASSERT_TRUE(flag == "R" || flag == "A") << r;
    } else {
      ASSERT_EQ(flag, "N") << r;
    }
    ASSERT_EQ(status, ship > kCurrentDate ? "O" : "F") << r;
    flags_seen.insert(flag);
  }
  EXPECT_EQ(flags_seen, (std::set<std::string_view>{"A", "N", "R"}));
}

TEST(TpchValuesTest, OrderTotalsAndStatusesComeFromTheirLines) {
  const Table& part = Get(Small(), "part");
  const Table& lines = Get(Small(), "lineitem");
  struct Sum {
    int64_t cents = 0;
    int lines = 0;
    int shipped = 0;
    int last_number = 0;
  };
  std::unordered_map<int64_t, Sum> sums;
  for (size_t r = 0; r < lines.num_rows(); ++r) {
    const int64_t quantity = Cents(Col(lines, "l_quantity"), r);
    const int64_t discount = Cents(Col(lines, "l_discount"), r);
    const int64_t tax = Cents(Col(lines, "l_tax"), r);
    const int64_t extended = Cents(Col(lines, "l_extendedprice"), r);
    ASSERT_TRUE(quantity >= 100 && quantity <= 5000 && quantity % 100 == 0) << r;
    ASSERT_TRUE(discount >= 0 && discount <= 10) << r;
    ASSERT_TRUE(tax >= 0 && tax <= 8) << r;
    // p_partkey is row + 1, so the part's price is at row partkey - 1.
    const int64_t partkey = Int(Col(lines, "l_partkey"), r);
    ASSERT_EQ(extended, quantity / 100 * Cents(Col(part, "p_retailprice"), partkey - 1)) << r;
    Sum& sum = sums[Int(Col(lines, "l_orderkey"), r)];
    ASSERT_EQ(Int(Col(lines, "l_linenumber"), r), ++sum.last_number) << "lines numbered 1..n";
    sum.cents += (extended * (100 - discount) * (100 + tax) + 5000) / 10000;
    sum.lines += 1;
    sum.shipped += Col(lines, "l_linestatus").StringAt(r) == "F";
  }
  const Table& orders = Get(Small(), "orders");
  ASSERT_EQ(sums.size(), orders.num_rows()) << "every order has lines";
  std::set<std::string_view> statuses;
  for (size_t r = 0; r < orders.num_rows(); ++r) {
    const Sum& sum = sums.at(Int(Col(orders, "o_orderkey"), r));
    ASSERT_TRUE(sum.lines >= 1 && sum.lines <= 7);
    ASSERT_EQ(Cents(Col(orders, "o_totalprice"), r), sum.cents) << r;
    const std::string_view status = Col(orders, "o_orderstatus").StringAt(r);
    ASSERT_EQ(status, sum.shipped == sum.lines ? "F" : sum.shipped == 0 ? "O" : "P") << r;
    statuses.insert(status);
  }
  EXPECT_EQ(statuses, (std::set<std::string_view>{"F", "O", "P"}));
}

TEST(TpchValuesTest, PartsFollowTheSpecification) {
  const Table& part = Get(Small(), "part");
  const std::set<std::string> containers_size = {"SM", "LG", "MED", "JUMBO", "WRAP"};
  std::set<std::string_view> types, containers, brands;
  for (size_t r = 0; r < part.num_rows(); ++r) {
    const int64_t key = Int(Col(part, "p_partkey"), r);
    ASSERT_EQ(key, static_cast<int64_t>(r) + 1);
    ASSERT_EQ(Cents(Col(part, "p_retailprice"), r),
              90000 + (key / 10) % 20001 + 100 * (key % 1000));
    const int64_t size = Int(Col(part, "p_size"), r);
    ASSERT_TRUE(size >= 1 && size <= 50);
    // Five distinct lower-case words.
    const std::string name(Col(part, "p_name").StringAt(r));
    std::set<std::string> words;
    size_t start = 0;
    for (size_t space = name.find(' '); ; space = name.find(' ', start)) {
      words.insert(name.substr(start, space - start));
      if (space == std::string::npos) break;
      start = space + 1;
    }
    ASSERT_EQ(words.size(), 5u) << name;
    const std::string_view mfgr = Col(part, "p_mfgr").StringAt(r);
    const std::string_view brand = Col(part, "p_brand").StringAt(r);
    ASSERT_EQ(mfgr.substr(0, 13), "Manufacturer#");
    ASSERT_EQ(brand.size(), 8u);
    ASSERT_EQ(brand[6], mfgr.back()) << "Brand#MN's M is the manufacturer's";
    types.insert(Col(part, "p_type").StringAt(r));
    containers.insert(Col(part, "p_container").StringAt(r));
    brands.insert(brand);
  }
  EXPECT_GT(types.size(), 140u);  // of 150
  EXPECT_EQ(containers.size(), 40u);
  EXPECT_EQ(brands.size(), 25u);
}

TEST(TpchValuesTest, SuppliersAndCustomersFollowTheSpecification) {
  for (const char* table_name : {"supplier", "customer"}) {
    const Table& table = Get(Small(), table_name);
    const std::string prefix = table_name[0] == 's' ? "s_" : "c_";
    const std::string name_prefix = table_name[0] == 's' ? "Supplier#" : "Customer#";
    for (size_t r = 0; r < table.num_rows(); ++r) {
      const int64_t key = Int(table.column(0), r);
      ASSERT_EQ(key, static_cast<int64_t>(r) + 1);
      char name[32];
      std::snprintf(name, sizeof(name), "%s%09lld", name_prefix.c_str(),
                    static_cast<long long>(key));
      ASSERT_EQ(Col(table, prefix + "name").StringAt(r), name);
      const int64_t nation = Int(Col(table, prefix + "nationkey"), r);
      const std::string_view phone = Col(table, prefix + "phone").StringAt(r);
      ASSERT_EQ(phone.size(), 15u) << phone;
      ASSERT_EQ(std::stoi(std::string(phone.substr(0, 2))), nation + 10) << phone;
      const int64_t balance = Cents(Col(table, prefix + "acctbal"), r);
      ASSERT_TRUE(balance >= -99999 && balance <= 999999) << balance;
      const size_t address = Col(table, prefix + "address").StringAt(r).size();
      ASSERT_TRUE(address >= 10 && address <= 40);
    }
  }
  const Table& customer = Get(Small(), "customer");
  std::set<std::string_view> segments;
  for (size_t r = 0; r < customer.num_rows(); ++r) {
    segments.insert(Col(customer, "c_mktsegment").StringAt(r));
  }
  EXPECT_EQ(segments, (std::set<std::string_view>{"AUTOMOBILE", "BUILDING", "FURNITURE",
                                                  "HOUSEHOLD", "MACHINERY"}));
}

TEST(TpchValuesTest, CommentLengthsStayInTheirRanges) {
  const struct {
    const char* table;
    const char* column;
    size_t min, max;
  } ranges[] = {{"region", "r_comment", 31, 115},   {"nation", "n_comment", 31, 114},
                {"supplier", "s_comment", 25, 100}, {"customer", "c_comment", 29, 116},
                {"part", "p_comment", 5, 22},       {"partsupp", "ps_comment", 49, 198},
                {"orders", "o_comment", 19, 78},    {"lineitem", "l_comment", 10, 43}};
  for (const auto& range : ranges) {
    const Column& c = Col(Get(Small(), range.table), range.column);
    std::set<std::string_view> distinct;
    for (size_t r = 0; r < c.length(); ++r) {
      ASSERT_GE(c.StringAt(r).size(), range.min) << range.column;
      ASSERT_LE(c.StringAt(r).size(), range.max) << range.column;
      distinct.insert(c.StringAt(r));
    }
    EXPECT_GT(distinct.size(), c.length() * 9 / 10) << range.column << " is varied";
  }
}

TEST(TpchValuesTest, QueryPredicatesSelectRows) {
  // Each pattern selects rows: those of Q13 (the orders it leaves out), Q16 (the suppliers it
  // leaves out, one of each kind at this scale), Q9, Q20, Q2, Q14 and Q8, then values that the
  // queries and their parameters compare columns with.
  const struct {
    const char* table;
    const char* column;
    std::vector<const char*> patterns;
    size_t exactly;  // the rows each pattern selects; 0: any number above 0
  } predicates[] = {
      {"orders", "o_comment", {"%special%requests%"}, 0},
      {"supplier", "s_comment", {"%Customer%Complaints%", "%Customer%Recommends%"}, 1},
      {"part", "p_name", {"%green%", "forest%"}, 0},
      {"part", "p_type", {"%BRASS", "PROMO%", "MEDIUM POLISHED%", "ECONOMY ANODIZED STEEL"}, 0},
      {"part", "p_brand", {"Brand#12", "Brand#23", "Brand#34", "Brand#45"}, 0},
      {"part", "p_container", {"MED BOX", "SM CASE", "LG PACK", "MED BAG"}, 0},
      {"lineitem", "l_shipmode", {"AIR", "MAIL", "SHIP", "REG AIR", "TRUCK", "RAIL", "FOB"}, 0},
      {"lineitem", "l_shipinstruct", {"DELIVER IN PERSON"}, 0},
      {"customer", "c_mktsegment", {"BUILDING"}, 0},
      {"orders", "o_orderpriority", {"1-URGENT", "4-NOT SPECIFIED"}, 0},
      {"nation", "n_name", {"SAUDI ARABIA"}, 1},
      {"region", "r_name", {"MIDDLE EAST"}, 1}};
  for (const auto& predicate : predicates) {
    for (const char* pattern : predicate.patterns) {
      const size_t rows = CountLike(Get(Small(), predicate.table), predicate.column, pattern);
      if (predicate.exactly != 0) {
        EXPECT_EQ(rows, predicate.exactly) << predicate.column << " LIKE " << pattern;
      } else {
        EXPECT_GT(rows, 0u) << predicate.column << " LIKE " << pattern;
      }
    }
  }
}

}  // namespace
}  // namespace laneql
