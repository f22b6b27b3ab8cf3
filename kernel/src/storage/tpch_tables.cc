// The TPC-H tables that orders and lineitem refer to (region, nation, supplier, customer, part,
// partsupp), each value by the specification's rule (clause 4.2.3), and the list of all tables.
#include "src/storage/tpch_tables.h"

#include <algorithm>
#include <cstring>

#include "laneql/int128.h"

namespace laneql::tpch {
namespace {

// Streams of the columns drawn here, per table (see kFirstTableStream).
enum Stream : uint64_t {
  kNameDraw = kFirstTableStream, kAddressDraw, kNationDraw = kAddressDraw + 4, kPhoneDraw,
  kBalanceDraw, kCommentDraw, kSegmentDraw, kTypeDraw, kSizeDraw, kContainerDraw, kBrandDraw,
  kAvailDraw, kCostDraw, kMarkDraw
};

// Phone numbers: country code (nation key + 10), then 3, 3 and 4 random digits.
void AddPhone(const Model& model, Family family, uint64_t row, int32_t nation, StringPiece* out) {
  const uint64_t h = model.Draw(family, row, kPhoneDraw);
  char text[15];
  char* p = PutDigits(text, static_cast<uint64_t>(nation) + 10, 2);
  *p++ = '-';
  p = PutDigits(p, UniformIn(h, 100, 999), 3);
  *p++ = '-';
  p = PutDigits(p, UniformIn(hits::Mix64(h), 100, 999), 3);
  *p++ = '-';
  p = PutDigits(p, UniformIn(hits::Mix64(h + 1), 1000, 9999), 4);
  out->Add(std::string_view(text, sizeof(text)));
}

// The specification's "random v-string": 10 to 40 characters from a 64-character alphabet, six
// bits of a draw each.
void AddAddress(const Model& model, Family family, uint64_t row, StringPiece* out) {
  static constexpr char kAlphabet[] =
      "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ, ";
  char text[40];
  const int length = static_cast<int>(UniformIn(model.Draw(family, row, kAddressDraw), 10, 40));
  for (int i = 0; i < length; i += 10) {
    uint64_t h = model.Draw(family, row, kAddressDraw + 1 + static_cast<uint64_t>(i / 10));
    for (int j = i; j < std::min(length, i + 10); ++j, h >>= 6) text[j] = kAlphabet[h & 63];
  }
  out->Add(std::string_view(text, static_cast<size_t>(length)));
}

// "Supplier#000000042": the key in 9 digits.
void AddKeyName(std::string_view prefix, int64_t key, StringPiece* out) {
  char text[32];
  std::memcpy(text, prefix.data(), prefix.size());
  char* end = PutDigits(text + prefix.size(), static_cast<uint64_t>(key), 9);
  out->Add(std::string_view(text, static_cast<size_t>(end - text)));
}

uint64_t OneRowPerUnit(const Model&, uint64_t, uint64_t count) { return count; }

uint64_t FillRegion(const Model& model, uint64_t first, uint64_t count, RowSink* sink) {
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t row = first + i;
    sink->Put<int32_t>(0, i, static_cast<int32_t>(row));
    sink->strings[1].Add(kRegionNames[row]);
    sink->strings[2].Add(model.Comment(Family::kRegion, row, kCommentDraw, 31, 115));
  }
  return count;
}

uint64_t FillNation(const Model& model, uint64_t first, uint64_t count, RowSink* sink) {
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t row = first + i;
    sink->Put<int32_t>(0, i, static_cast<int32_t>(row));
    sink->strings[1].Add(kNationList[row].name);
    sink->Put<int32_t>(2, i, kNationList[row].region);
    sink->strings[3].Add(model.Comment(Family::kNation, row, kCommentDraw, 31, 114));
  }
  return count;
}

// A supplier comment with "Customer" and, later, `word` ("Complaints" or "Recommends") written
// over it at random places (the specification's rule for TPC-H Q16's suppliers).
void AddMarkedComment(const Model& model, uint64_t row, std::string_view word,
                      StringPiece* out) {
  constexpr std::string_view kCustomer = "Customer";
  const std::string_view base = model.Comment(Family::kSupplier, row, kCommentDraw, 25, 100);
  char text[100];
  std::memcpy(text, base.data(), base.size());
  const int64_t length = static_cast<int64_t>(base.size());
  const int64_t customer = static_cast<int64_t>(kCustomer.size());
  const int64_t word_size = static_cast<int64_t>(word.size());
  const uint64_t h = model.Draw(Family::kSupplier, row, kMarkDraw);
  const int64_t at = UniformIn(h, 0, length - customer - word_size);
  const int64_t later = UniformIn(hits::Mix64(h), at + customer, length - word_size);
  std::memcpy(text + at, kCustomer.data(), kCustomer.size());
  std::memcpy(text + later, word.data(), word.size());
  out->Add(std::string_view(text, base.size()));
}

