// CASE over its evaluated WHENs and results (every one over every row): each row takes the
// result of the first WHEN that is TRUE (a NULL WHEN is not), else the ELSE. Selected as whole
// arrays rather than row by row through a branch index: the ELSE first, then each branch from
// the last to the first written over the rows its WHEN takes, so that the first taking WHEN
// wins. The rows a WHEN takes come from the SIMD compare kernel as a bitmask; results are
// selected through that mask spread to one byte a row (a loop the compiler vectorises), NULLs
// word by word from the same masks. Row by row, CASE WHEN d > 0 THEN i ELSE -i END (i has NULLs)
// and nullif(g2, 0) spent most of their time in the index and the per-row NULL tests, and a
// CASE with string results in appending row by row.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/bitmask.h"
#include "laneql/predicate.h"
#include "src/exec/expr_eval.h"
#include "src/exec/functions_common.h"
#include "src/exec/string_chunks.h"

namespace laneql {
namespace exec {

using plan::BoundExpr;

namespace {

// 8 bits -> 8 bytes of 0 or 1, byte j for bit j (in memory order, whatever the byte order).
struct BitsToBytesTable {
  uint8_t bytes[256][8];
  constexpr BitsToBytesTable() : bytes() {
    for (int b = 0; b < 256; ++b) {
      for (int j = 0; j < 8; ++j) bytes[b][j] = static_cast<uint8_t>((b >> j) & 1);
    }
  }
};
constexpr BitsToBytesTable kBitsToBytes;

// bytes[i] = bit i of bits, for i < rows rounded up to 8 (bytes has room for that many).
void SpreadBits(const uint64_t* bits, size_t rows, uint8_t* bytes) {
  for (size_t k = 0; k < (rows + 7) / 8; ++k) {
    const unsigned byte = static_cast<unsigned>((bits[k / 8] >> (8 * (k % 8))) & 0xFF);
    std::memcpy(bytes + 8 * k, kBitsToBytes.bytes[byte], 8);
  }
}

// Validity word w of a Vec: all valid without a bitmap, a constant's one bit for every row.
uint64_t ValidWord(const Vec& v, size_t w) {
  if (v.validity == nullptr) return ~uint64_t{0};
  if (v.constant) return v.IsNull(0) ? 0 : ~uint64_t{0};
  return v.validity[w];
}

// The unsigned integer of a width, read and written in place of any type of that width.
template <size_t kBytes> struct BitsOf;
template <> struct BitsOf<1> { typedef uint8_t __attribute__((may_alias)) type; };
template <> struct BitsOf<2> { typedef uint16_t __attribute__((may_alias)) type; };
template <> struct BitsOf<4> { typedef uint32_t __attribute__((may_alias)) type; };
template <> struct BitsOf<8> { typedef uint64_t __attribute__((may_alias)) type; };

// dst[i] = from[i] where take[i] (0 or 1), for rows [0, rows); a constant (from[0] for every
// row) hoisted. Up to 8 bytes as an and-or of the bits with a mask made from take[i], which the
// compiler vectorises: the plain ?: read from[i] only on the rows taken, which kept it a
// branch a row (most of CASE WHEN d > 0 THEN i ELSE -i END).
template <class T>
void SelectRows(const T* from_rows, bool constant, const uint8_t* take_bytes, size_t rows, T* out) {
  const uint8_t* __restrict take = take_bytes;
  if constexpr (sizeof(T) <= 8) {
    using U = typename BitsOf<sizeof(T)>::type;
    U* __restrict dst = reinterpret_cast<U*>(out);
    const U* __restrict from = reinterpret_cast<const U*>(from_rows);
    if (constant) {
      const U c = from[0];
      for (size_t i = 0; i < rows; ++i) {
        const U mask = static_cast<U>(U(0) - static_cast<U>(take[i]));
        dst[i] = static_cast<U>((c & mask) | (dst[i] & static_cast<U>(~mask)));
      }
      return;
    }
    for (size_t i = 0; i < rows; ++i) {
      const U mask = static_cast<U>(U(0) - static_cast<U>(take[i]));
      dst[i] = static_cast<U>((from[i] & mask) | (dst[i] & static_cast<U>(~mask)));
    }
  } else {
    T* __restrict dst = out;
    for (size_t i = 0; i < rows; ++i) {
      if (take[i] != 0) dst[i] = from_rows[constant ? 0 : i];
    }
  }
}

// A result's rows as T; a NULL constant (which may be of another type) as T{}.
template <class T>
const T* RowsOf(const Vec& v, const T* zero) {
  return v.constant && v.IsNull(0) ? zero : v.Data<T>();
}

template <class T>
void FillRows(const Vec& src, size_t rows, T* dst) {
  if (src.constant) {
    const T zero{};
    std::fill(dst, dst + rows, *RowsOf<T>(src, &zero));
  } else if (rows != 0) {  // no rows: src.values may be null, which memcpy must not see
    std::memcpy(static_cast<void*>(dst), src.values, rows * sizeof(T));
  }
}

// The rows of string results picked by pick[i] (an index into args), NULL where `valid` (when
// not null) says so, built in two passes: offsets, then the bytes in one allocation. A constant
// result of up to 16 bytes (the usual CASE label) is copied as 16 bytes from a padded copy
// where the bytes after the row's are still to be written: a libc memcpy call for a few bytes
// a row cost more than the rest of the CASE.
bool BuildStrings(const std::vector<Vec>& args, const uint32_t* pick, const uint64_t* valid, size_t rows,
                  Vec* out, std::string* error) {
  constexpr size_t kPad = 16;
  struct Source {
    int64_t constant_size = -1;  // a constant's length, else -1
    uint8_t padded[kPad] = {};   // a constant of up to kPad bytes, zero-padded
  };
  std::vector<Source> sources(args.size());
  for (size_t k = 0; k < args.size(); ++k) {
    const Vec& v = args[k];
    if (!IsString(v.type) || !v.constant) continue;
    const std::string_view text = v.IsNull(0) ? std::string_view() : v.Str(0);
    sources[k].constant_size = static_cast<int64_t>(text.size());
    // An empty or NULL constant's data() may be null, which memcpy must not see.
    if (!text.empty() && text.size() <= kPad) std::memcpy(sources[k].padded, text.data(), text.size());
  }
  if (!out->own_offsets.ResizeForOverwrite((rows + 1) * sizeof(int32_t), error)) return false;
  int32_t* offsets = out->own_offsets.As<int32_t>();
  offsets[0] = 0;
  uint64_t total = 0;
  for (size_t i = 0; i < rows; ++i) {
    const uint32_t k = pick[i];
    if (valid == nullptr || BitmaskGet(valid, i)) {
      const int64_t size = sources[k].constant_size;
      total += size >= 0 ? static_cast<uint64_t>(size) : args[k].Str(i).size();
    }
    if (total > static_cast<uint64_t>(INT32_MAX)) {
      if (error != nullptr) *error = kStringBatchTooLarge;
      return false;
    }
    offsets[i + 1] = static_cast<int32_t>(total);
  }
  if (!out->own_values.ResizeForOverwrite(static_cast<size_t>(total), error)) return false;
  uint8_t* bytes = out->own_values.data();
  for (size_t i = 0; i < rows;) {
    const size_t at = static_cast<size_t>(offsets[i]);
    const size_t length = static_cast<size_t>(offsets[i + 1]) - at;
    const Source& source = sources[pick[i]];
    if (source.constant_size < 0) {
      // A run of rows taken from one column whose lengths are the column's (not made NULL):
      // their bytes lie together there too, so one copy takes them all (a copy a row, 25
      // bytes each, was a fifth of ifnull(s, '')).
      // A row made NULL (no bytes here, some there) is a run of its own that copies nothing.
      const Vec& from = args[pick[i]];
      const auto same_length = [&](size_t r) { return offsets[r + 1] - offsets[r] == from.offsets[r + 1] - from.offsets[r]; };
      size_t end = i + 1;
      if (same_length(i)) {
        while (end < rows && pick[end] == pick[i] && same_length(end)) ++end;
        const size_t run = static_cast<size_t>(offsets[end]) - at;
        if (run != 0) std::memcpy(bytes + at, from.values + from.offsets[i], run);
      }
      i = end;
      continue;
    }
    if (length != 0) {
      if (length <= kPad && at + kPad <= total) {
        std::memcpy(bytes + at, source.padded, kPad);  // later rows overwrite the padding
      } else {
        std::memcpy(bytes + at, args[pick[i]].Str(i).data(), length);
      }
    }
    ++i;
  }
  static const uint8_t kEmpty[64] = {};
  out->offsets = offsets;
  out->values = bytes != nullptr ? bytes : kEmpty;
  out->ascii = false;  // built bytes: not looked at
  return true;
}

}  // namespace

bool EvalCaseSelect(const BoundExpr& expr, const std::vector<Vec>& args, size_t count, Vec* out,
                    std::string* error) {
  const bool all_constant = AllConstant(args);
  const size_t rows = all_constant ? 1 : count;
  const size_t branches = (args.size() - 1) / 2;  // args: when0, then0, ..., else
  const size_t words = BitmaskWords(rows);
  // The rows each WHEN holds TRUE on (a constant WHEN: all or none).
  std::vector<uint64_t> taken(branches * words + 1);
  for (size_t b = 0; b < branches; ++b) {
    const Vec& when = args[2 * b];
    uint64_t* bits = taken.data() + b * words;
    if (when.constant) {
      const bool take = !when.IsNull(0) && when.Get<uint8_t>(0) != 0;
      std::fill(bits, bits + words, take ? ~uint64_t{0} : 0);
    } else {
      CompareToMask(when.Data<uint8_t>(), rows, CompareOp::kNe, uint8_t{0}, when.validity, bits);
    }
    if (words != 0) bits[words - 1] &= BitmaskTailMask(rows);
  }
  // The result's NULLs: the ELSE's, then each branch's over the rows it takes.
  bool nullable = args.back().validity != nullptr;
  for (size_t b = 0; b < branches; ++b) nullable = nullable || args[2 * b + 1].validity != nullptr;
  std::vector<uint64_t> valid;
  if (nullable) {
    valid.resize(words + 1);
    for (size_t w = 0; w < words; ++w) {
      uint64_t v = ValidWord(args.back(), w);
      for (size_t b = branches; b-- > 0;) {
        const uint64_t t = taken[b * words + w];
        v = (t & ValidWord(args[2 * b + 1], w)) | (~t & v);
      }
      valid[w] = v;
    }
    if (words != 0) valid[words - 1] &= BitmaskTailMask(rows);
  }
  std::vector<uint8_t> take(words * 64);
  if (IsString(expr.type)) {
    std::vector<uint32_t> pick(rows, static_cast<uint32_t>(args.size() - 1));
    for (size_t b = branches; b-- > 0;) {
      const uint32_t k = static_cast<uint32_t>(2 * b + 1);  // the branch's result
      SpreadBits(taken.data() + b * words, rows, take.data());
      SelectRows<uint32_t>(&k, true, take.data(), rows, pick.data());
    }
    if (!BuildStrings(args, pick.data(), nullable ? valid.data() : nullptr, rows, out, error)) return false;
    out->type = TypeId::kString;
    out->count = count;
    out->constant = all_constant;
    out->validity = nullptr;
  } else {
    bool ok = true;
    VisitFixed(expr.type, [&](auto tag) {
      using T = decltype(tag);
      T* dst = out->InitFixed<T>(expr.type, count, all_constant, error);
      if (dst == nullptr) {
        ok = false;
        return;
      }
      FillRows<T>(args.back(), rows, dst);
      for (size_t b = branches; b-- > 0;) {
        const uint64_t* bits = taken.data() + b * words;
        bool any = false;
        for (size_t w = 0; w < words && !any; ++w) any = bits[w] != 0;
        if (!any) continue;
        SpreadBits(bits, rows, take.data());
        const Vec& then = args[2 * b + 1];
        const T zero{};
        SelectRows<T>(RowsOf<T>(then, &zero), then.constant, take.data(), rows, dst);
      }
    });
    if (!ok) return false;
  }
  if (nullable) {
    uint64_t* bits = out->InitValidity(error);
    if (bits == nullptr) return false;
    std::copy(valid.begin(), valid.begin() + static_cast<std::ptrdiff_t>(words), bits);
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
