// Vectors cast to VARCHAR (cast_text.h): integers and dates written in place with their
// lengths worked out first, the other types through their text writers a row at a time.
#include "src/exec/cast_text.h"

#include <charconv>
#include <cstring>
#include <type_traits>

#include "laneql/result.h"
#include "src/common/civil_time.h"
#include "src/exec/expr_eval.h"
#include "src/exec/string_chunks.h"

namespace laneql {
namespace exec {

namespace {

// *out = the texts of `in`'s rows (ASCII) from their ends (rows + 1 int32 offsets) and bytes,
// NULL where `in` is.
bool TextVec(const Vec& in, AlignedBuffer&& offsets, AlignedBuffer&& data, Vec* out, std::string* error) {
  out->type = TypeId::kString;
  out->constant = in.constant;
  out->count = in.count;
  out->own_offsets = std::move(offsets);
  out->own_values = std::move(data);
  out->offsets = out->own_offsets.As<int32_t>();
  static const uint8_t kEmpty[64] = {};
  out->values = out->own_values.data() != nullptr ? out->own_values.data() : kEmpty;
  out->validity = nullptr;
  out->ascii = true;
  return CopyValidity(in, out, error);
}

// Adds `length` bytes to a string result's size; false (with the builders' message) past 2 GiB.
bool AddTextBytes(size_t length, size_t* bytes, std::string* error) {
  *bytes += length;
  if (*bytes <= static_cast<size_t>(INT32_MAX)) return true;
  *error = kStringBatchTooLarge;
  return false;
}

// Decimal digits of |v|, plus one for a minus sign, without a branch on the value (the signs
// and lengths of a column's numbers follow no pattern a branch predictor could learn): the
// digits from the bit width (log10(2) ~ 1233 / 4096), corrected by one comparison.
template <class T>
size_t DecimalLength(T v) {
  static constexpr uint64_t kPow10[20] = {1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
                                          10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
                                          100000000000ull, 1000000000000ull, 10000000000000ull,
                                          100000000000000ull, 1000000000000000ull, 10000000000000000ull,
                                          100000000000000000ull, 1000000000000000000ull,
                                          10000000000000000000ull};
  uint64_t u;
  size_t sign = 0;
  if constexpr (std::is_signed_v<T>) {
    sign = v < 0;
    const uint64_t bits = static_cast<uint64_t>(static_cast<int64_t>(v));
    u = sign ? uint64_t{0} - bits : bits;
  } else {
    u = static_cast<uint64_t>(v);
  }
  const size_t bit_width = 64 - static_cast<size_t>(__builtin_clzll(u | 1));
  const size_t t = (bit_width * 1233) >> 12;  // digits - 1 or digits
  return sign + t + ((u | 1) >= kPow10[t]);  // (u | 1: 0 has one digit)
}

// Integers to text with no copy a row: the rows' lengths first (the offsets), then each number
// written in place by std::to_chars. (Through a string and StringVecBuilder::Append, the copies
// of a few bytes each took 45 % of CAST(i AS VARCHAR).)
template <class T>
bool IntegersToText(const Vec& in, Vec* out, std::string* error) {
  const size_t rows = in.stored();
  AlignedBuffer offsets, data;
  if (!offsets.ResizeForOverwrite((rows + 1) * sizeof(int32_t), error)) return false;
  int32_t* ends = offsets.As<int32_t>();
  size_t bytes = 0;
  ends[0] = 0;
  for (size_t i = 0; i < rows; ++i) {
    if (!in.IsNull(i) && !AddTextBytes(DecimalLength(in.Get<T>(i)), &bytes, error)) return false;
    ends[i + 1] = static_cast<int32_t>(bytes);
  }
  if (!data.ResizeForOverwrite(bytes, error)) return false;
  char* text = reinterpret_cast<char*>(data.data());
  for (size_t i = 0; i < rows; ++i) {
    if (!in.IsNull(i)) std::to_chars(text + ends[i], text + ends[i + 1], in.Get<T>(i));
  }
  return TextVec(in, std::move(offsets), std::move(data), out, error);  // digits and '-'
}

// Two digits of 0..99 at `out`.
inline void WriteTwoDigits(unsigned v, char* out) {
  out[0] = static_cast<char>('0' + v / 10);
  out[1] = static_cast<char>('0' + v % 10);
}

// DATEs to text as IntegersToText does integers: a date of the years 1 to 9999 is 'YYYY-MM-DD',
// ten bytes written in place; the others (BC, past 9999, infinity) through AppendDate.
// (AppendDate into a string a row, then copied: 56 % of CAST(dt AS VARCHAR).)
bool DatesToText(const Vec& in, Vec* out, std::string* error) {
  static const int64_t kFirst = civil::DaysFromCivil(1, 1, 1), kLast = civil::DaysFromCivil(9999, 12, 31);
  const size_t rows = in.stored();
  AlignedBuffer offsets, data;
  if (!offsets.ResizeForOverwrite((rows + 1) * sizeof(int32_t), error)) return false;
  int32_t* ends = offsets.As<int32_t>();
  std::string other;
  size_t bytes = 0;
  ends[0] = 0;
  for (size_t i = 0; i < rows; ++i) {
    if (!in.IsNull(i)) {
      const int32_t days = in.Get<int32_t>(i);
      size_t length = 10;
      if (days < kFirst || days > kLast) {
        other.clear();
        AppendDate(days, &other);
        length = other.size();
      }
      if (!AddTextBytes(length, &bytes, error)) return false;
    }
    ends[i + 1] = static_cast<int32_t>(bytes);
  }
  if (!data.ResizeForOverwrite(bytes, error)) return false;
  char* text = reinterpret_cast<char*>(data.data());
  for (size_t i = 0; i < rows; ++i) {
    if (in.IsNull(i)) continue;
    const int32_t days = in.Get<int32_t>(i);
    char* at = text + ends[i];
    if (days >= kFirst && days <= kLast) {
      const civil::Date date = civil::CivilFromDays(days);
      const unsigned year = static_cast<unsigned>(date.year);
      WriteTwoDigits(year / 100, at);
      WriteTwoDigits(year % 100, at + 2);
      at[4] = '-';
      WriteTwoDigits(static_cast<unsigned>(date.month), at + 5);
      at[7] = '-';
      WriteTwoDigits(static_cast<unsigned>(date.day), at + 8);
    } else {
      other.clear();
      AppendDate(days, &other);
      std::memcpy(at, other.data(), other.size());
    }
  }
  return TextVec(in, std::move(offsets), std::move(data), out, error);  // digits, '-', " (BC)", "infinity"
}

}  // namespace

// A vector cast to VARCHAR of integers, BOOLEAN, floats, DATE and the TIMESTAMPs: each row's
// text as plan::ValueToText spells it, written straight into the result (no Value a row: CAST(i
// AS VARCHAR) spent most of its time making them). False (nothing done) for other types; *ok
// false on an allocation failure.
bool CastToText(const Vec& in, Vec* out, std::string* error, bool* ok) {
  const TypeId from = in.type;
  const bool handled = from == TypeId::kBool || from == TypeId::kFloat32 || from == TypeId::kFloat64 ||
                       from == TypeId::kDate32 || from == TypeId::kTimestampMicros ||
                       from == TypeId::kTimestampSeconds || (IsInteger(from) && from != TypeId::kInt128);
  if (!handled) return false;
  if (from == TypeId::kDate32) {
    *ok = DatesToText(in, out, error);
    return true;
  }
  if (IsInteger(from)) {
    VisitFixed(from, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_integral_v<T>) *ok = IntegersToText<T>(in, out, error);
    });
    return true;
  }
  StringVecBuilder builder;
  *ok = builder.Init(in.count, in.constant, error);
  if (!*ok) return true;
  std::string text;
  for (size_t i = 0; i < in.stored() && *ok; ++i) {
    if (in.IsNull(i)) {
      builder.AppendNull();
      continue;
    }
    text.clear();
    switch (from) {
      case TypeId::kBool: text = in.Get<uint8_t>(i) != 0 ? "true" : "false"; break;
      case TypeId::kFloat32: AppendFloat(in.Get<float>(i), &text); break;
      case TypeId::kFloat64: AppendDouble(in.Get<double>(i), &text); break;
      case TypeId::kTimestampMicros: AppendTimestampMicros(in.Get<int64_t>(i), &text); break;
      case TypeId::kTimestampSeconds: AppendTimestampSeconds(in.Get<int64_t>(i), &text); break;
      default: break;  // integers: IntegersToText
    }
    *ok = builder.Append(text, error);
  }
  *ok = *ok && builder.Finish(out, error);
  if (*ok) out->count = in.count;
  return true;
}

}  // namespace exec
}  // namespace laneql
