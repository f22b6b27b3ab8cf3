// The text columns of the hits generator. See hits_text.h.
#include "src/storage/hits_text.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <climits>
#include <cstdint>
#include <utility>

#include "src/storage/hits_random.h"
#include "src/storage/hits_vocabulary.h"

namespace laneql::hits {
namespace {

constexpr uint64_t kPageSalt = 0x70616765ULL;
constexpr uint64_t kPhraseSalt = 0x70687261ULL;
constexpr uint64_t kDomainSalt = 0x646f6d61ULL;

uint64_t PageKey(int32_t counter_id, uint32_t page) {
  return Mix64((static_cast<uint64_t>(static_cast<uint32_t>(counter_id)) << 32 | page) ^
               kPageSalt);
}

char* PutDomain(char* p, uint16_t slot, int32_t counter_id) {
  if (slot != kTailCounterSlot) {
    size_t num_heavy = 0;
    return Put(p, HeavyCounters(&num_heavy)[slot].domain);
  }
  // A small site: two or three syllables and a zone, e.g. "miraltorg.ru".
  const uint64_t h = Mix64(static_cast<uint64_t>(counter_id) ^ kDomainSalt);
  const WordList syllables = DomainSyllables();
  const WordList zones = DomainZones();
  const int parts = 2 + static_cast<int>(h & 1);
  for (int s = 0; s < parts; ++s) p = Put(p, syllables[(h >> (8 + 8 * s)) % syllables.size]);
  return Put(p, zones[(h >> 40) % zones.size]);
}

uint8_t QueryWordsOf(uint16_t slot, int32_t counter_id) {
  if (slot == kTailCounterSlot) return (Mix64(counter_id ^ kDomainSalt) >> 62) == 3 ? 2 : 0;
  size_t num_heavy = 0;
  return HeavyCounters(&num_heavy)[slot].query_words;
}

}  // namespace

char* ByteSink::Grow(size_t needed) {
  if (failed_) return nullptr;
  // int32 offsets: a column over one range may not pass INT32_MAX bytes, and no writer goes
  // past the capacity, so capping it keeps every offset representable.
  const size_t limit = static_cast<size_t>(INT32_MAX);
  if (size_ + kMaxValueBytes > limit) {
    failed_ = true;
    return nullptr;
  }
  size_t capacity = buffer_.size() < (1u << 16) ? (1u << 16) : buffer_.size() * 2;
  if (capacity < needed) capacity = needed;
  if (capacity > limit) capacity = limit;
  if (!buffer_.ResizeForOverwrite(capacity, nullptr)) {
    failed_ = true;
    return nullptr;
  }
  AdviseHugePages(&buffer_);
  return data() + size_;
}

void AdviseHugePages(AlignedBuffer* buffer) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(buffer->data()) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(buffer->data()) + buffer->capacity()) &
                        ~(kHuge - 1);
  if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)buffer;
#endif
}

AlignedBuffer ByteSink::Take() {
  buffer_.Resize(size_, nullptr);  // shrinking: zeroes the unused tail, never fails
  AlignedBuffer taken = std::move(buffer_);
  Release();
  return taken;
}

char* PutDecimal(char* p, uint64_t value) {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  while (n > 0) *p++ = digits[--n];
  return p;
}

char* PutSiteName(char* p, uint16_t slot, int32_t counter_id) {
  return PutDomain(p, slot, counter_id);
}

char* PutPageUrl(char* p, uint16_t slot, int32_t counter_id, uint32_t page) {
  p = Put(p, "http://");
  p = PutDomain(p, slot, counter_id);
  *p++ = '/';
  if (page == 0) return p;
  const uint64_t h = PageKey(counter_id, page);
  const WordList latin = LatinWords();
  p = Put(p, latin[h % latin.size]);
  *p++ = '/';
  // Either a slug page ("news/kino-online-12345.html") or a script with an id.
  if (h >> 8 & 1) {
    const int words = 1 + static_cast<int>(h >> 9 & 3);
    for (int w = 0; w < words; ++w) {
      p = Put(p, latin[(h >> (12 + 6 * w)) % latin.size]);
      *p++ = '-';
    }
    p = PutDecimal(p, page);
    p = Put(p, ".html");
  } else {
    p = Put(p, "view.php?id=");
    p = PutDecimal(p, page);
  }
  // Some sites carry long query strings of percent-encoded Cyrillic (the real data's URLs
  // average from ~50 to ~470 bytes per counter).
  const uint8_t query_words = QueryWordsOf(slot, counter_id);
  if (query_words != 0) {
    const uint64_t q = Mix64(h);
    const int count = query_words / 2 + static_cast<int>(q % (query_words + 1u));
    const WordList encoded = CyrillicEncoded();
    *p++ = (h >> 8 & 1) ? '?' : '&';
    for (int w = 0; w < count; ++w) {
      if (w != 0) *p++ = '&';
      *p++ = 'q';
      *p++ = static_cast<char>('0' + w % 10);
      *p++ = '=';
      p = Put(p, encoded[Mix64(q + w) % encoded.size]);
    }
  }
  return p;
}

