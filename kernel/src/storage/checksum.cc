// Checksum64: four independent lanes over 8-byte words, so that four multiply chains run in
// parallel (one lane alone would wait on its multiply's latency every word).
//
// Why a changed word always changes the result: a lane step is
//   lane = Rotl(lane ^ (word * kWordMul), 27) * kLaneMul
// and with both multipliers odd, each part (multiply mod 2^64, xor, rotate) is a bijection, so
// for a fixed lane value the step is one-to-one in the word, and for fixed later words the rest
// of the lane's steps are one-to-one in the lane value. A different word therefore gives a
// different final lane. The lanes are combined by adding rotated copies (one-to-one in each
// lane with the others fixed) and the finish steps are bijections, so the sum differs too. The
// tail (size % 8 bytes) is zero-extended into one more word, and the size itself is mixed in, so
// inputs of different lengths do not collide just because one ends in zero bytes.
#include "src/storage/checksum.h"

#include <cstring>

namespace laneql::internal {
namespace {

// Odd 64-bit constants (fractional digits of pi in hex); odd makes the multiplies invertible.
constexpr uint64_t kWordMul = 0x243F6A8885A308D3ull;
constexpr uint64_t kLaneMul = 0x13198A2E03707345ull;
constexpr uint64_t kSeed = 0xA4093822299F31D1ull;
constexpr uint64_t kFinishMul = 0x082EFA98EC4E6C89ull;

inline uint64_t Rotl(uint64_t x, int bits) { return (x << bits) | (x >> (64 - bits)); }

inline uint64_t LoadWord(const uint8_t* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof(word));  // one unaligned load; little-endian hosts only
  return word;
}

inline uint64_t Step(uint64_t lane, uint64_t word) {
  return Rotl(lane ^ (word * kWordMul), 27) * kLaneMul;
}

// A bijective mixer: every output bit depends on every input bit.
inline uint64_t Finish(uint64_t h) {
  h ^= h >> 33;
  h *= kFinishMul;
  h ^= h >> 29;
  h *= kLaneMul;
  h ^= h >> 32;
  return h;
}

}  // namespace

uint64_t Checksum64(const void* data, size_t size) {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the file format is little-endian");
  const uint8_t* p = static_cast<const uint8_t*>(data);
  uint64_t lanes[4] = {kSeed, kSeed + kWordMul, kSeed + 2 * kWordMul, kSeed + 3 * kWordMul};
  size_t i = 0;
  for (; i + 32 <= size; i += 32) {
    lanes[0] = Step(lanes[0], LoadWord(p + i));
    lanes[1] = Step(lanes[1], LoadWord(p + i + 8));
    lanes[2] = Step(lanes[2], LoadWord(p + i + 16));
    lanes[3] = Step(lanes[3], LoadWord(p + i + 24));
  }
  // Up to three whole words left: they continue the lanes in order.
  int lane = 0;
  for (; i + 8 <= size; i += 8) {
    lanes[lane] = Step(lanes[lane], LoadWord(p + i));
    ++lane;
  }
  if (i < size) {
    uint8_t tail[8] = {};
    std::memcpy(tail, p + i, size - i);
    lanes[lane] = Step(lanes[lane], LoadWord(tail));
  }
  const uint64_t combined =
      lanes[0] + Rotl(lanes[1], 16) + Rotl(lanes[2], 32) + Rotl(lanes[3], 48);
  return Finish(combined ^ Finish(static_cast<uint64_t>(size) * kWordMul));
}

}  // namespace laneql::internal
