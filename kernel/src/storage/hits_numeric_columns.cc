// The fixed-width columns of the hits generator: one loop per column over a chunk of rows.
// Per-row choices draw from the row key, per-user ones from the user key, per-site ones from
// the counter id; the stream number is the column id, so columns are independent.
#include <cstdint>

#include "src/storage/hits_column_fill.h"
#include "src/storage/hits_columns.h"
#include "src/storage/hits_random.h"
#include "src/storage/hits_user_traits.h"

namespace laneql::hits {
namespace {

// The helpers are always inlined so that they become part of FillNumericColumn's AVX2 and
// AVX-512 versions (LANEQL_HITS_MULTIVERSION) rather than staying baseline code.
#define LANEQL_HITS_INLINE __attribute__((always_inline)) inline

template <class T, class F>
LANEQL_HITS_INLINE void Fill(void* out, size_t n, F value_of) {
  T* values = static_cast<T*>(out);
  for (size_t i = 0; i < n; ++i) values[i] = static_cast<T>(value_of(i));
}

constexpr int64_t kMicros = 1000000;

// A per-row 0/1 with probability per_million.
template <class T>
LANEQL_HITS_INLINE void FillRowChance(const RowChunk& c, int column, uint32_t per_million,
                                      void* out) {
  Fill<T>(out, c.count, [&](size_t i) { return Chance(Draw(c.row_key[i], column), per_million); });
}
// A per-user 0/1.
template <class T>
LANEQL_HITS_INLINE void FillUserChance(const RowChunk& c, int column, uint32_t per_million,
                                       void* out) {
  Fill<T>(out, c.count, [&](size_t i) { return Chance(Draw(c.user_key[i], column), per_million); });
}
template <class T>
LANEQL_HITS_INLINE void FillFlag(const RowChunk& c, uint8_t flag, void* out) {
  Fill<T>(out, c.count, [&](size_t i) { return (c.flags[i] & flag) != 0; });
}
// Mostly 0 (share `zero_per_million`), else skewed over [1, range]: timings, counts.
LANEQL_HITS_INLINE void FillSparseSkewed(const RowChunk& c, int column, uint32_t zero_per_million,
                                         uint32_t range, void* out) {
  Fill<int32_t>(out, c.count, [&](size_t i) -> int32_t {
    const uint64_t h = Draw(c.row_key[i], column);
    return KeepIf(!Chance(h, zero_per_million), 1 + static_cast<int32_t>(SteepIndex(h, range)));
  });
}

}  // namespace
#undef LANEQL_HITS_INLINE

LANEQL_HITS_MULTIVERSION
void FillNumericColumn(int column, const RowChunk& c, void* out) {
  const size_t n = c.count;
  switch (column) {
    case kWatchID:
      // Random, except that 1 % of a user's hits repeat one id of that user (re-sent hits), so
      // GROUP BY WatchID, ClientIP (ClickBench Q31, Q32) finds groups larger than one.
      return Fill<int64_t>(out, n, [&](size_t i) {
        const uint64_t h = Draw(c.row_key[i], column);
        return (Chance(h, 10000) ? Draw(c.user_key[i], column) : h) >> 1;
      });
    case kJavaEnable: return FillUserChance<int16_t>(c, column, 700000, out);
    case kGoodEvent: return FillRowChance<int16_t>(c, column, 999000, out);
    case kEventTime:
      return Fill<int64_t>(out, n, [&](size_t i) { return c.event_time[i] * kMicros; });
    case kEventDate:
      return Fill<int32_t>(out, n, [&](size_t i) { return c.event_time[i] / 86400; });
    case kCounterID: return Fill<int32_t>(out, n, [&](size_t i) { return c.counter_id[i]; });
    case kClientIP:
      return Fill<int32_t>(out, n, [&](size_t i) { return c.client_ip[i]; });
    case kRegionID: return Fill<int32_t>(out, n, [&](size_t i) { return c.region[i]; });
    case kUserID: return Fill<int64_t>(out, n, [&](size_t i) { return c.user_id[i]; });
    case kCounterClass:
      return Fill<int16_t>(out, n,
                           [&](size_t i) { return Below(Draw(c.site_key[i], column), 3); });
    case kOS: {
      static constexpr Weighted<int16_t> kOs[] = {{2, 350000}, {6, 150000}, {44, 120000},
                                                  {56, 80000}, {52, 60000}, {3, 50000},
                                                  {45, 50000}, {7, 50000},  {0, 90000}};
      static constexpr PickTable<int16_t> kOsTable = MakePickTable(kOs);
      return Fill<int16_t>(out, n,
                           [&](size_t i) { return Pick(kOsTable, Draw(c.user_key[i], column)); });
    }
    case kUserAgent: {
      static constexpr Weighted<int16_t> kAgents[] = {{7, 300000}, {2, 200000}, {3, 150000},
                                                      {4, 100000}, {6, 80000},  {1, 50000},
                                                      {39, 50000}, {40, 40000}, {15, 30000}};
      static constexpr PickTable<int16_t> kAgentTable = MakePickTable(kAgents);
      return Fill<int16_t>(out, n, [&](size_t i) {
        return Pick(kAgentTable, Draw(c.user_key[i], column));
      });
    }
    case kIsRefresh: return FillFlag<int16_t>(c, kFlagRefresh, out);
    case kRefererCategoryID:
      return Fill<int16_t>(out, n, [&](size_t i) {
        return c.referer_kind[i] == kRefererEmpty ? 0 : 1 + Below(c.referer_hash[i], 20);
      });
    case kRefererRegionID:
      return Fill<int32_t>(out, n, [&](size_t i) {
        return c.referer_kind[i] == kRefererEmpty ? 0 : c.region[i];
      });
    case kURLCategoryID:
      return Fill<int16_t>(out, n,
                           [&](size_t i) { return Below(Draw(c.site_key[i], column), 40); });
    case kURLRegionID:
      return Fill<int32_t>(out, n, [&](size_t i) {
        return Chance(Draw(c.row_key[i], column), 700000) ? c.region[i] : 0;
      });
    case kResolutionWidth:
      return Fill<int16_t>(out, n, [&](size_t i) { return c.screen_width[i]; });
    case kResolutionHeight:
      return Fill<int16_t>(out, n, [&](size_t i) { return c.screen_height[i]; });
    case kResolutionDepth: {
      static constexpr Weighted<int16_t> kDepths[] = {{24, 800000}, {32, 180000}, {16, 20000}};
      static constexpr PickTable<int16_t> kDepthTable = MakePickTable(kDepths);
      return Fill<int16_t>(out, n, [&](size_t i) {
        return Pick(kDepthTable, Draw(c.user_key[i], column));
      });
    }
    case kFlashMajor:
      return Fill<int16_t>(out, n, [&](size_t i) { return c.flash_major[i]; });
    case kFlashMinor:
      return Fill<int16_t>(out, n, [&](size_t i) {
        return c.flash_major[i] == 0 ? 0 : Below(Draw(c.user_key[i], column), 10);
      });
    case kNetMajor:
      return Fill<int16_t>(out, n, [&](size_t i) { return c.net_major[i]; });
    case kNetMinor:
      return Fill<int16_t>(out, n, [&](size_t i) {
        return c.net_major[i] == 0 ? 0 : Below(Draw(c.user_key[i], column), 6);
      });
    case kUserAgentMajor:
      return Fill<int16_t>(out, n,
                           [&](size_t i) {
                             return 1 + SteepIndex(Draw(c.user_key[i], column), 30);
                           });
    case kCookieEnable: return FillUserChance<int16_t>(c, column, 980000, out);
    case kJavascriptEnable: return FillUserChance<int16_t>(c, column, 970000, out);
    case kIsMobile:
      return Fill<int16_t>(out, n, [&](size_t i) { return c.mobile[i]; });
    case kMobilePhone:
      return Fill<int16_t>(out, n, [&](size_t i) {
        const int model = c.mobile_model[i];
        // A model's phones come from one or two operators' catalogues.
        return model < 0 ? 0 : 1 + model + 20 * (Draw(c.user_key[i], column) & 1);
      });
    case kIPNetworkID:
      return Fill<int32_t>(out, n,
                           [&](size_t i) { return Below(Draw(c.user_key[i], column), 4000000); });
    case kTraficSourceID:
      return Fill<int16_t>(out, n, [&](size_t i) { return c.trafic_source[i]; });
    case kSearchEngineID:
      return Fill<int16_t>(out, n, [&](size_t i) { return c.search_engine[i]; });
    case kAdvEngineID: return Fill<int16_t>(out, n, [&](size_t i) { return c.adv_engine[i]; });
    case kIsArtifical: return FillRowChance<int16_t>(c, column, 5000, out);
    case kWindowClientWidth:
      // Per row: windows are resized, so one page sees thousands of (width, height) pairs
      // (ClickBench Q42 skips the first 10,000 of them on one URL).
      return Fill<int16_t>(out, n, [&](size_t i) {
        const uint64_t h = Draw(c.row_key[i], column);
        const int64_t width = c.screen_width[i];
        return Chance(h, 30000) ? 0 : width - 16 - static_cast<int64_t>(SteepIndex(h, width / 2));
      });
    case kWindowClientHeight:
      return Fill<int16_t>(out, n, [&](size_t i) {
        const uint64_t h = Draw(c.row_key[i], column);
        const int64_t height = c.screen_height[i];
        return Chance(h, 30000) ? 0 : height - 100 - static_cast<int64_t>(SkewedIndex(h, 300));
      });
    case kClientTimeZone: {
      static constexpr Weighted<int16_t> kZones[] = {{4, 650000}, {-1, 100000}, {3, 80000},
                                                     {2, 60000},  {6, 40000},   {5, 40000},
                                                     {7, 30000}};
      static constexpr PickTable<int16_t> kZoneTable = MakePickTable(kZones);
      return Fill<int16_t>(out, n, [&](size_t i) {
        return Pick(kZoneTable, Draw(c.user_key[i], column));
      });
    }
    case kClientEventTime:
      return Fill<int64_t>(out, n, [&](size_t i) {
        // The visitor's clock: off by up to a few minutes.
        return (c.event_time[i] - 180 + Below(Draw(c.user_key[i], column), 361)) * kMicros;
      });
    case kSilverlightVersion1:
    case kSilverlightVersion2:
    case kSilverlightVersion4: {
      static constexpr int16_t kVersions[3] = {5, 1, 0};
      const int16_t version = kVersions[column == kSilverlightVersion1   ? 0
                                        : column == kSilverlightVersion2 ? 1
                                                                         : 2];
      return Fill<int16_t>(out, n, [&](size_t i) {
        return Chance(Draw(c.user_key[i], kSilverlightVersion1), 300000) ? version : 0;
      });
    }
    case kSilverlightVersion3:
      return Fill<int32_t>(out, n, [&](size_t i) {
        const uint64_t h = Draw(c.user_key[i], kSilverlightVersion1);
        return Chance(h, 300000) ? 40000 + static_cast<int32_t>(Below(h, 20000)) : 0;
      });
    case kCodeVersion:
      return Fill<int32_t>(out, n,
                           [&](size_t i) {
                             return 200 + Below(Draw(c.site_key[i], column), 1000);
                           });
    case kIsLink: return FillFlag<int16_t>(c, kFlagLink, out);
    case kIsDownload: return FillFlag<int16_t>(c, kFlagDownload, out);
    case kIsNotBounce: return FillFlag<int16_t>(c, kFlagNotBounce, out);
    case kFUniqID:
      return Fill<int64_t>(out, n, [&](size_t i) -> int64_t {
        const uint64_t h = Draw(c.user_key[i], column);
        return Chance(h, 700000) ? static_cast<int64_t>(h >> 1) : 0;
      });
    case kHID:
      return Fill<int32_t>(out, n, [&](size_t i) { return Draw(c.row_key[i], column) >> 33; });
    case kIsOldCounter:
      return Fill<int16_t>(out, n,
                           [&](size_t i) { return Below(Draw(c.site_key[i], column), 10) == 0; });
    case kIsEvent: return FillFlag<int16_t>(c, kFlagEvent, out);
    case kIsParameter: return FillRowChance<int16_t>(c, column, 10000, out);
    case kDontCountHits: return FillFlag<int16_t>(c, kFlagDontCount, out);
    case kWithHash: return FillRowChance<int16_t>(c, column, 30000, out);
    case kLocalEventTime:
      // Moscow time (UTC+4 in 2013).
      return Fill<int64_t>(out, n,
                           [&](size_t i) { return (c.event_time[i] + 4 * 3600) * kMicros; });
    case kAge: {
      static constexpr Weighted<int16_t> kAges[] = {{0, 400000}, {25, 200000}, {35, 150000},
                                                    {18, 120000}, {45, 80000}, {55, 50000}};
      static constexpr PickTable<int16_t> kAgeTable = MakePickTable(kAges);
      return Fill<int16_t>(out, n, [&](size_t i) {
        return Pick(kAgeTable, Draw(c.user_key[i], column));
      });
    }
    case kSex:
      return Fill<int16_t>(out, n, [&](size_t i) { return Below(Draw(c.user_key[i], column), 3); });
    case kIncome:
      return Fill<int16_t>(out, n, [&](size_t i) { return Below(Draw(c.user_key[i], column), 5); });
    case kInterests:
      return Fill<int16_t>(out, n, [&](size_t i) {
        const uint64_t h = Draw(c.user_key[i], column);
        return Chance(h, 500000) ? 0 : static_cast<int16_t>(h >> 49);
      });
    case kRobotness:
      return Fill<int16_t>(out, n, [&](size_t i) {
        const uint64_t h = Draw(c.user_key[i], column);
        return Chance(h, 950000) ? 0 : 1 + Below(h, 100);
      });
    case kRemoteIP:
      return Fill<int32_t>(out, n, [&](size_t i) {
        const uint64_t h = Draw(c.row_key[i], column);
        return Chance(h, 900000) ? c.client_ip[i] : static_cast<int32_t>(h >> 32);
      });
    case kWindowName:
    case kOpenerName:
      return Fill<int32_t>(out, n, [&](size_t i) {
        const uint64_t h = Draw(c.row_key[i], column);
        return Chance(h, 600000) ? -1 : static_cast<int32_t>(h >> 33);
      });
    case kHistoryLength:
      return Fill<int16_t>(out, n,
                           [&](size_t i) { return SteepIndex(Draw(c.row_key[i], column), 40); });
    case kHTTPError:
      return Fill<int16_t>(out, n, [&](size_t i) {
        static constexpr int16_t kErrors[4] = {404, 404, 500, 403};
        const uint64_t h = Draw(c.row_key[i], column);
        return Chance(h, 995000) ? 0 : kErrors[h >> 62];
      });
    case kSendTiming: return FillSparseSkewed(c, column, 600000, 2000, out);
    case kDNSTiming: return FillSparseSkewed(c, column, 700000, 500, out);
    case kConnectTiming: return FillSparseSkewed(c, column, 650000, 800, out);
    case kResponseStartTiming: return FillSparseSkewed(c, column, 600000, 3000, out);
    case kResponseEndTiming: return FillSparseSkewed(c, column, 600000, 5000, out);
    case kFetchTiming: return FillSparseSkewed(c, column, 600000, 8000, out);
    case kSocialSourceNetworkID:
      return Fill<int16_t>(out, n, [&](size_t i) {
        return c.trafic_source[i] == 8 ? 1 + Below(Draw(c.row_key[i], column), 8) : 0;
      });
    case kParamPrice:
      return Fill<int64_t>(out, n, [&](size_t i) -> int64_t {
        const uint64_t h = Draw(c.row_key[i], kParamPrice);
        return Chance(h, 10000) ? 100 * (1 + static_cast<int64_t>(SkewedIndex(h, 100000))) : 0;
      });
    case kParamCurrencyID:
      return Fill<int16_t>(out, n, [&](size_t i) {
        static constexpr int16_t kCurrencies[4] = {643, 643, 840, 978};
        const uint64_t h = Draw(c.row_key[i], kParamPrice);
        return Chance(h, 10000) ? kCurrencies[(h >> 20) & 3] : 0;
      });
    case kHasGCLID:
      return Fill<int16_t>(out, n, [&](size_t i) {
        return c.adv_engine[i] != 0 && Chance(Draw(c.row_key[i], column), 300000);
      });
    case kRefererHash:
      return Fill<int64_t>(out, n, [&](size_t i) { return c.referer_hash[i]; });
    case kURLHash: return Fill<int64_t>(out, n, [&](size_t i) { return UrlHashOf(c, i); });
    case kCLID:
      return Fill<int32_t>(out, n, [&](size_t i) {
        const uint64_t h = Draw(c.row_key[i], column);
        return Chance(h, 900000) ? 0 : 1 + static_cast<int32_t>(SteepIndex(h, 500000));
      });
    default:
      return;  // a string column: see FillTextColumn
  }
}

}  // namespace laneql::hits
