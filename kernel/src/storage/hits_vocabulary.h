// Internal to the hits generator: the small word lists and value tables the text columns are
// assembled from. Written for this project (invented site names, everyday Russian and English
// words); no external data. Every entry is valid UTF-8.
#ifndef LANEQL_STORAGE_HITS_VOCABULARY_H_
#define LANEQL_STORAGE_HITS_VOCABULARY_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace laneql::hits {

// A list of words; size() entries.
struct WordList {
  const std::string_view* words;
  size_t size;
  std::string_view operator[](size_t i) const { return words[i]; }
};

WordList CyrillicWords();    // search phrases, titles
WordList CyrillicEncoded();  // the same words percent-encoded (%D0%BA...), for URLs
WordList LatinWords();       // URL paths, a few search phrases
WordList DomainSyllables();  // invented site names
WordList DomainZones();      // ".ru", ".com", ...
WordList ExternalSites();    // referring sites, the first ones most common
WordList MobileModels();     // most common first

// A counter (site) with many rows: its id, share of all rows, domain and URL length class.
struct HeavyCounter {
  int32_t id;
  uint32_t per_million;
  std::string_view domain;
  uint8_t query_words;  // percent-encoded words appended to its URLs: long URLs
};
const HeavyCounter* HeavyCounters(size_t* count);

}  // namespace laneql::hits

#endif  // LANEQL_STORAGE_HITS_VOCABULARY_H_
