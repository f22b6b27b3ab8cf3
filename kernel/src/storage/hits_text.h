// Internal to the hits generator: the text columns (URL, Title, Referer, SearchPhrase...) built
// from the vocabularies, and the growable byte buffer they are written into. A text is a pure
// function of the entity it describes (a site's page, a search phrase id), so the same page
// always has the same URL, title and URLHash.
#ifndef LANEQL_STORAGE_HITS_TEXT_H_
#define LANEQL_STORAGE_HITS_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "laneql/aligned_buffer.h"
#include "src/storage/hits_random.h"
#include "src/storage/hits_row_model.h"

namespace laneql::hits {

// No single generated value is longer than this, so one check per value suffices.
constexpr size_t kMaxValueBytes = 4096;

// The bytes of one string column over one range of rows, in the AlignedBuffer that becomes the
// column's values (no copy at the end). The buffer's size() is the writable capacity; bytes
// past the committed size are unspecified until Take() zeroes them. Refuses to grow past the
// int32 offset limit or when memory runs out, after which failed() is true and Room() returns
// nullptr.
class ByteSink {
 public:
  // Room for kMaxValueBytes more bytes at the end; write there, then Commit the new end.
  char* Room() {
    if (size_ + kMaxValueBytes <= buffer_.size()) return data() + size_;
    return Grow(size_ + kMaxValueBytes);
  }
  void Commit(const char* end) { size_ = static_cast<size_t>(end - data()); }
  // The last position at which a whole value still fits without calling Room() again: a
  // writer may put values back to back while its cursor stays at or below this. Valid only
  // after a successful Room().
  char* LastSafeStart() { return data() + buffer_.size() - kMaxValueBytes; }
  char* data() { return reinterpret_cast<char*>(buffer_.data()); }
  const char* data() const { return reinterpret_cast<const char*>(buffer_.data()); }
  size_t size() const { return size_; }
  bool failed() const { return failed_; }
  // Room for `bytes` in all (an estimate of the whole range), so that the buffer is rarely
  // copied to grow. False like Room().
  bool Reserve(size_t bytes) { return bytes <= buffer_.size() || Grow(bytes) != nullptr; }
  // The committed bytes as a buffer of exactly size() bytes (padding zeroed); empties the sink.
  AlignedBuffer Take();
  void Release() {
    buffer_ = AlignedBuffer();
    size_ = 0;
  }

 private:
  char* Grow(size_t needed);

  AlignedBuffer buffer_;
  size_t size_ = 0;
  bool failed_ = false;
};

// (Huge pages: every AlignedBuffer of 4 MiB or more gets them; from 1 MiB on, a freed buffer
// is kept for the next table: src/common/large_blocks.h.)

// Asks the kernel (Linux 5.14+; elsewhere a no-op) to map the pages under [begin, begin + bytes)
// now, in one call, rather than one page fault per 4 KiB page as the generator first writes
// them: buffers too small or misaligned for huge pages otherwise take a fault every 4 KiB.
// Only a hint (older kernels refuse it and the pages fault in as usual).
void PrefaultForWrite(void* begin, size_t bytes);

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
// Writes value in decimal and returns the end. Values below 10^8 (nearly all of the
// generator's numbers) take no branch and no division: the eight digits are formed at once in
// the bytes of a 64-bit word (two 4-digit halves, then 2-digit quarters, then digits, each
// split by a multiply-shift that is exact in that range), the leading zero digits (the word's
// low zero bytes) shifted out, and the word stored whole. Writes up to 8 bytes past the end.
// Larger values: two digits per step.
inline char* PutDecimal(char* p, uint64_t value) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  if (value < 100000000) {
    uint64_t x = value / 10000 | (value % 10000) << 32;  // [high 4 digits, low 4 digits]
    uint64_t q = ((x * 10486) >> 20) & 0x0000007F0000007FULL;  // / 100 in each half
    x = q | (x - q * 100) << 16;                                // four 2-digit lanes
    q = ((x * 103) >> 10) & 0x000F000F000F000FULL;             // / 10 in each lane
    x = q | (x - q * 10) << 8;                                  // eight digits, first lowest
    // Leading zero digits, keeping the last digit (so 0 writes "0").
    const int zeros = __builtin_ctzll(x | uint64_t{1} << 56) >> 3;
    x = (x + 0x3030303030303030ULL) >> (8 * zeros);  // ASCII, leading zeros out
    std::memcpy(p, &x, 8);
    return p + 8 - zeros;
  }
#endif
  static constexpr char kPairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  int digits = 1;
  for (uint64_t rest = value; rest >= 10; rest /= 10) ++digits;
  char* const end = p + digits;
  char* q = end;
  while (value >= 100) {
    q -= 2;
    std::memcpy(q, kPairs + 2 * (value % 100), 2);
    value /= 100;
  }
  if (value >= 10) {
    std::memcpy(q - 2, kPairs + 2 * value, 2);
  } else {
    q[-1] = static_cast<char>('0' + value);
  }
  return end;
}

