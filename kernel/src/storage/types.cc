// Names, widths and classes of the column types: one table, indexed by TypeId.
#include "laneql/types.h"
#include "src/common/ascii.h"

#include <cctype>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace laneql {
namespace {

struct TypeInfo {
  TypeId id;
  const char* name;
  const char* duckdb;
  const char* arrow;
  uint8_t width;         // value bytes; 0 = variable length
  uint8_t offset_width;  // offset bytes for the strings
};

// In TypeId order (checked by TypeInfoFor).
constexpr TypeInfo kTypes[kNumTypeIds] = {
    {TypeId::kInt8, "int8", "TINYINT", "c", 1, 0},
    {TypeId::kInt16, "int16", "SMALLINT", "s", 2, 0},
    {TypeId::kInt32, "int32", "INTEGER", "i", 4, 0},
    {TypeId::kInt64, "int64", "BIGINT", "l", 8, 0},
    {TypeId::kUInt8, "uint8", "UTINYINT", "C", 1, 0},
    {TypeId::kUInt16, "uint16", "USMALLINT", "S", 2, 0},
    {TypeId::kUInt32, "uint32", "UINTEGER", "I", 4, 0},
    {TypeId::kUInt64, "uint64", "UBIGINT", "L", 8, 0},
    {TypeId::kFloat32, "float32", "FLOAT", "f", 4, 0},
    {TypeId::kFloat64, "float64", "DOUBLE", "g", 8, 0},
    {TypeId::kDate32, "date32", "DATE", "tdD", 4, 0},
    {TypeId::kTimestampSeconds, "timestamp_s", "TIMESTAMP_S", "tss:", 8, 0},
    {TypeId::kTimestampMicros, "timestamp_us", "TIMESTAMP", "tsu:", 8, 0},
    {TypeId::kString, "string", "VARCHAR", "u", 0, 4},
    {TypeId::kLargeString, "large_string", "VARCHAR", "U", 0, 8},
    {TypeId::kInt128, "int128", "HUGEINT", "d:38,0", 16, 0},  // decimal128(38, 0): see types.h
    {TypeId::kBool, "bool", "BOOLEAN", "b", 1, 0},  // a byte per value, not Arrow's bits
    {TypeId::kTime, "time_us", "TIME", "ttu", 8, 0},
    {TypeId::kInterval, "interval", "INTERVAL", "tin", 16, 0},  // not Arrow's layout: see types.h
};

constexpr bool TableIsInTypeIdOrder() {
  for (int i = 0; i < kNumTypeIds; ++i) {
    if (static_cast<int>(kTypes[i].id) != i) return false;
  }
  return true;
}
static_assert(TableIsInTypeIdOrder(), "kTypes must list the types in TypeId order");

// The names of every decimal type, made once: TypeName and friends hand out const char*.
struct DecimalNames {
  std::vector<std::string> name, duckdb, arrow;
  DecimalNames() {
    const size_t n = (kMaxDecimalPrecision + 1) * (kMaxDecimalPrecision + 1);
    name.resize(n);
    duckdb.resize(n);
    arrow.resize(n);
    char buffer[32];
    for (int p = 1; p <= kMaxDecimalPrecision; ++p) {
      for (int s = 0; s <= p; ++s) {
        const size_t i = Index(p, s);
        std::snprintf(buffer, sizeof buffer, "decimal(%d,%d)", p, s);
        name[i] = buffer;
        std::snprintf(buffer, sizeof buffer, "DECIMAL(%d,%d)", p, s);
        duckdb[i] = buffer;
        std::snprintf(buffer, sizeof buffer, "d:%d,%d", p, s);
        arrow[i] = buffer;
      }
    }
  }
  static size_t Index(int p, int s) { return static_cast<size_t>(p * (kMaxDecimalPrecision + 1) + s); }
  static const DecimalNames& Get() {
    static const DecimalNames names;
    return names;
  }
};

// The names of the list types met so far ("float64[]", "DOUBLE[]"), made on first use and kept
// (std::map nodes never move, so the const char* handed out stay valid).
const char* ListName(TypeId list, bool duckdb) {
  static std::mutex mutex;
  static std::map<uint16_t, std::pair<std::string, std::string>> names;
  std::lock_guard<std::mutex> lock(mutex);
  auto [it, added] = names.try_emplace(static_cast<uint16_t>(list));
  if (added) {
    const TypeId element = ListElementType(list);
    it->second = {std::string(TypeName(element)) + "[]", std::string(DuckDbTypeName(element)) + "[]"};
  }
  return duckdb ? it->second.second.c_str() : it->second.first.c_str();
}

const TypeInfo& InfoFor(TypeId type) { return kTypes[static_cast<int>(PhysicalType(type))]; }

// Reads "(p)" or "(p, s)" after DECIMAL / NUMERIC; empty means DuckDB's default (18, 3).
bool ParseDecimalWidth(std::string_view args, TypeId* type) {
  int p = 18, s = 3;
  if (!args.empty()) {
    if (args.front() != '(' || args.back() != ')') return false;
    std::string inner(args.substr(1, args.size() - 2));
    int consumed = 0;
    if (std::sscanf(inner.c_str(), " %d , %d %n", &p, &s, &consumed) == 2 &&
        static_cast<size_t>(consumed) == inner.size()) {
    } else if (std::sscanf(inner.c_str(), " %d %n", &p, &consumed) == 1 &&
               static_cast<size_t>(consumed) == inner.size()) {
      s = 0;
    } else {
      return false;
    }
  }
  if (p < 1 || p > kMaxDecimalPrecision || s < 0 || s > p) return false;
  *type = DecimalType(p, s);
  return true;
}

using ascii::EqualsIgnoreCase;

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

struct SqlAlias {
  const char* name;
  TypeId type;
};

constexpr SqlAlias kSqlAliases[] = {
    {"TINYINT", TypeId::kInt8},         {"INT1", TypeId::kInt8},
    {"SMALLINT", TypeId::kInt16},       {"INT2", TypeId::kInt16},
    {"SHORT", TypeId::kInt16},          {"INTEGER", TypeId::kInt32},
    {"INT", TypeId::kInt32},            {"INT4", TypeId::kInt32},
    {"SIGNED", TypeId::kInt32},         {"BIGINT", TypeId::kInt64},
    {"INT8", TypeId::kInt64},           {"LONG", TypeId::kInt64},
    {"UTINYINT", TypeId::kUInt8},       {"USMALLINT", TypeId::kUInt16},
    {"UINTEGER", TypeId::kUInt32},      {"UBIGINT", TypeId::kUInt64},
    {"FLOAT", TypeId::kFloat32},        {"FLOAT4", TypeId::kFloat32},
    {"REAL", TypeId::kFloat32},         {"DOUBLE", TypeId::kFloat64},
    {"FLOAT8", TypeId::kFloat64},       {"DATE", TypeId::kDate32},
    {"TIMESTAMP", TypeId::kTimestampMicros}, {"DATETIME", TypeId::kTimestampMicros},
    {"TIMESTAMP_US", TypeId::kTimestampMicros}, {"TIMESTAMP_S", TypeId::kTimestampSeconds},
    {"VARCHAR", TypeId::kString},       {"TEXT", TypeId::kString},
    {"STRING", TypeId::kString},        {"CHAR", TypeId::kString},
    {"BPCHAR", TypeId::kString},        {"HUGEINT", TypeId::kInt128},
    {"INT128", TypeId::kInt128},        {"BOOLEAN", TypeId::kBool},
    {"BOOL", TypeId::kBool},            {"LOGICAL", TypeId::kBool},
    {"TIME", TypeId::kTime},            {"INTERVAL", TypeId::kInterval},
};

}  // namespace

