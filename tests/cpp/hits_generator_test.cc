// The hits generator: schema against create.sql, determinism across seeds, ranges and threads,
// the shape of the distributions ClickBench's queries depend on, and clean failures.
#include "laneql/hits_generator.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>
#include <unordered_set>
#include <utility>

#include "src/storage/hits_random.h"

namespace laneql {
namespace {

Table Generate(uint64_t seed, size_t rows, int threads = 1) {
  HitsOptions options;
  options.seed = seed;
  options.rows = rows;
  options.threads = threads;
  Table table;
  std::string error;
  EXPECT_TRUE(GenerateHits(options, &table, &error)) << error;
  return table;
}

// Row `row` of column `col` as bytes (fixed width: the value's bytes; strings: the text).
std::string_view Cell(const Column& column, size_t row) {
  if (IsString(column.type())) return column.StringAt(row);
  const size_t width = TypeByteWidth(column.type());
  return std::string_view(reinterpret_cast<const char*>(column.values_buffer().data()) +
                              row * width,
                          width);
}

// Expects rows [0, part.num_rows()) of `part` to equal rows [first, ...) of `full`.
void ExpectSameRows(const Table& full, size_t first, const Table& part) {
  ASSERT_EQ(full.num_columns(), part.num_columns());
  for (size_t c = 0; c < full.num_columns(); ++c) {
    const Column& a = full.column(c);
    const Column& b = part.column(c);
    ASSERT_EQ(a.type(), b.type()) << full.column_name(c);
    for (size_t r = 0; r < part.num_rows(); ++r) {
      ASSERT_EQ(Cell(a, first + r), Cell(b, r)) << full.column_name(c) << " row " << first + r;
    }
  }
}

// Whole-buffer equality: identical bytes, not just equal values.
bool SameBytes(const Table& a, const Table& b) {
  if (a.num_columns() != b.num_columns() || a.num_rows() != b.num_rows()) return false;
  for (size_t c = 0; c < a.num_columns(); ++c) {
    const AlignedBuffer& x = a.column(c).values_buffer();
    const AlignedBuffer& y = b.column(c).values_buffer();
    if (x.size() != y.size() || (x.size() != 0 && std::memcmp(x.data(), y.data(), x.size()) != 0)) {
      return false;
    }
    const AlignedBuffer& ox = a.column(c).offsets_buffer();
    const AlignedBuffer& oy = b.column(c).offsets_buffer();
    if (ox.size() != oy.size() ||
        (ox.size() != 0 && std::memcmp(ox.data(), oy.data(), ox.size()) != 0)) {
      return false;
    }
  }
  return true;
}

// Well-formed UTF-8 lead and continuation bytes (overlong forms are not checked: the generator
// only copies text written as UTF-8 literals).
bool IsValidUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t extra = 0;
    if (c < 0x80) {
      extra = 0;
    } else if ((c >> 5) == 6) {
      extra = 1;
    } else if ((c >> 4) == 14) {
      extra = 2;
    } else if ((c >> 3) == 30) {
      extra = 3;
    } else {
      return false;
    }
    for (size_t k = 1; k <= extra; ++k) {
      if (i + k >= s.size() || (static_cast<unsigned char>(s[i + k]) >> 6) != 2) return false;
    }
    i += extra + 1;
  }
  return true;
}

TEST(HitsGeneratorSchema, MatchesCreateSql) {
  const std::string path = std::string(LANEQL_CLICKBENCH_DIR) + "/create.sql";
  std::ifstream file(path);
  if (!file) GTEST_SKIP() << "no " << path;
  std::vector<std::pair<std::string, TypeId>> expected;
  std::string line;
  while (std::getline(file, line)) {
    if (line.find("NOT NULL") == std::string::npos) continue;
    std::istringstream words(line);
    std::string name, sql_type;
    words >> name >> sql_type;
    TypeId type;
    ASSERT_TRUE(TypeFromSqlName(sql_type, &type)) << line;
    expected.emplace_back(name, type);
  }
  const std::vector<HitsColumnSpec>& schema = HitsSchema();
  ASSERT_EQ(expected.size(), 105u);
  ASSERT_EQ(schema.size(), expected.size());
  for (size_t i = 0; i < schema.size(); ++i) {
    EXPECT_EQ(schema[i].name, expected[i].first) << "column " << i;
    EXPECT_EQ(schema[i].type, expected[i].second) << schema[i].name;
  }
  const Table table = Generate(1, 10);
  ASSERT_EQ(table.num_columns(), 105u);
  for (size_t i = 0; i < schema.size(); ++i) {
    EXPECT_EQ(table.column_name(i), schema[i].name);
    EXPECT_EQ(table.column(i).type(), schema[i].type);
  }
}

