// The evaluator's core: column access (borrow or gather), constants, arithmetic with DuckDB's
// overflow errors, comparisons in DuckDB's float order, three-valued AND / OR / NOT, IS NULL.
#include "src/common/decimal.h"
#include "src/exec/expr_eval.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "laneql/arith.h"
#include "laneql/gather.h"
#include "laneql/result.h"
#include "src/exec/string_chunks.h"

namespace laneql {
namespace exec {

using plan::BoundExpr;
using plan::BoundKind;
using plan::Fn;
using plan::Value;

std::string ErrorAt(const BoundExpr& expr, const char* kind, const std::string& message) {
  return std::string(kind) + " error at line " + std::to_string(expr.pos.line) + ", column " +
         std::to_string(expr.pos.column) + ": " + message;
}

Value VecValue(const Vec& vec, size_t i) {
  if (vec.IsNull(i)) return Value::Null(vec.type);
  if (IsString(vec.type)) return Value::String(std::string(vec.Str(i)));
  Value v;
  VisitFixed(vec.type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T>) {
      v = Value::Real(vec.type, vec.Get<T>(i));
    } else {
      v = Value::Integer(vec.type, vec.Get<T>(i));
    }
  });
  return v;
}

namespace {

// Writes one Value into a 1-row constant Vec.
bool ConstantVec(const Value& value, size_t count, Vec* out, std::string* error) {
  if (IsString(value.type)) {
    StringVecBuilder builder;
    if (!builder.Init(count, true, error)) return false;
    if (value.is_null) builder.AppendNull(); else if (!builder.Append(value.text, error)) return false;
    if (!builder.Finish(out, error)) return false;
    out->count = count;
    return true;
  }
  bool ok = true;
  VisitFixed(value.type, [&](auto tag) {
    using T = decltype(tag);
    T* data = out->InitFixed<T>(value.type, count, true, error);
    if (data == nullptr) { ok = false; return; }
    if constexpr (std::is_floating_point_v<T>) {
      data[0] = static_cast<T>(value.real);
    } else {
      data[0] = static_cast<T>(value.integer);
    }
    if (value.is_null) {
      uint64_t* bits = out->InitValidity(error);
      if (bits == nullptr) { ok = false; return; }
      bits[0] = 0;
    }
  });
  return ok;
}

// Validity of a binary result: NULL where either input is NULL. nullptr when neither has any.
bool MergeValidity(const Vec& a, const Vec& b, Vec* out, std::string* error) {
  if (a.validity == nullptr && b.validity == nullptr) return true;
  uint64_t* bits = out->InitValidity(error);
  if (bits == nullptr) return false;
  // Word by word: a constant's one bit stands for every row.
  const auto word = [](const Vec& v, size_t w) -> uint64_t {
    if (v.validity == nullptr) return ~uint64_t{0};
    if (v.constant) return v.IsNull(0) ? 0 : ~uint64_t{0};
    return v.validity[w];
  };
  const size_t rows = out->stored();
  const size_t words = BitmaskWords(rows);
  for (size_t w = 0; w < words; ++w) {
    const uint64_t tail = w + 1 == words && rows % 64 != 0 ? ~uint64_t{0} << (rows % 64) : 0;
    bits[w] &= (word(a, w) & word(b, w)) | tail;  // bits past the rows stay as InitValidity left them
  }
  return true;
}

template <class T>
const char* ShortTypeName() {
  if constexpr (std::is_same_v<T, int8_t>) return "INT8";
  if constexpr (std::is_same_v<T, int16_t>) return "INT16";
  if constexpr (std::is_same_v<T, int32_t>) return "INT32";
  if constexpr (std::is_same_v<T, int64_t>) return "INT64";
  if constexpr (std::is_same_v<T, uint8_t>) return "UINT8";
  if constexpr (std::is_same_v<T, uint16_t>) return "UINT16";
  if constexpr (std::is_same_v<T, uint32_t>) return "UINT32";
  if constexpr (std::is_same_v<T, uint64_t>) return "UINT64";
  return "INT128";
}

template <class T>
std::string NumberText(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    std::string s;
    AppendDouble(static_cast<double>(v), &s);
    return s;
  } else {
    return Int128ToString(static_cast<Int128>(v));
  }
}

