// Message digests for md5() and sha256(): MD5 (RFC 1321) and SHA-256 (FIPS 180-4), written from
// the specifications, each as lower-case hexadecimal text.
#ifndef LANEQL_SRC_COMMON_DIGEST_H_
#define LANEQL_SRC_COMMON_DIGEST_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace laneql {

inline constexpr size_t kMd5HexChars = 32, kSha256HexChars = 64;

std::string Md5Hex(std::string_view data);
std::string Sha256Hex(std::string_view data);
// The same written to out[0..kMd5HexChars) / out[0..kSha256HexChars), without allocating.
void Md5HexTo(std::string_view data, char* out);
void Sha256HexTo(std::string_view data, char* out);

}  // namespace laneql

#endif  // LANEQL_SRC_COMMON_DIGEST_H_
