// The text columns of the hits generator. See hits_text.h.
#include "src/storage/hits_text.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <climits>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include "src/storage/hits_random.h"
#include "src/storage/hits_vocabulary.h"

namespace laneql::hits {
namespace {

constexpr uint64_t kPhraseSalt = 0x70687261ULL;

// A word list laid out for fixed-size copies: word i zero padded in a slot of Width bytes, so
// writing it is one fixed-size copy of the slot (a few vector moves, no length-dependent
// branch) plus an advance by its length. Writers copy the lists they use into locals: the
// text's bytes are written through a char*, which may alias anything, so through a reference
// into the shared tables the compiler reloads the list's pointers and size after every store.
template <size_t Width>
struct Slotted {
  static constexpr size_t kWidth = Width;
  const char* slots;
  const uint8_t* lengths;
  uint32_t size;
  // Writes word i, then returns the end. Writes Width bytes.
  char* Put(char* p, size_t i) const {
    std::memcpy(p, slots + i * Width, Width);
    return p + lengths[i];
  }
  // The word a `bits`-bit field of x picks (multiply-shift: no division by the run-time size).
  size_t IndexOf(uint64_t x, int bits) const {
    return static_cast<size_t>(((x & ((uint64_t{1} << bits) - 1)) * size) >> bits);
  }
  // Word i followed by `separator`, kept only when `keep` (else p is returned and what was
  // written is overwritten by the next text): lets a variable word count run as a fixed loop.
  char* PutIf(char* p, size_t i, char separator, bool keep) const {
    std::memcpy(p, slots + i * Width, Width);
    p[lengths[i]] = separator;
    return p + KeptLength(lengths[i] + size_t{1}, keep);
  }
};

template <size_t Width>
Slotted<Width> MakeSlotted(WordList words) {
  char* slots = new char[words.size * Width]();
  uint8_t* lengths = new uint8_t[words.size];
  for (size_t i = 0; i < words.size; ++i) {
    // The vocabularies are fixed: a word that does not fit its slot is a programming error.
    if (words[i].size() >= Width) __builtin_trap();
    std::memcpy(slots + i * Width, words[i].data(), words[i].size());
    lengths[i] = static_cast<uint8_t>(words[i].size());
  }
  return Slotted<Width>{slots, lengths, static_cast<uint32_t>(words.size)};
}

// The vocabularies in slots, built once on first use (thread-safe static initialisation) and
// kept for the whole program. Each slot is wider than its longest word (26 bytes of Cyrillic
// UTF-8, 78 percent-encoded, 21 for a site name), leaving room for a separator.
struct TextTables {
  Slotted<32> cyrillic = MakeSlotted<32>(CyrillicWords());
  Slotted<80> encoded = MakeSlotted<80>(CyrillicEncoded());
  Slotted<16> latin = MakeSlotted<16>(LatinWords());
  Slotted<32> latin32 = MakeSlotted<32>(LatinWords());  // beside Cyrillic in phrases
  Slotted<80> latin80 = MakeSlotted<80>(LatinWords());  // beside encoded Cyrillic
  Slotted<8> syllables = MakeSlotted<8>(DomainSyllables());
  Slotted<8> zones = MakeSlotted<8>(DomainZones());
  Slotted<32> external = MakeSlotted<32>(ExternalSites());
  Slotted<32> heavy_domains = MakeHeavyDomains();