// Integer + and - over rows without NULLs in one branch-free pass (which compilers vectorise)
// that only notes whether any row overflowed; returns true when none did. Checked row by row,
// ClientIP - 1 cost 3 ns a row (GROUP BY ClientIP, ClientIP - 1, ClientIP - 2, ClientIP - 3
// evaluates its derived keys on 1.8 M groups). After an overflow the checked loop runs again,
// to name the first row's operands in the error.
template <class T>
bool AddSubWithoutOverflow(Fn fn, const Vec& a, const Vec& b, T* dst, size_t rows) {
  using U = std::make_unsigned_t<T>;
  const bool add = fn == Fn::kAdd;
  const auto run = [&](auto x_at, auto y_at) {
    U overflow = 0;
    for (size_t i = 0; i < rows; ++i) {
      const U x = static_cast<U>(x_at(i)), y = static_cast<U>(y_at(i));
      const U r = add ? static_cast<U>(x + y) : static_cast<U>(x - y);
      dst[i] = static_cast<T>(r);
      if constexpr (std::is_signed_v<T>) {
        // The sign bit: set when the operands' signs make the result's sign impossible.
        overflow |= add ? static_cast<U>((x ^ r) & (y ^ r)) : static_cast<U>((x ^ y) & (x ^ r));
      } else {
        overflow |= static_cast<U>(add ? r < x : x < y);
      }
    }
    if constexpr (std::is_signed_v<T>) return (overflow >> (8 * sizeof(T) - 1)) == 0;
    return overflow == 0;
  };
  const T* xs = a.Data<T>();
  const T* ys = b.Data<T>();
  if (a.constant && !b.constant) {
    const T x = xs[0];
    return run([x](size_t) { return x; }, [ys](size_t i) { return ys[i]; });
  }
  if (b.constant && !a.constant) {
    const T y = ys[0];
    return run([xs](size_t i) { return xs[i]; }, [y](size_t) { return y; });
  }
  return run([xs](size_t i) { return xs[i]; }, [ys](size_t i) { return ys[i]; });
}

// 128-bit + - * (HUGEINT, DECIMAL) where every operand fits 64 bits: then no result can overflow
// (a product stays below 2^126), so one plain pass replaces the checked one, and a product is
// one 64 x 64 -> 128-bit multiply instead of a call to the overflow-checking helper. TPC-H's
// money is DECIMAL(15,2), whose values all fit. False (nothing written) when an operand does
// not fit or the function is another.
bool NarrowInt128Arithmetic(Fn fn, const Vec& a, const Vec& b, size_t rows, Int128* dst) {
  if (fn != Fn::kAdd && fn != Fn::kSubtract && fn != Fn::kMultiply) return false;
  const auto fits = [](const Vec& v, size_t n) {
    const Int128* x = v.Data<Int128>();
    uint64_t wide = 0;  // any value whose high half is not the sign of its low half
    for (size_t i = 0; i < n; ++i) {
      wide |= static_cast<uint64_t>(Int128High(x[i])) ^ static_cast<uint64_t>(static_cast<int64_t>(Int128Low(x[i])) >> 63);
    }
    return wide == 0;
  };
  if (!fits(a, a.constant ? 1 : rows) || !fits(b, b.constant ? 1 : rows)) return false;
  const Int128* xs = a.Data<Int128>();
  const Int128* ys = b.Data<Int128>();
  const size_t sx = a.constant ? 0 : 1, sy = b.constant ? 0 : 1;
  for (size_t i = 0; i < rows; ++i) {
    const int64_t x = static_cast<int64_t>(xs[i * sx]), y = static_cast<int64_t>(ys[i * sy]);
    dst[i] = fn == Fn::kAdd        ? Int128{x} + y
             : fn == Fn::kSubtract ? Int128{x} - y
                                   : Int128{x} * y;
  }
  return true;
}