// The columns supplier and customer share, 0 to 5, of row `i` of the fill (table row `row`):
// key, "Supplier#" or "Customer#" name, address, nation, phone and account balance.
void FillAccountColumns(const Model& model, Family family, std::string_view name_prefix,
                        uint64_t row, uint64_t i, RowSink* sink) {
  const int64_t key = static_cast<int64_t>(row) + 1;
  sink->Put<int64_t>(0, i, key);
  AddKeyName(name_prefix, key, &sink->strings[1]);
  AddAddress(model, family, row, &sink->strings[2]);
  const int32_t nation =
      static_cast<int32_t>(UniformIn(model.Draw(family, row, kNationDraw), 0, kNations - 1));
  sink->Put<int32_t>(3, i, nation);
  AddPhone(model, family, row, nation, &sink->strings[4]);
  // Account balances: [-999.99, 9999.99].
  sink->Put<Int128>(5, i, UniformIn(model.Draw(family, row, kBalanceDraw), -99'999, 999'999));
}

uint64_t FillSupplier(const Model& model, uint64_t first, uint64_t count, RowSink* sink) {
  const Scale& scale = model.scale();
  // The complaining suppliers are every stride-th from a drawn offset, the recommended ones
  // half a stride further: exactly scale.complaining_suppliers of each at any scale.
  const uint64_t suppliers = static_cast<uint64_t>(scale.suppliers);
  const uint64_t marked = static_cast<uint64_t>(scale.complaining_suppliers);
  const uint64_t stride = suppliers / marked;
  const uint64_t offset = UniformBelow(model.Draw(Family::kSupplier, suppliers, kMarkDraw), stride);
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t row = first + i;
    FillAccountColumns(model, Family::kSupplier, "Supplier#", row, i, sink);
    const bool in_marked = row / stride < marked;
    if (in_marked && row % stride == offset) {
      AddMarkedComment(model, row, "Complaints", &sink->strings[6]);
    } else if (in_marked && stride >= 2 && row % stride == (offset + stride / 2) % stride) {
      AddMarkedComment(model, row, "Recommends", &sink->strings[6]);
    } else {
      sink->strings[6].Add(model.Comment(Family::kSupplier, row, kCommentDraw, 25, 100));
    }
  }
  return count;
}

uint64_t FillCustomer(const Model& model, uint64_t first, uint64_t count, RowSink* sink) {
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t row = first + i;
    FillAccountColumns(model, Family::kCustomer, "Customer#", row, i, sink);
    sink->strings[6].Add(kSegments.Pick(model.Draw(Family::kCustomer, row, kSegmentDraw)));
    sink->strings[7].Add(model.Comment(Family::kCustomer, row, kCommentDraw, 29, 116));
  }
  return count;
}

// p_name: 5 distinct colours, space-separated.
void AddPartName(const Model& model, uint64_t row, StringPiece* out) {
  uint32_t chosen[5];
  std::string name;
  uint64_t h = model.Draw(Family::kPart, row, kNameDraw);
  for (int k = 0; k < 5; ++k) {
    uint32_t colour;
    do {
      h = hits::Mix64(h + 1);
      colour = static_cast<uint32_t>(UniformBelow(h, kColours.size));
    } while (std::find(chosen, chosen + k, colour) != chosen + k);
    chosen[k] = colour;
    if (k > 0) name += ' ';
    name.append(kColours.words[colour]);
  }
  out->Add(name);
}

uint64_t FillPart(const Model& model, uint64_t first, uint64_t count, RowSink* sink) {
  std::string text;
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t row = first + i;
    const auto draw = [&](uint64_t stream) { return model.Draw(Family::kPart, row, stream); };
    const int64_t key = static_cast<int64_t>(row) + 1;
    sink->Put<int64_t>(0, i, key);
    AddPartName(model, row, &sink->strings[1]);
    // Manufacturer#M and Brand#MN, M and N in 1..5.
    const uint64_t brand = draw(kBrandDraw);
    const char m = static_cast<char>('1' + UniformBelow(brand, 5));
    const char n = static_cast<char>('1' + UniformBelow(hits::Mix64(brand), 5));
    text.assign("Manufacturer#").push_back(m);
    sink->strings[2].Add(text);
    text.assign("Brand#").append({m, n});
    sink->strings[3].Add(text);
    const uint64_t type = draw(kTypeDraw);
    text.assign(kTypeSizes.Pick(type)).append(" ").append(kTypeFinishes.Pick(hits::Mix64(type)));
    text.append(" ").append(kTypeMetals.Pick(hits::Mix64(type + 1)));
    sink->strings[4].Add(text);
    sink->Put<int32_t>(5, i, static_cast<int32_t>(UniformIn(draw(kSizeDraw), 1, 50)));
    const uint64_t container = draw(kContainerDraw);
    text.assign(kContainerSizes.Pick(container)).append(" ");
    text.append(kContainerKinds.Pick(hits::Mix64(container)));
    sink->strings[6].Add(text);
    sink->Put<Int128>(7, i, RetailPriceCents(key));
    sink->strings[8].Add(model.Comment(Family::kPart, row, kCommentDraw, 5, 22));
  }
  return count;
}

