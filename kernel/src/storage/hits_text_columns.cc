// The string columns of the hits generator: one loop per column over a chunk of rows, each
// value written straight into the column's byte sink.
#include <cstdint>
#include <string_view>

#include "src/storage/hits_column_fill.h"
#include "src/storage/hits_columns.h"
#include "src/storage/hits_random.h"
#include "src/storage/hits_user_traits.h"
#include "src/storage/hits_vocabulary.h"

namespace laneql::hits {
namespace {

// Writes chunk.count values; put(p, i) writes row i's value at p and returns its end. The
// cursor stays local and the sink is asked for room only when it runs low, so an empty value
// costs a compare and a store.
template <class F>
bool Fill(const RowChunk& c, ByteSink* bytes, int32_t* ends, F put) {
  char* p = bytes->Room();
  if (p == nullptr) return false;
  const char* base = bytes->data();
  char* last_safe = bytes->LastSafeStart();
  for (size_t i = 0; i < c.count; ++i) {
    if (p > last_safe) {
      bytes->Commit(p);
      p = bytes->Room();
      if (p == nullptr) return false;
      base = bytes->data();
      last_safe = bytes->LastSafeStart();
    }
    p = put(p, i);
    ends[i] = static_cast<int32_t>(p - base);
  }
  bytes->Commit(p);
  return true;
}

// One of a few short strings per row with probability per_million, else ''.
template <size_t N>
bool FillSparseChoice(const RowChunk& c, int column, uint32_t per_million,
                      const std::string_view (&choices)[N], ByteSink* bytes, int32_t* ends) {
  return Fill(c, bytes, ends, [&](char* p, size_t i) {
    const uint64_t h = Draw(c.row_key[i], column);
    return Chance(h, per_million) ? Put(p, choices[Below(h, N)]) : p;
  });
}

// The (language, country) pairs of UserTraits::language.
constexpr ShortText kLanguages[] = {
    MakeShortText("ru"), MakeShortText("uk"), MakeShortText("ru"), MakeShortText("be"),
    MakeShortText("ru"), MakeShortText("en"), MakeShortText("tr"), MakeShortText("de"),
    MakeShortText("en"), MakeShortText("kk")};
constexpr ShortText kCountries[] = {
    MakeShortText("ru"), MakeShortText("ua"), MakeShortText("ua"), MakeShortText("by"),
    MakeShortText("kz"), MakeShortText("us"), MakeShortText("tr"), MakeShortText("de"),
    MakeShortText("gb"), MakeShortText("kz")};

// The rows of ad campaigns carry Openstat / UTM marks (some of the ad and external visits).
bool IsTagged(const RowChunk& c, size_t i) { return (c.flags[i] & kFlagTagged) != 0; }

bool TitleIsEmpty(int32_t counter_id, uint32_t page) {
  return (static_cast<uint32_t>(counter_id) * 2654435761u + page * 40503u) % 50 == 7;
}

}  // namespace

LANEQL_HITS_MULTIVERSION
bool FillTextColumn(int column, const RowChunk& c, ByteSink* bytes, int32_t* ends) {
  switch (column) {
    case kTitle:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        if (TitleIsEmpty(c.counter_id[i], c.page[i])) return p;
        return PutTitle(p, PageRef{c.counter_slot[i], c.site_key[i], c.page[i], c.page_key[i]});
      });
    case kURL:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        if (c.flags[i] & kFlagGoogleUrl) return PutGoogleUrl(p, c.row_key[i], c.phrase[i]);
        return PutPageUrl(p, PageRef{c.counter_slot[i], c.site_key[i], c.page[i], c.page_key[i]});
      });
    case kReferer:
      return Fill(c, bytes, ends, [&](char* p, size_t i) { return PutReferer(p, c, i); });
    case kFlashMinor2:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        const uint64_t h = Draw(c.user_key[i], column);
        char* const end = PutDecimal(p, Below(h, 200));
        const bool empty = (c.flash_major[i] == 0) | Chance(h, 300000);
        return p + KeptLength(static_cast<size_t>(end - p), !empty);
      });
    case kUserAgentMinor: {
      static constexpr ShortText kMinors[] = {
          MakeShortText("0"), MakeShortText("0"),  MakeShortText("0"),  MakeShortText("1"),
          MakeShortText("2"), MakeShortText("5"),  MakeShortText("10"), MakeShortText("4b"),
          MakeShortText("D4"), MakeShortText("a")};
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        return PutShortText(p, kMinors[Below(Draw(c.user_key[i], column), 10)]);
      });
    }
    case kMobilePhoneModel:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        const int model = c.mobile_model[i];
        return model < 0 ? p : Put(p, MobileModels()[model]);
      });
    case kParams:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        const uint64_t h = Draw(c.row_key[i], column);
        if (!Chance(h, 15000)) return p;
        p = Put(p, "goal=");
        return Put(p, LatinWords()[Below(h, LatinWords().size)]);
      });
    case kSearchPhrase:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        return c.phrase[i] == 0 ? p : PutPhrase(p, c.phrase[i], false);
      });
    case kPageCharset: {
      static constexpr ShortText kCharsets[4] = {MakeShortText("utf-8"),
                                                 MakeShortText("windows-1251"),
                                                 MakeShortText("utf-8"), MakeShortText("")};
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        const uint64_t h = Draw(c.site_key[i], column);
        return PutShortText(p, kCharsets[h & 3]);
      });
    }
    case kOriginalURL:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        if (!Chance(Draw(c.row_key[i], column), 40000)) return p;
        return PutPageUrl(p, PageRef{c.counter_slot[i], c.site_key[i], c.page[i], c.page_key[i]});
      });
    case kHitColor: {
      static constexpr Weighted<char> kColors[] = {{'5', 600000}, {'E', 200000}, {'F', 120000},
                                                   {'D', 80000}};
      static constexpr PickTable<char> kColorTable = MakePickTable(kColors);
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        *p = Pick(kColorTable, Draw(c.row_key[i], column));
        return p + 1;
      });
    }
    case kBrowserLanguage:
      return Fill(c, bytes, ends,
                  [&](char* p, size_t i) { return PutShortText(p, kLanguages[c.language[i]]); });
    case kBrowserCountry:
      return Fill(c, bytes, ends,
                  [&](char* p, size_t i) { return PutShortText(p, kCountries[c.language[i]]); });
    case kSocialNetwork: {
      static constexpr std::string_view kNetworks[] = {"vkontakte", "facebook", "odnoklassniki",
                                                       "twitter"};
      return FillSparseChoice(c, kSocialNetwork, 5000, kNetworks, bytes, ends);
    }
    case kSocialAction: {
      static constexpr std::string_view kActions[] = {"like", "share", "comment"};
      // Same draw as SocialNetwork: an action exactly when there is a network.
      return FillSparseChoice(c, kSocialNetwork, 5000, kActions, bytes, ends);
    }
    case kSocialSourcePage:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        if (c.trafic_source[i] != 8) return p;
        p = Put(p, "http://vk.com/club");
        return PutDecimal(p, Draw(c.row_key[i], column) >> 44);
      });
    case kParamOrderID:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        const uint64_t h = Draw(c.row_key[i], kParamPrice);
        return Chance(h, 10000) ? PutDecimal(p, Mix64(h) >> 40) : p;
      });
    case kParamCurrency: {
      static constexpr std::string_view kCurrencies[4] = {"RUB", "RUB", "USD", "EUR"};
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        const uint64_t h = Draw(c.row_key[i], kParamPrice);
        return Chance(h, 10000) ? Put(p, kCurrencies[(h >> 20) & 3]) : p;
      });
    }
    case kOpenstatServiceName:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        return IsTagged(c, i) ? Put(p, c.adv_engine[i] != 0 ? "direct.yandex.ru" : "begun.ru") : p;
      });
    case kOpenstatCampaignID:
    case kOpenstatAdID:
    case kUTMContent:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        if (!IsTagged(c, i)) return p;
        p = Put(p, column == kUTMContent ? "ad" : "");
        return PutDecimal(p, Draw(c.row_key[i], column) >> 46);
      });
    case kOpenstatSourceID:
    case kUTMSource: {
      static constexpr std::string_view kSources[] = {"yandex.ru", "google.com", "vk.com",
                                                      "mail.ru"};
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        return IsTagged(c, i) ? Put(p, kSources[Below(Draw(c.row_key[i], column), 4)]) : p;
      });
    }
    case kUTMMedium: {
      static constexpr std::string_view kMedia[] = {"cpc", "banner", "email", "social"};
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        return IsTagged(c, i) ? Put(p, kMedia[Below(Draw(c.row_key[i], column), 4)]) : p;
      });
    }
    case kUTMCampaign:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        if (!IsTagged(c, i)) return p;
        p = Put(p, "summer_sale_");
        return PutDecimal(p, Draw(c.row_key[i], column) >> 56);
      });
    case kUTMTerm:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        if (!IsTagged(c, i)) return p;
        return PutPhrase(p, 1 + static_cast<uint32_t>(Draw(c.row_key[i], column) >> 48), false);
      });
    case kFromTag:
      return Fill(c, bytes, ends, [&](char* p, size_t i) {
        const uint64_t h = Draw(c.row_key[i], column);
        if (!Chance(h, 10000)) return p;
        p = Put(p, "ref");
        return PutDecimal(p, h >> 50);
      });
    default:
      return true;  // a fixed-width column: see FillNumericColumn
  }
}

}  // namespace laneql::hits
