// One SQL value of a known type: a literal, a folded constant, or a key/aggregate read back out
// of a column. Integers of every width are held as Int128 (so UBIGINT and HUGEINT fit), floats
// as double, dates / timestamps as their integer count, bool as 0 / 1, strings as bytes.
#ifndef LANEQL_PLAN_VALUE_H_
#define LANEQL_PLAN_VALUE_H_

#include <cstdint>
#include <string>

#include "laneql/column.h"
#include "laneql/int128.h"
#include "laneql/interval.h"
#include "laneql/types.h"

namespace laneql {
namespace plan {

struct Value {
  TypeId type = TypeId::kInt32;
  bool is_null = true;
  Int128 integer = 0;  // integers, bool, date32 days, timestamp seconds / micros
  double real = 0;     // float32, float64
  std::string text;    // strings

  static Value Null(TypeId type) {
    Value v;
    v.type = type;
    return v;
  }
  static Value Integer(TypeId type, Int128 x) {
    Value v;
    v.type = type;
    v.is_null = false;
    v.integer = x;
    return v;
  }
  static Value Real(TypeId type, double x) {
    Value v;
    v.type = type;
    v.is_null = false;
    v.real = x;
    return v;
  }
  static Value String(std::string s) {
    Value v;
    v.type = TypeId::kString;
    v.is_null = false;
    v.text = std::move(s);
    return v;
  }
};

// Row `row` of `column` as a Value.
Value ValueAt(const Column& column, size_t row);
// Appends `value` (of the column's type family) to a column being built.
bool AppendValueTo(const Value& value, Column* column, std::string* error);
// The smallest and largest value a fixed-width integer (or temporal, bool) type holds.
Int128 TypeMin(TypeId type);
Int128 TypeMax(TypeId type);
// DuckDB's text for the value (as CAST(v AS VARCHAR)), for messages.
std::string ValueToText(const Value& value);

// Text -> DATE days / TIMESTAMP micros, DuckDB's accepted forms (YYYY-MM-DD, optionally
// followed by [T ]HH:MM[:SS[.ffffff]] for timestamps). False when the text is not one.
bool ParseDate(const std::string& text, int32_t* days);
// False for a malformed text, and for one whose instant does not fit int64 microseconds (then
// *out_of_range, when given, is set: DuckDB's "timestamp field value out of range").
bool ParseTimestampMicros(const std::string& text, int64_t* micros, bool* out_of_range = nullptr);
// TIME and INTERVAL text: src/common/interval_text.h.

}  // namespace plan
}  // namespace laneql

#endif  // LANEQL_PLAN_VALUE_H_
