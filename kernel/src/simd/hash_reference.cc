// Scalar references for the hash kernels: plain C++ that spells out laneql/hash.h's definition
// row by row. No Highway and nothing shared with the kernels, so a bug in a kernel cannot hide
// in a common helper.
#include <cmath>
#include <cstring>

#include "laneql/bitmask.h"
#include "laneql/hash.h"

namespace laneql {
namespace reference {
namespace {

// Little-endian loads. memcpy gives the host's byte order; every target laneql builds for
// (x86-64, AArch64, wasm) is little-endian.
uint64_t Load64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
uint64_t Load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

uint64_t RotateRight32(uint64_t x) { return (x >> 32) | (x << 32); }

uint64_t DoubleWord(double x) {
  if (x == 0.0) x = 0.0;  // -0.0 == 0.0: both become +0.0
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  if (std::isnan(x)) bits = kHashCanonicalNaN;
  return bits + kHashGamma;
}

template <class T>
T LoadValue(const void* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

size_t KeySize(HashKeyType type) {
  switch (type) {
    case HashKeyType::kInt8: case HashKeyType::kUInt8: return 1;
    case HashKeyType::kInt16: case HashKeyType::kUInt16: return 2;
    case HashKeyType::kInt32: case HashKeyType::kUInt32: case HashKeyType::kFloat32: return 4;
    default: return 8;
  }
}

bool IsValid(const uint64_t* validity, size_t row) {
  return validity == nullptr || BitmaskGet(validity, row);
}

}  // namespace

uint64_t Mix(uint64_t z) {
  z = (z ^ (z >> kHashMixShift1)) * kHashMix1;
  z = (z ^ (z >> kHashMixShift2)) * kHashMix2;
  return z ^ (z >> kHashMixShift3);
}

uint64_t KeyWord(HashKeyType type, const void* key) {
  // Integers by value: the conversion to int64_t sign-extends, the one to uint64_t
  // zero-extends; both end as the same 64 bits modulo 2^64.
  switch (type) {
    case HashKeyType::kInt8: return static_cast<uint64_t>(int64_t{LoadValue<int8_t>(key)}) + kHashGamma;
    case HashKeyType::kUInt8: return uint64_t{LoadValue<uint8_t>(key)} + kHashGamma;
    case HashKeyType::kInt16: return static_cast<uint64_t>(int64_t{LoadValue<int16_t>(key)}) + kHashGamma;
    case HashKeyType::kUInt16: return uint64_t{LoadValue<uint16_t>(key)} + kHashGamma;
    case HashKeyType::kInt32: return static_cast<uint64_t>(int64_t{LoadValue<int32_t>(key)}) + kHashGamma;
    case HashKeyType::kUInt32: return uint64_t{LoadValue<uint32_t>(key)} + kHashGamma;
    case HashKeyType::kInt64: return static_cast<uint64_t>(LoadValue<int64_t>(key)) + kHashGamma;
    case HashKeyType::kUInt64: return LoadValue<uint64_t>(key) + kHashGamma;
    case HashKeyType::kFloat32: return DoubleWord(static_cast<double>(LoadValue<float>(key)));
    case HashKeyType::kFloat64: return DoubleWord(LoadValue<double>(key));
  }
  return 0;
}

uint64_t StringWord(const uint8_t* p, size_t len) {
  if (len == 0) return kHashEmptyStringWord;
  if (len <= 16) {
    uint64_t a, b = 0;
    if (len >= 8) {
      a = Load64(p);
      b = Load64(p + len - 8);
    } else if (len >= 4) {
      a = Load32(p) | (Load32(p + len - 4) << 32);
    } else {
      a = uint64_t{p[0]} | (uint64_t{p[len / 2]} << 8) | (uint64_t{p[len - 1]} << 16);
    }
    return Mix(a ^ (len * kHashShortKey)) ^ b;
  }
  uint64_t acc[4] = {0, 0, 0, 0};
  const size_t full_stripes = (len - 1) / kHashStripeBytes;
  auto absorb = [&acc](size_t lane, uint64_t stripe, uint64_t w) {
    const uint64_t x = w ^ (kHashStripeKey[lane] + stripe * kHashStripeStep);
    acc[lane] += w + (x & 0xFFFFFFFFu) * (x >> 32);
  };
  for (size_t s = 0; s < full_stripes; ++s) {
    for (size_t lane = 0; lane < 4; ++lane) absorb(lane, s, Load64(p + 32 * s + 8 * lane));
  }
  const size_t f = (len > 32 ? len : 32) - 32;
  absorb(0, full_stripes, Load64(p + f));
  absorb(1, full_stripes, Load64(p + f + 8));
  absorb(2, full_stripes, Load64(p + len - 16));
  absorb(3, full_stripes, Load64(p + len - 8));
  return Mix(acc[0] + RotateRight32(acc[1]) + len) ^ Mix(acc[2] + RotateRight32(acc[3]));
}

void HashKeys(HashKeyType type, const void* keys, size_t n, const uint64_t* validity,
              uint64_t* hashes) {
  const uint8_t* p = static_cast<const uint8_t*>(keys);
  const size_t size = KeySize(type);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t word = IsValid(validity, i) ? KeyWord(type, p + i * size) : kHashNullWord;
    hashes[i] = HashWord(word);
  }
}

void HashCombineKeys(HashKeyType type, const void* keys, size_t n, const uint64_t* validity,
                     uint64_t* hashes) {
  const uint8_t* p = static_cast<const uint8_t*>(keys);
  const size_t size = KeySize(type);
  for (size_t i = 0; i < n; ++i) {
    const uint64_t word = IsValid(validity, i) ? KeyWord(type, p + i * size) : kHashNullWord;
    hashes[i] = CombineWord(hashes[i], word);
  }
}

void HashStrings(const int32_t* offsets, const uint8_t* bytes, size_t n, const uint64_t* validity,
                 uint64_t* hashes) {
  for (size_t i = 0; i < n; ++i) {
    const uint64_t word =
        IsValid(validity, i)
            ? StringWord(bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]))
            : kHashNullWord;
    hashes[i] = HashWord(word);
  }
}

void HashCombineStrings(const int32_t* offsets, const uint8_t* bytes, size_t n,
                        const uint64_t* validity, uint64_t* hashes) {
  for (size_t i = 0; i < n; ++i) {
    const uint64_t word =
        IsValid(validity, i)
            ? StringWord(bytes + offsets[i], static_cast<size_t>(offsets[i + 1] - offsets[i]))
            : kHashNullWord;
    hashes[i] = CombineWord(hashes[i], word);
  }
}

void HashWideRows(const uint64_t* words, size_t stride, size_t n, uint64_t* hashes) {
  for (size_t i = 0; i < n && stride > 0; ++i) {
    const uint64_t* row = words + i * stride;
    uint64_t h = HashWord(row[0] + kHashGamma);
    for (size_t j = 1; j < stride; ++j) h = CombineWord(h, row[j]);
    hashes[i] = h;
  }
}

}  // namespace reference
}  // namespace laneql
