// Internal to the hits generator: attributes of a user (device, screen, browser) that more than
// one column reads, as pure functions of the user's key, so a user's rows agree with each other.
// FillRowChunk works them out once per row (UserTraitsOf) and the columns read the results.
#ifndef LANEQL_STORAGE_HITS_USER_TRAITS_H_
#define LANEQL_STORAGE_HITS_USER_TRAITS_H_

#include <cstdint>

#include "src/storage/hits_random.h"

namespace laneql::hits {

// Streams of the user key for these traits (the columns use their column ids, all < 200).
enum UserStream : uint64_t {
  kUserDevice = 500,  // mobile or not, the model, the screen
  kUserSoftware,      // Flash, .NET, language
  kUserIp,
};

struct Screen {
  int16_t width;
  int16_t height;
};

struct UserTraits {
  bool mobile;
  int8_t model;  // index into MobileModels(), or -1 (most users)
  Screen screen;
  int16_t flash_major;
  int16_t net_major;
  int8_t language;  // index into the (language, country) pairs of the text columns
  int32_t client_ip;
};

namespace user_tables {
// iPad and iPhone lead, as in the real data's top models by users.
inline constexpr Weighted<int8_t> kModels[] = {
    {0, 330000}, {1, 250000}, {2, 110000}, {3, 80000}, {4, 60000}, {5, 40000},
    {6, 30000},  {7, 25000},  {8, 20000},  {9, 20000}, {10, 20000}, {11, 15000}};
// Desktop screens average about 1,500 pixels wide (the real AVG(ResolutionWidth) is 1513).
inline constexpr Weighted<Screen> kDesktop[] = {
    {{1920, 1080}, 300000}, {{1366, 768}, 230000}, {{1280, 1024}, 110000},
    {{1600, 900}, 80000},   {{1440, 900}, 70000},  {{1680, 1050}, 70000},
    {{1024, 768}, 40000},   {{1280, 800}, 30000},  {{2560, 1440}, 30000},
    {{1360, 768}, 20000},   {{1920, 1200}, 20000}};
inline constexpr Weighted<Screen> kMobile[] = {
    {{1024, 768}, 400000}, {{320, 480}, 250000}, {{360, 640}, 200000}, {{800, 1280}, 150000}};
inline constexpr Weighted<int16_t> kFlash[] = {{11, 550000}, {0, 250000}, {10, 150000},
                                               {9, 50000}};
inline constexpr Weighted<int16_t> kNet[] = {{0, 700000}, {4, 150000}, {3, 100000}, {2, 50000}};
inline constexpr Weighted<int8_t> kPairs[] = {{0, 700000}, {1, 70000}, {2, 60000}, {3, 30000},
                                              {4, 30000},  {5, 30000}, {6, 25000}, {7, 25000},
                                              {8, 15000},  {9, 15000}};
inline constexpr PickTable<int8_t> kModelTable = MakePickTable(kModels);
inline constexpr PickTable<Screen> kDesktopTable = MakePickTable(kDesktop);
inline constexpr PickTable<Screen> kMobileTable = MakePickTable(kMobile);
inline constexpr PickTable<int16_t> kFlashTable = MakePickTable(kFlash);
inline constexpr PickTable<int16_t> kNetTable = MakePickTable(kNet);
inline constexpr PickTable<int8_t> kPairTable = MakePickTable(kPairs);
}  // namespace user_tables

// Two draws give all the traits, each decision from its own bits: the device draw's low 32
// bits decide mobile (11 % of users), bits 52..63 the screen, bits 32..39 whether a mobile
// user has a known model (80 %) and bits 40..51 which; the software draw's bits 52..63,
// 40..51 and 28..39 pick Flash, .NET and the language.
inline UserTraits UserTraitsOf(uint64_t user_key) {
  using namespace user_tables;
  UserTraits t;
  const uint64_t device = Draw(user_key, kUserDevice);
  const uint64_t software = Draw(user_key, kUserSoftware);
  t.mobile = Chance(device, 110000);
  t.screen = t.mobile ? Pick(kMobileTable, device) : Pick(kDesktopTable, device);
  const bool known_model = t.mobile && ((device >> 32) & 255) < 205;  // 80 % of 256
  t.model = known_model ? Pick(kModelTable, device << 12) : -1;
  t.flash_major = t.mobile ? 0 : Pick(kFlashTable, software);
  t.net_major = Pick(kNetTable, software << 12);
  t.language = Pick(kPairTable, software << 24);
  t.client_ip = static_cast<int32_t>(static_cast<uint32_t>(Draw(user_key, kUserIp) >> 32));
  return t;
}

}  // namespace laneql::hits

#endif  // LANEQL_STORAGE_HITS_USER_TRAITS_H_
