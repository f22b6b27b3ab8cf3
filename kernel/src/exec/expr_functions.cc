// The evaluator's functions: casts, IN, BETWEEN, LIKE, CASE, string and date functions,
// REGEXP_REPLACE.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <charconv>
#include <cstring>
#include <limits>
#include <string_view>
#include <type_traits>

#include "laneql/int128.h"
#include "laneql/result.h"
#include "laneql/rounding.h"
#include "laneql/string_match.h"
#include "src/common/civil_time.h"
#include "src/common/interval_text.h"
#include "src/common/unicode_case.h"
#include "src/exec/cast_text.h"
#include "src/exec/expr_eval.h"
#include "src/exec/regexp.h"

namespace laneql {
namespace exec {

using plan::BoundExpr;
using plan::DatePart;
using plan::Fn;
using plan::Value;

namespace {

void ClearBit(uint64_t* bits, size_t i) { bits[i / 64] &= ~(uint64_t{1} << (i % 64)); }

bool ParseInteger(const std::string& text, Int128* out) {
  size_t i = 0, end = text.size();
  while (i < end && text[i] == ' ') ++i;
  while (end > i && text[end - 1] == ' ') --end;
  bool negative = false;
  if (i < end && (text[i] == '-' || text[i] == '+')) negative = text[i++] == '-';
  if (i == end) return false;
  Int128 v = 0;
  for (; i < end; ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
    if (v > (plan::TypeMax(TypeId::kInt128) - 9) / 10) return false;
    v = v * 10 + (text[i] - '0');
  }
  *out = negative ? -v : v;
  return true;
}

}  // namespace

bool CastValue(const Value& in, TypeId to, Value* out, std::string* error) {
  if (in.is_null) { *out = Value::Null(to); return true; }
  const TypeId from = in.type;
  auto fail = [&](const std::string& why) { *error = why; return false; };
  if (IsString(to)) {
    *out = Value::String(plan::ValueToText(in));
    return true;
  }
  if (IsDecimal(to) || IsDecimal(from)) return CastDecimalValue(in, to, out, error);
  if (IsString(from)) {
    const std::string& s = in.text;
    if (to == TypeId::kTime) {
      int64_t micros = 0;
      if (!civil::ParseTime(s, &micros)) return fail("Could not convert string '" + s + "' to TIME");
      *out = Value::Integer(to, micros);
      return true;
    }
    if (to == TypeId::kInterval) {
      Interval interval;
      if (!civil::ParseInterval(s, &interval)) return fail("Could not convert string '" + s + "' to INTERVAL");
      *out = Value::Integer(to, PackInterval(interval));
      return true;
    }
    if (to == TypeId::kDate32) {
      int32_t days;
      if (!plan::ParseDate(s, &days)) {
        int64_t micros;
        if (!plan::ParseTimestampMicros(s, &micros)) return fail("invalid date '" + s + "' (expected YYYY-MM-DD)");
        days = static_cast<int32_t>(civil::FloorDiv(micros, civil::kMicrosPerDay));
      }
      *out = Value::Integer(to, days);
      return true;
    }
    if (to == TypeId::kTimestampMicros || to == TypeId::kTimestampSeconds) {
      int64_t micros;
      bool out_of_range = false;
      if (!plan::ParseTimestampMicros(s, &micros, &out_of_range)) {
        return fail(out_of_range ? "timestamp field value out of range: '" + s + "'"
                                 : "invalid timestamp '" + s + "' (expected YYYY-MM-DD[ HH:MM:SS[.ffffff]])");
      }
      *out = Value::Integer(to, to == TypeId::kTimestampSeconds
                                    ? civil::FloorDiv(micros, civil::kMicrosPerSecond)
                                    : micros);
      return true;
    }
    if (to == TypeId::kBool) {
      std::string l;
      for (char c : s) if (c != ' ') l += static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
      if (l == "true" || l == "t" || l == "1") { *out = Value::Integer(to, 1); return true; }
      if (l == "false" || l == "f" || l == "0") { *out = Value::Integer(to, 0); return true; }
      return fail("could not convert string '" + s + "' to BOOLEAN");
    }
    if (IsFloat(to)) {
      char* end = nullptr;
      const double d = std::strtod(s.c_str(), &end);
      while (end != nullptr && *end == ' ') ++end;
      if (s.empty() || end == s.c_str() || *end != '\0') {
        return fail("could not convert string '" + s + "' to " + DuckDbTypeName(to));
      }
      *out = Value::Real(to, to == TypeId::kFloat32 ? static_cast<float>(d) : d);
      return true;
    }
    Int128 v;
    if (!ParseInteger(s, &v) || v < plan::TypeMin(to) || v > plan::TypeMax(to)) {
      return fail("could not convert string '" + s + "' to " + DuckDbTypeName(to));
    }
    *out = Value::Integer(to, v);
    return true;
  }
  if (to == TypeId::kTime && (from == TypeId::kTimestampMicros || from == TypeId::kTimestampSeconds)) {
    // The time of day of a timestamp.
    const int64_t micros = TemporalMicros(from, static_cast<int64_t>(in.integer));
    *out = Value::Integer(to, micros - civil::FloorDiv(micros, civil::kMicrosPerDay) * civil::kMicrosPerDay);
    return true;
  }
  if (from == to) {
    *out = in;
    return true;
  }
  if (IsTime(from) || IsTime(to) || IsInterval(from) || IsInterval(to)) {
    return fail(std::string("cannot cast ") + DuckDbTypeName(from) + " to " + DuckDbTypeName(to));
  }
  if (IsTemporal(from) || IsTemporal(to)) {
    if (!IsTemporal(from) || !IsTemporal(to)) {
      return fail(std::string("cannot cast ") + DuckDbTypeName(from) + " to " + DuckDbTypeName(to));
    }
    const int64_t micros = TemporalMicros(from, static_cast<int64_t>(in.integer));
    int64_t v = micros;
    if (to == TypeId::kDate32) v = civil::FloorDiv(micros, civil::kMicrosPerDay);
    if (to == TypeId::kTimestampSeconds) v = civil::FloorDiv(micros, civil::kMicrosPerSecond);
    *out = Value::Integer(to, v);
    return true;
  }
  if (IsFloat(to)) {
    const double d = IsFloat(from)                ? in.real
                     : from == TypeId::kInt128 ? Int128ToDouble(in.integer)
                                               : static_cast<double>(in.integer);
    *out = Value::Real(to, to == TypeId::kFloat32 ? static_cast<double>(static_cast<float>(d)) : d);
    return true;
  }
  if (to == TypeId::kBool) {
    *out = Value::Integer(to, IsFloat(from) ? in.real != 0 : in.integer != 0);
    return true;
  }
  Int128 v;
  if (IsFloat(from)) {
    // Half to even, as DuckDB casts DOUBLE / FLOAT to integers.
    const double r = std::nearbyint(in.real);
    if (!(r >= -1.7e38 && r <= 1.7e38)) return fail("value " + plan::ValueToText(in) + " is out of range for " + DuckDbTypeName(to));
    v = static_cast<Int128>(r);
  } else {
    v = in.integer;
  }
  if (v < plan::TypeMin(to) || v > plan::TypeMax(to)) {
    return fail("value " + plan::ValueToText(in) + " is out of range for " + DuckDbTypeName(to));
  }
  *out = Value::Integer(to, v);
  return true;
}

namespace {

// Vector cast: numbers by templates, everything else value by value.
bool CastVec(const BoundExpr& expr, const Vec& in, Vec* out, std::string* error) {
  const TypeId to = expr.type;
  bool ok_text = true;
  const size_t rows = in.stored();
  const auto number = [](TypeId t) { return IsInteger(t) || IsFloat(t); };
  const bool numeric_fast = number(in.type) && number(to) && !expr.try_cast;
  if (numeric_fast) {
    bool ok = true;
    VisitFixed(to, [&](auto to_tag) {
      using To = decltype(to_tag);
      To* dst = out->InitFixed<To>(to, in.count, in.constant, error);
      if (dst == nullptr) { ok = false; return; }
      VisitFixed(in.type, [&](auto from_tag) {
        using From = decltype(from_tag);
        if constexpr (std::is_floating_point_v<To> && !std::is_same_v<From, Int128>) {
          // Never fails: one plain conversion loop (the checks below, a row, kept the cast of
          // corr(d, i)'s INTEGER to DOUBLE from vectorising).
          const From* __restrict x = in.Data<From>();
          To* __restrict to = dst;
          for (size_t i = 0; i < rows; ++i) to[i] = static_cast<To>(x[i]);
          return;
        }
        size_t done = 0;
        if constexpr (std::is_floating_point_v<From> && !std::is_same_v<To, Int128>) {
          // Half to even by the SIMD kernel, a block at a time, then a branch-free range check
          // and conversion; a block holding a value out of range (or NaN, or a NULL row's
          // unset value out of range) is left to the row loop below from its start.
          constexpr size_t kBlock = 2048;
          double rounded[kBlock];
          constexpr double kLow = static_cast<double>(std::numeric_limits<To>::min());
          constexpr double kEnd = std::is_signed_v<To> ? -kLow : 2.0 * (static_cast<double>(std::numeric_limits<To>::max() / 2) + 1.0);
          const From* x = in.Data<From>();
          for (size_t n = 0; done < rows; done += n) {
            n = std::min(kBlock, rows - done);
            if constexpr (std::is_same_v<From, double>) {
              RoundFloat64(RoundingOp::kHalfEven, x + done, n, rounded);
            } else {
              for (size_t i = 0; i < n; ++i) rounded[i] = static_cast<double>(x[done + i]);
              RoundFloat64(RoundingOp::kHalfEven, rounded, n, rounded);
            }
            bool in_range = true;
            for (size_t i = 0; i < n; ++i) {
              const double r = rounded[i];
              const bool fits = r >= kLow && r < kEnd;
              in_range &= fits;
              dst[done + i] = static_cast<To>(fits ? r : 0.0);
            }
            if (!in_range) break;
          }
        }
        for (size_t i = done; i < rows && ok; ++i) {
          const From x = in.Get<From>(i);
          if constexpr (std::is_floating_point_v<To> && std::is_same_v<From, Int128>) {
            dst[i] = static_cast<To>(Int128ToDouble(x));
          } else if constexpr (std::is_floating_point_v<To>) {
            dst[i] = static_cast<To>(x);
          } else if constexpr (std::is_floating_point_v<From>) {
            if (in.IsNull(i)) { dst[i] = 0; continue; }
            if constexpr (!std::is_same_v<To, Int128>) {
              // Half to even, in range: [min, max + 1), both powers of two, exact as doubles.
              // NaN and the out of range take CastValue's path for its error.
              const double r = std::nearbyint(static_cast<double>(x));
              constexpr double kLow = static_cast<double>(std::numeric_limits<To>::min());
              constexpr double kEnd = std::is_signed_v<To> ? -kLow : 2.0 * (static_cast<double>(std::numeric_limits<To>::max() / 2) + 1.0);
              if (r >= kLow && r < kEnd) {
                dst[i] = static_cast<To>(r);
                continue;
              }
            }
            Value cast;
            if (!CastValue(Value::Real(in.type, x), to, &cast, error)) {
              *error = ErrorAt(expr, "conversion", *error);
              ok = false;
              return;
            }
            dst[i] = static_cast<To>(cast.integer);
          } else {
            const Int128 wide = static_cast<Int128>(x);
            if (!in.IsNull(i) && (wide < plan::TypeMin(to) || wide > plan::TypeMax(to))) {
              *error = ErrorAt(expr, "conversion", "value " + Int128ToString(wide) + " is out of range for " + DuckDbTypeName(to));
              ok = false;
              return;
            }
            dst[i] = static_cast<To>(x);
          }
        }
      });
    });
    if (!ok) return false;
    if (in.validity != nullptr) {
      if (!out->own_validity.Assign(in.validity, BitmaskWords(rows) * 8, error)) return false;
      out->validity = out->own_validity.As<uint64_t>();
    }
    return true;
  }
  const auto date_or_timestamp = [](TypeId t) {
    return t == TypeId::kDate32 || t == TypeId::kTimestampSeconds || t == TypeId::kTimestampMicros;
  };
  if (date_or_timestamp(in.type) && date_or_timestamp(to) && in.type != to) {
    // Between DATE and the TIMESTAMPs: through microseconds, as CastValue, without a Value a row.
    const auto convert = [&](auto* dst) {
      for (size_t i = 0; i < rows; ++i) {
        const int64_t micros =
            TemporalMicros(in.type, in.type == TypeId::kDate32 ? in.Get<int32_t>(i) : in.Get<int64_t>(i));
        const int64_t v = to == TypeId::kDate32             ? civil::FloorDiv(micros, civil::kMicrosPerDay)
                          : to == TypeId::kTimestampSeconds ? civil::FloorDiv(micros, civil::kMicrosPerSecond)
                                                            : micros;
        dst[i] = static_cast<std::remove_pointer_t<decltype(dst)>>(v);
      }
    };
    if (to == TypeId::kDate32) {
      int32_t* dst = out->InitFixed<int32_t>(to, in.count, in.constant, error);
      if (dst == nullptr) return false;
      convert(dst);
    } else {
      int64_t* dst = out->InitFixed<int64_t>(to, in.count, in.constant, error);
      if (dst == nullptr) return false;
      convert(dst);
    }
    return CopyValidity(in, out, error);
  }
  if (IsString(to) && CastToText(in, out, error, &ok_text)) return ok_text;
  if (IsDecimal(to) || IsDecimal(in.type)) {
    bool handled = false;
    if (!CastDecimalVec(expr, in, out, error, &handled)) return false;
    if (handled) return true;
  }
  std::vector<Value> values(rows);
  for (size_t i = 0; i < rows; ++i) {
    Value cast;
    if (!CastValue(VecValue(in, i), to, &cast, error)) {
      if (expr.try_cast) {  // TRY_CAST: NULL instead of the error
        error->clear();
        values[i] = Value::Null(to);
        continue;
      }
      *error = ErrorAt(expr, "conversion", *error);
      return false;
    }
    values[i] = std::move(cast);
  }
  if (IsString(to)) {
    StringVecBuilder builder;
    if (!builder.Init(in.count, in.constant, error)) return false;
    for (const Value& v : values) {
      if (v.is_null) builder.AppendNull(); else if (!builder.Append(v.text, error)) return false;
    }
    if (!builder.Finish(out, error)) return false;
    out->count = in.count;
    return true;
  }
  bool ok = true;
  VisitFixed(to, [&](auto tag) {
    using T = decltype(tag);
    T* dst = out->InitFixed<T>(to, in.count, in.constant, error);
    if (dst == nullptr) { ok = false; return; }
    uint64_t* bits = nullptr;
    for (size_t i = 0; i < rows; ++i) {
      if (values[i].is_null) {
        if (bits == nullptr) bits = out->InitValidity(error);
        ClearBit(bits, i);
        continue;
      }
      if constexpr (std::is_floating_point_v<T>) dst[i] = static_cast<T>(values[i].real);
      else dst[i] = static_cast<T>(values[i].integer);
    }
  });
  return ok;
}

// x IN (c1, c2, ...) with every ci a constant that is not NULL (the usual list): each row
// against the list's values in its own type, not CompareRows per row and item. False (nothing
// written) for other lists.
template <class SetNull>
bool InConstantList(const BoundExpr& expr, const std::vector<Vec>& args, size_t rows, uint8_t* dst,
                    SetNull* set_null) {
  for (size_t k = 1; k < args.size(); ++k) {
    if (!args[k].constant || args[k].IsNull(0)) return false;
  }
  const Vec& a = args[0];
  if (IsString(a.type)) {
    std::vector<std::string_view> list;
    for (size_t k = 1; k < args.size(); ++k) list.push_back(args[k].Str(0));
    for (size_t i = 0; i < rows; ++i) {
      if (a.IsNull(i)) {
        dst[i] = 0;
        (*set_null)(i);
        continue;
      }
      const std::string_view x = a.Str(i);
      bool found = false;
      for (const std::string_view v : list) found |= x == v;
      dst[i] = found != expr.negated;
    }
    return true;
  }
  return VisitFixed(a.type, [&](auto tag) {
    using T = decltype(tag);
    std::vector<T> list;
    for (size_t k = 1; k < args.size(); ++k) list.push_back(args[k].Get<T>(0));
    if constexpr (sizeof(T) <= 8) {
      if (!a.constant) {
        // A pass over the values per constant, each a loop the compiler vectorises: one pass
        // with the list inside took a row at a time.
        // Locals, not the closure's references: a store through uint8_t* may alias anything,
        // so the captured pointer and count were reloaded on every row and nothing vectorised.
        const T* __restrict values = a.Data<T>();
        uint8_t* __restrict out = dst;
        const size_t n = rows;
        std::fill(out, out + n, uint8_t{0});
        for (const T v : list) {
          if constexpr (std::is_floating_point_v<T>) {
            if (v != v) {  // NaN equals NaN in DuckDB's order (TotalCompare)
              for (size_t i = 0; i < n; ++i) out[i] |= static_cast<uint8_t>(values[i] != values[i]);
              continue;
            }
          }
          for (size_t i = 0; i < n; ++i) out[i] |= static_cast<uint8_t>(values[i] == v);
        }
        if (expr.negated) {
          for (size_t i = 0; i < n; ++i) out[i] ^= 1;
        }
        if (a.validity != nullptr) {
          for (size_t i = 0; i < rows; ++i) {
            if (a.IsNull(i)) {
              dst[i] = 0;
              (*set_null)(i);
            }
          }
        }
        return;
      }
    }
    for (size_t i = 0; i < rows; ++i) {
      if (a.IsNull(i)) {
        dst[i] = 0;
        (*set_null)(i);
        continue;
      }
      const T x = a.Get<T>(i);
      bool found = false;
      if constexpr (std::is_floating_point_v<T>) {
        for (const T v : list) found |= TotalCompare(x, v) == 0;
      } else {
        for (const T v : list) found |= x == v;
      }
      dst[i] = found != expr.negated;
    }
  });
}

// Lower case for ILIKE: every code point's one-to-one lower case (DuckDB folds all of Unicode).
std::string FoldCase(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  unicode::AppendCaseMapped(s, /*upper=*/false, &out);
  return out;
}

// upper() / lower(): the ASCII letters of all rows at once by the SIMD kernel, into a buffer
// with the input's offsets; rows with other code points (only when the bytes are not all
// ASCII) are then mapped code point by code point, and the rows rebuilt.
bool CaseMapStrings(const Vec& a, bool upper, size_t count, Vec* out, std::string* error) {
  const size_t rows = a.stored();
  const int32_t base = a.offsets[0];
  const size_t bytes = static_cast<size_t>(a.offsets[rows] - base);
  AlignedBuffer mapped;
  if (!mapped.ResizeForOverwrite(bytes == 0 ? 1 : bytes, error)) return false;
  AsciiCaseMap(a.values + base, bytes, upper, mapped.data());
  if (a.ascii || BytesAreAscii(mapped.data(), bytes)) {
    out->type = a.type;
    out->count = count;
    out->constant = a.constant;
    out->ascii = true;
    if (!out->own_offsets.ResizeForOverwrite((rows + 1) * sizeof(int32_t), error)) return false;
    int32_t* offsets = out->own_offsets.As<int32_t>();
    for (size_t i = 0; i <= rows; ++i) offsets[i] = a.offsets[i] - base;
    out->own_values = std::move(mapped);
    out->values = out->own_values.data();
    out->offsets = offsets;
    return CopyValidity(a, out, error);
  }
  StringVecBuilder builder;
  if (!builder.Init(count, a.constant, error)) return false;
  std::string row;
  for (size_t i = 0; i < rows; ++i) {
    if (a.IsNull(i)) {
      builder.AppendNull();
      continue;
    }
    const std::string_view text(reinterpret_cast<const char*>(mapped.data()) + (a.offsets[i] - base),
                                static_cast<size_t>(a.offsets[i + 1] - a.offsets[i]));
    row.clear();
    unicode::AppendCaseMapped(text, upper, &row);
    if (!builder.Append(row, error)) return false;
  }
  if (!builder.Finish(out, error)) return false;
  out->count = count;
  return true;
}

}  // namespace

bool EvalFunction(const BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                  std::string* error) {
  out->count = count;
  const bool all_constant = [&] {
    for (const Vec& a : args) if (!a.constant) return false;
    return true;
  }();
  switch (expr.fn) {
    case Fn::kScalar: return EvalScalarFunction(expr, args, count, out, error);
    case Fn::kCast: return CastVec(expr, args[0], out, error);
    case Fn::kLength:
    case Fn::kStrlen: {
      const Vec& a = args[0];
      int64_t* dst = out->InitFixed<int64_t>(TypeId::kInt64, count, a.constant, error);
      if (dst == nullptr) return false;
      // Bytes are code points in ASCII strings (Vec::ascii).
      if (expr.fn == Fn::kStrlen || a.ascii) StringByteLengths(a.offsets, a.stored(), dst);
      else StringCodePointLengths(a.offsets, a.values, a.stored(), dst);
      return CopyValidity(a, out, error);
    }
    case Fn::kLower:
    case Fn::kUpper: return CaseMapStrings(args[0], expr.fn == Fn::kUpper, count, out, error);
    case Fn::kSubstring: {
      // DuckDB's substring: 1-based code points; a start of 0 or below still counts the
      // positions before the string (substring('hello', 0, 2) = 'h'), a negative start counts
      // from the end.
      StringVecBuilder builder;
      if (!builder.Init(count, all_constant, error)) return false;
      const size_t rows = all_constant ? 1 : count;
      for (size_t i = 0; i < rows; ++i) {
        bool null = false;
        for (const Vec& a : args) null = null || a.IsNull(i);
        if (null) { builder.AppendNull(); continue; }
        const std::string_view s = args[0].Str(i);
        const bool ascii = args[0].ascii;
        // Code points are counted only as far as needed (all of them for a negative start);
        // an ASCII column's bytes are its code points.
        const auto is_start = [&s](size_t b) { return (static_cast<unsigned char>(s[b]) & 0xC0) != 0x80; };
        const auto advance = [&](size_t from, int64_t k) {  // k code points on from byte `from`
          if (ascii) return static_cast<size_t>(std::min<int64_t>(static_cast<int64_t>(s.size()),
                                                                  static_cast<int64_t>(from) + k));
          size_t b = from;
          for (; k > 0 && b < s.size(); --k) {
            ++b;
            while (b < s.size() && !is_start(b)) ++b;
          }
          return b;
        };
        int64_t start = args[1].Get<int64_t>(i);
        int64_t length = args.size() > 2 ? args[2].Get<int64_t>(i) : INT64_MAX / 2;
        if (length < 0) {
          *error = "substring: a negative length is not supported";
          return false;
        }
        int64_t n = 0;
        if (start < 0) {
          if (ascii) {
            n = static_cast<int64_t>(s.size());
          } else {
            for (size_t b = 0; b < s.size(); ++b) n += is_start(b) ? 1 : 0;
          }
        }
        int64_t begin = start > 0 ? start - 1 : start < 0 ? n + start : -1;
        const int64_t end = begin > INT64_MAX - length ? INT64_MAX : begin + length;
        if (begin < 0) begin = 0;
        std::string_view piece;
        if (end > begin) {
          const size_t from = advance(0, begin);
          piece = s.substr(from, advance(from, end - begin) - from);
        }
        if (!builder.Append(piece, error)) return false;
      }
      if (!builder.Finish(out, error)) return false;
      out->count = count;
      return true;
    }
    case Fn::kConcat: {
      StringVecBuilder builder;
      if (!builder.Init(count, all_constant, error)) return false;
      std::string tmp;
      const size_t rows = all_constant ? 1 : count;
      for (size_t i = 0; i < rows; ++i) {
        if (args[0].IsNull(i) || args[1].IsNull(i)) { builder.AppendNull(); continue; }
        tmp.assign(args[0].Str(i));
        tmp.append(args[1].Str(i));
        if (!builder.Append(tmp, error)) return false;
      }
      if (!builder.Finish(out, error)) return false;
      out->count = count;
      return true;
    }
    case Fn::kRegexpReplace: {
      const Vec& a = args[0];
      const auto* replacer = static_cast<const RegexpReplacer*>(expr.compiled.get());
      StringVecBuilder builder;
      if (!builder.Init(count, a.constant, error)) return false;
      std::string tmp;
      for (size_t i = 0; i < a.stored(); ++i) {
        if (a.IsNull(i)) { builder.AppendNull(); continue; }
        tmp.clear();
        replacer->Replace(a.Str(i), &tmp);
        if (!builder.Append(tmp, error)) return false;
      }
      if (!builder.Finish(out, error)) return false;
      out->count = count;
      return true;
    }
    case Fn::kExtract:
    case Fn::kDateTrunc: return EvalDatePart(expr, args, count, out, error);
    case Fn::kLike: {
      const Vec& a = args[0];
      const std::string& pattern = args[1].IsNull(0) ? std::string() : std::string(args[1].Str(0));
      const int escape = args.size() > 2 ? static_cast<unsigned char>(args[2].Str(0)[0]) : kNoLikeEscape;
      uint8_t* dst = out->InitFixed<uint8_t>(TypeId::kBool, count, a.constant, error);
      if (dst == nullptr) return false;
      const size_t rows = a.stored();
      std::vector<uint64_t> mask(BitmaskWords(rows) + 1);
      if (expr.case_insensitive) {
        // ILIKE: the rows lower-cased at once (lower()'s SIMD ASCII pass, code point by code
        // point only where there are others), then the LIKE kernel with the lower-cased
        // pattern; the same as folding each row and matching it by the reference, 4x faster.
        Vec lowered;
        if (!CaseMapStrings(a, /*upper=*/false, a.count, &lowered, error)) return false;
        StringLike(lowered.offsets, lowered.values, rows, FoldCase(pattern), escape, nullptr, mask.data());
      } else {
        StringLike(a.offsets, a.values, rows, pattern, escape, nullptr, mask.data());
      }
      for (size_t i = 0; i < rows; ++i) dst[i] = BitmaskGet(mask.data(), i) != expr.negated;
      return CopyValidity(a, out, error);
    }
    case Fn::kInList:
    case Fn::kBetween: {
      const Vec& a = args[0];
      uint8_t* dst = out->InitFixed<uint8_t>(TypeId::kBool, count, all_constant, error);
      if (dst == nullptr) return false;
      const size_t rows = all_constant ? 1 : count;
      uint64_t* bits = nullptr;
      auto set_null = [&](size_t i) {
        if (bits == nullptr) bits = out->InitValidity(error);
        ClearBit(bits, i);
      };
      if (expr.fn == Fn::kBetween && !IsString(a.type) && a.validity == nullptr && args[1].validity == nullptr &&
          args[2].validity == nullptr) {
        // No NULLs: one typed pass (a DECIMAL's int128s included) instead of CompareRows per row.
        VisitFixed(a.type, [&](auto tag) {
          using T = decltype(tag);
          const Vec &lo = args[1], &hi = args[2];
          for (size_t i = 0; i < rows; ++i) {
            const T x = a.Get<T>(i);
            dst[i] = (TotalCompare(x, lo.Get<T>(i)) >= 0 && TotalCompare(x, hi.Get<T>(i)) <= 0) != expr.negated;
          }
        });
        return true;
      }
      if (expr.fn == Fn::kInList && InConstantList(expr, args, rows, dst, &set_null)) return true;
      auto cmp = [](const Vec& x, const Vec& y, size_t i) { return CompareRows(x, i, y, i); };
      for (size_t i = 0; i < rows; ++i) {
        if (a.IsNull(i)) { dst[i] = 0; set_null(i); continue; }
        if (expr.fn == Fn::kInList) {
          bool found = false, saw_null = false;
          for (size_t k = 1; k < args.size() && !found; ++k) {
            if (args[k].IsNull(i)) { saw_null = true; continue; }
            found = cmp(a, args[k], i) == 0;
          }
          if (!found && saw_null) { dst[i] = 0; set_null(i); continue; }
          dst[i] = found != expr.negated;
        } else {
          // lo <= a AND a <= hi, three-valued.
          const bool lo_null = args[1].IsNull(i), hi_null = args[2].IsNull(i);
          const bool ge = !lo_null && cmp(a, args[1], i) >= 0;
          const bool le = !hi_null && cmp(a, args[2], i) <= 0;
          if ((!lo_null && !ge) || (!hi_null && !le)) { dst[i] = expr.negated; continue; }
          if (lo_null || hi_null) { dst[i] = 0; set_null(i); continue; }
          dst[i] = !expr.negated;
        }
      }
      return true;
    }
    case Fn::kCase: return EvalCaseSelect(expr, args, count, out, error);  // expr_case_select.cc
    default:
      *error = ErrorAt(expr, "internal", "function not implemented in the evaluator");
      return false;
  }
}

}  // namespace exec
}  // namespace laneql