template <class T>
bool Arithmetic(const BoundExpr& expr, const Vec& a, const Vec& b, Vec* out, std::string* error) {
  const size_t n = out->count;
  const bool constant = a.constant && b.constant;
  T* dst = out->InitFixed<T>(expr.type, n, constant, error);
  if (dst == nullptr) return false;
  if (!MergeValidity(a, b, out, error)) return false;
  const size_t rows = out->stored();
  const Fn fn = expr.fn;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool> && sizeof(T) <= 8) {
    if ((fn == Fn::kAdd || fn == Fn::kSubtract) && a.validity == nullptr && b.validity == nullptr &&
        AddSubWithoutOverflow<T>(fn, a, b, dst, rows)) {
      return true;
    }
    // The SIMD kernel notes whether a non-NULL row overflowed (laneql/arith.h); if one did, the
    // checked loop below finds the first and names its operands.
    if (fn == Fn::kMultiply && MultiplyWithoutOverflow(a.Data<T>(), a.constant, b.Data<T>(), b.constant, rows,
                                                       out->validity, dst)) {
      return true;
    }
  }
  if constexpr (std::is_same_v<T, Int128>) {
    if (NarrowInt128Arithmetic(fn, a, b, rows, dst)) return true;
  }
  if constexpr (std::is_floating_point_v<T>) {
    if (fn != Fn::kModulo) {  // the SIMD kernels, which follow the NaN rule below (laneql/arith.h)
      const FloatOp op = fn == Fn::kAdd ? FloatOp::kAdd
                       : fn == Fn::kSubtract ? FloatOp::kSubtract
                       : fn == Fn::kMultiply ? FloatOp::kMultiply
                                             : FloatOp::kDivide;
      FloatArithmetic(op, a.Data<T>(), a.constant, b.Data<T>(), b.constant, rows, dst);
      return true;
    }
  }
  for (size_t i = 0; i < rows; ++i) {
    const T x = a.Get<T>(i), y = b.Get<T>(i);
    if constexpr (std::is_floating_point_v<T>) {
      switch (fn) {
        case Fn::kAdd: dst[i] = x + y; break;
        case Fn::kSubtract: dst[i] = x - y; break;
        case Fn::kMultiply: dst[i] = x * y; break;
        case Fn::kDivide: dst[i] = x / y; break;
        default: dst[i] = static_cast<T>(std::fmod(x, y)); break;  // x % 0 is NaN
      }
      // A NaN made from non-NaN operands (0/0, inf-inf, 0*inf, fmod(inf, y)) takes the CPU's
      // default NaN, whose sign differs: negative on x86-64, positive on aarch64. Spelled out as
      // x86's, it prints "-nan" everywhere, as DuckDB on x86-64 (the corpus's reference) does,
      // so a query gives the same bytes on every machine. NaN operands propagate unchanged.
      if (std::isnan(dst[i]) && !std::isnan(x) && !std::isnan(y)) {
        dst[i] = std::copysign(std::numeric_limits<T>::quiet_NaN(), T(-1));
      }
    } else {
      if (a.IsNull(i) || b.IsNull(i)) { dst[i] = 0; continue; }
      bool overflow = false;
      const char* what = "addition";
      switch (fn) {
        case Fn::kAdd: overflow = __builtin_add_overflow(x, y, &dst[i]); break;
        case Fn::kSubtract: overflow = __builtin_sub_overflow(x, y, &dst[i]); what = "subtraction"; break;
        case Fn::kMultiply: overflow = __builtin_mul_overflow(x, y, &dst[i]); what = "multiplication"; break;
        default:
          if (y == 0) {
            // DuckDB 2.0 raises this error where 1.4 gave NULL; a NULL operand still gives NULL.
            *error = ErrorAt(expr, "invalid input", std::string("Division by zero in modulo of ") +
                                                        ShortTypeName<T>() + " (" + NumberText(x) + " % 0)");
            return false;
          }
          if constexpr (std::is_signed_v<T> || std::is_same_v<T, Int128>) {
            dst[i] = (y == T(-1)) ? T(0) : static_cast<T>(x % y);
          } else {
            dst[i] = static_cast<T>(x % y);
          }
          break;
      }
      if constexpr (std::is_same_v<T, Int128>) {
        // A DECIMAL holds at most 38 digits, though int128 holds a little more.
        if (!overflow && IsDecimal(expr.type) && fn != Fn::kModulo) {
          overflow = !decimal::FitsPrecision(dst[i], kMaxDecimalPrecision);
        }
      }
      if (overflow) {
        const char symbol = fn == Fn::kAdd ? '+' : fn == Fn::kSubtract ? '-' : '*';
        // DuckDB's text names a DECIMAL by its precision, with the scaled integers.
        const std::string type = IsDecimal(expr.type) ? "DECIMAL(" + std::to_string(DecimalPrecision(expr.type)) + ")"
                                                      : std::string(ShortTypeName<T>());
        *error = ErrorAt(expr, "overflow", std::string("Overflow in ") + what + " of " + type + " (" + NumberText(x) +
                                               " " + symbol + " " + NumberText(y) + ")");
        return false;
      }
    }
  }
  return true;
}

