// Short strings as integers, for GROUP BY (optimize/short_string_keys.cc): a string of at most
// W - 1 bytes packed into a W-byte unsigned integer, its bytes in the low bytes and its length
// in the top one (so 'A' and 'A\0' differ), and unpacked again for the groups' keys.
#include <cstring>
#include <string>
#include <vector>

#include "src/exec/expr_eval.h"

namespace laneql {
namespace exec {
namespace {

template <class T>
bool Pack(const plan::BoundExpr& expr, const Vec& strings, size_t count, Vec* out, std::string* error) {
  constexpr size_t kMaxBytes = sizeof(T) - 1;
  T* dst = out->InitFixed<T>(expr.type, count, strings.constant, error);
  if (dst == nullptr) return false;
  // NULL rows hold an empty string: packed as 0, then marked NULL. A value is read as one
  // 8-byte load where 8 bytes from its start lie within the rows' bytes, masked to its length.
  const int32_t* offsets = strings.offsets;
  const uint8_t* bytes = strings.values;
  const size_t rows = out->stored();
  const int32_t end = offsets[rows];
  for (size_t i = 0; i < rows; ++i) {
    const int32_t start = offsets[i];
    const size_t size = static_cast<size_t>(offsets[i + 1] - start);
    if (size > kMaxBytes) {
      *error = "internal error: a string of " + std::to_string(size) + " bytes packed into " +
               std::to_string(sizeof(T)) + " bytes";
      return false;
    }
    uint64_t word = 0;
    if (start + 8 <= end) {
      std::memcpy(&word, bytes + start, 8);  // little-endian hosts and wasm: byte j at bits 8j
      word &= (uint64_t{1} << (8 * size)) - 1;
    } else {
      std::memcpy(&word, bytes + start, size);
    }
    dst[i] = static_cast<T>(word | (static_cast<uint64_t>(size) << (8 * kMaxBytes)));
  }
  if (strings.validity == nullptr) return true;
  uint64_t* bits = out->InitValidity(error);
  if (bits == nullptr) return false;
  for (size_t i = 0; i < out->stored(); ++i) {
    if (strings.IsNull(i)) bits[i / 64] &= ~(uint64_t{1} << (i % 64));
  }
  return true;
}

template <class T>
bool Unpack(const Vec& words, size_t count, Vec* out, std::string* error) {
  constexpr size_t kMaxBytes = sizeof(T) - 1;
  StringVecBuilder builder;
  if (!builder.Init(count, words.constant, error)) return false;
  for (size_t i = 0; i < (words.constant ? 1 : count); ++i) {
    if (words.IsNull(i)) {
      builder.AppendNull();
      continue;
    }
    const uint64_t word = words.Get<T>(i);
    const size_t size = static_cast<size_t>(word >> (8 * kMaxBytes));
    char bytes[8];
    std::memcpy(bytes, &word, sizeof(word));
    if (!builder.Append(std::string_view(bytes, size < kMaxBytes ? size : kMaxBytes), error)) return false;
  }
  return builder.Finish(out, error);
}

}  // namespace

bool EvalShortStringKey(const plan::BoundExpr& expr, std::vector<Vec>& args, size_t count, Vec* out,
                        std::string* error) {
  out->count = count;
  const bool pack = expr.scalar == plan::ScalarFn::kPackShortString;
  const TypeId word_type = pack ? expr.type : args[0].type;
  switch (word_type) {
    case TypeId::kUInt16:
      return pack ? Pack<uint16_t>(expr, args[0], count, out, error) : Unpack<uint16_t>(args[0], count, out, error);
    case TypeId::kUInt32:
      return pack ? Pack<uint32_t>(expr, args[0], count, out, error) : Unpack<uint32_t>(args[0], count, out, error);
    case TypeId::kUInt64:
      return pack ? Pack<uint64_t>(expr, args[0], count, out, error) : Unpack<uint64_t>(args[0], count, out, error);
    default:
      *error = "internal error: a short string key of another type";
      return false;
  }
}

}  // namespace exec
}  // namespace laneql