// The weighted choices' lookup tables give each value its share to within one slot (1/4096),
// the last value the remainder; built in 64-bit arithmetic, so also on 32-bit targets (wasm32).
TEST(HitsGeneratorRandom, PickTablesKeepTheWeights) {
  static constexpr hits::Weighted<int> kWeights[] = {{7, 600000}, {3, 250000}, {9, 100000},
                                                      {1, 41000}, {5, 8000}, {2, 1000}};
  const hits::PickTable<int> table = hits::MakePickTable(kWeights);
  const size_t slots = size_t{1} << hits::kPickBits;
  for (const hits::Weighted<int>& entry : kWeights) {
    size_t count = 0;
    for (size_t slot = 0; slot < slots; ++slot) count += table.value[slot] == entry.value;
    EXPECT_NEAR(static_cast<double>(count) / slots, entry.per_million / 1e6, 1.0 / slots)
        << "value " << entry.value;
  }
  // Pick reads the top bits: the lowest and highest hashes take the first and last slots.
  EXPECT_EQ(hits::Pick(table, 0), 7);
  EXPECT_EQ(hits::Pick(table, ~uint64_t{0}), table.value[slots - 1]);
}

TEST(HitsGeneratorDeterminism, SameSeedSameBytesOtherSeedOtherBytes) {
  const Table a = Generate(7, 20000);
  const Table b = Generate(7, 20000);
  const Table c = Generate(8, 20000);
  EXPECT_TRUE(SameBytes(a, b));
  EXPECT_FALSE(SameBytes(a, c));
  // Every column changes with the seed except those that are constant for all users and
  // rows; count how many differ to catch a column that ignores the seed.
  size_t differing = 0;
  for (size_t col = 0; col < a.num_columns(); ++col) {
    const AlignedBuffer& x = a.column(col).values_buffer();
    const AlignedBuffer& y = c.column(col).values_buffer();
    if (x.size() != y.size() || std::memcmp(x.data(), y.data(), x.size()) != 0) ++differing;
  }
  EXPECT_GE(differing, 95u);
}

// FNV-1a over every column's value and offset bytes, column digests folded in order.
uint64_t TableDigest(const Table& table) {
  const auto fnv = [](const uint8_t* p, size_t n, uint64_t h) {
    for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
  };
  constexpr uint64_t kBasis = 1469598103934665603ULL;
  uint64_t digest = kBasis;
  for (size_t c = 0; c < table.num_columns(); ++c) {
    const AlignedBuffer& values = table.column(c).values_buffer();
    const AlignedBuffer& offsets = table.column(c).offsets_buffer();
    uint64_t h = fnv(values.data(), values.size(), kBasis);
    h = fnv(offsets.data(), offsets.size(), h);
    uint8_t bytes[8];
    std::memcpy(bytes, &h, 8);
    digest = fnv(bytes, 8, digest);
  }
  return digest;
}

// The generator's bytes are pinned: a speed-up must not change the data that queries, the
// DuckDB comparisons and the peers' cached files see. (Taken from the generator before the
// sparse string columns were written from lists of their non-empty rows, 2026-11-23; a change
// meant to alter the data updates these digests in the same commit.) 5,003 rows end in a
// partial chunk whose row count is not a multiple of 8; 40,007 rows on 2 threads split in
// mid-chunk.
TEST(HitsGeneratorDeterminism, PinnedDigests) {
  EXPECT_EQ(TableDigest(Generate(1, 5003)), 0xfa6ad8f5c04b280aULL);
  EXPECT_EQ(TableDigest(Generate(7, 40007, 2)), 0x2945a49c77de048bULL);
}