// n when keep, else 0, as arithmetic: compilers turn a plain `keep ? n : 0` into a branch,
// which the coin flips that decide a text's shape would mispredict half the time.
inline size_t KeptLength(size_t n, bool keep) { return n & (size_t{0} - keep); }

// A short text (under 16 bytes) padded to 16, so writing one is a single 16-byte copy and an
// advance by its size: a column choosing among a few such texts per row takes no branch.
struct ShortText {
  char bytes[16];
  uint8_t size;
};
constexpr ShortText MakeShortText(std::string_view s) {
  ShortText t{};
  for (size_t i = 0; i < s.size() && i < 15; ++i) t.bytes[i] = s[i];
  t.size = static_cast<uint8_t>(s.size() < 15 ? s.size() : 15);
  return t;
}
// Writes t, or (keep false) nothing: the cursor stays and the bytes are overwritten later.
inline char* PutShortText(char* p, const ShortText& t, bool keep = true) {
  std::memcpy(p, t.bytes, 16);
  return p + KeptLength(t.size, keep);
}

// A page's key: its words and URLHash derive from it, so equal pages get equal texts.
inline uint64_t PageKey(int32_t counter_id, uint32_t page) {
  return Mix64((static_cast<uint64_t>(static_cast<uint32_t>(counter_id)) << 32 | page) ^
               0x70616765ULL);
}

// A page as its texts need it: the site (slot and key: the domain) and the page (number and
// key: the words), the keys worked out once per row by FillRowChunk.
struct PageRef {
  uint16_t slot;
  uint64_t site_key;
  uint32_t page;
  uint64_t page_key;
};

// The texts; each returns the new end. At most kMaxValueBytes bytes each. They copy words in
// fixed-size blocks that may run up to 96 bytes past the text's end (never past the room a
// ByteSink guarantees; the next value or Take() overwrites those bytes).
char* PutPageUrl(char* p, const PageRef& page);
char* PutGoogleUrl(char* p, uint64_t row_key, uint32_t phrase);
char* PutTitle(char* p, const PageRef& page);
char* PutPhrase(char* p, uint32_t phrase, bool url_encoded);
char* PutReferer(char* p, const RowChunk& chunk, size_t i);

// Hashes that agree with the texts: equal texts get equal hashes. ClickBench Q41/Q42 filter
// on two fixed values, given to counter 62's home page (URL) and news hub (referer).
constexpr uint64_t kTopUrlHash = 2868770270353813622ULL;
constexpr uint64_t kHubRefererHash = 3594120000172545465ULL;
inline uint64_t UrlHashOf(const RowChunk& chunk, size_t i) {
  const uint64_t google =
      Mix64(chunk.row_key[i] ^ 0x676f6f67ULL) ^ Mix64(chunk.phrase[i] + 0x1234);
  const bool top = chunk.counter_id[i] == 62 && chunk.page[i] == 0;
  const uint64_t own = top ? kTopUrlHash : chunk.page_key[i];
  return (chunk.flags[i] & kFlagGoogleUrl) ? google : own;
}
// Without a branch (the referer's kind is a coin flip, and a switch on it was mispredicted
// often enough to cost 21 cycles a row): each kind's hash is worked out and the kind picks.
// An internal referer's item is a page, or kHubReferer (~0u) for counter 62's news hub.
inline uint64_t RefererHashOf(const RowChunk& chunk, size_t i) {
  const uint32_t item = chunk.referer_item[i];
  const int32_t counter_id = chunk.counter_id[i];
  const uint64_t page_hash = PageKey(counter_id, item);
  const uint64_t top_hash = item == kHubReferer ? kHubRefererHash
                            : item == 0        ? kTopUrlHash
                                               : page_hash;
  const uint64_t internal = counter_id == 62 ? top_hash : page_hash;
  const uint64_t search = Mix64(static_cast<uint64_t>(chunk.search_engine[i]) << 32 ^
                                chunk.phrase[i] ^ static_cast<uint64_t>(chunk.region[i]) << 40);
  const uint64_t external = Mix64(0x65787465ULL + item);
  constexpr uint64_t kEmpty = 6202628419148573758ULL;
  const uint8_t kind = chunk.referer_kind[i];
  const uint64_t visited = kind == kRefererInternal ? internal : external;
  const uint64_t other = kind == kRefererSearch ? search : kEmpty;
  return kind == kRefererInternal || kind == kRefererExternal ? visited : other;
}

}  // namespace laneql::hits

#endif  // LANEQL_STORAGE_HITS_TEXT_H_