uint64_t FourRowsPerPart(const Model&, uint64_t, uint64_t count) { return 4 * count; }

uint64_t FillPartSupp(const Model& model, uint64_t first, uint64_t count, RowSink* sink) {
  uint64_t out = 0;
  for (uint64_t i = 0; i < count; ++i) {
    const int64_t partkey = static_cast<int64_t>(first + i) + 1;
    for (int s = 0; s < 4; ++s, ++out) {
      const uint64_t row = (first + i) * 4 + static_cast<uint64_t>(s);
      const auto draw = [&](uint64_t stream) { return model.Draw(Family::kPartSupp, row, stream); };
      sink->Put<int64_t>(0, out, partkey);
      sink->Put<int64_t>(1, out, PartSupplier(partkey, s, model.scale().suppliers));
      sink->Put<int64_t>(2, out, UniformIn(draw(kAvailDraw), 1, 9999));
      sink->Put<Int128>(3, out, UniformIn(draw(kCostDraw), 100, 100'000));
      sink->strings[4].Add(model.Comment(Family::kPartSupp, row, kCommentDraw, 49, 198));
    }
  }
  return out;
}

std::vector<TableDef> MakeTableDefs() {
  std::vector<TableDef> defs;
  defs.push_back({"region",
                  {{"r_regionkey", TypeId::kInt32}, {"r_name", TypeId::kString},
                   {"r_comment", TypeId::kString}},
                  [](const Scale&) -> uint64_t { return kRegions; }, OneRowPerUnit, FillRegion,
                  200, 80, kRegions});
  defs.push_back({"nation",
                  {{"n_nationkey", TypeId::kInt32}, {"n_name", TypeId::kString},
                   {"n_regionkey", TypeId::kInt32}, {"n_comment", TypeId::kString}},
                  [](const Scale&) -> uint64_t { return kNations; }, OneRowPerUnit, FillNation,
                  200, 80, kNations});
  defs.push_back({"supplier",
                  {{"s_suppkey", TypeId::kInt64}, {"s_name", TypeId::kString},
                   {"s_address", TypeId::kString}, {"s_nationkey", TypeId::kInt32},
                   {"s_phone", TypeId::kString}, {"s_acctbal", kMoney},
                   {"s_comment", TypeId::kString}},
                  [](const Scale& s) { return static_cast<uint64_t>(s.suppliers); },
                  OneRowPerUnit, FillSupplier, 300, 63, 10'000});
  defs.push_back({"customer",
                  {{"c_custkey", TypeId::kInt64}, {"c_name", TypeId::kString},
                   {"c_address", TypeId::kString}, {"c_nationkey", TypeId::kInt32},
                   {"c_phone", TypeId::kString}, {"c_acctbal", kMoney},
                   {"c_mktsegment", TypeId::kString}, {"c_comment", TypeId::kString}},
                  [](const Scale& s) { return static_cast<uint64_t>(s.customers); },
                  OneRowPerUnit, FillCustomer, 330, 73, 150'000});
  defs.push_back({"part",
                  {{"p_partkey", TypeId::kInt64}, {"p_name", TypeId::kString},
                   {"p_mfgr", TypeId::kString}, {"p_brand", TypeId::kString},
                   {"p_type", TypeId::kString}, {"p_size", TypeId::kInt32},
                   {"p_container", TypeId::kString}, {"p_retailprice", kMoney},
                   {"p_comment", TypeId::kString}},
                  [](const Scale& s) { return static_cast<uint64_t>(s.parts); }, OneRowPerUnit,
                  FillPart, 260, 34, 200'000});
  defs.push_back({"partsupp",
                  {{"ps_partkey", TypeId::kInt64}, {"ps_suppkey", TypeId::kInt64},
                   {"ps_availqty", TypeId::kInt64}, {"ps_supplycost", kMoney},
                   {"ps_comment", TypeId::kString}},
                  [](const Scale& s) { return static_cast<uint64_t>(s.parts); },
                  FourRowsPerPart, FillPartSupp, 330, 124, 800'000});
  defs.push_back(OrdersDef());
  defs.push_back(LineitemDef());
  return defs;
}

}  // namespace

char* PutDigits(char* p, uint64_t value, int width) {
  for (int i = width - 1; i >= 0; --i, value /= 10) p[i] = static_cast<char>('0' + value % 10);
  return p + width;
}

const std::vector<TableDef>& TableDefs() {
  static const std::vector<TableDef>* const kDefs = new std::vector<TableDef>(MakeTableDefs());
  return *kDefs;
}

const TableDef* FindTableDef(std::string_view name) {
  for (const TableDef& def : TableDefs()) {
    if (def.name == name) return &def;
  }
  return nullptr;
}

}  // namespace laneql::tpch
