// Hashing, NULL masks and exact comparison of join keys (hash_join_keys.h).
#include "src/exec/hash_join_keys.h"

#include "laneql/bitmask.h"
#include "laneql/hash.h"
#include "src/exec/hash_join.h"
#include "src/storage/integer_values.h"

namespace laneql {
namespace exec {
namespace {

// Bytes to point at for a string column that never allocated its byte buffer (every row empty):
// the kernels then read no byte, but must not be handed a null base.
const uint8_t kNoBytes[64] = {};

const uint8_t* StringBytes(const Column& column) {
  return column.StringData() != nullptr ? column.StringData() : kNoBytes;
}

// The hash kernel type of a fixed-width key, by how its values are read: dates and timestamps
// are integers, bool is a byte 0 or 1. False for int128 and the strings (hashed below).
bool KernelType(TypeId type, HashKeyType* out) {
  switch (type) {
    case TypeId::kInt8: *out = HashKeyType::kInt8; return true;
    case TypeId::kInt16: *out = HashKeyType::kInt16; return true;
    case TypeId::kInt32:
    case TypeId::kDate32: *out = HashKeyType::kInt32; return true;
    case TypeId::kInt64:
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros: *out = HashKeyType::kInt64; return true;
    case TypeId::kUInt8:
    case TypeId::kBool: *out = HashKeyType::kUInt8; return true;
    case TypeId::kUInt16: *out = HashKeyType::kUInt16; return true;
    case TypeId::kUInt32: *out = HashKeyType::kUInt32; return true;
    case TypeId::kUInt64: *out = HashKeyType::kUInt64; return true;
    case TypeId::kFloat32: *out = HashKeyType::kFloat32; return true;
    case TypeId::kFloat64: *out = HashKeyType::kFloat64; return true;
    default: return false;
  }
}

// Folds one 64-bit word per row into the hashes the way the kernels do (the first column
// starts from Mix(word), each later one combines), for the types without a kernel.
inline uint64_t Fold(bool first, uint64_t hash, uint64_t word) {
  return first ? reference::HashWord(word) : reference::CombineWord(hash, word);
}

}  // namespace

KeyCompare KeyCompareOf(TypeId type) {
  switch (type) {
    case TypeId::kFloat32: return KeyCompare::kFloat32;
    case TypeId::kFloat64: return KeyCompare::kFloat64;
    case TypeId::kString: return KeyCompare::kString32;
    case TypeId::kLargeString: return KeyCompare::kString64;
    default: break;
  }
  switch (TypeByteWidth(type)) {
    case 1: return KeyCompare::kBits1;
    case 2: return KeyCompare::kBits2;
    case 4: return KeyCompare::kBits4;
    case 8: return KeyCompare::kBits8;
    default: return KeyCompare::kBits16;
  }
}

bool CheckJoinKeys(const std::vector<const Column*>& build, const std::vector<const Column*>& probe,
                   size_t* build_rows, size_t* probe_rows, std::string* error) {
  if (build.empty() || build.size() != probe.size()) {
    *error = "hash join: " + std::to_string(build.size()) + " build and " + std::to_string(probe.size()) +
             " probe key columns (need the same number, at least one)";
    return false;
  }
  for (size_t k = 0; k < build.size(); ++k) {
    if (build[k] == nullptr || probe[k] == nullptr) {
      *error = "hash join: key column " + std::to_string(k) + " is missing";
      return false;
    }
    // A string key may have either offset width on either side (a large_string column probed
    // by a short list of strings): the same words hash both.
    const bool strings = (build[k]->type() == TypeId::kString || build[k]->type() == TypeId::kLargeString) &&
                         (probe[k]->type() == TypeId::kString || probe[k]->type() == TypeId::kLargeString);
    if (build[k]->type() != probe[k]->type() && !strings) {
      *error = std::string("hash join: key ") + std::to_string(k) + " is " + TypeName(build[k]->type()) +
               " on the build side and " + TypeName(probe[k]->type()) + " on the probe side";
      return false;
    }
    if (build[k]->length() != build[0]->length() || probe[k]->length() != probe[0]->length()) {
      *error = "hash join: the key columns of one side differ in length";
      return false;
    }
  }
  *build_rows = build[0]->length();
  *probe_rows = probe[0]->length();
  if (*build_rows > kMaxJoinRows || *probe_rows > kMaxJoinRows) {
    *error = "hash join: a side has more than " + std::to_string(kMaxJoinRows) + " rows";
    return false;
  }
  return true;
}

void JoinKeys::Hash(size_t begin, size_t n, uint64_t* hashes) const {
  if (offsets_) {
    const uint64_t min = static_cast<uint64_t>(min_);
    WithIntegerValues(*columns_[0], [&](const auto* values) {
      for (size_t i = 0; i < n; ++i) {
        hashes[i] = static_cast<uint64_t>(static_cast<int64_t>(values[begin + i])) - min;
      }
    });
    return;
  }
  for (size_t k = 0; k < columns_.size(); ++k) {
    const Column& column = *columns_[k];
    const bool first = k == 0;
    HashKeyType kernel_type;
    // NULL rows are hashed as whatever their slots hold (no validity passed): they are skipped
    // by ValidRows before any lookup, so their hash never matters.
    if (KernelType(column.type(), &kernel_type)) {
      const uint8_t* values = column.values_buffer().data() + begin * TypeByteWidth(column.type());
      if (first) {
        HashKeys(kernel_type, values, n, nullptr, hashes);
      } else {
        HashCombineKeys(kernel_type, values, n, nullptr, hashes);
      }
    } else if (column.type() == TypeId::kString) {
      if (first) {
        HashStrings(column.Offsets32() + begin, StringBytes(column), n, nullptr, hashes);
      } else {
        HashCombineStrings(column.Offsets32() + begin, StringBytes(column), n, nullptr, hashes);
      }
    } else if (column.type() == TypeId::kLargeString) {
      // No kernel takes int64 offsets: the same string words, a row at a time.
      const int64_t* offsets = column.Offsets64();
      const uint8_t* bytes = StringBytes(column);
      for (size_t i = 0; i < n; ++i) {
        const int64_t from = offsets[begin + i], to = offsets[begin + i + 1];
        const uint64_t word = reference::StringWord(bytes + from, static_cast<size_t>(to - from));
        hashes[i] = Fold(first, hashes[i], word);
      }
    } else {
      // int128: its two 64-bit halves, as two integer words.
      const uint8_t* values = column.values_buffer().data() + begin * 16;
      for (size_t i = 0; i < n; ++i) {
        uint64_t low, high;
        std::memcpy(&low, values + i * 16, 8);
        std::memcpy(&high, values + i * 16 + 8, 8);
        hashes[i] = reference::CombineWord(Fold(first, hashes[i], low + kHashGamma), high + kHashGamma);
      }
    }
  }
}

void JoinKeys::ValidRows(size_t begin, size_t n, uint64_t* valid) const {
  const size_t words = BitmaskWords(n);
  for (size_t w = 0; w < words; ++w) valid[w] = ~uint64_t{0};
  for (const Column* column : columns_) {
    const uint64_t* validity = column->validity();
    if (validity == nullptr) continue;
    for (size_t w = 0; w < words; ++w) valid[w] &= validity[begin / 64 + w];
  }
  if (words != 0) valid[words - 1] &= BitmaskTailMask(n);
}

bool JoinKeys::HasValidity() const {
  for (const Column* column : columns_) {
    if (column->validity() != nullptr) return true;
  }
  return false;
}

KeyMatcher::KeyMatcher(const std::vector<const Column*>& build, const std::vector<const Column*>& probe) {
  for (size_t k = 0; k < build.size(); ++k) {
    const Column& b = *build[k];
    const Column& p = *probe[k];
    Pair pair{KeyCompareOf(b.type()), b.values_buffer().data(), p.values_buffer().data(), nullptr, nullptr};
    const bool build_large = b.type() == TypeId::kLargeString, probe_large = p.type() == TypeId::kLargeString;
    if (b.type() == TypeId::kString || build_large) {
      pair.build_offsets = build_large ? static_cast<const void*>(b.Offsets64()) : b.Offsets32();
      pair.probe_offsets = probe_large ? static_cast<const void*>(p.Offsets64()) : p.Offsets32();
      pair.compare = build_large == probe_large ? KeyCompareOf(b.type())
                     : build_large              ? KeyCompare::kString64x32
                                                : KeyCompare::kString32x64;
    }
    pairs_.push_back(pair);
  }
}

}  // namespace exec
}  // namespace laneql