// DATE - DATE: the days between as BIGINT, as DuckDB. Two int32 day counts subtracted in int64
// never overflow, so each case is one plain loop the compiler vectorises; a NULL row's slot holds
// whatever its operands held.
bool DateDiff(const Vec& a, const Vec& b, Vec* out, std::string* error) {
  int64_t* dst = out->InitFixed<int64_t>(TypeId::kInt64, out->count, a.constant && b.constant, error);
  if (dst == nullptr || !MergeValidity(a, b, out, error)) return false;
  const size_t rows = out->stored();
  const int32_t* xs = a.Data<int32_t>();
  const int32_t* ys = b.Data<int32_t>();
  if (a.constant && !b.constant) {
    const int64_t x = xs[0];
    for (size_t i = 0; i < rows; ++i) dst[i] = x - ys[i];
  } else if (b.constant && !a.constant) {
    const int64_t y = ys[0];
    for (size_t i = 0; i < rows; ++i) dst[i] = xs[i] - y;
  } else {
    for (size_t i = 0; i < rows; ++i) dst[i] = static_cast<int64_t>(xs[i]) - ys[i];
  }
  return true;
}

bool CompareResult(Fn fn, int c) {
  switch (fn) {
    case Fn::kEquals: return c == 0;
    case Fn::kNotEquals: return c != 0;
    case Fn::kLess: return c < 0;
    case Fn::kLessEquals: return c <= 0;
    case Fn::kGreater: return c > 0;
    default: return c >= 0;
  }
}

bool Comparison(const BoundExpr& expr, const Vec& a, const Vec& b, Vec* out, std::string* error) {
  const size_t n = out->count;
  uint8_t* dst = out->InitFixed<uint8_t>(TypeId::kBool, n, a.constant && b.constant, error);
  if (dst == nullptr || !MergeValidity(a, b, out, error)) return false;
  const size_t rows = out->stored();
  if (IsString(a.type)) {
    for (size_t i = 0; i < rows; ++i) {
      const int c = a.Str(i).compare(b.Str(i));
      dst[i] = CompareResult(expr.fn, c < 0 ? -1 : (c > 0 ? 1 : 0));
    }
    return true;
  }
  VisitFixed(a.type, [&](auto tag) {
    using T = decltype(tag);
    // One loop per operator and per constant side, each a branch-free compare the compiler
    // vectorizes (a switch on the operator and TotalCompare's NaN tests in the loop kept it
    // scalar). Restrict locals, not the closure's references: a store through uint8_t* may
    // alias anything, so captured pointers were reloaded on every row (d > 0 took 4 ns a row).
    const auto loop = [x_data = a.Data<T>(), y_data = b.Data<T>(), a_constant = a.constant,
                       b_constant = b.constant, dst, rows](auto op) {
      const T* __restrict x = x_data;
      const T* __restrict y = y_data;
      uint8_t* __restrict to = dst;
      const size_t n = rows;
      if (n > 1 && b_constant) {
        const T yc = y[0];
        for (size_t i = 0; i < n; ++i) to[i] = op(x[i], yc);
      } else if (n > 1 && a_constant) {
        const T xc = x[0];
        for (size_t i = 0; i < n; ++i) to[i] = op(xc, y[i]);
      } else {
        for (size_t i = 0; i < n; ++i) to[i] = op(x[i], y[i]);
      }
    };
    if constexpr (std::is_floating_point_v<T>) {
      // TotalCompare's order: NaN the largest value and equal to itself. Bitwise | and &, not
      // || and &&, so that no branch is left in the loop.
      const auto eq = [](T p, T q) { return (p == q) | ((p != p) & (q != q)); };
      const auto lt = [](T p, T q) { return (p < q) | ((p == p) & (q != q)); };
      const auto le = [](T p, T q) { return (p <= q) | (q != q); };
      switch (expr.fn) {
        case Fn::kEquals: loop(eq); break;
        case Fn::kNotEquals: loop([&](T p, T q) { return !eq(p, q); }); break;
        case Fn::kLess: loop(lt); break;
        case Fn::kLessEquals: loop(le); break;
        case Fn::kGreater: loop([&](T p, T q) { return lt(q, p); }); break;
        default: loop([&](T p, T q) { return le(q, p); }); break;
      }
    } else {
      switch (expr.fn) {
        case Fn::kEquals: loop([](T p, T q) { return p == q; }); break;
        case Fn::kNotEquals: loop([](T p, T q) { return p != q; }); break;
        case Fn::kLess: loop([](T p, T q) { return p < q; }); break;
        case Fn::kLessEquals: loop([](T p, T q) { return p <= q; }); break;
        case Fn::kGreater: loop([](T p, T q) { return p > q; }); break;
        default: loop([](T p, T q) { return p >= q; }); break;
      }
    }
  });
  return true;
}

