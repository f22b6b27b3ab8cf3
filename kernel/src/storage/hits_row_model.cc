// The shared facts of each row. See hits_row_model.h. The shares quoted are of all rows and
// come from the facts about the real data in ../shared/clickbench/README.md.
#include "src/storage/hits_row_model.h"

#include <cstdint>

#include "src/storage/hits_random.h"
#include "src/storage/hits_text.h"
#include "src/storage/hits_user_traits.h"
#include "src/storage/hits_vocabulary.h"

namespace laneql::hits {
namespace {

// Draw streams of the row key (one per decision, so decisions are independent).
enum RowStream : uint64_t {
  kStreamUser = 1000,
  kStreamCounter,
  kStreamTailCounter,
  kStreamFlags1,
  kStreamFlags2,
  kStreamDay,
  kStreamSecond,
  kStreamGoogle,
  kStreamPage,
  kStreamSearch,
  kStreamPhrase,
  kStreamEngine,
  kStreamAdv,
  kStreamReferer,
  kStreamRefererItem,
  kStreamTagged,
};

// ClickBench's Q19 looks up this UserID; it belongs to a fairly active user.
constexpr int64_t kQueriedUserId = 435090932899640449;
constexpr uint64_t kQueriedUserIndex = 7;

// Region shares follow the real top five (229 18.3 %, 2 6.7 %, 208 4.3 %, 169 3.3 %,
// 32 1.8 %); -1 stands for the Zipf-like tail over a few thousand ids.
constexpr Weighted<int32_t> kRegions[] = {
    {229, 183000}, {2, 67000}, {208, 43000}, {169, 33000}, {32, 18000}, {34, 15000},
    {184, 12000}, {107, 11000}, {51, 10000}, {146, 9000}, {225, 8000}, {158, 7500},
    {11, 7000}, {-1, 0}};
constexpr PickTable<int32_t> kRegionTable = MakePickTable(kRegions);

constexpr Weighted<int32_t> kSearchEngines[] = {{2, 700000}, {3, 200000}, {4, 50000},
                                                {5, 30000}, {6, 20000}};
// In 32-bit slots (the values are bytes): the loops that pick from them vectorise with gathers,
// which have no byte-sized form.
constexpr PickTable<int32_t> kSearchEngineTable = MakePickTable(kSearchEngines);
// AdvEngineID of the 0.63 % of rows with an ad click; top values 2, 27, 13, 45, 44.
constexpr Weighted<int32_t> kAdvEngines[] = {{2, 380000}, {27, 210000}, {13, 150000},
                                             {45, 100000}, {44, 70000}, {3, 40000},
                                             {50, 30000}, {41, 20000}};
constexpr PickTable<int32_t> kAdvEngineTable = MakePickTable(kAdvEngines);

// The counter slot by the top 16 bits of a draw: HeavyCounters()' shares (the smallest is
// 4,400 per million, so 1/65,536 steps keep them within 0.4 %), the rest kTailCounterSlot.
// Built once, on first use; a lookup replaces a scan over 30 counters.
constexpr int kCounterBits = 16;
const uint16_t* CounterSlotTable() {
  static const uint16_t* const kTable = [] {
    size_t num_heavy = 0;
    const HeavyCounter* heavy = HeavyCounters(&num_heavy);
    auto* table = new uint16_t[size_t{1} << kCounterBits];
    uint64_t start = 0;
    size_t c = 0;
    for (size_t slot = 0; slot < (size_t{1} << kCounterBits); ++slot) {
      const uint64_t middle = (2 * uint64_t{slot} + 1) * 1000000 / (uint64_t{2} << kCounterBits);
      while (c < num_heavy && middle >= start + heavy[c].per_million) {
        start += heavy[c++].per_million;
      }
      table[slot] = c < num_heavy ? static_cast<uint16_t>(c) : kTailCounterSlot;
    }
    return table;
  }();
  return kTable;
}

int64_t UserIdOf(uint64_t user_index, uint64_t user_key) {
  // Mostly positive (23 % negative) so that AVG(UserID) lands near the real 2.5e18.
  const int64_t id = static_cast<int64_t>(Draw(user_key, 1) >> 1);
  const int64_t signed_id = Chance(Draw(user_key, 2), 230000) ? ~id : id;
  return user_index == kQueriedUserIndex ? kQueriedUserId : signed_id;
}

int32_t RegionOf(uint64_t user_key) {
  const int32_t region = Pick(kRegionTable, Draw(user_key, 3));
  const int32_t tail = 1 + static_cast<int32_t>(SkewedIndex(Draw(user_key, 4), 4000));
  return region < 0 ? tail : region;
}

// Pages per site: big sites have many (so even one site's rows spread over thousands of URLs).
uint32_t PagesOf(uint16_t slot) {
  const uint32_t heavy_pages = slot < 3 ? 60000 : 8000;
  return slot == kTailCounterSlot ? 300 : heavy_pages;
}

}  // namespace

HitsParams MakeHitsParams(uint64_t seed, size_t rows) {
  HitsParams params;
  params.seed_key = Mix64(seed ^ 0x5a17e5c0ffee1234ULL);
  // 18 % of the rows as users, drawn with a u^1.5 skew, leaves about 17.6 % distinct users per
  // row (the real COUNT(DISTINCT UserID) / rows).
  params.users = rows / 100 * 18 + (rows % 100) * 18 / 100;
  if (params.users < 1) params.users = 1;
  // Phrase ids drawn with a u^2 skew on the ~13 % of rows with a phrase: about 45 % of those
  // rows carry a distinct phrase, as in the real data (6.0 M distinct of ~13 M).
  params.phrases = rows / 1000 * 85 + (rows % 1000) * 85 / 1000;
  if (params.phrases < 1) params.phrases = 1;
  return params;
}

LANEQL_HITS_MULTIVERSION
void FillRowChunk(const HitsParams& params, size_t first_row, size_t count,
                  RowChunk* __restrict chunk) {
  // In locals, so the compiler knows the chunk's stores cannot change them (and vectorises).
  const uint64_t seed_key = params.seed_key;
  const uint64_t user_seed_key = params.seed_key ^ 0x75736572ULL;
  const uint64_t users = params.users;
  const uint64_t phrases = params.phrases;
  size_t num_heavy = 0;
  const HeavyCounter* heavy = HeavyCounters(&num_heavy);
  int32_t heavy_ids[64] = {};
  for (size_t c = 0; c < num_heavy && c < 64; ++c) heavy_ids[c] = heavy[c].id;
  const uint16_t* const counter_slots = CounterSlotTable();
  chunk->count = count;
  // The facts every row has, in a loop without branches so that it vectorises: keys, user,
  // site, flags, time and page.
  for (size_t i = 0; i < count; ++i) chunk->row_key[i] = KeyOf(seed_key, first_row + i);
  // The site: three big counters, a few dozen medium ones, then a long tail. (A loop of its
  // own: the compiler cannot tell the table lookups from the chunk's stores.)
  for (size_t i = 0; i < count; ++i) {
    const uint64_t draw = Draw(chunk->row_key[i], kStreamCounter);
    chunk->counter_slot[i] = counter_slots[draw >> (64 - kCounterBits)];
  }
  for (size_t i = 0; i < count; ++i) {
    const uint64_t key = chunk->row_key[i];

    const uint64_t user = SkewedIndex(Draw(key, kStreamUser), users);
    const uint64_t user_key = KeyOf(user_seed_key, user);
    chunk->user_key[i] = user_key;
    chunk->user_id[i] = UserIdOf(user, user_key);
    chunk->region[i] = RegionOf(user_key);

    const uint16_t slot = chunk->counter_slot[i];
    const int32_t tail_id =
        kFirstTailCounter +
        kTailCounterStep *
            static_cast<int32_t>(SkewedIndex(Draw(key, kStreamTailCounter), kTailCounters));
    const int32_t heavy_id = heavy_ids[slot & 63];
    const int32_t counter_id = slot == kTailCounterSlot ? tail_id : heavy_id;
    chunk->counter_id[i] = counter_id;
    chunk->site_key[i] = KeyOf(0x73697465ULL, static_cast<uint32_t>(counter_id));

    const uint64_t f1 = Draw(key, kStreamFlags1);
    const uint64_t f2 = Draw(key, kStreamFlags2);
    uint32_t flags = 0;
    flags |= kFlagRefresh * Chance(f1, 90000);
    flags |= kFlagDontCount * (Below(f1, 1000) < 40);
    flags |= kFlagLink * Chance(f2, 45000);
    flags |= kFlagDownload * (Below(f2, 1000) < 8);
    flags |= kFlagNotBounce * ((f1 >> 16 & 1023) < 256);
    flags |= kFlagEvent * ((f2 >> 16 & 1023) < 20);
    // URL LIKE '%google%' on 0.016 % of the real rows.
    flags |= kFlagGoogleUrl * Chance(Draw(key, kStreamGoogle), 160);
    chunk->flags[i] = static_cast<uint8_t>(flags);

    // Time: days uniform, 60 % of hits in the daytime hours 09:00-22:00.
    const int64_t day = kFirstDay + Below(Draw(key, kStreamDay), kNumDays);
    const uint64_t s = Draw(key, kStreamSecond);
    const int64_t daytime = 9 * 3600 + Below(s, 13 * 3600);
    const int64_t any_time = Below(s, 86400);
    chunk->event_time[i] = day * 86400 + (Chance(s, 600000) ? daytime : any_time);

    // The page: the home page is common (counter 62's is the single most visited URL, 3.3 %
    // of all rows); other pages skewed over the site's pages.
    const uint64_t p = Draw(key, kStreamPage);
    const uint32_t home_per_million = slot == 0 ? 206000 : 40000;
    const uint32_t other_page = 1 + static_cast<uint32_t>(SkewedIndex(p, PagesOf(slot)));
    const uint32_t page = Chance(p, home_per_million) ? 0 : other_page;
    chunk->page[i] = page;
    chunk->page_key[i] = PageKey(counter_id, page);
  }

  // How each row's visitor arrived: from a search (13 %, then a search phrase), an ad, a link
  // on the same site, another site, or directly. The choices are coin flips, which as branches
  // were mispredicted so often that one loop with them cost more than the loop above (31
  // cycles a row against 18); here three loops work out every outcome's values and let the
  // row's draws pick, without a branch (20 cycles a row for the three; the last two vectorise).
  // The search, its phrase (skewed towards small ids; through int64, exact as the product is
  // below `phrases`) and its engine.
  for (size_t i = 0; i < count; ++i) {
    const uint64_t key = chunk->row_key[i];
    const uint64_t sr = Draw(key, kStreamSearch);
    const bool google = (chunk->flags[i] & kFlagGoogleUrl) != 0;
    const bool search = google ? Chance(sr, 600000) : Chance(sr, 130000);
    const double u = Unit(Draw(key, kStreamPhrase));
    const uint64_t drawn =
        static_cast<uint64_t>(static_cast<int64_t>(static_cast<double>(phrases) * u * u));
    const uint64_t phrase = drawn < phrases ? drawn : phrases - 1;
    chunk->phrase[i] = search ? static_cast<uint32_t>(phrase + 1) : 0;
    const int32_t engine = Pick(kSearchEngineTable, Draw(key, kStreamEngine));
    chunk->search_engine[i] = static_cast<uint8_t>(search ? engine : 0);
  }
  // Otherwise an ad click (0.73 % of the rest, 0.63 % of all rows), and the referer's kind:
  // none, a page of the same site or another site; ad campaigns' marks on some of the ad and
  // external visits; the traffic source.
  for (size_t i = 0; i < count; ++i) {
    const uint64_t key = chunk->row_key[i];
    const bool search = chunk->phrase[i] != 0;
    const uint64_t r = Draw(key, kStreamReferer);
    const uint64_t a = Draw(key, kStreamAdv);
    const bool adv = Chance(a, 7300) & !search;
    const int32_t adv_engine = Pick(kAdvEngineTable, a);
    chunk->adv_engine[i] = static_cast<uint8_t>(adv ? adv_engine : 0);
    const uint32_t kind = Below(r, 100);
    const bool tagged =
        (adv | (kind >= 65)) & Chance(Draw(key, kStreamTagged), 150000) & !search;
    chunk->flags[i] = static_cast<uint8_t>(chunk->flags[i] | (tagged ? kFlagTagged : 0));
    const bool empty = kind < 29;
    const bool internal = !empty & (kind < 65) & !adv;
    const uint8_t visit_kind = empty ? uint8_t{kRefererEmpty}
                               : internal ? uint8_t{kRefererInternal}
                                          : uint8_t{kRefererExternal};
    chunk->referer_kind[i] = search ? uint8_t{kRefererSearch} : visit_kind;
    const int8_t direct_source = adv ? 3 : (Chance(r, 850000) ? 0 : 5);
    const int8_t external_source =
        adv ? 3 : (Chance(r, 800000) ? 1 : (Chance(r, 900000) ? 6 : 8));
    const int8_t visit_source = empty ? direct_source : (internal ? -1 : external_source);
    chunk->trafic_source[i] = search ? 2 : visit_source;
  }
  // The referer's item: an internal referer's page (counter 62's news hub for a fifth of its
  // rows), an external one's site and path number; 0 for the other kinds.
  for (size_t i = 0; i < count; ++i) {
    const uint64_t item = Draw(chunk->row_key[i], kStreamRefererItem);
    const uint16_t slot = chunk->counter_slot[i];
    const uint32_t page =
        Chance(item, 150000) ? 0 : 1 + static_cast<uint32_t>(SkewedIndex(item, PagesOf(slot)));
    const uint32_t from = (slot == 0) & (Below(item, 100) < 20) ? kHubReferer : page;
    const uint32_t site = Chance(item, 450000) ? 0 : 1 + Below(item, 11);
    const uint32_t path = site << 20 | (static_cast<uint32_t>(item >> 8) & 0xfffff);
    const uint8_t kind = chunk->referer_kind[i];
    const uint32_t external = kind == kRefererExternal ? path : 0;
    chunk->referer_item[i] = kind == kRefererInternal ? from : external;
  }
  for (size_t i = 0; i < count; ++i) chunk->referer_hash[i] = RefererHashOf(*chunk, i);
  for (size_t i = 0; i < count; ++i) {
    const UserTraits traits = UserTraitsOf(chunk->user_key[i]);
    chunk->mobile[i] = traits.mobile;
    chunk->mobile_model[i] = traits.model;
    chunk->screen_width[i] = traits.screen.width;
    chunk->screen_height[i] = traits.screen.height;
    chunk->flash_major[i] = traits.flash_major;
    chunk->net_major[i] = traits.net_major;
    chunk->language[i] = traits.language;
    chunk->client_ip[i] = traits.client_ip;
  }
}

}  // namespace laneql::hits