char* PutPhrase(char* p, uint32_t phrase, bool url_encoded) {
  const uint64_t h = Mix64(phrase ^ kPhraseSalt);
  // The most frequent phrases (small ids) are short, the long tail has three or four words:
  // so the tail's texts rarely collide and about 45 % of the phrase rows stay distinct, as in
  // the real data. One word in eight is Latin (brands, "mp3", "online").
  const int words = (phrase <= 64 ? 1 : phrase <= 4096 ? 2 : 3) + static_cast<int>(h & 1);
  const WordList cyrillic = url_encoded ? CyrillicEncoded() : CyrillicWords();
  const WordList latin = LatinWords();
  for (int w = 0; w < words; ++w) {
    if (w != 0) *p++ = url_encoded ? '+' : ' ';
    const uint64_t x = Mix64(h + w + 1);
    p = (x & 7) == 0 ? Put(p, latin[(x >> 8) % latin.size])
                     : Put(p, cyrillic[(x >> 8) % cyrillic.size]);
  }
  return p;
}

char* PutGoogleUrl(char* p, uint64_t row_key, uint32_t phrase) {
  const uint64_t h = Mix64(row_key ^ 0x676f6f67ULL);
  switch (h & 3) {
    case 0:
    case 1:
      p = Put(p, (h & 1) ? "http://www.google.ru/search?q=" : "https://www.google.com/search?q=");
      break;
    case 2:
      // Not '.google.': ClickBench Q22 looks for Google in titles of URLs without it.
      p = Put(p, "http://googleads.g.doubleclick.net/pagead/ads?client=ca-pub-");
      p = PutDecimal(p, h >> 20);
      p = Put(p, "&q=");
      break;
    default:
      p = Put(p, "http://maps.google.ru/maps?q=");
      break;
  }
  return phrase != 0 ? PutPhrase(p, phrase, true) : PutDecimal(p, h >> 40);
}

char* PutTitle(char* p, uint16_t slot, int32_t counter_id, uint32_t page) {
  const uint64_t h = Mix64(PageKey(counter_id, page) + 1);
  const WordList cyrillic = CyrillicWords();
  const int words = 2 + static_cast<int>(h & 3);
  for (int w = 0; w < words; ++w) {
    p = Put(p, cyrillic[(h >> (4 + 7 * w)) % cyrillic.size]);
    *p++ = ' ';
  }
  // About 1 % of pages mention Google (never a home page: the heaviest pages stay plain, so
  // the share does not hinge on one page).
  if (page != 0 && (h >> 40) % 100 == 0) p = Put(p, "в Google ");
  p = Put(p, "- ");
  return PutDomain(p, slot, counter_id);
}

char* PutReferer(char* p, const RowChunk& chunk, size_t i) {
  const uint32_t item = chunk.referer_item[i];
  switch (chunk.referer_kind[i]) {
    case kRefererInternal:
      if (item == kHubReferer) {
        p = Put(p, "http://");
        p = PutDomain(p, chunk.counter_slot[i], chunk.counter_id[i]);
        return Put(p, "/novosti/");
      }
      return PutPageUrl(p, chunk.counter_slot[i], chunk.counter_id[i], item);
    case kRefererSearch:
      switch (chunk.search_engine[i]) {
        case 2:
          p = Put(p, "http://yandex.ru/yandsearch?text=");
          break;
        case 3:
          p = Put(p, "http://www.google.ru/search?q=");
          break;
        case 4:
          p = Put(p, "http://go.mail.ru/search?q=");
          break;
        default:
          p = Put(p, "http://nova.rambler.ru/search?query=");
          break;
      }
      p = PutPhrase(p, chunk.phrase[i], true);
      p = Put(p, "&lr=");
      return PutDecimal(p, static_cast<uint64_t>(chunk.region[i]));
    case kRefererExternal: {
      const WordList sites = ExternalSites();
      const WordList latin = LatinWords();
      p = Put(p, "http://");
      p = Put(p, sites[(item >> 20) % sites.size]);
      *p++ = '/';
      p = Put(p, latin[item % latin.size]);
      *p++ = '/';
      return PutDecimal(p, item & 0xfffff);
    }
    default:
      return p;
  }
}

uint64_t UrlHashOf(const RowChunk& chunk, size_t i) {
  if (chunk.flags[i] & kFlagGoogleUrl) {
    return Mix64(chunk.row_key[i] ^ 0x676f6f67ULL) ^ Mix64(chunk.phrase[i] + 0x1234);
  }
  if (chunk.counter_id[i] == 62 && chunk.page[i] == 0) return kTopUrlHash;
  return PageKey(chunk.counter_id[i], chunk.page[i]);
}

uint64_t RefererHashOf(const RowChunk& chunk, size_t i) {
  const uint32_t item = chunk.referer_item[i];
  switch (chunk.referer_kind[i]) {
    case kRefererInternal:
      if (item == kHubReferer) {
        return chunk.counter_id[i] == 62 ? kHubRefererHash : PageKey(chunk.counter_id[i], ~0u);
      }
      if (chunk.counter_id[i] == 62 && item == 0) return kTopUrlHash;
      return PageKey(chunk.counter_id[i], item);
    case kRefererSearch:
      return Mix64(static_cast<uint64_t>(chunk.search_engine[i]) << 32 ^ chunk.phrase[i] ^
                   static_cast<uint64_t>(chunk.region[i]) << 40);
    case kRefererExternal:
      return Mix64(0x65787465ULL + item);
    default:
      return 6202628419148573758ULL;  // the empty referer
  }
}

}  // namespace laneql::hits