  static Slotted<32> MakeHeavyDomains() {
    size_t num_heavy = 0;
    const HeavyCounter* heavy = HeavyCounters(&num_heavy);
    static std::string_view names[64];
    if (num_heavy > 64) __builtin_trap();
    for (size_t i = 0; i < num_heavy; ++i) names[i] = heavy[i].domain;
    return MakeSlotted<32>(WordList{names, num_heavy});
  }
};
const TextTables& Tables() {
  static const TextTables* const kTables = new TextTables();
  return *kTables;
}

char* PutDomain(char* p, const TextTables& t, uint16_t slot, uint64_t site_key) {
  if (slot != kTailCounterSlot) return t.heavy_domains.Put(p, slot);
  // A small site: two or three syllables and a zone, e.g. "miraltorg.ru".
  const uint64_t h = site_key;
  const Slotted<8> syllables = t.syllables;  // locals: see Slotted
  const Slotted<8> zones = t.zones;
  p = syllables.Put(p, syllables.IndexOf(h >> 8, 8));
  p = syllables.Put(p, syllables.IndexOf(h >> 16, 8));
  p = syllables.PutIf(p, syllables.IndexOf(h >> 24, 8), '\0', h & 1);
  p -= h & 1;  // PutIf kept a separator
  return zones.Put(p, zones.IndexOf(h >> 40, 8));
}

// A short literal, its terminating zero included (overwritten by what follows): a copy of a
// size known at compile time, which becomes a store or two of immediates. (Padding it to 16
// bytes in a block on the stack had the compiler store the literal there and load it back
// as one 16-byte value, which the store buffer cannot forward from the narrower store.)
template <size_t N>
inline char* PutShort(char* p, const char (&text)[N]) {
  static_assert(N <= 16, "PutShort is for short literals");
  std::memcpy(p, text, N);
  return p + N - 1;
}

uint8_t QueryWordsOf(uint16_t slot, uint64_t site_key) {
  // One small site in four has short query strings.
  if (slot == kTailCounterSlot) return (site_key >> 62) == 3 ? 2 : 0;
  size_t num_heavy = 0;
  return HeavyCounters(&num_heavy)[slot].query_words;
}

// A search phrase: 1-4 words, each from a 16-bit field of one hash.
char* PutPhraseWith(char* p, const TextTables& t, uint32_t phrase, bool url_encoded) {
  const uint64_t h = Mix64(phrase ^ kPhraseSalt);
  // The most frequent phrases (small ids) are short, the long tail has three or four words:
  // so the tail's texts rarely collide and about 45 % of the phrase rows stay distinct, as in
  // the real data. One word in eight is Latin (brands, "mp3", "online").
  const int words = (phrase <= 64 ? 1 : phrase <= 4096 ? 2 : 3) + static_cast<int>(h & 1);
  const uint64_t x = Mix64(h + 1);
  // The word list by index, not by a branch (a word is Latin by a coin flip).
  if (url_encoded) {
    const Slotted<80> lists[2] = {t.encoded, t.latin80};  // locals: see Slotted
    for (int w = 0; w < 4; ++w) {
      const uint64_t field = x >> (16 * w);
      const Slotted<80>& list = lists[(field & 7) == 0];
      p = list.PutIf(p, list.IndexOf(field, 16), '+', w < words);
    }
  } else {
    const Slotted<32> lists[2] = {t.cyrillic, t.latin32};
    for (int w = 0; w < 4; ++w) {
      const uint64_t field = x >> (16 * w);
      const Slotted<32>& list = lists[(field & 7) == 0];
      p = list.PutIf(p, list.IndexOf(field, 16), ' ', w < words);
    }
  }
  return p - 1;  // the last word's separator
}

char* PutPageUrlWith(char* p, const TextTables& t, const PageRef& ref) {
  p = PutShort(p, "http://");
  p = PutDomain(p, t, ref.slot, ref.site_key);
  *p++ = '/';
  const uint32_t page = ref.page;
  if (page == 0) return p;
  const uint64_t h = ref.page_key;
  const Slotted<16> latin = t.latin;  // locals: see Slotted
  const Slotted<80> encoded = t.encoded;
  p = latin.PutIf(p, latin.IndexOf(h, 8), '/', true);
  // Either a slug page ("news/kino-online-12345.html") or a script with an id; a coin flip, so
  // both shapes are written and the cursor advances over the one that applies.
  const bool slug = h >> 8 & 1;
  const int words = (1 + static_cast<int>(h >> 9 & 3)) & -static_cast<int>(slug);
  for (int w = 0; w < 4; ++w) {
    p = latin.PutIf(p, latin.IndexOf(h >> (12 + 6 * w), 6), '-', w < words);
  }
  std::memcpy(p, "view.php?id=\0\0\0", 16);
  p += KeptLength(12, !slug);
  p = PutDecimal(p, page);
  std::memcpy(p, ".html\0\0", 8);
  p += KeptLength(5, slug);
  // Some sites carry long query strings of percent-encoded Cyrillic (the real data's URLs
  // average from ~50 to ~470 bytes per counter).
  const uint8_t query_words = QueryWordsOf(ref.slot, ref.site_key);
  if (query_words != 0) {
    uint64_t q = Mix64(h);
    const int count = query_words / 2 + static_cast<int>(((q & 0xffff) * (query_words + 1u)) >> 16);
    *p++ = slug ? '?' : '&';
    for (int w = 0; w < count; ++w) {
      // The next word's draw: a 64-bit LCG step (one multiply; the words need no more).
      q = q * 6364136223846793005ULL + 1442695040888963407ULL;
      std::memcpy(p, "q0=", 4);
      p[1] = static_cast<char>('0' + w % 10);
      p = encoded.PutIf(p + 3, encoded.IndexOf(q >> 40, 16), '&', true);
    }
    p -= count != 0;  // the last '&'
  }
  return p;
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
  return data() + size_;
}

void PrefaultForWrite(void* begin, size_t bytes) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  if (bytes == 0) return;
  constexpr uintptr_t kPage = 4096;
  // Whole pages only: the ones the range touches at its ends are shared with neighbours, which
  // populating maps the same way.
  const uintptr_t first = reinterpret_cast<uintptr_t>(begin) & ~(kPage - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(begin) + bytes + kPage - 1) & ~(kPage - 1);
  madvise(reinterpret_cast<void*>(first), end - first, MADV_POPULATE_WRITE);
#else
  (void)begin;
  (void)bytes;
#endif
}

AlignedBuffer ByteSink::Take() {
  buffer_.Resize(size_, nullptr);  // shrinking: zeroes the unused tail, never fails
  AlignedBuffer taken = std::move(buffer_);
  Release();
  return taken;
}

char* PutPageUrl(char* p, const PageRef& page) { return PutPageUrlWith(p, Tables(), page); }

char* PutPhrase(char* p, uint32_t phrase, bool url_encoded) {
  return PutPhraseWith(p, Tables(), phrase, url_encoded);
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

char* PutTitle(char* p, const PageRef& ref) {
  const TextTables& t = Tables();
  const Slotted<32> cyrillic = t.cyrillic;  // a local: see Slotted
  const uint64_t h = Draw(ref.page_key, 1);
  const uint32_t page = ref.page;
  const int words = 2 + static_cast<int>(h & 3);
  for (int w = 0; w < 5; ++w) {
    p = cyrillic.PutIf(p, cyrillic.IndexOf(h >> (4 + 7 * w), 7), ' ', w < words);
  }
  // About 1 % of pages mention Google (never a home page: the heaviest pages stay plain, so
  // the share does not hinge on one page).
  if (page != 0 && (h >> 40) % 100 == 0) p = Put(p, "в Google ");
  p = PutShort(p, "- ");
  return PutDomain(p, t, ref.slot, ref.site_key);
}

char* PutReferer(char* p, const RowChunk& chunk, size_t i) {
  const TextTables& t = Tables();
  const uint32_t item = chunk.referer_item[i];
  switch (chunk.referer_kind[i]) {
    case kRefererInternal:
      if (item == kHubReferer) {
        p = PutShort(p, "http://");
        p = PutDomain(p, t, chunk.counter_slot[i], chunk.site_key[i]);
        return PutShort(p, "/novosti/");
      }
      return PutPageUrlWith(p, t,
                            PageRef{chunk.counter_slot[i], chunk.site_key[i], item,
                                    PageKey(chunk.counter_id[i], item)});
    case kRefererSearch: {
      // The engines' search pages, each padded to one 48-byte copy.
      static constexpr char kPrefixes[4][48] = {
          "http://yandex.ru/yandsearch?text=", "http://www.google.ru/search?q=",
          "http://go.mail.ru/search?q=", "http://nova.rambler.ru/search?query="};
      const int engine = chunk.search_engine[i] <= 4 ? chunk.search_engine[i] - 2 : 3;
      std::memcpy(p, kPrefixes[engine], 48);
      p += std::char_traits<char>::length(kPrefixes[engine]);
      p = PutPhraseWith(p, t, chunk.phrase[i], true);
      p = PutShort(p, "&lr=");
      return PutDecimal(p, static_cast<uint64_t>(chunk.region[i]));
    }
    case kRefererExternal: {
      p = PutShort(p, "http://");
      // The site number is below 12 by construction (FillRowChunk); clamped all the same.
      const uint32_t site = item >> 20;
      p = t.external.PutIf(p, site < t.external.size ? site : 0, '/', true);
      p = t.latin.PutIf(p, t.latin.IndexOf(item, 8), '/', true);
      return PutDecimal(p, item & 0xfffff);
    }
    default:
      return p;
  }
}

}  // namespace laneql::hits
