// Internal to the hits generator: attributes of a user (device, screen, browser) that more than
// one column reads, as pure functions of the user's key, so a user's rows agree with each other.
#ifndef LANEQL_STORAGE_HITS_USER_TRAITS_H_
#define LANEQL_STORAGE_HITS_USER_TRAITS_H_

#include <cstdint>

#include "src/storage/hits_random.h"

namespace laneql::hits {

// Streams of the user key for these traits (the columns use their column ids, all < 200).
enum UserStream : uint64_t {
  kUserMobile = 500,
  kUserModel,
  kUserScreen,
  kUserFlash,
  kUserNet,
  kUserLanguage,
  kUserIp,
};

inline bool IsMobileUser(uint64_t user_key) { return Chance(Draw(user_key, kUserMobile), 110000); }

// The phone or tablet model, an index into MobileModels(), or -1 (most users). iPad and
// iPhone lead, as in the real data's top models by users.
inline int MobileModelOf(uint64_t user_key) {
  if (!IsMobileUser(user_key)) return -1;
  static constexpr Weighted<int8_t> kModels[] = {
      {0, 330000}, {1, 250000}, {2, 110000}, {3, 80000}, {4, 60000}, {5, 40000},
      {6, 30000},  {7, 25000},  {8, 20000},  {9, 20000}, {10, 20000}, {11, 15000}};
  const uint64_t h = Draw(user_key, kUserModel);
  return Chance(h, 800000) ? Pick(kModels, h) : -1;
}

struct Screen {
  int16_t width;
  int16_t height;
};
// Desktop screens average about 1,500 pixels wide (the real AVG(ResolutionWidth) is 1513).
inline Screen ScreenOf(uint64_t user_key) {
  static constexpr Weighted<Screen> kDesktop[] = {
      {{1920, 1080}, 300000}, {{1366, 768}, 230000}, {{1280, 1024}, 110000},
      {{1600, 900}, 80000},   {{1440, 900}, 70000},  {{1680, 1050}, 70000},
      {{1024, 768}, 40000},   {{1280, 800}, 30000},  {{2560, 1440}, 30000},
      {{1360, 768}, 20000},   {{1920, 1200}, 20000}};
  static constexpr Weighted<Screen> kMobile[] = {
      {{1024, 768}, 400000}, {{320, 480}, 250000}, {{360, 640}, 200000}, {{800, 1280}, 150000}};
  const uint64_t h = Draw(user_key, kUserScreen);
  return IsMobileUser(user_key) ? Pick(kMobile, h) : Pick(kDesktop, h);
}

inline int16_t FlashMajorOf(uint64_t user_key) {
  static constexpr Weighted<int16_t> kFlash[] = {{11, 550000}, {0, 250000}, {10, 150000},
                                                 {9, 50000}};
  return IsMobileUser(user_key) ? 0 : Pick(kFlash, Draw(user_key, kUserFlash));
}

inline int16_t NetMajorOf(uint64_t user_key) {
  static constexpr Weighted<int16_t> kNet[] = {{0, 700000}, {4, 150000}, {3, 100000}, {2, 50000}};
  return Pick(kNet, Draw(user_key, kUserNet));
}

// Index into the (language, country) pairs of the text columns.
inline int LanguageOf(uint64_t user_key) {
  static constexpr Weighted<int8_t> kPairs[] = {{0, 700000}, {1, 70000}, {2, 60000},
                                                {3, 30000},  {4, 30000}, {5, 30000},
                                                {6, 25000},  {7, 25000}, {8, 15000},
                                                {9, 15000}};
  return Pick(kPairs, Draw(user_key, kUserLanguage));
}

// IPv4 addresses as Int32 (half of them negative as signed numbers, as in the real data).
inline int32_t ClientIpOf(uint64_t user_key) {
  return static_cast<int32_t>(static_cast<uint32_t>(Draw(user_key, kUserIp) >> 32));
}

}  // namespace laneql::hits

#endif  // LANEQL_STORAGE_HITS_USER_TRAITS_H_
