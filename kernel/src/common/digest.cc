#include "src/common/digest.h"

#include <cstdint>
#include <cstring>
#include <utility>

namespace laneql {
namespace {

constexpr uint32_t RotateLeft(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }
constexpr uint32_t RotateRight(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

uint32_t LoadLittle(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}
uint32_t LoadBig(const uint8_t* p) {
  return uint32_t{p[0]} << 24 | uint32_t{p[1]} << 16 | uint32_t{p[2]} << 8 | uint32_t{p[3]};
}

// Calls block(p) for each 64-byte block of the padded message: the data's whole blocks where
// they lie, then the last one or two from a copy of the tail with the padding (a 1 bit, zeros,
// and the bit length in 8 bytes, little-endian for MD5, big-endian for SHA-256). No heap: the
// functions run once per row (md5(s) over 10 M rows).
template <class Block>
void ForEachPaddedBlock(std::string_view data, bool big_endian, Block block) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(data.data());
  const size_t whole = data.size() / 64 * 64;
  for (size_t offset = 0; offset < whole; offset += 64) block(bytes + offset);
  uint8_t tail[128] = {0};
  const size_t rest = data.size() - whole;
  if (rest != 0) std::memcpy(tail, bytes + whole, rest);
  tail[rest] = 0x80;
  const size_t size = rest < 56 ? 64 : 128;
  const uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
  for (size_t i = 0; i < 8; ++i) {
    const size_t shift = big_endian ? 8 * (7 - i) : 8 * i;
    tail[size - 8 + i] = static_cast<uint8_t>(bits >> shift);
  }
  block(tail);
  if (size == 128) block(tail + 64);
}

void WriteHex(const uint32_t* words, size_t count, bool big_endian, char* out) {
  static const char kDigits[] = "0123456789abcdef";
  for (size_t w = 0; w < count; ++w) {
    for (int i = 0; i < 4; ++i) {
      const uint32_t byte = (words[w] >> (big_endian ? 8 * (3 - i) : 8 * i)) & 0xFF;
      *out++ = kDigits[byte >> 4];
      *out++ = kDigits[byte & 0xF];
    }
  }
}

// MD5's per-round shift amounts, and the constants floor(|sin(i + 1)| * 2^32) (RFC 1321's
// table, spelled out: a libm's sin may differ in the last bit).
constexpr int kMd5Shift[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
constexpr uint32_t kMd5Sine[64] = {
      0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
      0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
      0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
      0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
      0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
      0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
      0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
      0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

// Round I of MD5 on (a, b, c, d), a template so that every round's function, message word,
// constant and shift are known where it is compiled: the 64 rounds unrolled with no branch
// (with the padding below: max(md5(s)) over 10 M rows 1,450 -> 689 ms on two threads).
template <int I>
inline void Md5Round(uint32_t& a, uint32_t& b, uint32_t& c, uint32_t& d, const uint32_t* m) {
  uint32_t f;
  int g;
  if constexpr (I < 16) {
    f = (b & c) | (~b & d);
    g = I;
  } else if constexpr (I < 32) {
    f = (d & b) | (~d & c);
    g = (5 * I + 1) % 16;
  } else if constexpr (I < 48) {
    f = b ^ c ^ d;
    g = (3 * I + 5) % 16;
  } else {
    f = c ^ (b | ~d);
    g = (7 * I) % 16;
  }
  const uint32_t next = b + RotateLeft(a + f + kMd5Sine[I] + m[g], kMd5Shift[I]);
  a = d;
  d = c;
  c = b;
  b = next;
}

template <size_t... I>
inline void Md5Block(uint32_t* h, const uint8_t* block, std::index_sequence<I...>) {
  uint32_t m[16];
  for (int i = 0; i < 16; ++i) m[i] = LoadLittle(block + 4 * i);
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
  (Md5Round<static_cast<int>(I)>(a, b, c, d, m), ...);
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
}

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
constexpr uint32_t kSha256Round[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

template <int I>
inline void Sha256Round(uint32_t* s, const uint32_t* w) {
  // The eight working variables rotate one place per round: round I's a is s[(8 - I % 8) % 8].
  constexpr int r = (8 - I % 8) % 8;
  uint32_t &a = s[r], &b = s[(r + 1) % 8], &c = s[(r + 2) % 8], &d = s[(r + 3) % 8];
  uint32_t &e = s[(r + 4) % 8], &f = s[(r + 5) % 8], &g = s[(r + 6) % 8], &k = s[(r + 7) % 8];
  const uint32_t s1 = RotateRight(e, 6) ^ RotateRight(e, 11) ^ RotateRight(e, 25);
  const uint32_t choose = (e & f) ^ (~e & g);
  const uint32_t t1 = k + s1 + choose + kSha256Round[I] + w[I];
  const uint32_t s0 = RotateRight(a, 2) ^ RotateRight(a, 13) ^ RotateRight(a, 22);
  const uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
  d += t1;          // the next round's e
  k = t1 + s0 + majority;  // the next round's a (k's place becomes a's)
}

template <size_t... I>
inline void Sha256Block(uint32_t* h, const uint8_t* block, std::index_sequence<I...>) {
  uint32_t w[64];
  for (int i = 0; i < 16; ++i) w[i] = LoadBig(block + 4 * i);
  for (int i = 16; i < 64; ++i) {
    const uint32_t s0 = RotateRight(w[i - 15], 7) ^ RotateRight(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const uint32_t s1 = RotateRight(w[i - 2], 17) ^ RotateRight(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t s[8];
  std::memcpy(s, h, sizeof(s));
  (Sha256Round<static_cast<int>(I)>(s, w), ...);
  for (int i = 0; i < 8; ++i) h[i] += s[i];  // after 64 rounds (a multiple of 8) in place again
}

}  // namespace

void Md5HexTo(std::string_view data, char* out) {
  uint32_t h[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  ForEachPaddedBlock(data, /*big_endian=*/false,
                     [&](const uint8_t* block) { Md5Block(h, block, std::make_index_sequence<64>()); });
  WriteHex(h, 4, /*big_endian=*/false, out);
}

void Sha256HexTo(std::string_view data, char* out) {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  ForEachPaddedBlock(data, /*big_endian=*/true,
                     [&](const uint8_t* block) { Sha256Block(h, block, std::make_index_sequence<64>()); });
  WriteHex(h, 8, /*big_endian=*/true, out);
}

std::string Md5Hex(std::string_view data) {
  char out[kMd5HexChars];
  Md5HexTo(data, out);
  return std::string(out, sizeof(out));
}

std::string Sha256Hex(std::string_view data) {
  char out[kSha256HexChars];
  Sha256HexTo(data, out);
  return std::string(out, sizeof(out));
}

}  // namespace laneql
