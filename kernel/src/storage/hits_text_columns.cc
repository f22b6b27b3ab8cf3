// The string columns of the hits generator: one loop per column over a chunk of rows, each
// value written straight into the column's byte sink.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "src/storage/hits_column_fill.h"
#include "src/storage/hits_columns.h"
#include "src/storage/hits_random.h"
#include "src/storage/hits_user_traits.h"
#include "src/storage/hits_vocabulary.h"

namespace laneql::hits {
namespace {

// A column's write position in its byte sink, kept in locals (registers) while a chunk is
// written: the sink is asked for room only when the position passes the last place where a
// whole value still fits, so a value costs a compare before it is written.
struct SinkCursor {
  ByteSink* bytes;
  char* p = nullptr;
  const char* base = nullptr;
  char* last_safe = nullptr;

  // Room for the next value; false when the sink cannot grow (see ByteSink).
  bool Ready() {
    if (p != nullptr && p <= last_safe) return true;
    if (p != nullptr) bytes->Commit(p);
    p = bytes->Room();
    if (p == nullptr) return false;
    base = bytes->data();
    last_safe = bytes->LastSafeStart();
    return true;
  }
  int32_t End() const { return static_cast<int32_t>(p - base); }
};

// Writes chunk.count values; put(p, i) writes row i's value at p and returns its end.
template <class F>
bool Fill(const RowChunk& c, ByteSink* bytes, int32_t* ends, F put) {
  SinkCursor at{bytes};
  if (!at.Ready()) return false;
  for (size_t i = 0; i < c.count; ++i) {
    if (!at.Ready()) return false;
    at.p = put(at.p, i);
    ends[i] = at.End();
  }
  bytes->Commit(at.p);
  return true;
}

// Writes a column that is empty in most rows: has(i) tells whether row i has a value (cheap;
// a loop of it alone vectorises), put(p, i) writes that value. The rows with a value are listed
// first, skipping eight rows without one at a time, and only they are visited; the empty rows'
// offsets between them are filled in runs. Fill's per-row cursor, room check and offset store
// made these columns (a value in 1 to 13 rows of 100) cost nearly what the dense ones do.
template <class Has, class F>
bool FillSparse(const RowChunk& c, ByteSink* bytes, int32_t* ends, Has has, F put) {
  static_assert(kChunkRows % 8 == 0, "the flags are read eight at a time");
  const size_t n = c.count;
  alignas(8) uint8_t flags[kChunkRows];
  for (size_t i = 0; i < n; ++i) flags[i] = has(i) ? 1 : 0;
  for (size_t i = n; i % 8 != 0; ++i) flags[i] = 0;  // the last group's rows past the chunk
  uint16_t rows[kChunkRows];
  size_t kept = 0;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t group;
    std::memcpy(&group, flags + i, 8);
    if (group == 0) continue;
    for (size_t j = i; j < i + 8; ++j) {
      rows[kept] = static_cast<uint16_t>(j);
      kept += flags[j];
    }
  }
  SinkCursor at{bytes};
  if (!at.Ready()) return false;
  size_t next = 0;  // the first row whose end is not written yet
  for (size_t k = 0; k < kept; ++k) {
    const size_t i = rows[k];
    std::fill(ends + next, ends + i, at.End());
    if (!at.Ready()) return false;
    at.p = put(at.p, i);
    ends[i] = at.End();
    next = i + 1;
  }
  std::fill(ends + next, ends + n, at.End());
  bytes->Commit(at.p);
  return true;
}

// One of a few short strings per row with probability per_million, else ''.
template <size_t N>
bool FillSparseChoice(const RowChunk& c, int column, uint32_t per_million,
                      const std::string_view (&choices)[N], ByteSink* bytes, int32_t* ends) {
  return FillSparse(
      c, bytes, ends,
      [&](size_t i) { return Chance(Draw(c.row_key[i], column), per_million); },
      [&](char* p, size_t i) { return Put(p, choices[Below(Draw(c.row_key[i], column), N)]); });
}

// The decimal texts of 0..199, for FlashMinor2: a copy instead of forming the digits.
struct SmallDecimals {
  ShortText text[200];
};
constexpr SmallDecimals MakeSmallDecimals() {
  SmallDecimals out{};
  for (int v = 0; v < 200; ++v) {
    char digits[3] = {};
    int size = 0;
    if (v >= 100) digits[size++] = static_cast<char>('0' + v / 100);
    if (v >= 10) digits[size++] = static_cast<char>('0' + v / 10 % 10);
    digits[size++] = static_cast<char>('0' + v % 10);
    out.text[v] = MakeShortText(std::string_view(digits, static_cast<size_t>(size)));
  }
  return out;
}
constexpr SmallDecimals kSmallDecimals = MakeSmallDecimals();

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
        const bool empty = (c.flash_major[i] == 0) | Chance(h, 300000);
        return PutShortText(p, kSmallDecimals.text[Below(h, 200)], !empty);
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
      return FillSparse(
          c, bytes, ends, [&](size_t i) { return c.mobile_model[i] >= 0; },
          [&](char* p, size_t i) { return Put(p, MobileModels()[c.mobile_model[i]]); });
    case kParams:
      return FillSparse(
          c, bytes, ends, [&](size_t i) { return Chance(Draw(c.row_key[i], column), 15000); },
          [&](char* p, size_t i) {
            p = Put(p, "goal=");
            return Put(p, LatinWords()[Below(Draw(c.row_key[i], column), LatinWords().size)]);
          });
    case kSearchPhrase:
      return FillSparse(
          c, bytes, ends, [&](size_t i) { return c.phrase[i] != 0; },
          [&](char* p, size_t i) { return PutPhrase(p, c.phrase[i], false); });
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
      return FillSparse(
          c, bytes, ends, [&](size_t i) { return Chance(Draw(c.row_key[i], column), 40000); },
          [&](char* p, size_t i) {
            return PutPageUrl(
                p, PageRef{c.counter_slot[i], c.site_key[i], c.page[i], c.page_key[i]});
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
      return FillSparse(
          c, bytes, ends, [&](size_t i) { return c.trafic_source[i] == 8; },
          [&](char* p, size_t i) {
            p = Put(p, "http://vk.com/club");
            return PutDecimal(p, Draw(c.row_key[i], column) >> 44);
          });
    case kParamOrderID:
      return FillSparse(
          c, bytes, ends, [&](size_t i) { return Chance(Draw(c.row_key[i], kParamPrice), 10000); },
          [&](char* p, size_t i) {
            return PutDecimal(p, Mix64(Draw(c.row_key[i], kParamPrice)) >> 40);
          });
    case kParamCurrency: {
      static constexpr std::string_view kCurrencies[4] = {"RUB", "RUB", "USD", "EUR"};
      return FillSparse(
          c, bytes, ends, [&](size_t i) { return Chance(Draw(c.row_key[i], kParamPrice), 10000); },
          [&](char* p, size_t i) {
            return Put(p, kCurrencies[(Draw(c.row_key[i], kParamPrice) >> 20) & 3]);
          });
    }
    case kOpenstatServiceName:
      return FillSparse(c, bytes, ends, [&](size_t i) { return IsTagged(c, i); },
                        [&](char* p, size_t i) {
                          return Put(p, c.adv_engine[i] != 0 ? "direct.yandex.ru" : "begun.ru");
                        });
    case kOpenstatCampaignID:
    case kOpenstatAdID:
    case kUTMContent:
      return FillSparse(c, bytes, ends, [&](size_t i) { return IsTagged(c, i); },
                        [&](char* p, size_t i) {
                          p = Put(p, column == kUTMContent ? "ad" : "");
                          return PutDecimal(p, Draw(c.row_key[i], column) >> 46);
                        });
    case kOpenstatSourceID:
    case kUTMSource: {
      static constexpr std::string_view kSources[] = {"yandex.ru", "google.com", "vk.com",
                                                      "mail.ru"};
      return FillSparse(c, bytes, ends, [&](size_t i) { return IsTagged(c, i); },
                        [&](char* p, size_t i) {
                          return Put(p, kSources[Below(Draw(c.row_key[i], column), 4)]);
                        });
    }
    case kUTMMedium: {
      static constexpr std::string_view kMedia[] = {"cpc", "banner", "email", "social"};
      return FillSparse(c, bytes, ends, [&](size_t i) { return IsTagged(c, i); },
                        [&](char* p, size_t i) {
                          return Put(p, kMedia[Below(Draw(c.row_key[i], column), 4)]);
                        });
    }
    case kUTMCampaign:
      return FillSparse(c, bytes, ends, [&](size_t i) { return IsTagged(c, i); },
                        [&](char* p, size_t i) {
                          p = Put(p, "summer_sale_");
                          return PutDecimal(p, Draw(c.row_key[i], column) >> 56);
                        });
    case kUTMTerm:
      return FillSparse(
          c, bytes, ends, [&](size_t i) { return IsTagged(c, i); },
          [&](char* p, size_t i) {
            return PutPhrase(p, 1 + static_cast<uint32_t>(Draw(c.row_key[i], column) >> 48),
                             false);
          });
    case kFromTag:
      return FillSparse(
          c, bytes, ends, [&](size_t i) { return Chance(Draw(c.row_key[i], column), 10000); },
          [&](char* p, size_t i) {
            p = Put(p, "ref");
            return PutDecimal(p, Draw(c.row_key[i], column) >> 50);
          });
    default:
      return true;  // a fixed-width column: see FillNumericColumn
  }
}

}  // namespace laneql::hits
