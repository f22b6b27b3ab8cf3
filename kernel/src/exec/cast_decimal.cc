// Casts to and from DECIMAL(p, s), value by value (CastValue hands them here), with DuckDB's
// rounding (half away from zero) and its error texts.
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "src/common/decimal.h"
#include "src/exec/expr_eval.h"

namespace laneql {
namespace exec {

using plan::Value;

bool CastDecimalValue(const Value& in, TypeId to, Value* out, std::string* error) {
  const TypeId from = in.type;
  auto fail = [&](const std::string& why) { *error = why; return false; };
  if (IsDecimal(to)) {
    const int p = DecimalPrecision(to), s = DecimalScale(to);
    Int128 v = 0;
    if (IsString(from)) {
      if (!decimal::ParseDecimal(in.text, p, s, &v)) {
        return fail("Could not convert string \"" + in.text + "\" to " + DuckDbTypeName(to));
      }
    } else if (IsDecimal(from)) {
      if (!decimal::Rescale(in.integer, DecimalScale(from), s, p, &v)) {
        return fail("Casting value \"" + plan::ValueToText(in) + "\" to type " + DuckDbTypeName(to) +
                    " failed: value is out of range!");
      }
    } else if (IsFloat(from)) {
      if (!decimal::FromDouble(in.real, p, s, &v)) {
        char text[400];  // DuckDB prints the double with six decimals here
        std::snprintf(text, sizeof text, "%f", in.real);
        return fail(std::string("Could not cast value ") + text + " to " + DuckDbTypeName(to));
      }
    } else if (IsInteger(from) || IsBool(from)) {
      if (!decimal::Rescale(in.integer, 0, s, p, &v)) {
        return fail("Could not cast value " + plan::ValueToText(in) + " to " + DuckDbTypeName(to));
      }
    } else {
      return fail(std::string("cannot cast ") + DuckDbTypeName(from) + " to " + DuckDbTypeName(to));
    }
    *out = Value::Integer(to, v);
    return true;
  }
  // From a decimal to a number or BOOLEAN (text is CastValue's).
  const int scale = DecimalScale(from);
  if (IsFloat(to)) {
    const double d = decimal::ToDouble(in.integer, scale);
    *out = Value::Real(to, to == TypeId::kFloat32 ? static_cast<double>(static_cast<float>(d)) : d);
    return true;
  }
  if (IsBool(to)) {
    *out = Value::Integer(to, in.integer != 0);
    return true;
  }
  if (IsInteger(to)) {
    Int128 v = 0;
    if (!decimal::Rescale(in.integer, scale, 0, kMaxDecimalPrecision, &v) || v < plan::TypeMin(to) ||
        v > plan::TypeMax(to)) {
      return fail("Failed to cast decimal value " + plan::ValueToText(in) + " to type " + DuckDbTypeName(to));
    }
    *out = Value::Integer(to, v);
    return true;
  }
  return fail(std::string("cannot cast ") + DuckDbTypeName(from) + " to " + DuckDbTypeName(to));
}

bool CastDecimalVec(const plan::BoundExpr& expr, const Vec& in, Vec* out, std::string* error, bool* handled) {
  const TypeId to = expr.type, from = in.type;
  const bool to_decimal = IsDecimal(to) && (IsDecimal(from) || IsInteger(from) || IsBool(from) || IsFloat(from));
  const bool to_float = IsDecimal(from) && IsFloat(to);
  *handled = (to_decimal || to_float) && !expr.try_cast;
  if (!*handled) return true;
  const size_t rows = in.stored();
  bool ok = true;
  if (to_float) {
    const Int128 divisor = decimal::Pow10(DecimalScale(from));
    const double d = static_cast<double>(divisor);
    VisitFixed(to, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        T* dst = out->InitFixed<T>(to, in.count, in.constant, error);
        if (dst == nullptr) { ok = false; return; }
        for (size_t i = 0; i < rows; ++i) dst[i] = static_cast<T>(Int128ToDouble(in.Get<Int128>(i)) / d);
      }
    });
  } else {
    Int128* dst = out->InitFixed<Int128>(to, in.count, in.constant, error);
    if (dst == nullptr) return false;
    const int from_scale = IsDecimal(from) ? DecimalScale(from) : 0;
    const int shift = DecimalScale(to) - from_scale;
    if (IsDecimal(from) && shift == 0 && DecimalPrecision(to) >= DecimalPrecision(from)) {
      // The same scaled integers, only more digits allowed: a copy.
      std::memcpy(dst, in.Data<Int128>(), rows * sizeof(Int128));
      if (in.validity != nullptr) {
        if (!out->own_validity.Assign(in.validity, BitmaskWords(rows) * 8, error)) return false;
        out->validity = out->own_validity.As<uint64_t>();
      }
      return true;
    }
    const Int128 limit = decimal::Pow10(DecimalPrecision(to));
    VisitFixed(from, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        for (size_t i = 0; i < rows && ok; ++i) {
          Int128 v = 0;
          const bool fits = decimal::FromDouble(static_cast<double>(in.Get<T>(i)), DecimalPrecision(to), DecimalScale(to), &v);
          if (!fits && !in.IsNull(i)) {
            plan::Value ignored;
            CastDecimalValue(VecValue(in, i), to, &ignored, error);  // its message
            *error = ErrorAt(expr, "conversion", *error);
            ok = false;
          }
          dst[i] = fits ? v : 0;
        }
      } else {
        for (size_t i = 0; i < rows && ok; ++i) {
          const Int128 x = static_cast<Int128>(in.Get<T>(i));
          Int128 v = x;
          bool fits;
          if (shift >= 0) {
            fits = shift == 0 || !__builtin_mul_overflow(x, decimal::Pow10(shift), &v);
            fits = fits && v < limit && v > -limit;
          } else {
            fits = decimal::Rescale(x, from_scale, DecimalScale(to), DecimalPrecision(to), &v);
          }
          if (!fits && !in.IsNull(i)) {
            plan::Value ignored;
            CastDecimalValue(VecValue(in, i), to, &ignored, error);  // its message
            *error = ErrorAt(expr, "conversion", *error);
            ok = false;
          }
          dst[i] = fits ? v : 0;
        }
      }
    });
  }
  if (!ok) return false;
  if (in.validity != nullptr) {
    if (!out->own_validity.Assign(in.validity, BitmaskWords(rows) * 8, error)) return false;
    out->validity = out->own_validity.As<uint64_t>();
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
