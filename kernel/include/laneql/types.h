// Column value types. The physical layouts are Arrow's, so a column built by JavaScript Arrow
// code and one built natively (generator, CSV) are the same bytes:
//  - integers and floats: little-endian values of TypeByteWidth bytes each;
//  - date32: int32 days since 1970-01-01 (Arrow date32, DuckDB DATE);
//  - timestamp_s / timestamp_us: int64 seconds / microseconds since 1970-01-01 00:00:00 UTC
//    (Arrow timestamp[s] / timestamp[us]; DuckDB TIMESTAMP_S / TIMESTAMP);
//  - string / large_string: UTF-8 bytes plus n + 1 int32 / int64 offsets (Arrow utf8 /
//    large_utf8; both are DuckDB VARCHAR);
//  - int128: 16-byte little-endian two's complement (laneql::Int128, DuckDB HUGEINT, what SUM
//    of integers returns). Arrow has no 128-bit integer; its closest type is decimal128 with
//    scale 0 ("d:38,0"), whose values are the same 16 bytes (it only caps the digits at 38);
//  - bool: one byte per value, 0 or 1 (DuckDB BOOLEAN). NOT Arrow's layout: Arrow's bool ("b")
//    is bit-packed, so the JS bindings convert in both directions;
//  - time_us: int64 microseconds since midnight (Arrow time64[us], DuckDB TIME);
//  - interval: 16 bytes, the int128 months · 2^96 + days · 2^64 + microseconds (each part
//    signed; laneql/interval.h), so that the engine groups, sorts and compares intervals as
//    128-bit integers: by months, then days, then microseconds (DuckDB INTERVAL). NOT Arrow's
//    month_day_nano layout (int32 months, int32 days, int64 nanoseconds): the JS bindings
//    convert.
//  - decimal(p, s): 16 bytes, the int128 value · 10^s, for every precision 1..38 (Arrow's
//    decimal128 layout, "d:p,s"; DuckDB DECIMAL(p, s), which narrows the storage of small
//    precisions, holds the same numbers). A decimal's TypeId is not one of the names below but
//    kDecimalTag | p << 8 | s (DecimalType), so that every expression and column carries its
//    precision and scale in its type; PhysicalType maps each to kInt128 for code that only
//    moves, hashes, sorts or compares values of one type.
//  - list(element): kListTag | element, for a fixed-width element type that is not a list (a
//    number, BOOLEAN, DATE, TIME, TIMESTAMP, INTERVAL, HUGEINT or DECIMAL); DuckDB's
//    element[] (what quantile_cont(x, [0.25, 0.5]) returns). Stored as a string column is:
//    length + 1 int32 offsets in bytes, a row's bytes its elements' values packed
//    (TypeByteWidth(element) each, so a row of b bytes holds b / width elements). Elements are
//    never NULL (a NULL list is a NULL row). NOT Arrow's list layout (element offsets and a
//    child array): the JS bindings convert. PhysicalType maps a list to kString and IsString
//    is true for it, so that every step that only moves rows (gathers, sorts by other keys,
//    joins, slices) moves lists as it moves strings; the binder keeps lists away from every
//    operation on text or values (plan/bind_lists.cc).
// kInt128 and kBool come after kLargeString, and kTime and kInterval after them, so that the
// older ids keep their numbers.
#ifndef LANEQL_TYPES_H_
#define LANEQL_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace laneql {

enum class TypeId : uint16_t {
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kFloat32,
  kFloat64,
  kDate32,
  kTimestampSeconds,
  kTimestampMicros,
  kString,
  kLargeString,
  kInt128,
  kBool,
  kTime,
  kInterval,
};
inline constexpr int kNumTypeIds = static_cast<int>(TypeId::kInterval) + 1;  // decimals aside

