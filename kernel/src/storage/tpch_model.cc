// The facts several TPC-H tables share: counts, part suppliers, orders and their lines.
#include "src/storage/tpch_model.h"

#include <cmath>

namespace laneql::tpch {
namespace {

int64_t Scaled(double scale_factor, double count_at_sf1) {
  const long long rounded = std::llround(scale_factor * count_at_sf1);
  return rounded < 1 ? 1 : static_cast<int64_t>(rounded);
}

// The draw streams of the shared facts (below kFirstTableStream).
enum OrderStream : uint64_t { kCustomerDraw, kDateDraw, kLineCountDraw };
enum LineStream : uint64_t {
  kPartDraw, kSupplierDraw, kQuantityDraw, kDiscountDraw, kTaxDraw, kShipDraw, kCommitDraw,
  kReceiptDraw, kReturnDraw
};

}  // namespace

Scale ScaleOf(double scale_factor) {
  Scale s;
  s.suppliers = Scaled(scale_factor, 10'000);
  s.customers = Scaled(scale_factor, 150'000);
  s.parts = Scaled(scale_factor, 200'000);
  s.orders = Scaled(scale_factor, 1'500'000);
  s.clerks = Scaled(scale_factor, 1'000);
  s.complaining_suppliers = Scaled(scale_factor, 5);
  return s;
}

Model::Model(double scale_factor, uint64_t seed)
    : scale_(ScaleOf(scale_factor)), seed_(seed), text_(seed) {
  for (uint64_t f = 0; f <= static_cast<uint64_t>(Family::kLine); ++f) {
    families_[f] = hits::KeyOf(seed, f);
  }
}

std::string_view Model::Comment(Family family, uint64_t row, uint64_t stream, int min_length,
                                int max_length) const {
  const uint64_t h = Draw(family, row, stream);
  const size_t length = static_cast<size_t>(UniformIn(h, min_length, max_length));
  // A second, independent draw for the position (the first one's high bits chose the length).
  return text_.Cut(hits::Mix64(h), length);
}

int64_t PartSupplier(int64_t partkey, int i, int64_t suppliers) {
  const int64_t s = suppliers;
  int64_t step = s / 4 + (partkey - 1) / s;
  // Suppliers i and j coincide when (i - j) * step is a multiple of S, for |i - j| in 1..3.
  if (step % s == 0 || (2 * step) % s == 0 || (3 * step) % s == 0) step = s / 4;
  return (partkey + i * step) % s + 1;
}

OrderFacts OrderOf(const Model& model, uint64_t order) {
  OrderFacts f;
  f.orderkey = OrderKeyOf(order);
  // The customers that are not multiples of 3, numbered k = 0, 1, 2, ... are 1, 2, 4, 5, 7,
  // ...: k + k / 2 + 1. There are C - C / 3 of them in [1, C].
  const int64_t customers = model.scale().customers;
  const uint64_t k = UniformBelow(model.Draw(Family::kOrder, order, kCustomerDraw),
                                  static_cast<uint64_t>(customers - customers / 3));
  f.custkey = static_cast<int64_t>(k + k / 2 + 1);
  f.orderdate = static_cast<int32_t>(
      UniformIn(model.Draw(Family::kOrder, order, kDateDraw), kStartDate, kLastOrderDate));
  f.lines = static_cast<int>(
      UniformIn(model.Draw(Family::kOrder, order, kLineCountDraw), 1, kMaxLinesPerOrder));
  return f;
}

LineFacts LineOf(const Model& model, uint64_t order, const OrderFacts& facts, int line) {
  const uint64_t row = order * 8 + static_cast<uint64_t>(line);
  const auto draw = [&](uint64_t stream) { return model.Draw(Family::kLine, row, stream); };
  const Scale& scale = model.scale();
  LineFacts l;
  l.partkey = UniformIn(draw(kPartDraw), 1, scale.parts);
  l.suppkey = PartSupplier(l.partkey, static_cast<int>(UniformIn(draw(kSupplierDraw), 0, 3)),
                           scale.suppliers);
  l.quantity = UniformIn(draw(kQuantityDraw), 1, 50);
  l.extended_cents = l.quantity * RetailPriceCents(l.partkey);
  l.discount = UniformIn(draw(kDiscountDraw), 0, 10);
  l.tax = UniformIn(draw(kTaxDraw), 0, 8);
  l.shipdate = facts.orderdate + static_cast<int32_t>(UniformIn(draw(kShipDraw), 1, 121));
  l.commitdate = facts.orderdate + static_cast<int32_t>(UniformIn(draw(kCommitDraw), 30, 90));
  l.receiptdate = l.shipdate + static_cast<int32_t>(UniformIn(draw(kReceiptDraw), 1, 30));
  if (l.receiptdate <= kCurrentDate) {
    l.returnflag = (draw(kReturnDraw) >> 63) != 0 ? 'R' : 'A';
  } else {
    l.returnflag = 'N';
  }
  l.linestatus = l.shipdate > kCurrentDate ? 'O' : 'F';
  return l;
}

}  // namespace laneql::tpch
