// Internal to the hits generator: the text columns (URL, Title, Referer, SearchPhrase...) built
// from the vocabularies, and the growable byte buffer they are written into. A text is a pure
// function of the entity it describes (a site's page, a search phrase id), so the same page
// always has the same URL, title and URLHash.
#ifndef LANEQL_STORAGE_HITS_TEXT_H_
#define LANEQL_STORAGE_HITS_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

#include "src/storage/hits_row_model.h"

namespace laneql::hits {

// No single generated value is longer than this, so one check per value suffices.
constexpr size_t kMaxValueBytes = 4096;

// The bytes of one string column over one range of rows. Grows by doubling with realloc (no
// zeroing: every byte below size() is written) and refuses to grow past the int32 offset limit
// or when memory runs out, after which failed() is true and Room() returns nullptr.
class ByteSink {
 public:
  // Room for kMaxValueBytes more bytes at the end; write there, then Commit the new end.
  char* Room() {
    if (size_ + kMaxValueBytes <= capacity_) return data_.get() + size_;
    return Grow();
  }
  void Commit(const char* end) { size_ = static_cast<size_t>(end - data_.get()); }
  // The last position at which a whole value still fits without calling Room() again: a
  // writer may put values back to back while its cursor stays at or below this.
  char* LastSafeStart() { return data_.get() + capacity_ - kMaxValueBytes; }
  const char* data() const { return data_.get(); }
  size_t size() const { return size_; }
  bool failed() const { return failed_; }
  // Frees the bytes (after they were copied into a column).
  void Release() {
    data_.reset();
    size_ = capacity_ = 0;
  }

 private:
  struct FreeDeleter {
    void operator()(char* p) const { std::free(p); }
  };
  char* Grow();

  std::unique_ptr<char, FreeDeleter> data_;
  size_t size_ = 0;
  size_t capacity_ = 0;
  bool failed_ = false;
};

// Copies s to p and returns the end. The texts are built from many short words, so the copy
// is inlined as a few fixed-size moves (overlapping ones for the tail, never reading outside s)
// instead of a call into the C library per word.
inline char* Put(char* p, std::string_view s) {
  const char* from = s.data();
  const size_t n = s.size();
  if (n >= 8) {
    size_t i = 0;
    for (; i + 8 < n; i += 8) std::memcpy(p + i, from + i, 8);
    std::memcpy(p + n - 8, from + n - 8, 8);
  } else if (n >= 4) {
    std::memcpy(p, from, 4);
    std::memcpy(p + n - 4, from + n - 4, 4);
  } else {
    for (size_t i = 0; i < n; ++i) p[i] = from[i];
  }
  return p + n;
}
char* PutDecimal(char* p, uint64_t value);

// The texts; each returns the new end. At most kMaxValueBytes bytes each.
char* PutPageUrl(char* p, uint16_t slot, int32_t counter_id, uint32_t page);
char* PutGoogleUrl(char* p, uint64_t row_key, uint32_t phrase);
char* PutTitle(char* p, uint16_t slot, int32_t counter_id, uint32_t page);
char* PutPhrase(char* p, uint32_t phrase, bool url_encoded);
char* PutReferer(char* p, const RowChunk& chunk, size_t i);
char* PutSiteName(char* p, uint16_t slot, int32_t counter_id);

// Hashes that agree with the texts: equal texts get equal hashes. ClickBench Q41/Q42 filter
// on two fixed values, given to counter 62's home page (URL) and news hub (referer).
uint64_t UrlHashOf(const RowChunk& chunk, size_t i);
uint64_t RefererHashOf(const RowChunk& chunk, size_t i);
constexpr uint64_t kTopUrlHash = 2868770270353813622ULL;
constexpr uint64_t kHubRefererHash = 3594120000172545465ULL;

}  // namespace laneql::hits

#endif  // LANEQL_STORAGE_HITS_TEXT_H_