TEST(HitsGeneratorDeterminism, AnySplitIntoRangesEqualsTheWholeTable) {
  HitsOptions options;
  options.seed = 3;
  options.rows = 50000;
  const Table full = Generate(options.seed, options.rows);
  const size_t bounds[] = {0, 7, 33333, 50000};
  for (int r = 0; r < 3; ++r) {
    Table part;
    std::string error;
    ASSERT_TRUE(GenerateHitsRange(options, bounds[r], bounds[r + 1] - bounds[r], &part, &error))
        << error;
    EXPECT_EQ(part.num_rows(), bounds[r + 1] - bounds[r]);
    ExpectSameRows(full, bounds[r], part);
  }
  // A range split again across threads.
  options.threads = 2;
  Table part;
  std::string error;
  ASSERT_TRUE(GenerateHitsRange(options, 5000, 40000, &part, &error)) << error;
  ExpectSameRows(full, 5000, part);
}

TEST(HitsGeneratorDeterminism, ThreadCountDoesNotChangeTheBytes) {
  const Table one = Generate(5, 70001, 1);
  const Table two = Generate(5, 70001, 2);
  const Table three = Generate(5, 70001, 3);
  EXPECT_TRUE(SameBytes(one, two));
  EXPECT_TRUE(SameBytes(one, three));
}

TEST(HitsGeneratorDeterminism, ProgressCountsEveryRowAndChangesNothing) {
  for (int threads : {1, 3}) {
    HitsOptions options;
    options.rows = 70000;
    options.threads = threads;
    std::mutex mutex;
    std::vector<size_t> reports;
    HitsOptions reporting = options;
    reporting.progress = [&](size_t rows_done) {
      std::lock_guard<std::mutex> lock(mutex);
      reports.push_back(rows_done);
    };
    Table plain, reported;
    std::string error;
    ASSERT_TRUE(GenerateHits(options, &plain, &error)) << error;
    ASSERT_TRUE(GenerateHits(reporting, &reported, &error)) << error;
    EXPECT_TRUE(SameBytes(plain, reported));
    ASSERT_FALSE(reports.empty());
    EXPECT_EQ(*std::max_element(reports.begin(), reports.end()), options.rows);
    for (size_t done : reports) EXPECT_LE(done, options.rows);
  }
}

TEST(HitsGeneratorDeterminism, AColumnSubsetHasTheWholeTablesValues) {
  const Table full = Generate(9, 40000);
  for (int threads : {1, 2}) {
    HitsOptions options;
    options.seed = 9;
    options.rows = 40000;
    options.threads = threads;
    // Any letter case; the table keeps the schema's order (URL before Referer before
    // SearchPhrase), whatever order the names come in.
    options.columns = {"searchphrase", "URL", "UserID", "eventdate", "Referer"};
    Table part;
    std::string error;
    ASSERT_TRUE(GenerateHits(options, &part, &error)) << error;
    ASSERT_EQ(part.num_columns(), 5u);
    EXPECT_EQ(part.num_rows(), 40000u);
    const char* order[] = {"EventDate", "UserID", "URL", "Referer", "SearchPhrase"};
    for (size_t i = 0; i < 5; ++i) {
      ASSERT_EQ(part.column_name(i), order[i]);
      const AlignedBuffer& x = part.column(i).values_buffer();
      const AlignedBuffer& y = full.FindColumn(order[i])->values_buffer();
      ASSERT_EQ(x.size(), y.size()) << order[i];
      EXPECT_EQ(std::memcmp(x.data(), y.data(), x.size()), 0) << order[i];
      if (IsString(part.column(i).type())) {
        EXPECT_EQ(std::memcmp(part.column(i).Offsets32(), full.FindColumn(order[i])->Offsets32(),
                              (40000 + 1) * sizeof(int32_t)),
                  0)
            << order[i];
      }
    }
  }
  HitsOptions bad;
  bad.rows = 10;
  bad.columns = {"URL", "NoSuchColumn"};
  Table table;
  std::string error;
  EXPECT_FALSE(GenerateHits(bad, &table, &error));
  EXPECT_EQ(error, "hits has no column 'NoSuchColumn'");
}

TEST(HitsGeneratorEdges, ZeroRows) {
  const Table table = Generate(1, 0);
  EXPECT_EQ(table.num_rows(), 0u);
  EXPECT_EQ(table.num_columns(), 105u);
  EXPECT_EQ(table.FindColumn("URL")->Offsets32()[0], 0);
}

