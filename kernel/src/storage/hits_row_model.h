// Internal to the hits generator: the facts about a row that several columns share (who the
// user is, which site and page, when, how the visitor arrived), computed once per row for a
// chunk of rows. The columns are then functions of these facts plus their own random draws, so
// related columns agree (SearchEngineID is nonzero exactly when SearchPhrase is not empty,
// EventDate is EventTime's day, URLHash follows URL, a user keeps one region and screen).
#ifndef LANEQL_STORAGE_HITS_ROW_MODEL_H_
#define LANEQL_STORAGE_HITS_ROW_MODEL_H_

#include <cstddef>
#include <cstdint>

namespace laneql::hits {

// What a row depends on besides its number: derived from HitsOptions once.
struct HitsParams {
  uint64_t seed_key;  // the seed, mixed
  uint64_t users;     // distinct users drawn from (about 18 % of the rows)
  uint64_t phrases;   // distinct search phrase ids drawn from
};
HitsParams MakeHitsParams(uint64_t seed, size_t rows);

// Rows per chunk: the shared facts of a chunk stay in L1/L2 while its 105 columns are written.
constexpr size_t kChunkRows = 1024;

// The slot of a counter that is not in HeavyCounters().
constexpr uint16_t kTailCounterSlot = 0xffff;
// The other counters (the long tail): ids kFirstTailCounter + kTailCounterStep * k for
// k < kTailCounters.
constexpr int32_t kFirstTailCounter = 300000;
constexpr int32_t kTailCounterStep = 7;
constexpr uint32_t kTailCounters = 20000;

enum RefererKind : uint8_t { kRefererEmpty, kRefererInternal, kRefererSearch, kRefererExternal };
// referer_item of an internal referer that is counter 62's news hub (ClickBench Q41's
// RefererHash).
constexpr uint32_t kHubReferer = 0xffffffffu;

enum RowFlag : uint8_t {
  kFlagRefresh = 1,
  kFlagDontCount = 2,
  kFlagLink = 4,
  kFlagDownload = 8,
  kFlagNotBounce = 16,
  kFlagEvent = 32,
  kFlagGoogleUrl = 64,  // the URL is a google.* page rather than the counter's own
  kFlagTagged = 128,    // an ad campaign's row: Openstat / UTM marks
};

struct RowChunk {
  size_t count = 0;
  uint64_t row_key[kChunkRows];   // the row's own random stream
  uint64_t user_key[kChunkRows];  // the user's random stream: per-user attributes
  int64_t user_id[kChunkRows];
  int32_t region[kChunkRows];
  int32_t counter_id[kChunkRows];
  uint64_t site_key[kChunkRows];  // the counter's random stream (the same for every seed)
  uint16_t counter_slot[kChunkRows];  // index into HeavyCounters() or kTailCounterSlot
  uint32_t page[kChunkRows];          // page of the counter's site; 0 = its home page
  uint64_t page_key[kChunkRows];      // PageKey(counter_id, page)
  uint8_t referer_kind[kChunkRows];
  uint32_t referer_item[kChunkRows];  // internal: a page; external: site << 20 | path number
  uint32_t phrase[kChunkRows];        // 0 = no search phrase, else phrase id + 1
  uint8_t search_engine[kChunkRows];
  uint8_t adv_engine[kChunkRows];
  int8_t trafic_source[kChunkRows];
  uint8_t flags[kChunkRows];
  int64_t event_time[kChunkRows];  // seconds since 1970-01-01 UTC
  uint64_t referer_hash[kChunkRows];  // RefererHashOf, read by two columns
  // The user's traits (hits_user_traits.h), worked out once per row for the columns that
  // share them.
  bool mobile[kChunkRows];
  int8_t mobile_model[kChunkRows];  // index into MobileModels(), or -1
  int16_t screen_width[kChunkRows];
  int16_t screen_height[kChunkRows];
  int16_t flash_major[kChunkRows];
  int16_t net_major[kChunkRows];
  int8_t language[kChunkRows];
  int32_t client_ip[kChunkRows];
};

// Fills rows [first_row, first_row + count) (count <= kChunkRows) of the table.
void FillRowChunk(const HitsParams& params, size_t first_row, size_t count, RowChunk* chunk);

// 2013-07-02, the first day of the data, in days since 1970-01-01.
constexpr int32_t kFirstDay = 15888;
constexpr int32_t kNumDays = 30;

}  // namespace laneql::hits

#endif  // LANEQL_STORAGE_HITS_ROW_MODEL_H_
