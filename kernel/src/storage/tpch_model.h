// Internal to the TPC-H generator: the scale (row counts), the random draws and the facts that
// several tables share, as the specification (clause 4.2.3) defines them: a part's retail price
// and suppliers, an order's key, customer, date and lines, and each line's values. orders and
// lineitem both compute their lines from here, so o_totalprice and o_orderstatus agree with
// lineitem without either table being built from the other.
#ifndef LANEQL_STORAGE_TPCH_MODEL_H_
#define LANEQL_STORAGE_TPCH_MODEL_H_

#include <cstdint>

#include "src/storage/hits_random.h"
#include "src/storage/tpch_text.h"

namespace laneql::tpch {

// The columns' draw streams are numbered per table; a table's rows are keyed by its family.
enum class Family : uint64_t {
  kRegion = 1, kNation, kSupplier, kCustomer, kPart, kPartSupp, kOrder, kLine
};

// Draw streams 0..15 of the orders and lines are the shared facts below (tpch_model.cc); the
// tables number their own columns' streams from here.
inline constexpr uint64_t kFirstTableStream = 16;

// Uniform in [0, n) for any n < 2^64 (multiply-high; the bias is below n / 2^64).
inline uint64_t UniformBelow(uint64_t h, uint64_t n) {
  return static_cast<uint64_t>((static_cast<unsigned __int128>(h) * n) >> 64);
}
// Uniform in [lo, hi].
inline int64_t UniformIn(uint64_t h, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(UniformBelow(h, static_cast<uint64_t>(hi - lo) + 1));
}

// The specification's dates, as days since 1970-01-01.
inline constexpr int32_t kStartDate = 8035;    // 1992-01-01
inline constexpr int32_t kCurrentDate = 9298;  // 1995-06-17: what has shipped, been returned
inline constexpr int32_t kEndDate = 10591;     // 1998-12-31
// Orders are placed until 151 days before the end, so that all their lines are received.
inline constexpr int32_t kLastOrderDate = kEndDate - 151;

inline constexpr int kMaxLinesPerOrder = 7;

struct Scale {
  int64_t suppliers = 0;
  int64_t customers = 0;
  int64_t parts = 0;
  int64_t orders = 0;
  int64_t clerks = 0;
  // Suppliers whose comment holds "Customer ... Complaints" (TPC-H Q16) and, as many,
  // "Customer ... Recommends".
  int64_t complaining_suppliers = 0;
};
// SF times the SF-1 count, rounded, at least 1.
Scale ScaleOf(double scale_factor);

class Model {
 public:
  Model(double scale_factor, uint64_t seed);

  const Scale& scale() const { return scale_; }
  const TextPool& text() const { return text_; }
  uint64_t seed() const { return seed_; }

  // Draw `stream` for row `row` of a table (or of the orders' lines: row = order * 8 + line).
  uint64_t Draw(Family family, uint64_t row, uint64_t stream) const {
    return hits::Draw(hits::KeyOf(families_[static_cast<int>(family)], row), stream);
  }
  // A comment of a length drawn uniformly from [min_length, max_length].
  std::string_view Comment(Family family, uint64_t row, uint64_t stream, int min_length,
                           int max_length) const;

 private:
  Scale scale_;
  uint64_t seed_;
  uint64_t families_[static_cast<int>(Family::kLine) + 1];
  TextPool text_;
};

// p_retailprice in cents: (90000 + (partkey / 10) mod 20001 + 100 * (partkey mod 1000)) / 100.
inline int64_t RetailPriceCents(int64_t partkey) {
  return 90000 + (partkey / 10) % 20001 + 100 * (partkey % 1000);
}

// The suppliers of a part (i in 0..3): the specification's
// (partkey + i * (S / 4 + (partkey - 1) / S)) mod S + 1, which spreads a part's 4 suppliers
// over the key range. Where its step would give a supplier twice (at scales below 0.01, where
// S / 4 + (partkey - 1) / S may divide S), the step is S / 4 alone, which gives 4 distinct
// suppliers whenever S >= 4.
int64_t PartSupplier(int64_t partkey, int i, int64_t suppliers);

// The first 8 keys of every 32 (the specification leaves room for refresh inserts).
inline int64_t OrderKeyOf(uint64_t order) {
  return static_cast<int64_t>((order / 8) * 32 + order % 8 + 1);
}

struct OrderFacts {
  int64_t orderkey;
  int64_t custkey;    // never a multiple of 3: a third of the customers place no order
  int32_t orderdate;  // [kStartDate, kLastOrderDate]
  int lines;          // 1..7
};
OrderFacts OrderOf(const Model& model, uint64_t order);

struct LineFacts {
  int64_t partkey;
  int64_t suppkey;         // one of the part's 4 partsupp suppliers
  int64_t quantity;        // 1..50
  int64_t extended_cents;  // quantity * p_retailprice
  int64_t discount;        // percent, 0..10
  int64_t tax;             // percent, 0..8
  int32_t shipdate;        // orderdate + 1..121
  int32_t commitdate;      // orderdate + 30..90
  int32_t receiptdate;     // shipdate + 1..30
  char returnflag;         // 'R' or 'A' when received by kCurrentDate, else 'N'
  char linestatus;         // 'O' when shipped after kCurrentDate, else 'F'
};
// Line `line` (0-based, below order.lines) of order number `order`.
LineFacts LineOf(const Model& model, uint64_t order, const OrderFacts& facts, int line);

// A line's charge in cents, extendedprice * (1 - discount) * (1 + tax) rounded half up:
// o_totalprice is the sum of its lines'.
inline int64_t ChargeCents(const LineFacts& line) {
  return (line.extended_cents * (100 - line.discount) * (100 + line.tax) + 5000) / 10000;
}

}  // namespace laneql::tpch

#endif  // LANEQL_STORAGE_TPCH_MODEL_H_