TEST(HitsGeneratorEdges, HugeTablesFailCleanly) {
  std::string error;
  Table table;
  HitsOptions options;
  options.rows = SIZE_MAX / 2;  // also on wasm32, where size_t has 32 bits
  EXPECT_FALSE(GenerateHits(options, &table, &error));
  EXPECT_NE(error.find("more than this build can address"), std::string::npos) << error;
  EXPECT_EQ(table.num_columns(), 0u);
  options.rows = 200'000'000;
  error.clear();
  EXPECT_FALSE(GenerateHits(options, &table, &error));
  EXPECT_FALSE(error.empty());
}

TEST(HitsGeneratorEdges, RowBytesEstimateCountsTheChosenColumns) {
  const size_t all = EstimateHitsRowBytes({});
  EXPECT_EQ(EstimateHitsRowBytes({"AdvEngineID"}), 2u);  // SMALLINT
  EXPECT_EQ(EstimateHitsRowBytes({"userid", "EventTime"}), 16u);
  EXPECT_EQ(EstimateHitsRowBytes({"NoSuchColumn"}), 0u);
  size_t sum = 0;
  for (const HitsColumnSpec& spec : HitsSchema()) sum += EstimateHitsRowBytes({spec.name});
  EXPECT_EQ(sum, all);
  // Against what a table really holds: at least its bytes, not far above them.
  HitsOptions options;
  options.rows = 50'000;
  for (const std::vector<std::string>& columns :
       {std::vector<std::string>{}, std::vector<std::string>{"URL", "Title"},
        std::vector<std::string>{"SearchPhrase", "RegionID"}}) {
    options.columns = columns;
    Table table;
    std::string error;
    ASSERT_TRUE(GenerateHits(options, &table, &error)) << error;
    double bytes = 0;
    for (size_t c = 0; c < table.num_columns(); ++c) {
      const Column& column = table.column(c);
      bytes += column.values_buffer().size();
      if (column.type() == TypeId::kString) bytes += 4.0 * (column.length() + 1);
    }
    const double estimate = static_cast<double>(EstimateHitsRowBytes(columns)) * options.rows;
    EXPECT_GE(estimate, bytes) << columns.size() << " columns";
    EXPECT_LE(estimate, 1.6 * bytes) << columns.size() << " columns";
  }
}

