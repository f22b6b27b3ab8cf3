// MD5 and SHA-256 against the specifications' test vectors and, for MD5's constant table,
// against the formula that defines it.
#include "src/common/digest.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

namespace laneql {
namespace {

TEST(Digest, Md5TestVectors) {  // RFC 1321, appendix A.5
  EXPECT_EQ(Md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Md5Hex("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Md5Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Md5Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Md5Hex("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(Md5Hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890"),
            "57edf4a22be3c955ac49da2e2107b67a");
  EXPECT_EQ(Md5Hex(std::string(1000000, 'a')), "7707d6ae4e027c70eea2a935c2296f21");  // whole blocks
}

TEST(Digest, Sha256TestVectors) {  // FIPS 180-4 examples
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// Messages of every length around the padding's block boundary (55, 56, 63, 64 bytes) differ.
TEST(Digest, PaddingBoundaries) {
  std::string previous_md5, previous_sha;
  for (size_t n = 50; n < 130; ++n) {
    const std::string m(n, 'x');
    const std::string md5 = Md5Hex(m), sha = Sha256Hex(m);
    EXPECT_EQ(md5.size(), 32u);
    EXPECT_EQ(sha.size(), 64u);
    EXPECT_NE(md5, previous_md5);
    EXPECT_NE(sha, previous_sha);
    previous_md5 = md5;
    previous_sha = sha;
  }
  EXPECT_EQ(Md5Hex(std::string(64, 'x')), "c1bb4f81d892b2d57947682aeb252456");
}

// The writers into a caller's buffer give the specifications' digests and write nothing past
// them.
TEST(Digest, HexToWritesExactlyItsCharacters) {
  const struct {
    std::string message, md5, sha256;
  } vectors[] = {
      {"", "d41d8cd98f00b204e9800998ecf8427e", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
  };
  for (const auto& v : vectors) {
    char buffer[kSha256HexChars + 1];
    std::memset(buffer, '#', sizeof(buffer));
    Md5HexTo(v.message, buffer);
    EXPECT_EQ(std::string(buffer, kMd5HexChars), v.md5);
    EXPECT_EQ(buffer[kMd5HexChars], '#');
    Sha256HexTo(v.message, buffer);
    EXPECT_EQ(std::string(buffer, kSha256HexChars), v.sha256);
    EXPECT_EQ(buffer[kSha256HexChars], '#');
  }
}

}  // namespace
}  // namespace laneql