// Three-valued AND / OR: FALSE AND NULL = FALSE, TRUE OR NULL = TRUE, else NULL if any is.
bool Logic(const BoundExpr& expr, const Vec& a, const Vec& b, Vec* out, std::string* error) {
  const size_t n = out->count;
  uint8_t* dst = out->InitFixed<uint8_t>(TypeId::kBool, n, a.constant && b.constant, error);
  if (dst == nullptr) return false;
  const size_t rows = out->stored();
  const bool is_and = expr.fn == Fn::kAnd;
  uint64_t* bits = nullptr;
  if (a.validity != nullptr || b.validity != nullptr) {
    bits = out->InitValidity(error);
    if (bits == nullptr) return false;
  }
  for (size_t i = 0; i < rows; ++i) {
    const bool an = a.IsNull(i), bn = b.IsNull(i);
    const bool av = !an && a.Get<uint8_t>(i) != 0, bv = !bn && b.Get<uint8_t>(i) != 0;
    if (is_and) {
      if ((!an && !av) || (!bn && !bv)) { dst[i] = 0; continue; }
      if (an || bn) { dst[i] = 0; bits[i / 64] &= ~(uint64_t{1} << (i % 64)); continue; }
      dst[i] = 1;
    } else {
      if (av || bv) { dst[i] = 1; continue; }
      if (an || bn) { dst[i] = 0; bits[i / 64] &= ~(uint64_t{1} << (i % 64)); continue; }
      dst[i] = 0;
    }
  }
  return true;
}

}  // namespace

int CompareRows(const Vec& a, size_t i, const Vec& b, size_t j) {
  if (IsString(a.type)) {
    const int c = a.Str(i).compare(b.Str(j));
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  int c = 0;
  VisitFixed(a.type, [&](auto tag) {
    using T = decltype(tag);
    c = TotalCompare(a.Get<T>(i), b.Get<T>(j));
  });
  return c;
}

std::vector<const Column*> TableColumns(const Table& table) {
  std::vector<const Column*> columns;
  for (size_t i = 0; i < table.num_columns(); ++i) columns.push_back(&table.column(i));
  return columns;
}

namespace {

// Rows ids[0..n) of a string column whose offsets are `from` (int32 or int64), a row at a
// time, into out's own buffers (own_offsets already sized for n + 1); NULL rows get no bytes.
template <class Offset>
bool GatherStringRows(const Column& column, const Offset* from, const uint32_t* ids, size_t n, Vec* out,
                      std::string* error) {
  const uint64_t* validity = column.validity();
  int32_t* offsets = out->own_offsets.As<int32_t>();
  offsets[0] = 0;
  uint64_t total = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = ids[i];
    const bool valid = validity == nullptr || BitmaskGet(validity, r);
    total += valid ? static_cast<uint64_t>(from[r + 1] - from[r]) : 0;
    if (total > static_cast<uint64_t>(INT32_MAX)) {
      if (error != nullptr) *error = kStringBatchTooLarge;
      return false;
    }
    offsets[i + 1] = static_cast<int32_t>(total);
  }
  if (!out->own_values.ResizeForOverwrite(total, error)) return false;
  const uint8_t* bytes = column.StringData();
  uint8_t* to = out->own_values.data();
  for (size_t i = 0; i < n; ++i) {
    const size_t length = static_cast<size_t>(offsets[i + 1] - offsets[i]);
    if (length != 0) std::memcpy(to + offsets[i], bytes + from[ids[i]], length);
  }
  static const uint8_t kEmpty[64] = {};
  out->type = TypeId::kString;
  out->offsets = offsets;
  out->values = to != nullptr ? to : kEmpty;
  out->validity = nullptr;
  out->ascii = column.KnownAscii();  // rows of an ASCII column are ASCII
  if (validity != nullptr) {
    if (!out->own_validity.Resize(BitmaskWords(n) * 8 + 8, error)) return false;
    GatherBitmask(validity, ids, n, out->own_validity.As<uint64_t>());
    out->validity = out->own_validity.As<uint64_t>();
  }
  return true;
}

// A large_string column's rows [begin, begin + n) as a Vec with int32 offsets: the offsets
// rebased to the range's first byte, the bytes read in place (a range of rows is far below
// 2 GiB of text; false, with nothing done, when it is not).
bool LargeStringRange(const Column& column, size_t begin, size_t n, Vec* out, std::string* error, bool* done) {
  const int64_t* from = column.Offsets64() + begin;
  const int64_t base = from[0];
  *done = false;
  if (!out->own_offsets.ResizeForOverwrite((n + 1) * sizeof(int32_t), error)) return false;
  int32_t* offsets = out->own_offsets.As<int32_t>();
  if (!RebaseLargeOffsets(from, n, offsets)) return true;
  static const uint8_t kEmpty[64] = {};
  out->type = TypeId::kString;
  out->offsets = offsets;
  out->values = column.StringData() != nullptr ? column.StringData() + base : kEmpty;
  out->validity = column.validity() != nullptr ? column.validity() + begin / 64 : nullptr;
  out->ascii = column.KnownAscii();
  *done = true;
  return true;
}

// Rows ids[0..n) of a large_string column, copied as GatherStrings copies.
bool GatherLargeStrings(const Column& column, const uint32_t* ids, size_t n, Vec* out, std::string* error) {
  return out->own_offsets.ResizeForOverwrite((n + 1) * sizeof(int32_t), error) &&
         GatherStringRows(column, column.Offsets64(), ids, n, out, error);
}

// Rows ids[0..n) of a string column with int32 offsets, copied into out's own buffers: the
// offsets first (so the bytes are allocated once), then the bytes. (Appending row by row
// through a StringVecBuilder cost a call, a bounds check and a doubling buffer per row: 16 % of
// the instructions of GROUP BY SearchEngineID, SearchPhrase behind a WHERE.) NULL rows get no bytes.
bool GatherStrings(const Column& column, const uint32_t* ids, size_t n, Vec* out,
                   std::string* error) {
  out->type = TypeId::kString;
  if (!out->own_offsets.ResizeForOverwrite((n + 1) * sizeof(int32_t), error)) return false;
  int32_t* offsets = out->own_offsets.As<int32_t>();
  const int32_t* from = column.Offsets32();
  const uint64_t* validity = column.validity();
  static const uint8_t kEmpty[64] = {};
  if (validity == nullptr) {
    // No NULLs: the gather kernels, which copy short rows in whole 32-byte pieces where a
    // libc memcpy call per row cost more than the bytes (GROUP BY URL behind a WHERE: a third
    // of one thread's time in memmove).
    const int64_t total = GatherStringOffsets(from, ids, n, offsets);
    if (total == kStringBytesOverflow) {
      if (error != nullptr) *error = kStringBatchTooLarge;
      return false;
    }
    if (!out->own_values.ResizeForOverwrite(static_cast<size_t>(total), error)) return false;
    const AlignedBuffer& bytes = column.values_buffer();
    GatherStringData(from, bytes.data(), bytes.capacity(), ids, n, out->own_values.data(),
                     static_cast<size_t>(total));
    out->offsets = offsets;
    out->values = out->own_values.data() != nullptr ? out->own_values.data() : kEmpty;
    out->validity = nullptr;
    out->ascii = column.KnownAscii();
    return true;
  }
  return GatherStringRows(column, from, ids, n, out, error);
}

}  // namespace

