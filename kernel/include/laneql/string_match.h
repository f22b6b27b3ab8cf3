// String predicates and lengths over Arrow-style string columns: LIKE / NOT LIKE (substring,
// prefix, suffix and general patterns), equality with a constant, non-empty, byte length and
// UTF-8 code-point length. SIMD kernels dispatched at run time, plus the plain scalar references
// they are tested against.
//
// Column layout (Arrow's utf8): `offsets` has n + 1 non-decreasing int32 entries and row i is the
// bytes data[offsets[i], offsets[i + 1]). offsets[0] need not be 0 (a slice); the kernels read
// only bytes in [offsets[0], offsets[n]) and never past them, so `data` needs no padding.
//
// Matching is byte-wise and case-sensitive, as in ClickHouse and DuckDB. The one place where
// characters rather than bytes count is LIKE's `_`, which matches exactly one UTF-8 code point as
// in DuckDB: one byte plus the continuation bytes (10xxxxxx) that follow it. For valid UTF-8 that
// is one code point; for invalid input it is still well defined (and the reference agrees).
//
// Predicate results are row bitmasks (laneql/bitmask.h): `out` gets BitmaskWords(n) words, all of
// them overwritten (bits past row n are 0). `validity` (nullptr = no NULLs) is ANDed in: a NULL row
// is never selected, by the negated forms (NOT LIKE, <>) either, as SQL's three-valued logic
// turns NULL into "not selected" in a WHERE clause.
#ifndef LANEQL_STRING_MATCH_H_
#define LANEQL_STRING_MATCH_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace laneql {

// Which two needle bytes the substring search compares a whole vector of text against before it
// verifies a candidate with memcmp. All three give the same results; they differ in how many
// false candidates typical text produces (bench/string_match_bench.cc measures them).
enum class SubstringPrefilter {
  kFirstSecond,  // needle[0] at p and needle[1] at p + 1 (ClickHouse's choice)
  kFirstLast,    // needle[0] at p and needle[k - 1] at p + k - 1
  kRarestPair,   // the two positions whose bytes are rarest in URL-like text (static table)
};
// The variant StringContains uses: the fastest on URL-like data (bench/string_match_bench.cc).
// For '%google%' first+last let through 0.45 candidates per KB against 9.2 for first+second and
// 1.8 for the rarest pair (g at 0 and 3; adjacent needle bytes are correlated in text, distant
// ones much less, which the static table cannot see): memory-resident it ties the rarest pair at
// the bandwidth limit and runs 2x first+second; cache-resident it is the fastest of the three.
inline constexpr SubstringPrefilter kDefaultSubstringPrefilter = SubstringPrefilter::kFirstLast;

// LIKE's escape character: none (DuckDB's default), or e.g. '\\' (ClickHouse's default).
// An escape makes the next pattern byte literal; a trailing escape matches itself.
inline constexpr int kNoLikeEscape = -1;

// --- Predicates (out: BitmaskWords(n) words) ---

// LIKE '%needle%' / NOT LIKE '%needle%'. An empty needle matches every row.
void StringContains(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view needle,
                    const uint64_t* validity, uint64_t* out);
void StringNotContains(const int32_t* offsets, const uint8_t* data, size_t n,
                       std::string_view needle, const uint64_t* validity, uint64_t* out);
// StringContains with a chosen prefilter (for the benchmark and the tests).
void StringContainsWith(SubstringPrefilter prefilter, const int32_t* offsets, const uint8_t* data,
                        size_t n, std::string_view needle, const uint64_t* validity,
                        uint64_t* out);
// The two needle positions a prefilter compares (needle not empty; both 0 for one byte).
void SubstringPrefilterPositions(SubstringPrefilter prefilter, std::string_view needle,
                                 size_t* first, size_t* second);

// What each stage of the substring search lets through for one needle (k bytes): the web demo and
// the benchmark show how much verification work the two-byte prefilter saves. Every start
// position of the column's byte buffer is counted, with no skipping ahead after a match, so the
// counts depend only on the data, not on the kernel's strategy.
struct SubstringCandidateCounts {
  uint64_t positions = 0;   // start positions: bytes - k + 1 (0 if fewer bytes than k)
  uint64_t first_byte = 0;  // positions p with needle[i1] at p + i1 (a one-byte prefilter)
  uint64_t two_byte = 0;    // ... and needle[i2] at p + i2 (the prefilter's pair)
  uint64_t verified = 0;    // ... and the whole needle at p, inside one row
  uint64_t rows = 0;        // non-NULL rows containing the needle (what LIKE selects)
};
// The counts for `prefilter`'s pair (i1, i2: SubstringPrefilterPositions). An empty needle has
// no positions to test: every count is 0 except rows, which is every non-NULL row.
SubstringCandidateCounts CountSubstringCandidates(SubstringPrefilter prefilter,
                                                  const int32_t* offsets, const uint8_t* data,
                                                  size_t n, std::string_view needle,
                                                  const uint64_t* validity);