TEST(HitsGeneratorEdges, RangesOutsideTheTableFail) {
  HitsOptions options;
  options.rows = 100;
  Table table;
  std::string error;
  EXPECT_FALSE(GenerateHitsRange(options, 90, 11, &table, &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(GenerateHitsRange(options, SIZE_MAX, 2, &table, &error));
  EXPECT_TRUE(GenerateHitsRange(options, 90, 10, &table, &error)) << error;
  EXPECT_EQ(table.num_rows(), 10u);
}

class HitsGeneratorDistribution : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { table_ = new Table(Generate(1, kRows, 2)); }
  static void TearDownTestSuite() {
    delete table_;
    table_ = nullptr;
  }
  template <class T>
  static const T* Values(const char* name) {
    return table_->FindColumn(name)->Values<T>();
  }
  static const Column& Col(const char* name) { return *table_->FindColumn(name); }
  static double Share(size_t count) { return static_cast<double>(count) / kRows; }

  static constexpr size_t kRows = 200000;
  static Table* table_;
};
Table* HitsGeneratorDistribution::table_ = nullptr;

TEST_F(HitsGeneratorDistribution, AdvEngineRegionSearchPhrase) {
  const int16_t* adv = Values<int16_t>("AdvEngineID");
  const int32_t* region = Values<int32_t>("RegionID");
  const Column& phrase = Col("SearchPhrase");
  const int16_t* engine = Values<int16_t>("SearchEngineID");
  size_t adv_rows = 0, adv_2 = 0, region_229 = 0, empty_phrase = 0;
  for (size_t r = 0; r < kRows; ++r) {
    adv_rows += adv[r] != 0;
    adv_2 += adv[r] == 2;
    region_229 += region[r] == 229;
    empty_phrase += phrase.StringAt(r).empty();
    EXPECT_EQ(phrase.StringAt(r).empty(), engine[r] == 0) << r;
  }
  EXPECT_NEAR(Share(adv_rows), 0.0063, 0.002);
  EXPECT_GT(adv_2 * 3, adv_rows);  // 2 is the top value
  EXPECT_NEAR(Share(region_229), 0.183, 0.03);
  EXPECT_NEAR(Share(empty_phrase), 0.87, 0.025);
}

TEST_F(HitsGeneratorDistribution, UrlsAndGoogle) {
  const Column& url = Col("URL");
  const Column& title = Col("Title");
  const Column& phrase = Col("SearchPhrase");
  size_t google = 0, google_with_phrase = 0, title_google = 0, bytes = 0;
  for (size_t r = 0; r < kRows; ++r) {
    const std::string_view u = url.StringAt(r);
    bytes += u.size();
    const bool has_google = u.find("google") != std::string_view::npos;
    google += has_google;
    google_with_phrase += has_google && !phrase.StringAt(r).empty();
    title_google += title.StringAt(r).find("Google") != std::string_view::npos &&
                    u.find(".google.") == std::string_view::npos && !phrase.StringAt(r).empty();
  }
  EXPECT_GE(google, 8u);  // 0.016 % of 200,000 is 32
  EXPECT_LE(google, 100u);
  EXPECT_GT(google_with_phrase, 0u);
  EXPECT_GT(title_google, 0u);
  const double average = static_cast<double>(bytes) / kRows;
  EXPECT_GT(average, 60.0);
  EXPECT_LT(average, 120.0);
}

TEST_F(HitsGeneratorDistribution, DatesUsersScreens) {
  const int32_t* date = Values<int32_t>("EventDate");
  const int64_t* time = Values<int64_t>("EventTime");
  const int64_t* user = Values<int64_t>("UserID");
  const int16_t* width = Values<int16_t>("ResolutionWidth");
  const int16_t* window_width = Values<int16_t>("WindowClientWidth");
  const int16_t* window_height = Values<int16_t>("WindowClientHeight");
  int32_t min_date = INT32_MAX, max_date = INT32_MIN;
  std::unordered_set<int64_t> users;
  double width_sum = 0, user_sum = 0;
  bool queried_user = false;
  for (size_t r = 0; r < kRows; ++r) {
    min_date = std::min(min_date, date[r]);
    max_date = std::max(max_date, date[r]);
    EXPECT_EQ(time[r] / 1000000 / 86400, date[r]);
    users.insert(user[r]);
    user_sum += static_cast<double>(user[r]);
    width_sum += width[r];
    queried_user |= user[r] == 435090932899640449;
    ASSERT_GE(window_width[r], 0) << r;
    ASSERT_LE(window_width[r], width[r]) << r;
    ASSERT_GE(window_height[r], 0) << r;
  }
  EXPECT_EQ(min_date, 15888);  // 2013-07-02
  EXPECT_EQ(max_date, 15917);  // 2013-07-31
  EXPECT_NEAR(static_cast<double>(users.size()) / kRows, 0.176, 0.03);
  EXPECT_NEAR(user_sum / kRows, 2.5e18, 1.0e18);
  EXPECT_NEAR(width_sum / kRows, 1513, 150);
  EXPECT_TRUE(queried_user);  // ClickBench Q19
}

TEST_F(HitsGeneratorDistribution, CounterSixtyTwoMeetsTheFilters) {
  const int32_t* counter = Values<int32_t>("CounterID");
  const int64_t* url_hash = Values<int64_t>("URLHash");
  const int64_t* referer_hash = Values<int64_t>("RefererHash");
  const int16_t* trafic = Values<int16_t>("TraficSourceID");
  const int16_t* refresh = Values<int16_t>("IsRefresh");
  const int16_t* link = Values<int16_t>("IsLink");
  size_t rows_62 = 0, top_url = 0, hub = 0, links = 0;
  for (size_t r = 0; r < kRows; ++r) {
    if (counter[r] != 62 || refresh[r] != 0) continue;
    ++rows_62;
    top_url += url_hash[r] == 2868770270353813622;
    hub += referer_hash[r] == 3594120000172545465 && (trafic[r] == -1 || trafic[r] == 6);
    links += link[r] != 0;
  }
  EXPECT_GT(Share(rows_62), 0.10);
  // The three big counters keep their shares of all rows (16 %, 11.6 %, 10.8 %).
  size_t all_62 = 0, cars = 0, films = 0;
  for (size_t r = 0; r < kRows; ++r) {
    all_62 += counter[r] == 62;
    cars += counter[r] == 1143050;
    films += counter[r] == 731962;
  }
  EXPECT_NEAR(Share(all_62), 0.160, 0.005);
  EXPECT_NEAR(Share(cars), 0.116, 0.005);
  EXPECT_NEAR(Share(films), 0.108, 0.005);
  EXPECT_GT(top_url, 1000u);
  EXPECT_GT(hub, 100u);
  EXPECT_GT(links, 200u);
}

// ClickBench Q28 keeps referring domains with > 100,000 rows (10 % of a million); Q31/Q32 group
// by WatchID and want some groups above one row.
TEST_F(HitsGeneratorDistribution, TopRefererDomainAndRepeatedWatchIds) {
  const Column& referer = Col("Referer");
  const int64_t* watch = Values<int64_t>("WatchID");
  size_t top_domain = 0;
  std::unordered_set<int64_t> watch_ids;
  for (size_t r = 0; r < kRows; ++r) {
    top_domain += referer.StringAt(r).rfind("http://megapoisk-katalog.ru/", 0) == 0;
    watch_ids.insert(watch[r]);
  }
  EXPECT_GT(Share(top_domain), 0.10);
  EXPECT_LT(watch_ids.size(), kRows);
  EXPECT_GT(watch_ids.size(), kRows * 98 / 100);
}

// Numbers written as text (the generator formats them itself, without the C library) are plain
// decimals: digits only, no leading zero, within the column's range.
bool IsDecimal(std::string_view s, uint64_t max) {
  if (s.empty() || s.size() > 20 || (s.size() > 1 && s[0] == '0')) return false;
  uint64_t value = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    value = value * 10 + static_cast<uint64_t>(ch - '0');
  }
  return value <= max;
}