bool Evaluator::EvalColumn(const BoundExpr& expr, const RowSet& rows, Vec* out, std::string* error) {
  const Column& column = *columns_[static_cast<size_t>(expr.column)];
  const TypeId type = column.type();
  out->count = rows.count;
  out->constant = false;
  if (rows.ids == nullptr && rows.begin % 64 == 0 && type != TypeId::kLargeString) {
    out->type = type;
    const uint64_t* validity = column.validity();
    out->validity = validity != nullptr ? validity + rows.begin / 64 : nullptr;
    out->ascii = column.KnownAscii();
    if (IsString(type)) {
      out->offsets = column.Offsets32() + rows.begin;
      static const uint8_t kEmpty[64] = {};
      out->values = column.StringData() != nullptr ? column.StringData() : kEmpty;
    } else {
      out->values = column.values_buffer().data() + rows.begin * TypeByteWidth(type);
    }
    return true;
  }
  if (type == TypeId::kLargeString && rows.ids == nullptr && rows.begin % 64 == 0) {
    bool done = false;
    if (!LargeStringRange(column, rows.begin, rows.count, out, error, &done)) return false;
    if (done) return true;
  }
  if (rows.mask != nullptr && CanCompressVec(type)) {
    // The masked rows' slice of the column, borrowed (mask_begin is a multiple of 64).
    Vec slice;
    slice.type = type;
    slice.count = rows.mask_rows;
    slice.values = column.values_buffer().data() + rows.mask_begin * TypeByteWidth(type);
    slice.validity =
        column.validity() != nullptr ? column.validity() + rows.mask_begin / 64 : nullptr;
    return CompressVec(slice, rows.mask, rows.count, out, error);
  }
  // Gather (or copy an unaligned range) into owned buffers.
  std::vector<uint32_t> range;
  const uint32_t* ids = rows.ids;
  if (ids == nullptr) {
    range.resize(rows.count);
    for (size_t i = 0; i < rows.count; ++i) range[i] = static_cast<uint32_t>(rows.begin + i);
    ids = range.data();
  }
  const size_t n = rows.count;
  if (PhysicalType(type) == TypeId::kString) {
    if (!GatherStrings(column, ids, n, out, error)) return false;
    out->type = type;  // a list stays one
    return true;
  }
  if (type == TypeId::kLargeString) return GatherLargeStrings(column, ids, n, out, error);
  if (IsString(type)) {
    StringVecBuilder builder;
    if (!builder.Init(n, false, error)) return false;
    for (size_t i = 0; i < n; ++i) {
      if (!column.IsValid(ids[i])) { builder.AppendNull(); continue; }
      if (!builder.Append(column.StringAt(ids[i]), error)) return false;
    }
    return builder.Finish(out, error);
  }
  out->type = type;
  const size_t width = TypeByteWidth(type);
  if (!out->own_values.Resize(n * width, error)) return false;
  if (width == 16) {
    for (size_t i = 0; i < n; ++i) {
      std::memcpy(out->own_values.data() + i * 16, column.values_buffer().data() + size_t{ids[i]} * 16, 16);
    }
  } else if (n != 0) {
    GatherFixed(width, column.values_buffer().data(), ids, n, out->own_values.data());
  }
  out->values = out->own_values.data();
  out->validity = nullptr;
  if (column.validity() != nullptr) {
    if (!out->own_validity.Resize(BitmaskWords(n) * 8 + 8, error)) return false;
    GatherBitmask(column.validity(), ids, n, out->own_validity.As<uint64_t>());
    out->validity = out->own_validity.As<uint64_t>();
  }
  return true;
}