const char* TypeName(TypeId type) {
  if (IsList(type)) return ListName(type, false);
  if (!IsDecimal(type)) return InfoFor(type).name;
  return DecimalNames::Get().name[DecimalNames::Index(DecimalPrecision(type), DecimalScale(type))].c_str();
}
const char* DuckDbTypeName(TypeId type) {
  if (IsList(type)) return ListName(type, true);
  if (!IsDecimal(type)) return InfoFor(type).duckdb;
  return DecimalNames::Get().duckdb[DecimalNames::Index(DecimalPrecision(type), DecimalScale(type))].c_str();
}
const char* ArrowFormat(TypeId type) {
  if (IsList(type)) return "+l";
  if (!IsDecimal(type)) return InfoFor(type).arrow;
  return DecimalNames::Get().arrow[DecimalNames::Index(DecimalPrecision(type), DecimalScale(type))].c_str();
}

bool IsValidTypeId(uint64_t id) {
  if (id < static_cast<uint64_t>(kNumTypeIds)) return true;
  if (id <= 0xffff && (id & kListTag) != 0) {
    const uint64_t element = id & ~uint64_t{kListTag};
    return IsValidTypeId(element) && IsFixedWidth(static_cast<TypeId>(element));
  }
  if (id > 0xffff || (id & ~uint64_t{kDecimalTag | 0x3f00 | 0xff}) != 0 || (id & kDecimalTag) == 0) return false;
  const TypeId type = static_cast<TypeId>(id);
  const int p = DecimalPrecision(type), s = DecimalScale(type);
  return p >= 1 && p <= kMaxDecimalPrecision && s <= p;
}

