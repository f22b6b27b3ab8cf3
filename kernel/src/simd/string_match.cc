// Dispatch for the string kernels (foreach_target.h compiles the per-target part once per SIMD
// target), plus the target-independent glue: choosing the prefilter bytes, LIKE pattern shapes,
// negation and NULLs.
#include "laneql/string_match.h"

#include <cstring>
#include <string>
#include <vector>

#include "laneql/bitmask.h"
#include "src/simd/string_match_pattern.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/string_match.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/string_match-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

void ContainsTarget(const int32_t* offsets, const uint8_t* data, size_t n, const uint8_t* needle,
                    size_t k, size_t i1, size_t i2, uint64_t* out) {
  ContainsImpl(offsets, data, n, needle, k, i1, i2, out);
}
void CountCandidatesTarget(const int32_t* offsets, const uint8_t* data, size_t n,
                           const uint8_t* needle, size_t k, size_t i1, size_t i2,
                           uint64_t* counts, uint64_t* rows) {
  CountCandidatesImpl(offsets, data, n, needle, k, i1, i2, counts, rows);
}
void AffixTarget(const int32_t* offsets, const uint8_t* data, size_t n, const uint8_t* needle,
                 size_t k, int mode, uint64_t* out) {
  if (mode == kStrPrefix) {
    AffixImpl<kStrPrefix>(offsets, data, n, needle, k, out);
  } else if (mode == kStrSuffix) {
    AffixImpl<kStrSuffix>(offsets, data, n, needle, k, out);
  } else {
    EqualsImpl(offsets, data, n, needle, k, out);
  }
}
void NotEmptyTarget(const int32_t* offsets, size_t n, uint64_t* out) {
  NotEmptyImpl(offsets, n, out);
}
void ByteLengthsTarget(const int32_t* offsets, size_t n, int64_t* out) {
  ByteLengthsImpl(offsets, n, out);
}
void CodePointLengthsTarget(const int32_t* offsets, const uint8_t* data, size_t n, int64_t* out) {
  CodePointLengthsImpl(offsets, data, n, out);
}
bool BytesAreAsciiTarget(const uint8_t* data, size_t n) { return BytesAreAsciiImpl(data, n); }
void AsciiCaseMapTarget(const uint8_t* data, size_t n, bool upper, uint8_t* out) {
  AsciiCaseMapImpl(data, n, upper, out);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace laneql {

HWY_EXPORT(ContainsTarget);
HWY_EXPORT(CountCandidatesTarget);
HWY_EXPORT(AffixTarget);
HWY_EXPORT(NotEmptyTarget);
HWY_EXPORT(ByteLengthsTarget);
HWY_EXPORT(CodePointLengthsTarget);
HWY_EXPORT(BytesAreAsciiTarget);
HWY_EXPORT(AsciiCaseMapTarget);

namespace {

// The same values as the per-target StrAffixMode (which lives in each target's namespace).
constexpr int kPrefixMode = 0, kSuffixMode = 1, kEqualsMode = 2;

const uint8_t* Bytes(std::string_view s) { return reinterpret_cast<const uint8_t*>(s.data()); }

// Turns raw match bits into the result: negated if asked, ANDed with validity, tail cleared.
void Finish(size_t n, const uint64_t* validity, bool negate, uint64_t* out) {
  const size_t words = BitmaskWords(n);
  for (size_t w = 0; w < words; ++w) {
    uint64_t bits = negate ? ~out[w] : out[w];
    if (validity != nullptr) bits &= validity[w];
    out[w] = bits;
  }
  if (words != 0) out[words - 1] &= BitmaskTailMask(n);
}

void Fill(size_t n, uint64_t value, uint64_t* out) {
  for (size_t w = 0; w < BitmaskWords(n); ++w) out[w] = value;
}

// How common each byte is in URL-like and Russian web text (ClickBench's URL, Title and
// SearchPhrase): English letter frequencies for lowercase, URL punctuation, uppercase hex digits
// of percent-encoding, and Cyrillic UTF-8 (lead bytes 0xD0/0xD1, continuation bytes). Rough
// per-mille guesses; only the order matters, to pick the pair of needle bytes least likely to
// produce false candidates.
int ByteWeight(uint8_t b) {
  static const char kLower[] = "etaoinsrlchdupmgfwybvkxzjq";  // most to least frequent
  if (b >= 'a' && b <= 'z') {
    return 80 - 3 * static_cast<int>(std::strchr(kLower, b) - kLower);
  }
  if (b >= '0' && b <= '9') return b <= '2' ? 30 : 15;
  if (b >= 'A' && b <= 'Z') {
    if (b == 'D') return 35;   // %D0, %D1: Cyrillic percent-encoded
    if (b <= 'F') return 12;   // other hex digits
    return 5;
  }
  switch (b) {
    case '/': return 45;
    case '%': return 40;
    case '.': case ' ': return 30;
    case '=': return 20;
    case '-': return 15;
    case '&': return 12;
    case '_': case ':': return 8;
    case '?': return 6;
    case 0xD0: return 30;
    case 0xD1: return 25;
    default: break;
  }
  if (b >= 0x80 && b <= 0xBF) return 12;  // UTF-8 continuation bytes
  if (b < 0x20 || b >= 0xC0) return 1;    // control bytes, rare UTF-8 lead bytes
  return 3;                               // other ASCII punctuation
}

// The two needle positions the prefilter compares (k >= 1).
void PrefilterPositions(SubstringPrefilter prefilter, const uint8_t* needle, size_t k, size_t* i1,
                        size_t* i2) {
  *i1 = 0;
  *i2 = 0;
  if (k == 1) return;
  switch (prefilter) {
    case SubstringPrefilter::kFirstSecond:
      *i2 = 1;
      return;
    case SubstringPrefilter::kFirstLast:
      *i2 = k - 1;
      return;
    case SubstringPrefilter::kRarestPair: {
      // Independent bytes: the pair with the smallest product of weights; ties go to the pair
      // found first (leftmost), which keeps the loads of a step close together.
      long best = -1;
      for (size_t a = 0; a < k; ++a) {
        for (size_t b = a + 1; b < k; ++b) {
          const long score = static_cast<long>(ByteWeight(needle[a])) * ByteWeight(needle[b]);
          if (best < 0 || score < best) {
            best = score;
            *i1 = a;
            *i2 = b;
          }
        }
      }
      return;
    }
  }
}

// Raw match bits (no validity, no negation) of LIKE '%needle%'.
void MatchContains(SubstringPrefilter prefilter, const int32_t* offsets, const uint8_t* data,
                   size_t n, std::string_view needle, uint64_t* out) {
  if (needle.empty()) {
    Fill(n, ~uint64_t{0}, out);
    return;
  }
  Fill(n, 0, out);
  if (n == 0) return;
  size_t i1, i2;
  PrefilterPositions(prefilter, Bytes(needle), needle.size(), &i1, &i2);
  HWY_DYNAMIC_DISPATCH(ContainsTarget)(offsets, data, n, Bytes(needle), needle.size(), i1, i2,
                                       out);
}

// Raw match bits of prefix / suffix / equality; every word of out written.
void MatchAffix(int mode, const int32_t* offsets, const uint8_t* data, size_t n,
                std::string_view needle, uint64_t* out) {
  if (needle.empty()) {
    if (mode == kEqualsMode) {  // = '' is "empty": the complement of non-empty
      HWY_DYNAMIC_DISPATCH(NotEmptyTarget)(offsets, n, out);
      Finish(n, nullptr, /*negate=*/true, out);
    } else {
      Fill(n, ~uint64_t{0}, out);
    }
    return;
  }
  HWY_DYNAMIC_DISPATCH(AffixTarget)(offsets, data, n, Bytes(needle), needle.size(), mode, out);
}

void Like(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view pattern,
          int escape, const uint64_t* validity, bool negate, uint64_t* out) {
  const like::LikeProgram prog = like::CompileLike(pattern, escape);
  switch (prog.kind) {
    case like::LikeKind::kAll:
      Fill(n, ~uint64_t{0}, out);
      break;
    case like::LikeKind::kEquals:
      MatchAffix(kEqualsMode, offsets, data, n, prog.literal, out);
      break;
    case like::LikeKind::kPrefix:
      MatchAffix(kPrefixMode, offsets, data, n, prog.literal, out);
      break;
    case like::LikeKind::kSuffix:
      MatchAffix(kSuffixMode, offsets, data, n, prog.literal, out);
      break;
    case like::LikeKind::kContains:
      MatchContains(kDefaultSubstringPrefilter, offsets, data, n, prog.literal, out);
      break;
    case like::LikeKind::kGeneral: {
      // Candidates: the rows containing the longest literal run (all rows if there is none),
      // minus NULL rows; only those are matched against the whole pattern.
      MatchContains(kDefaultSubstringPrefilter, offsets, data, n, prog.longest_literal, out);
      Finish(n, validity, false, out);
      for (size_t w = 0; w < BitmaskWords(n); ++w) {
        for (uint64_t bits = out[w]; bits != 0; bits &= bits - 1) {
          const size_t r = w * 64 + hwy::Num0BitsBelowLS1Bit_Nonzero64(bits);
          const size_t start = static_cast<size_t>(offsets[r]);
          const size_t len = static_cast<size_t>(offsets[r + 1]) - start;
          if (!like::MatchLike(prog, data + start, len)) out[w] &= ~(uint64_t{1} << (r % 64));
        }
      }
      break;
    }
  }
  Finish(n, validity, negate, out);
}

}  // namespace

void SubstringPrefilterPositions(SubstringPrefilter prefilter, std::string_view needle,
                                 size_t* first, size_t* second) {
  PrefilterPositions(prefilter, Bytes(needle), needle.size(), first, second);
}

SubstringCandidateCounts CountSubstringCandidates(SubstringPrefilter prefilter,
                                                  const int32_t* offsets, const uint8_t* data,
                                                  size_t n, std::string_view needle,
                                                  const uint64_t* validity) {
  SubstringCandidateCounts counts;
  std::vector<uint64_t> rows(BitmaskWords(n), needle.empty() ? ~uint64_t{0} : 0);
  const size_t k = needle.size();
  const size_t bytes = n == 0 ? 0 : static_cast<size_t>(offsets[n] - offsets[0]);
  if (k != 0 && bytes >= k) {
    counts.positions = bytes - k + 1;
    size_t i1, i2;
    PrefilterPositions(prefilter, Bytes(needle), k, &i1, &i2);
    uint64_t stages[3] = {0, 0, 0};
    HWY_DYNAMIC_DISPATCH(CountCandidatesTarget)(offsets, data, n, Bytes(needle), k, i1, i2,
                                                stages, rows.data());
    counts.first_byte = stages[0];
    counts.two_byte = stages[1];
    counts.verified = stages[2];
  }
  Finish(n, validity, false, rows.data());
  for (const uint64_t word : rows) counts.rows += static_cast<uint64_t>(hwy::PopCount(word));
  return counts;
}

void StringContainsWith(SubstringPrefilter prefilter, const int32_t* offsets, const uint8_t* data,
                        size_t n, std::string_view needle, const uint64_t* validity,
                        uint64_t* out) {
  MatchContains(prefilter, offsets, data, n, needle, out);
  Finish(n, validity, false, out);
}

void StringContains(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view needle,
                    const uint64_t* validity, uint64_t* out) {
  StringContainsWith(kDefaultSubstringPrefilter, offsets, data, n, needle, validity, out);
}

void StringNotContains(const int32_t* offsets, const uint8_t* data, size_t n,
                       std::string_view needle, const uint64_t* validity, uint64_t* out) {
  MatchContains(kDefaultSubstringPrefilter, offsets, data, n, needle, out);
  Finish(n, validity, true, out);
}

void StringStartsWith(const int32_t* offsets, const uint8_t* data, size_t n,
                      std::string_view prefix, const uint64_t* validity, uint64_t* out) {
  MatchAffix(kPrefixMode, offsets, data, n, prefix, out);
  Finish(n, validity, false, out);
}

void StringEndsWith(const int32_t* offsets, const uint8_t* data, size_t n,
                    std::string_view suffix, const uint64_t* validity, uint64_t* out) {
  MatchAffix(kSuffixMode, offsets, data, n, suffix, out);
  Finish(n, validity, false, out);
}

void StringEquals(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view value,
                  const uint64_t* validity, uint64_t* out) {
  MatchAffix(kEqualsMode, offsets, data, n, value, out);
  Finish(n, validity, false, out);
}

void StringNotEquals(const int32_t* offsets, const uint8_t* data, size_t n,
                     std::string_view value, const uint64_t* validity, uint64_t* out) {
  MatchAffix(kEqualsMode, offsets, data, n, value, out);
  Finish(n, validity, true, out);
}

void StringNotEmpty(const int32_t* offsets, size_t n, const uint64_t* validity, uint64_t* out) {
  HWY_DYNAMIC_DISPATCH(NotEmptyTarget)(offsets, n, out);
  Finish(n, validity, false, out);
}

void StringLike(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view pattern,
                int escape, const uint64_t* validity, uint64_t* out) {
  Like(offsets, data, n, pattern, escape, validity, false, out);
}

void StringNotLike(const int32_t* offsets, const uint8_t* data, size_t n, std::string_view pattern,
                   int escape, const uint64_t* validity, uint64_t* out) {
  Like(offsets, data, n, pattern, escape, validity, true, out);
}

void StringByteLengths(const int32_t* offsets, size_t n, int64_t* out) {
  HWY_DYNAMIC_DISPATCH(ByteLengthsTarget)(offsets, n, out);
}

void AsciiCaseMap(const uint8_t* data, size_t n, bool upper, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(AsciiCaseMapTarget)(data, n, upper, out);
}

void StringCodePointLengths(const int32_t* offsets, const uint8_t* data, size_t n, int64_t* out) {
  HWY_DYNAMIC_DISPATCH(CodePointLengthsTarget)(offsets, data, n, out);
}

bool BytesAreAscii(const uint8_t* data, size_t n) {
  return HWY_DYNAMIC_DISPATCH(BytesAreAsciiTarget)(data, n);
}

}  // namespace laneql
#endif  // HWY_ONCE
