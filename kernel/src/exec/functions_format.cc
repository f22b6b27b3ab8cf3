// format(fmt, ...) in the {} syntax of the fmt library and printf(fmt, ...) in C's, as DuckDB
// has them: a value of each argument's kind (integer, float, string, boolean) formatted by a
// spec whose type letter must suit that kind ("Invalid type specifier ..." otherwise). Dates
// and other values arrive as their text (the binder casts them to VARCHAR).
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "laneql/int128.h"
#include "laneql/result.h"
#include "src/common/decimal.h"
#include "src/exec/expr_eval.h"
#include "src/exec/functions_common.h"

namespace laneql {
namespace exec {
namespace {

struct Arg {
  enum Kind { kInt, kFloat, kString, kBool } kind = kInt;
  Int128 integer = 0;
  double real = 0;
  std::string_view text;
};

const char* KindName(Arg::Kind kind) {
  switch (kind) {
    case Arg::kInt: return "int";
    case Arg::kFloat: return "float";
    case Arg::kString: return "string";
    default: return "bool";
  }
}

Arg ReadArg(const Vec& v, size_t i) {
  Arg a;
  if (IsString(v.type)) {
    a.kind = Arg::kString;
    a.text = v.Str(i);
  } else if (v.type == TypeId::kBool) {
    a.kind = Arg::kBool;
    a.integer = v.Get<uint8_t>(i) != 0;
  } else if (IsDecimal(v.type)) {  // formatted as its DOUBLE, as DuckDB does
    a.kind = Arg::kFloat;
    a.real = decimal::ToDouble(v.Get<Int128>(i), DecimalScale(v.type));
  } else {
    VisitFixed(v.type, [&](auto tag) {
      using T = decltype(tag);
      if constexpr (std::is_floating_point_v<T>) {
        a.kind = Arg::kFloat;
        a.real = static_cast<double>(v.Get<T>(i));
      } else {
        a.integer = static_cast<Int128>(v.Get<T>(i));
      }
    });
  }
  return a;
}

// One spec: [[fill]align][sign][#][0][width][,|_][.precision][type].
struct Spec {
  char fill = ' ', align = 0, sign = '-', type = 0, group = 0;
  bool alternate = false, zero = false;
  int width = 0, precision = -1;
};

std::string Digits(Int128 magnitude, int base, bool upper) {
  if (magnitude == 0) return "0";
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  for (; magnitude != 0; magnitude /= base) out.insert(out.begin(), digits[static_cast<int>(magnitude % base)]);
  return out;
}

void Group(std::string* number, char separator) {
  // Separators every three digits of the integral part (the digits before any '.' or 'e').
  const size_t end = number->find_first_of(".eE");
  const size_t stop = end == std::string::npos ? number->size() : end;
  for (size_t p = stop; p > 3; p -= 3) number->insert(p - 3, 1, separator);
}

// Code points (the width fmt and printf count) of UTF-8 text.
size_t CodePoints(std::string_view s) {
  size_t n = 0;
  for (char c : s) n += (static_cast<uint8_t>(c) & 0xC0) != 0x80;
  return n;
}

// The first `count` code points of s.
std::string_view PrefixCodePoints(std::string_view s, size_t count) {
  size_t p = 0;
  for (size_t seen = 0; p < s.size(); ++p) {
    if ((static_cast<uint8_t>(s[p]) & 0xC0) != 0x80 && seen++ == count) break;
  }
  return s.substr(0, p);
}

void Pad(const Spec& spec, const std::string& sign, std::string body, char default_align, std::string* out) {
  const int length = static_cast<int>(CodePoints(sign) + CodePoints(body));
  if (spec.width <= length) {
    *out += sign + body;
    return;
  }
  const size_t missing = static_cast<size_t>(spec.width - length);
  if (spec.zero && spec.align == 0) {
    *out += sign + std::string(missing, '0') + body;
    return;
  }
  const char align = spec.align != 0 ? spec.align : default_align;
  if (align == '=') {
    *out += sign + std::string(missing, spec.fill) + body;
  } else if (align == '<') {
    *out += sign + body + std::string(missing, spec.fill);
  } else if (align == '^') {
    *out += std::string(missing / 2, spec.fill) + sign + body + std::string(missing - missing / 2, spec.fill);
  } else {
    *out += std::string(missing, spec.fill) + sign + body;
  }
}

bool TypeError(char type, Arg::Kind kind, std::string* error) {
  *error = std::string("Invalid type specifier \"") + type + "\" for formatting a value of type " + KindName(kind);
  return false;
}

// Appends `a` formatted by `spec`; `c_style`: printf's rules (an unsigned %x of a negative).
bool FormatOne(const Arg& a, const Spec& spec, bool c_style, std::string* out, std::string* error) {
  const char type = spec.type;
  switch (a.kind) {
    case Arg::kString:
    case Arg::kBool: {
      if (a.kind == Arg::kBool && (type == 'd' || type == 'i' || type == 'u')) {
        Pad(spec, "", a.integer != 0 ? "1" : "0", '>', out);
        return true;
      }
      if (type != 0 && type != 's') return TypeError(type, a.kind, error);
      std::string text(a.kind == Arg::kBool ? (a.integer != 0 ? "true" : "false") : a.text);
      if (spec.precision >= 0) text = std::string(PrefixCodePoints(text, static_cast<size_t>(spec.precision)));
      Pad(spec, "", text, '<', out);
      return true;
    }
    case Arg::kInt: {
      int base = 10;
      bool upper = false;
      std::string prefix;
      switch (type) {
        case 0: case 'd': case 'i': case 'u': break;
        case 'x': case 'X': base = 16; upper = type == 'X'; prefix = upper ? "0X" : "0x"; break;
        case 'o': base = 8; prefix = "0"; break;
        case 'b': case 'B': base = 2; prefix = type == 'B' ? "0B" : "0b"; break;
        default: return TypeError(type, a.kind, error);
      }
      Int128 value = a.integer;
      if (c_style && base != 10 && value < 0) value += static_cast<Int128>(1) << 64;  // printf: as unsigned 64-bit
      const bool negative = value < 0;
      std::string body = Digits(negative ? -value : value, base, upper);
      if (spec.group != 0) Group(&body, spec.group);
      if (spec.alternate && base != 10 && !(base == 8 && body == "0")) body = prefix + body;
      const std::string sign = negative ? "-" : spec.sign == '+' ? "+" : spec.sign == ' ' ? " " : "";
      Pad(spec, sign, body, '>', out);
      return true;
    }
    case Arg::kFloat: {
      if (type != 0 && std::string_view("fFeEgG").find(type) == std::string_view::npos) {
        return TypeError(type, a.kind, error);
      }
      const double v = a.real;
      const bool negative = std::signbit(v) && !std::isnan(v);
      std::string body;
      if (std::isnan(v) || std::isinf(v)) {
        body = std::isnan(v) ? "nan" : "inf";
        if (type == 'F' || type == 'E' || type == 'G') body = std::isnan(v) ? "NAN" : "INF";
      } else if (type == 0 && spec.precision < 0) {
        AppendDouble(std::fabs(v), &body);  // the shortest text that reads back, as CAST gives it
      } else {
        const int precision = spec.precision >= 0 ? spec.precision : 6;
        const char conversion = type == 0 ? 'g' : type;
        char format[16];
        std::snprintf(format, sizeof format, "%%%s.%d%c", spec.alternate ? "#" : "", precision, conversion);
        char buffer[400];
        std::snprintf(buffer, sizeof buffer, format, std::fabs(v));
        body = buffer;
      }
      if (spec.group != 0) Group(&body, spec.group);
      const std::string sign = negative ? "-" : spec.sign == '+' ? "+" : spec.sign == ' ' ? " " : "";
      Pad(spec, sign, body, '>', out);
      return true;
    }
  }
  return true;
}

int ReadNumber(std::string_view f, size_t* p) {
  int n = 0;
  while (*p < f.size() && f[*p] >= '0' && f[*p] <= '9' && n < 100000) n = n * 10 + (f[(*p)++] - '0');
  return n;
}

bool IsAlign(char c) { return c == '<' || c == '>' || c == '^' || c == '='; }

// format(): "{}", "{0}", "{:spec}", "{{" and "}}".
bool FormatBraces(std::string_view f, const std::vector<Arg>& args, std::string* out, std::string* error) {
  size_t next = 0;
  bool automatic = false, manual = false;
  for (size_t p = 0; p < f.size();) {
    const char c = f[p];
    if (c == '}') {
      if (p + 1 < f.size() && f[p + 1] == '}') {
        out->push_back('}');
        p += 2;
        continue;
      }
      *error = "unmatched '}' in format string";
      return false;
    }
    if (c != '{') {
      out->push_back(c);
      ++p;
      continue;
    }
    if (p + 1 < f.size() && f[p + 1] == '{') {
      out->push_back('{');
      p += 2;
      continue;
    }
    ++p;
    size_t index;
    if (p < f.size() && f[p] >= '0' && f[p] <= '9') {
      index = static_cast<size_t>(ReadNumber(f, &p));
      manual = true;
    } else {
      index = next++;
      automatic = true;
    }
    if (automatic && manual) {
      *error = "cannot switch from automatic to manual argument indexing";
      return false;
    }
    Spec spec;
    if (p < f.size() && f[p] == ':') {
      ++p;
      if (p + 1 < f.size() && IsAlign(f[p + 1]) && f[p] != '{' && f[p] != '}') {
        spec.fill = f[p];
        spec.align = f[p + 1];
        p += 2;
      } else if (p < f.size() && IsAlign(f[p])) {
        spec.align = f[p++];
      }
      if (p < f.size() && (f[p] == '+' || f[p] == '-' || f[p] == ' ')) spec.sign = f[p++];
      if (p < f.size() && f[p] == '#') spec.alternate = true, ++p;
      if (p < f.size() && f[p] == '0') spec.zero = true, ++p;
      spec.width = ReadNumber(f, &p);
      if (p < f.size() && (f[p] == ',' || f[p] == '_')) spec.group = f[p++];
      if (p < f.size() && f[p] == '.') {
        ++p;
        spec.precision = ReadNumber(f, &p);
      }
      if (p < f.size() && f[p] != '}') spec.type = f[p++];
    }
    if (p >= f.size() || f[p] != '}') {
      *error = "invalid format string";
      return false;
    }
    ++p;
    if (index >= args.size()) {
      *error = "Argument index \"" + std::to_string(index) + "\" out of range";
      return false;
    }
    if (!FormatOne(args[index], spec, false, out, error)) return false;
  }
  return true;
}

// printf(): %[flags][width][.precision][length]type and %%.
bool FormatPercent(std::string_view f, const std::vector<Arg>& args, std::string* out, std::string* error) {
  size_t next = 0;
  for (size_t p = 0; p < f.size();) {
    if (f[p] != '%') {
      out->push_back(f[p++]);
      continue;
    }
    ++p;
    if (p < f.size() && f[p] == '%') {
      out->push_back('%');
      ++p;
      continue;
    }
    Spec spec;
    for (; p < f.size() && std::string_view("-+ #0").find(f[p]) != std::string_view::npos; ++p) {
      if (f[p] == '-') spec.align = '<';
      else if (f[p] == '+' || f[p] == ' ') spec.sign = spec.sign == '+' ? '+' : f[p];
      else if (f[p] == '#') spec.alternate = true;
      else spec.zero = true;
    }
    if (spec.align == '<') spec.zero = false;
    else spec.align = spec.zero ? 0 : '>';  // C right-justifies everything, strings too
    spec.width = ReadNumber(f, &p);
    if (p < f.size() && f[p] == '.') {
      ++p;
      spec.precision = ReadNumber(f, &p);
    }
    while (p < f.size() && (f[p] == 'l' || f[p] == 'h' || f[p] == 'z' || f[p] == 'j' || f[p] == 't')) ++p;
    if (p >= f.size()) {
      *error = "invalid format string";
      return false;
    }
    spec.type = f[p++];
    if (next >= args.size()) {
      *error = "Argument index \"" + std::to_string(next) + "\" out of range";
      return false;
    }
    if (!FormatOne(args[next++], spec, true, out, error)) return false;
  }
  return true;
}

}  // namespace

bool EvalFormatFunction(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                        std::string* error) {
  const bool braces = expr.scalar == plan::ScalarFn::kFormat;
  StringVecBuilder builder;
  if (!builder.Init(count, AllConstant(args), error)) return false;
  const size_t rows = AllConstant(args) ? 1 : count;
  std::vector<Arg> values(args.size() - 1);
  std::string text, message;
  for (size_t i = 0; i < rows; ++i) {
    if (AnyNull(args, i)) {
      builder.AppendNull();
      continue;
    }
    for (size_t k = 1; k < args.size(); ++k) values[k - 1] = ReadArg(args[k], i);
    text.clear();
    const std::string_view format = args[0].Str(i);
    if (!(braces ? FormatBraces(format, values, &text, &message) : FormatPercent(format, values, &text, &message))) {
      *error = ErrorAt(expr, "invalid input", message);
      return false;
    }
    if (!builder.Append(text, error)) return false;
  }
  if (!builder.Finish(out, error)) return false;
  out->count = count;
  return true;
}

}  // namespace exec
}  // namespace laneql