bool TypeFromName(std::string_view name, TypeId* type) {
  if (name.size() > 2 && name.substr(name.size() - 2) == "[]") {
    TypeId element;
    if (!TypeFromName(name.substr(0, name.size() - 2), &element) || !IsFixedWidth(element)) return false;
    *type = ListType(element);
    return true;
  }
  if (name.size() > 7 && EqualsIgnoreCase(name.substr(0, 7), "decimal")) {
    std::string compact;  // "decimal(p,s)" as TypeName writes it
    for (char c : name.substr(7)) if (c != ' ') compact += c;
    return !compact.empty() && ParseDecimalWidth(compact, type);
  }
  for (const TypeInfo& info : kTypes) {
    if (EqualsIgnoreCase(name, info.name)) {
      *type = info.id;
      return true;
    }
  }
  return false;
}

bool TypeFromSqlName(std::string_view name, TypeId* type) {
  name = TrimSpaces(name);
  // "VARCHAR(255)", "CHAR(2)": the length is a constraint DuckDB does not enforce either.
  const size_t paren = name.find('(');
  std::string_view args;
  if (paren != std::string_view::npos) {
    if (name.back() != ')') return false;
    args = name.substr(paren);
    name = TrimSpaces(name.substr(0, paren));
  }
  if (EqualsIgnoreCase(name, "DECIMAL") || EqualsIgnoreCase(name, "NUMERIC") || EqualsIgnoreCase(name, "DEC")) {
    return ParseDecimalWidth(args, type);
  }
  for (const SqlAlias& alias : kSqlAliases) {
    if (EqualsIgnoreCase(name, alias.name)) {
      *type = alias.type;
      return true;
    }
  }
  return false;
}

size_t TypeByteWidth(TypeId type) { return InfoFor(type).width; }
size_t OffsetByteWidth(TypeId type) { return InfoFor(type).offset_width; }

bool IsSignedInteger(TypeId type) {
  return (type >= TypeId::kInt8 && type <= TypeId::kInt64) || type == TypeId::kInt128;
}
bool IsUnsignedInteger(TypeId type) {
  return type >= TypeId::kUInt8 && type <= TypeId::kUInt64;
}
bool IsInteger(TypeId type) { return IsSignedInteger(type) || IsUnsignedInteger(type); }
bool IsFloat(TypeId type) { return type == TypeId::kFloat32 || type == TypeId::kFloat64; }
bool IsTemporal(TypeId type) {
  return type == TypeId::kDate32 || type == TypeId::kTimestampSeconds ||
         type == TypeId::kTimestampMicros;
}
bool IsString(TypeId type) {
  const TypeId physical = PhysicalType(type);
  return physical == TypeId::kString || physical == TypeId::kLargeString;
}
bool IsBool(TypeId type) { return type == TypeId::kBool; }
bool IsFixedWidth(TypeId type) { return !IsString(type); }
bool IsTime(TypeId type) { return type == TypeId::kTime; }
bool IsInterval(TypeId type) { return type == TypeId::kInterval; }

}  // namespace laneql