// LIKE 'prefix%' and LIKE '%suffix'.
void StringStartsWith(const int32_t* offsets, const uint8_t* data, size_t n,
                      std::string_view prefix, const uint64_t* validity, uint64_t* out);
void StringEndsWith(const int32_t* offsets, const uint8_t* data, size_t n,
                    std::string_view suffix, const uint64_t* validity, uint64_t* out);

// = 'value' / <> 'value'.
void StringEquals(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view value,
                  const uint64_t* validity, uint64_t* out);
void StringNotEquals(const int32_t* offsets, const uint8_t* data, size_t n,
                     std::string_view value, const uint64_t* validity, uint64_t* out);

// <> '': from the offsets alone.
void StringNotEmpty(const int32_t* offsets, size_t n, const uint64_t* validity, uint64_t* out);

// General LIKE / NOT LIKE with `%` (any bytes) and `_` (one code point) anywhere. Patterns that
// are a plain substring, prefix, suffix or constant run those kernels; the others are searched
// for their longest literal run with the substring kernel and only the candidate rows are
// matched against the whole pattern.
void StringLike(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view pattern,
                int escape, const uint64_t* validity, uint64_t* out);
void StringNotLike(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view pattern,
                   int escape, const uint64_t* validity, uint64_t* out);

// --- Lengths (out: n values; NULL rows get the length of whatever bytes they span, usually 0) ---

// Bytes per row: ClickHouse's length(), DuckDB's strlen() / octet_length().
void StringByteLengths(const int32_t* offsets, size_t n, int64_t* out);
// Code points per row (bytes that are not UTF-8 continuation bytes): DuckDB's length().
void StringCodePointLengths(const int32_t* offsets, const uint8_t* data, size_t n, int64_t* out);
// Whether every byte of data[0, n) is below 0x80 (true for n = 0). Such strings have a code
// point per byte: Column::AllAscii caches the answer, and length() then reads the offsets only.
bool BytesAreAscii(const uint8_t* data, size_t n);
// data[0, n) into out[0, n) with the ASCII letters in upper case (upper) or lower case; other
// bytes as they are (upper / lower of ASCII text; the first pass over any UTF-8 text).
void AsciiCaseMap(const uint8_t* data, size_t n, bool upper, uint8_t* out);

namespace reference {
// Plain scalar code, row by row, no Highway: the definitions the kernels are tested against.
void StringContains(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view needle,
                    const uint64_t* validity, uint64_t* out);
void StringNotContains(const int32_t* offsets, const uint8_t* data, size_t n,
                       std::string_view needle, const uint64_t* validity, uint64_t* out);
void StringStartsWith(const int32_t* offsets, const uint8_t* data, size_t n,
                      std::string_view prefix, const uint64_t* validity, uint64_t* out);
void StringEndsWith(const int32_t* offsets, const uint8_t* data, size_t n,
                    std::string_view suffix, const uint64_t* validity, uint64_t* out);
void StringEquals(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view value,
                  const uint64_t* validity, uint64_t* out);
void StringNotEquals(const int32_t* offsets, const uint8_t* data, size_t n,
                     std::string_view value, const uint64_t* validity, uint64_t* out);
void StringNotEmpty(const int32_t* offsets, size_t n, const uint64_t* validity, uint64_t* out);
void StringLike(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view pattern,
                int escape, const uint64_t* validity, uint64_t* out);
void StringNotLike(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view pattern,
                   int escape, const uint64_t* validity, uint64_t* out);
void StringByteLengths(const int32_t* offsets, size_t n, int64_t* out);
void StringCodePointLengths(const int32_t* offsets, const uint8_t* data, size_t n, int64_t* out);
bool BytesAreAscii(const uint8_t* data, size_t n);
void AsciiCaseMap(const uint8_t* data, size_t n, bool upper, uint8_t* out);
SubstringCandidateCounts CountSubstringCandidates(SubstringPrefilter prefilter,
                                                  const int32_t* offsets, const uint8_t* data,
                                                  size_t n, std::string_view needle,
                                                  const uint64_t* validity);
// One string against a LIKE pattern, by dynamic programming over (pattern, string) positions.
bool LikeMatch(std::string_view text, std::string_view pattern, int escape);
}  // namespace reference

}  // namespace laneql

#endif  // LANEQL_STRING_MATCH_H_
