// Typed parsing of one CSV field's text (already unquoted), with range checks: what the reader
// uses for explicit schemas, for inferred columns and for the sniffer's type tests. Every
// parser accepts exactly the spelling DuckDB's CSV writer (laneql's FormatValue kText) produces
// for its type, plus the usual alternatives listed at each function; nothing else.
#ifndef LANEQL_SRC_IO_CSV_FIELD_PARSE_H_
#define LANEQL_SRC_IO_CSV_FIELD_PARSE_H_

#include <cstdint>
#include <string_view>

#include "laneql/int128.h"
#include "laneql/types.h"

namespace laneql {
namespace csv {

enum class ParseStatus { kOk, kSyntax, kOutOfRange };

// [+-]digits, within [min, max].
ParseStatus ParseSigned(std::string_view text, int64_t min, int64_t max, int64_t* out);
// [+]digits (a "-0" is accepted as 0), at most max.
ParseStatus ParseUnsigned(std::string_view text, uint64_t max, uint64_t* out);
ParseStatus ParseInt128(std::string_view text, Int128* out);
// Decimal or scientific notation, or inf / -inf / infinity / nan / -nan (any letter case).
// Finite text whose value overflows the type is out of range.
ParseStatus ParseDouble(std::string_view text, double* out);
ParseStatus ParseFloat(std::string_view text, float* out);
// true / false in any letter case; unless `strict`, also t / f / 1 / 0 (DuckDB's casts).
ParseStatus ParseBool(std::string_view text, bool strict, bool* out);
// YYYY-MM-DD (year of 4 or more digits, optional " (BC)"), or infinity / -infinity.
ParseStatus ParseDate(std::string_view text, int32_t* days);
// A date, optionally followed by ' ' or 'T' and HH:MM:SS[.f up to 6 digits], then an optional
// " (BC)"; or infinity / -infinity. A bare date is midnight.
ParseStatus ParseTimestampMicros(std::string_view text, int64_t* micros);
// The same in whole seconds: a non-zero fraction is a syntax error (it would be lost).
ParseStatus ParseTimestampSeconds(std::string_view text, int64_t* seconds);

// Whether `text` is well-formed UTF-8.
bool IsValidUtf8(std::string_view text);

// DuckDB's name of the type as the messages use it ("BIGINT", "DATE", ...).
const char* SqlTypeName(TypeId type);

}  // namespace csv
}  // namespace laneql

#endif  // LANEQL_SRC_IO_CSV_FIELD_PARSE_H_
