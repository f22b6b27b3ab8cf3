// String kernels on a URL-like column, one thread, per SIMD target, next to a read-bandwidth probe
// and to scalar code: LIKE '%google%' with each substring prefilter (GB/s of string bytes),
// against the row-by-row scalar reference and a row-by-row glibc memmem; then prefix, equality,
// <> '', byte and code-point length, NOT LIKE and one general LIKE pattern.
//
//   build/h-<dir>/bench/laneql_string_match_bench [rows] [runs]
//
// Default 10^7 rows (~0.8 GB of string bytes, memory-resident); 'google' is planted in ~0.016 %
// of the rows, the share ClickBench's hits table has. A cache-resident run (~256 KiB of rows,
// repeated) follows. Every kernel result is checked against the reference before it is timed.
// Bandwidth columns: string bytes for the byte-scanning kernels (LIKE, code points), offsets
// plus string bytes for prefixes (a gather per row start touches nearly every cache line),
// offsets only for equality (bytes of rows of the right length only), lengths and <> ''.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench_util.h"
#include "laneql/bitmask.h"
#include "laneql/string_match.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"

using laneql::bench::KeepAlive;
using laneql::bench::MedianSeconds;
using laneql::bench::Row;

namespace {

struct StringColumn {
  std::vector<int32_t> offsets{0};
  std::vector<uint8_t> data;
  size_t rows() const { return offsets.size() - 1; }
  void Add(const std::string& s) {
    data.insert(data.end(), s.begin(), s.end());
    offsets.push_back(static_cast<int32_t>(data.size()));
  }
};

// URL-like rows in the spirit of ClickBench's URL column: Russian sites, paths of words and ids,
// query strings with percent-encoded Cyrillic. Words starting with 'g', 'go' and ending in 'e'
// make the prefilters work for their living; 'google' itself only where planted.
StringColumn MakeUrls(size_t rows, uint64_t seed) {
  static const char* const kHosts[] = {
      "yandex.ru",  "mail.ru",     "vk.com",      "avito.ru",    "auto.ru",     "kinopoisk.ru",
      "go.mail.ru", "gorod.ru",    "golos.ua",    "goods.ru",    "gismeteo.ru", "livejournal.com",
      "youtube.com", "ok.ru",      "rambler.ru",  "lenta.ru",    "gazeta.ru",   "ria.ru",
      "market.yandex.ru", "images.yandex.ru", "news.mail.ru", "games.mail.ru", "kp.ru", "rbc.ru"};
  static const char* const kWords[] = {
      "news", "catalog", "item", "page", "search", "photo", "video", "game", "goods", "go",
      "global", "group", "image", "profile", "article", "guide", "mobile", "online", "sale",
      "index", "view", "list", "blog", "home", "region", "moscow", "logo", "golf", "glue"};
  static const char* const kParams[] = {"id", "page", "utm_source", "from", "text", "q", "lr",
                                        "clid", "region", "sort", "ref"};
  static const char* const kCyr[] = {"\xD0\xBF\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82",
                                     "\xD0\xBA\xD1\x83\xD0\xBF\xD0\xB8\xD1\x82\xD1\x8C",
                                     "\xD0\xBC\xD0\xBE\xD1\x81\xD0\xBA\xD0\xB2\xD0\xB0"};
  auto pick = [](std::mt19937_64& rng, const auto& list) {
    return list[rng() % (sizeof(list) / sizeof(list[0]))];
  };
  std::mt19937_64 rng(seed);
  StringColumn col;
  col.data.reserve(rows * 90);
  col.offsets.reserve(rows + 1);
  std::string s;
  char hex[4];
  for (size_t i = 0; i < rows; ++i) {
    s.clear();
    if (rng() % 50 == 0) {  // ClickBench's URL has some empty rows
      col.Add(s);
      continue;
    }
    const bool plant = rng() % 6250 == 0;  // 0.016 %
    s += (rng() % 3 != 0) ? "https://" : "http://";
    if (plant && rng() % 2 == 0) {
      s += "www.google.ru";
    } else {
      s += pick(rng, kHosts);
    }
    for (size_t depth = 1 + rng() % 4; depth > 0; --depth) {
      s += '/';
      s += pick(rng, kWords);
      if (rng() % 3 == 0) s += std::to_string(rng() % 1000000);
    }
    if (rng() % 2 == 0) s += ".html";
    for (size_t p = rng() % 4, first = 1; p > 0; --p, first = 0) {
      s += first ? '?' : '&';
      s += pick(rng, kParams);
      s += '=';
      if (rng() % 3 == 0) {  // percent-encoded Cyrillic
        for (const char* c = pick(rng, kCyr); *c != '\0'; ++c) {
          std::snprintf(hex, sizeof hex, "%%%02X", static_cast<uint8_t>(*c));
          s += hex;
        }
      } else {
        s += std::to_string(rng() % 100000000);
      }
    }
    if (plant && s.find("google") == std::string::npos) s += "&q=google+search";
    col.Add(s);
  }
  return col;
}

// Row by row with glibc's memmem: the straightforward scalar alternative to the whole-buffer scan.
void MemmemContains(const StringColumn& c, const char* needle, uint64_t* out) {
  const size_t k = std::strlen(needle);
  std::memset(out, 0, laneql::BitmaskWords(c.rows()) * 8);
  for (size_t i = 0; i < c.rows(); ++i) {
    const uint8_t* row = c.data.data() + c.offsets[i];
    if (memmem(row, c.offsets[i + 1] - c.offsets[i], needle, k) != nullptr) {
      laneql::BitmaskSet(out, i);
    }
  }
}

size_t Count(const std::vector<uint64_t>& m) {
  size_t c = 0;
  for (uint64_t w : m) c += static_cast<size_t>(__builtin_popcountll(w));
  return c;
}

const char* PrefilterName(laneql::SubstringPrefilter p) {
  switch (p) {
    case laneql::SubstringPrefilter::kFirstSecond: return "first+second";
    case laneql::SubstringPrefilter::kFirstLast: return "first+last";
    case laneql::SubstringPrefilter::kRarestPair: return "rarest pair";
  }
  return "?";
}

void Fail(const char* what, const std::string& target) {
  std::fprintf(stderr, "MISMATCH: %s on %s\n", what, target.c_str());
  std::exit(1);
}

// Times every kernel on one column (`repeats` calls per timed run, for the cache-resident one).
void BenchColumn(const StringColumn& col, const char* label, int runs, int repeats, double probe,
                 bool with_scalar) {
  const size_t n = col.rows();
  const int32_t* off = col.offsets.data();
  const uint8_t* data = col.data.data();
  const size_t str_bytes = col.data.size() * repeats;
  const size_t off_bytes = (n + 1) * 4 * repeats;
  const size_t rows = n * repeats;
  std::vector<uint64_t> want(laneql::BitmaskWords(n)), got(want.size());
  std::vector<int64_t> want_len(n), got_len(n);
  const std::string tag = std::string(" (") + label + ")";
  const auto timed = [&](const auto& fn) {
    return MedianSeconds(runs, [&] {
      for (int r = 0; r < repeats; ++r) fn();
      KeepAlive(got[0]);
      if (!got_len.empty()) KeepAlive(got_len[0]);
    });
  };

  laneql::reference::StringContains(off, data, n, "google", nullptr, want.data());
  std::printf("%s: %zu rows, %.1f MB of string bytes, %.1f bytes/row, 'google' in %zu rows "
              "(%.4f %%)\n", label, n, col.data.size() / 1e6, double(col.data.size()) / n,
              Count(want), 100.0 * Count(want) / n);
  if (with_scalar) {
    Row("like %google% scalar ref" + tag, "-", 1, str_bytes, rows,
        timed([&] {
          laneql::reference::StringContains(off, data, n, "google", nullptr, got.data());
        }),
        probe);
    Row("like %google% memmem/row" + tag, "-", 1, str_bytes, rows,
        timed([&] { MemmemContains(col, "google", got.data()); }), probe);
    if (got != want) Fail("memmem", "-");
  }

  // References for the other kernels, computed once.
  const std::string url_eq(reinterpret_cast<const char*>(data) + off[n / 2],
                           off[n / 2 + 1] - off[n / 2]);  // a value that occurs
  std::vector<uint64_t> want_prefix(want.size()), want_eq(want.size()), want_ne(want.size()),
      want_like(want.size()), want_notlike(want.size());
  laneql::reference::StringStartsWith(off, data, n, "https://yandex", nullptr, want_prefix.data());
  laneql::reference::StringEquals(off, data, n, url_eq, nullptr, want_eq.data());
  laneql::reference::StringNotEmpty(off, n, nullptr, want_ne.data());
  laneql::reference::StringNotContains(off, data, n, ".google.", nullptr, want_notlike.data());
  laneql::reference::StringLike(off, data, n, "http%://www._oogle.%/%", laneql::kNoLikeEscape,
                                nullptr, want_like.data());
  std::vector<int64_t> want_cp(n);
  laneql::reference::StringByteLengths(off, n, want_len.data());
  laneql::reference::StringCodePointLengths(off, data, n, want_cp.data());

  // How many starts pass each stage: what the verification step pays for.
  for (laneql::SubstringPrefilter pf :
       {laneql::SubstringPrefilter::kFirstSecond, laneql::SubstringPrefilter::kFirstLast,
        laneql::SubstringPrefilter::kRarestPair}) {
    size_t i1, i2;
    laneql::SubstringPrefilterPositions(pf, "google", &i1, &i2);
    const laneql::SubstringCandidateCounts c =
        laneql::CountSubstringCandidates(pf, off, data, n, "google", nullptr);
    const double kb = col.data.size() / 1000.0;
    std::printf("prefilter %-12s (positions %zu, %zu): per KB %.2f pass byte %zu, %.2f both, "
                "%.4f verified (%llu rows)\n",
                PrefilterName(pf), i1, i2, c.first_byte / kb, i1, c.two_byte / kb,
                c.verified / kb, static_cast<unsigned long long>(c.rows));
  }

  for (const laneql::SimdTarget& target : laneql::SupportedTargets()) {
    std::string error;
    if (!laneql::ForceTarget(target.name, &error)) continue;
    const std::string& t = target.name;
    for (laneql::SubstringPrefilter pf :
         {laneql::SubstringPrefilter::kFirstSecond, laneql::SubstringPrefilter::kFirstLast,
          laneql::SubstringPrefilter::kRarestPair}) {
      laneql::StringContainsWith(pf, off, data, n, "google", nullptr, got.data());
      if (got != want) Fail("contains", t);
      Row(std::string("like %google% ") + PrefilterName(pf) + tag, t, 1, str_bytes, rows,
          timed([&] {
            laneql::StringContainsWith(pf, off, data, n, "google", nullptr, got.data());
          }),
          probe);
    }
    const auto check_time = [&](const char* name, const std::vector<uint64_t>& expect, size_t bytes,
                                const auto& fn) {
      fn();
      if (got != expect) Fail(name, t);
      Row(name + tag, t, 1, bytes, rows, timed(fn), probe);
    };
    check_time("not like %.google.%", want_notlike, str_bytes, [&] {
      laneql::StringNotContains(off, data, n, ".google.", nullptr, got.data());
    });
    check_time("like http%://www._oogle.%/%", want_like, str_bytes, [&] {
      laneql::StringLike(off, data, n, "http%://www._oogle.%/%", laneql::kNoLikeEscape, nullptr,
                         got.data());
    });
    check_time("like https://yandex%", want_prefix, str_bytes + off_bytes, [&] {
      laneql::StringStartsWith(off, data, n, "https://yandex", nullptr, got.data());
    });
    check_time("= const (url)", want_eq, off_bytes, [&] {
      laneql::StringEquals(off, data, n, url_eq, nullptr, got.data());
    });
    check_time("<> ''", want_ne, off_bytes, [&] {
      laneql::StringNotEmpty(off, n, nullptr, got.data());
    });
    laneql::StringByteLengths(off, n, got_len.data());
    if (got_len != want_len) Fail("byte length", t);
    Row("length (bytes)" + tag, t, 1, off_bytes, rows,
        timed([&] { laneql::StringByteLengths(off, n, got_len.data()); }), probe);
    laneql::StringCodePointLengths(off, data, n, got_len.data());
    if (got_len != want_cp) Fail("code point length", t);
    Row("length (code points)" + tag, t, 1, str_bytes + off_bytes, rows,
        timed([&] { laneql::StringCodePointLengths(off, data, n, got_len.data()); }), probe);
  }
  laneql::ResetTarget();
  if (with_scalar) {
    Row("length (code pts) scalar ref" + tag, "-", 1, str_bytes + off_bytes, rows,
        timed([&] { laneql::reference::StringCodePointLengths(off, data, n, got_len.data()); }),
        probe);
    Row("like prefix scalar ref" + tag, "-", 1, str_bytes + off_bytes, rows, timed([&] {
          laneql::reference::StringStartsWith(off, data, n, "https://yandex", nullptr, got.data());
        }), probe);
  }
  std::printf("\n");
}

// The probe for cache-resident data: memchr (searching an absent byte) over the same buffer size,
// repeated in one thread (bench_util's probe starts threads, which would dominate here).
double CachedProbeGBs(size_t bytes, int repeats, int runs) {
  std::vector<uint8_t> buf(bytes, 0);
  const double s = MedianSeconds(runs, [&] {
    for (int r = 0; r < repeats; ++r) KeepAlive(std::memchr(buf.data(), 1, buf.size()));
  });
  return static_cast<double>(bytes) * repeats / s / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000000;
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  if (rows < 1000 || runs < 1) {
    std::fprintf(stderr, "usage: %s [rows >= 1000, default 10000000] [runs >= 1, default 5]\n",
                 argv[0]);
    return 2;
  }
  const StringColumn col = MakeUrls(rows, 42);
  std::printf("cpu: %s, median of %d, one thread\n", laneql::CpuModel().c_str(), runs);
  const double probe = laneql::bench::ProbeReadGBs(col.data.size(), 1, runs);
  std::printf("read-bandwidth probe (memchr), 1 thread, %.0f MB: %.2f GB/s\n\n",
              col.data.size() / 1e6, probe);
  laneql::bench::PrintHeader();
  BenchColumn(col, "memory", runs, 1, probe, true);

  // Cache-resident: the first ~256 KiB of rows, each timed run repeating the kernel.
  StringColumn small;
  for (size_t i = 0; i < col.rows() && small.data.size() < 256 * 1024; ++i) {
    small.Add(std::string(reinterpret_cast<const char*>(col.data.data()) + col.offsets[i],
                          col.offsets[i + 1] - col.offsets[i]));
  }
  const double cache_probe = CachedProbeGBs(small.data.size(), 400, runs);
  std::printf("read-bandwidth probe (memchr), 1 thread, %.0f KB: %.2f GB/s\n",
              small.data.size() / 1e3, cache_probe);
  BenchColumn(small, "256 KiB cached", runs, 400, cache_probe, true);
  return 0;
}
