// Message digests for md5() and sha256(): MD5 (RFC 1321) and SHA-256 (FIPS 180-4), written from
// the specifications, each as lower-case hexadecimal text.
#ifndef LANEQL_SRC_COMMON_DIGEST_H_
#define LANEQL_SRC_COMMON_DIGEST_H_

#include <string>
#include <string_view>

namespace laneql {

std::string Md5Hex(std::string_view data);
std::string Sha256Hex(std::string_view data);

}  // namespace laneql

#endif  // LANEQL_SRC_COMMON_DIGEST_H_