bool Evaluator::Eval(const BoundExpr& expr, const RowSet& rows, Vec* out, std::string* error) {
  switch (expr.kind) {
    case BoundKind::kColumn: return EvalColumn(expr, rows, out, error);
    case BoundKind::kConstant: return ConstantVec(expr.constant, rows.count, out, error);
    case BoundKind::kCall: return EvalCall(expr, rows, out, error);
  }
  return false;
}

bool Evaluator::EvalCall(const BoundExpr& expr, const RowSet& rows, Vec* out, std::string* error) {
  // No rows, nothing computed, so nothing fails: a constant the binder left unfolded because
  // computing it fails (5 % 0, see Binder::Fold) is no error over a selection without rows,
  // as in DuckDB. A NULL of the type stands for the empty column.
  if (rows.count == 0) return ConstantVec(Value::Null(expr.type), 0, out, error);
  if (expr.fn == Fn::kLength && expr.args[0]->kind == BoundKind::kColumn) {
    // Works out once per column whether its bytes are all ASCII (the first batch's thread
    // scans, the others wait): then EvalColumn marks its rows so, and length() reads offsets.
    columns_[static_cast<size_t>(expr.args[0]->column)]->AllAscii();
  }
  if (expr.fn == Fn::kScalar && expr.scalar == plan::ScalarFn::kPackShortString && rows.mask != nullptr &&
      expr.args[0]->kind == BoundKind::kColumn &&
      columns_[static_cast<size_t>(expr.args[0]->column)]->type() == TypeId::kString) {
    // A short string GROUP BY key over most of a batch's rows: packed from the column in place
    // over the whole masked range, then the fixed-width words compressed to the rows; gathering
    // the rows' offsets and bytes first was a fifth of TPC-H Q1 (98 % of lineitem's rows).
    RowSet whole;
    whole.begin = rows.mask_begin;
    whole.count = rows.mask_rows;
    Vec words;
    return EvalCall(expr, whole, &words, error) && CompressVec(words, rows.mask, rows.count, out, error);
  }
  std::vector<Vec> args(expr.args.size());
  for (size_t i = 0; i < expr.args.size(); ++i) {
    if (!Eval(*expr.args[i], rows, &args[i], error)) {
      // A CASE branch may fail only on rows that do not take it: evaluate branch by branch.
      if (expr.fn != Fn::kCase || !EvalCaseByBranch(expr, rows, out, error)) return false;
      error->clear();
      return true;
    }
  }
  out->count = rows.count;
  switch (expr.fn) {
    case Fn::kAdd:
    case Fn::kSubtract:
    case Fn::kMultiply:
    case Fn::kDivide:
    case Fn::kModulo: {
      bool ok = false;
      VisitFixed(expr.type, [&](auto tag) {
        using T = decltype(tag);
        ok = Arithmetic<T>(expr, args[0], args[1], out, error);
      });
      return ok;
    }
    case Fn::kDateDiff: return DateDiff(args[0], args[1], out, error);
    case Fn::kNegate: {
      bool ok = true;
      VisitFixed(expr.type, [&](auto tag) {
        using T = decltype(tag);
        const Vec& a = args[0];
        T* dst = out->InitFixed<T>(expr.type, rows.count, a.constant, error);
        if (dst == nullptr) { ok = false; return; }
        const auto copy_validity = [&]() {
          if (a.validity == nullptr) return true;
          const size_t words = BitmaskWords(out->stored());
          if (!out->own_validity.Assign(a.validity, words * 8, error)) return false;
          uint64_t* bits = out->own_validity.As<uint64_t>();
          if (words != 0) bits[words - 1] &= BitmaskTailMask(out->stored());  // as InitValidity
          out->validity = bits;
          return true;
        };
        bool negated = false;
        if constexpr (std::is_floating_point_v<T> || (std::is_signed_v<T> && sizeof(T) <= 8)) {
          // One branch-free pass (vectorised) that notes whether a row, NULL or not, holds the
          // minimum, which has no negation; only then the checked loop below, which skips NULL
          // rows and names the value. Row by row, -i was a sixth of CASE WHEN d > 0 THEN i
          // ELSE -i END.
          const T* __restrict x = a.Data<T>();
          T* __restrict to = dst;
          const size_t n = out->stored();
          if constexpr (std::is_floating_point_v<T>) {
            for (size_t i = 0; i < n; ++i) to[i] = -x[i];
            negated = true;
          } else {
            using U = std::make_unsigned_t<T>;
            uint8_t minimum = 0;
            for (size_t i = 0; i < n; ++i) {
              to[i] = static_cast<T>(U(0) - static_cast<U>(x[i]));
              minimum |= static_cast<uint8_t>(x[i] == std::numeric_limits<T>::min());
            }
            negated = minimum == 0;
          }
        }
        if (negated) {
          ok = copy_validity();
          return;
        }
        for (size_t i = 0; i < out->stored(); ++i) {
          const T x = a.Get<T>(i);
          if constexpr (!std::is_floating_point_v<T>) {
            if (!a.IsNull(i) && __builtin_sub_overflow(T(0), x, &dst[i])) {
              *error = ErrorAt(expr, "overflow", std::string("Overflow in negation of ") + ShortTypeName<T>() + " (" + NumberText(x) + ")");
              ok = false;
              return;
            }
          } else {
            dst[i] = -x;
          }
        }
        if (a.validity != nullptr) {
          uint64_t* bits = out->InitValidity(error);
          for (size_t i = 0; i < out->stored(); ++i) if (a.IsNull(i)) bits[i / 64] &= ~(uint64_t{1} << (i % 64));
        }
      });
      return ok;
    }
    case Fn::kEquals:
    case Fn::kNotEquals:
    case Fn::kLess:
    case Fn::kLessEquals:
    case Fn::kGreater:
    case Fn::kGreaterEquals: return Comparison(expr, args[0], args[1], out, error);
    case Fn::kAnd:
    case Fn::kOr: return Logic(expr, args[0], args[1], out, error);
    case Fn::kNot: {
      const Vec& a = args[0];
      uint8_t* dst = out->InitFixed<uint8_t>(TypeId::kBool, rows.count, a.constant, error);
      if (dst == nullptr) return false;
      for (size_t i = 0; i < out->stored(); ++i) dst[i] = a.Get<uint8_t>(i) == 0;
      if (a.validity != nullptr) {
        out->own_validity.Assign(a.validity, BitmaskWords(out->stored()) * 8, error);
        out->validity = out->own_validity.As<uint64_t>();
      }
      return true;
    }
    case Fn::kIsNull:
    case Fn::kIsNotNull: {
      const Vec& a = args[0];
      uint8_t* dst = out->InitFixed<uint8_t>(TypeId::kBool, rows.count, a.constant, error);
      if (dst == nullptr) return false;
      for (size_t i = 0; i < out->stored(); ++i) dst[i] = a.IsNull(i) == (expr.fn == Fn::kIsNull);
      return true;
    }
    default: return EvalFunction(expr, args, rows.count, out, error);
  }
}

bool EvaluateConstant(const BoundExpr& expr, Value* out, std::string* error) {
  Evaluator evaluator({});
  RowSet one;
  one.count = 1;
  Vec vec;
  if (!evaluator.Eval(expr, one, &vec, error)) return false;
  *out = VecValue(vec, 0);
  out->type = expr.type;
  return true;
}

}  // namespace exec
}  // namespace laneql