TEST_F(HitsGeneratorDistribution, TextNumbersAreCanonicalDecimals) {
  const Column& flash_minor = Col("FlashMinor2");
  const Column& order = Col("ParamOrderID");
  const Column& source_page = Col("SocialSourcePage");
  const Column& url = Col("URL");
  std::unordered_set<std::string_view> flash_values;
  size_t script_urls = 0;
  for (size_t r = 0; r < kRows; ++r) {
    const std::string_view f = flash_minor.StringAt(r);
    if (!f.empty()) {
      ASSERT_TRUE(IsDecimal(f, 199)) << "FlashMinor2 row " << r << ": " << f;
      flash_values.insert(f);
    }
    const std::string_view o = order.StringAt(r);
    if (!o.empty()) {
      ASSERT_TRUE(IsDecimal(o, UINT64_MAX >> 40)) << "ParamOrderID row " << r;
    }
    const std::string_view s = source_page.StringAt(r);
    if (!s.empty()) {
      ASSERT_EQ(s.rfind("http://vk.com/club", 0), 0u) << s;
      ASSERT_TRUE(IsDecimal(s.substr(18), UINT64_MAX >> 44)) << s;
    }
    const std::string_view u = url.StringAt(r);
    const size_t id = u.find("view.php?id=");
    if (id != std::string_view::npos) {
      ++script_urls;
      std::string_view number = u.substr(id + 12);
      number = number.substr(0, number.find('&'));
      ASSERT_TRUE(IsDecimal(number, 60000)) << u;
    }
  }
  EXPECT_EQ(flash_values.size(), 200u);  // every value 0..199 occurs on 200,000 rows
  EXPECT_GT(script_urls, kRows / 10);
}

TEST_F(HitsGeneratorDistribution, EveryStringIsValidUtf8) {
  for (size_t c = 0; c < table_->num_columns(); ++c) {
    const Column& column = table_->column(c);
    if (!IsString(column.type())) continue;
    for (size_t r = 0; r < kRows; ++r) {
      ASSERT_TRUE(IsValidUtf8(column.StringAt(r))) << table_->column_name(c) << " row " << r;
    }
  }
}

}  // namespace
}  // namespace laneql