// DECIMAL(precision, scale): 1 <= precision <= kMaxDecimalPrecision, 0 <= scale <= precision.
inline constexpr int kMaxDecimalPrecision = 38;
inline constexpr uint16_t kDecimalTag = 0x4000;
inline constexpr uint16_t kListTag = 0x8000;
constexpr bool IsDecimal(TypeId type) {
  return (static_cast<uint16_t>(type) & (kDecimalTag | kListTag)) == kDecimalTag;
}
constexpr bool IsList(TypeId type) { return (static_cast<uint16_t>(type) & kListTag) != 0; }
constexpr TypeId ListType(TypeId element) { return static_cast<TypeId>(kListTag | static_cast<uint16_t>(element)); }
constexpr TypeId ListElementType(TypeId list) {
  return static_cast<TypeId>(static_cast<uint16_t>(list) & ~kListTag);
}
constexpr TypeId DecimalType(int precision, int scale) {
  return static_cast<TypeId>(kDecimalTag | precision << 8 | scale);
}
constexpr int DecimalPrecision(TypeId type) { return (static_cast<uint16_t>(type) >> 8) & 0x3f; }
constexpr int DecimalScale(TypeId type) { return static_cast<uint16_t>(type) & 0xff; }
// The layout a value is stored in: kInt128 for a decimal, kString for a list, the type itself
// for the others.
constexpr TypeId PhysicalType(TypeId type) {
  return IsList(type) ? TypeId::kString : IsDecimal(type) ? TypeId::kInt128 : type;
}
// A TypeId a reader may meet in a file or from the JS bindings: a named one, a decimal of a
// valid precision and scale, or a list of either that is fixed-width.
bool IsValidTypeId(uint64_t id);

// laneql's own lower-case name: "int8" ... "uint64", "float32", "float64", "date32",
// "timestamp_s", "timestamp_us", "string", "large_string", "int128", "bool", "decimal(p,s)",
// "float64[]" (a list).
// Note "int8" is the
// 8-bit integer (Arrow's naming), not Postgres/DuckDB's INT8 (= BIGINT).
const char* TypeName(TypeId type);
// DuckDB's name for the same values: "TINYINT", ..., "BIGINT", "UBIGINT", "FLOAT", "DOUBLE",
// "DATE", "TIMESTAMP_S", "TIMESTAMP" (microseconds), "VARCHAR" (both string types), "HUGEINT",
// "BOOLEAN", "DECIMAL(p,s)", "DOUBLE[]".
const char* DuckDbTypeName(TypeId type);
// The Arrow C data interface format string ("c", "s", "i", "l", "C", ..., "g", "tdD", "tss:",
// "tsu:", "u", "U", "d:38,0", "b"): what the JS bindings hand to or read from Arrow (see above
// for the two that need converting); "+l" for a list (its element's format is the child's).
const char* ArrowFormat(TypeId type);

// Parses TypeName's names, case-insensitively. Returns false for anything else.
bool TypeFromName(std::string_view name, TypeId* type);
// Parses a SQL column type as DuckDB spells it or accepts it as an alias, case-insensitively:
// TINYINT/INT1, SMALLINT/INT2/SHORT, INTEGER/INT/INT4/SIGNED, BIGINT/INT8/LONG, UTINYINT,
// USMALLINT, UINTEGER, UBIGINT, FLOAT/FLOAT4/REAL, DOUBLE/FLOAT8, DATE, TIMESTAMP/DATETIME/
// TIMESTAMP_US, TIMESTAMP_S, VARCHAR/TEXT/STRING/CHAR/BPCHAR, HUGEINT/INT128, BOOLEAN/BOOL/
// LOGICAL, TIME, INTERVAL, DECIMAL/NUMERIC[(p[, s])] (DECIMAL alone is DECIMAL(18,3), as in
// DuckDB; a precision outside 1..38 or a scale above it is refused). A length such as
// VARCHAR(255) or CHAR(2) is accepted and ignored (DuckDB ignores it too).
bool TypeFromSqlName(std::string_view name, TypeId* type);

// Bytes per value for fixed-width types; 0 for the string types and lists (see OffsetByteWidth).
size_t TypeByteWidth(TypeId type);
// Bytes per offset: 4 for string and lists, 8 for large_string, 0 for fixed-width types.
size_t OffsetByteWidth(TypeId type);

bool IsSignedInteger(TypeId type);    // int8 .. int64, int128
bool IsUnsignedInteger(TypeId type);  // uint8 .. uint64
bool IsInteger(TypeId type);          // either; bool, date32 and timestamps are not integers
bool IsFloat(TypeId type);            // float32, float64
bool IsTemporal(TypeId type);         // date32, timestamp_s, timestamp_us
bool IsString(TypeId type);           // string, large_string; and lists (see above)
bool IsBool(TypeId type);             // bool
bool IsFixedWidth(TypeId type);       // everything but the strings
bool IsTime(TypeId type);             // time_us (a time of day: not IsTemporal)
bool IsInterval(TypeId type);         // interval

}  // namespace laneql

#endif  // LANEQL_TYPES_H_
