// Find, the group hash tables' lookup without insertion, on every compiled SIMD target: the
// ids it writes against those FindOrInsert gave the same keys, kNoGroup for keys the table does
// not hold and for rows a selection leaves out, and the table unchanged (size, capacity, keys).
// Several threads may Find in one table at once (make test-tsan runs these tests).
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <gtest/gtest.h>

#include "laneql/bitmask.h"
#include "laneql/group_hash_table.h"
#include "laneql/hash.h"
#include "string_rows.h"
#include "target_param.h"
#include "test_threads.h"

namespace laneql {
namespace {

// Row counts: empty, under, at and over one 16-slot window, and several growths.
const size_t kFindSizes[] = {0, 1, 15, 16, 17, 100, 4097, 50000};

// n values, each from [0, range): about half of a table built from [0, range / 2) holds them.
std::vector<uint64_t> DrawValues(size_t n, uint64_t range, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> values(n);
  for (uint64_t& v : values) v = rng() % range;
  return values;
}

// A bitmask of n rows, each kept with probability percent / 100, with every bit past n set:
// Find must read the bits of its rows only.
std::vector<uint64_t> KeepSome(size_t n, int percent, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> mask(BitmaskWords(n) + 1, ~uint64_t{0});
  for (size_t i = 0; i < n; ++i) {
    if (static_cast<int>(rng() % 100) >= percent) mask[i / 64] &= ~(uint64_t{1} << (i % 64));
  }
  return mask;
}

// What Find must write for row i: the id `inserted` maps its key to, else kNoGroup.
template <class Key, class Map>
uint32_t Expected(const Map& inserted, const Key& key, const uint64_t* selection, size_t i) {
  if (selection != nullptr && !BitmaskGet(selection, i)) return kNoGroup;
  const auto found = inserted.find(key);
  return found == inserted.end() ? kNoGroup : found->second;
}

LANEQL_PER_TARGET_SUITE(GroupHashTableFindTest);

TEST_P(GroupHashTableFindTest, FixedKeysFoundOrNot) {
  for (size_t n : kFindSizes) {
    SCOPED_TRACE(::testing::Message() << "n=" << n);
    // Built from keys in [0, n); looked up with keys in [0, 2n) and the extremes.
    std::vector<uint64_t> built = DrawValues(n, n + 1, n);
    std::vector<uint64_t> asked = DrawValues(n, 2 * n + 2, n + 1);
    if (n > 2) asked[0] = 0, asked[1] = ~uint64_t{0}, built[1] = ~uint64_t{0};
    for (bool same_hash : {false, true}) {  // true: one probe sequence for every key
      std::vector<uint64_t> built_hashes(n, 0x5555), asked_hashes(n, 0x5555);
      if (!same_hash) {
        HashKeys(built.data(), n, nullptr, built_hashes.data());
        HashKeys(asked.data(), n, nullptr, asked_hashes.data());
      }
      FixedKeyHashTable table;
      std::vector<uint32_t> ids(n + 1);
      std::string error;
      ASSERT_TRUE(table.FindOrInsert(built.data(), built_hashes.data(), n, nullptr, ids.data(), &error));
      std::unordered_map<uint64_t, uint32_t> inserted;
      for (size_t i = 0; i < n; ++i) inserted.emplace(built[i], ids[i]);
      const size_t size = table.size(), capacity = table.capacity();
      for (int percent : {100, 50, 0}) {
        const std::vector<uint64_t> keep = KeepSome(n, percent, n + percent);
        const uint64_t* selection = percent == 100 ? nullptr : keep.data();
        std::vector<uint32_t> found(n + 1, 12345);
        table.Find(asked.data(), asked_hashes.data(), n, selection, found.data());
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(Expected(inserted, asked[i], selection, i), found[i]) << "row " << i;
        }
        ASSERT_EQ(12345u, found[n]) << "wrote past the end";
        ASSERT_EQ(size, table.size());
        ASSERT_EQ(capacity, table.capacity());
      }
    }
  }
}

TEST_P(GroupHashTableFindTest, WideKeysFoundOrNot) {
  for (size_t n : kFindSizes) {
    SCOPED_TRACE(::testing::Message() << "n=" << n);
    // Two words per key that share their first word often: (v % 7, v).
    const auto words_of = [](const std::vector<uint64_t>& values) {
      std::vector<uint64_t> words;
      for (uint64_t v : values) words.insert(words.end(), {v % 7, v});
      return words;
    };
    const auto hashes_of = [](const std::vector<uint64_t>& words) {
      const size_t n = words.size() / 2;
      std::vector<uint64_t> first(n), second(n), hashes(n);
      for (size_t i = 0; i < n; ++i) first[i] = words[2 * i], second[i] = words[2 * i + 1];
      HashKeys(first.data(), n, nullptr, hashes.data());
      HashCombineKeys(second.data(), n, nullptr, hashes.data());
      return hashes;
    };
    const std::vector<uint64_t> built = words_of(DrawValues(n, n + 1, 3 * n));
    const std::vector<uint64_t> asked = words_of(DrawValues(n, 2 * n + 2, 3 * n + 1));
    const std::vector<uint64_t> built_hashes = hashes_of(built), asked_hashes = hashes_of(asked);
    WideKeyHashTable table(2);
    std::vector<uint32_t> ids(n + 1);
    std::string error;
    ASSERT_TRUE(table.FindOrInsert(built.data(), built_hashes.data(), n, nullptr, ids.data(), &error));
    std::unordered_map<uint64_t, uint32_t> inserted;  // by the second word, which decides
    for (size_t i = 0; i < n; ++i) inserted.emplace(built[2 * i + 1], ids[i]);
    const size_t size = table.size();
    for (int percent : {100, 30}) {
      const std::vector<uint64_t> keep = KeepSome(n, percent, n + 2);
      const uint64_t* selection = percent == 100 ? nullptr : keep.data();
      std::vector<uint32_t> found(n + 1, 12345);
      table.Find(asked.data(), asked_hashes.data(), n, selection, found.data());
      for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(Expected(inserted, asked[2 * i + 1], selection, i), found[i]) << "row " << i;
      }
      ASSERT_EQ(12345u, found[n]);
      ASSERT_EQ(size, table.size());
    }
  }
}

using testing::MakeStringRows;

// Texts of a few lengths (0 to 70 bytes) for values in [0, range), NULL for one of them.
std::vector<std::optional<std::string>> Texts(size_t n, uint64_t range, uint64_t seed) {
  std::vector<std::optional<std::string>> keys;
  for (uint64_t v : DrawValues(n, range, seed)) {
    if (v == 3) keys.push_back(std::nullopt);
    else if (v == 4) keys.push_back(std::string());
    else keys.push_back("k" + std::to_string(v) + std::string(v % 70, '-'));
  }
  return keys;
}

TEST_P(GroupHashTableFindTest, StringKeysNullAndEmptyFoundOrNot) {
  for (size_t n : kFindSizes) {
    for (bool built_null : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "n=" << n << " NULL inserted=" << built_null);
      std::vector<std::optional<std::string>> built_keys = Texts(n, n + 5, 5 * n);
      if (!built_null) {
        for (auto& key : built_keys) {
          if (!key) key = "not null";
        }
      }
      const std::vector<std::optional<std::string>> asked_keys = Texts(n, 2 * n + 10, 5 * n + 1);
      const testing::StringRows built = MakeStringRows(built_keys), asked = MakeStringRows(asked_keys);
      StringKeyHashTable table;
      std::vector<uint32_t> ids(n + 1);
      std::string error;
      ASSERT_TRUE(table.FindOrInsert(built.offsets.data(), built.bytes.data(), built.validity.data(),
                                     built.hashes.data(), n, nullptr, ids.data(), &error));
      std::unordered_map<std::optional<std::string>, uint32_t> inserted;
      for (size_t i = 0; i < n; ++i) inserted.emplace(built_keys[i], ids[i]);
      const size_t size = table.size(), bytes = table.arena_bytes();
      for (int percent : {100, 60}) {
        const std::vector<uint64_t> keep = KeepSome(n, percent, n + 7);
        const uint64_t* selection = percent == 100 ? nullptr : keep.data();
        std::vector<uint32_t> found(n + 1, 12345);
        table.Find(asked.offsets.data(), asked.bytes.data(), asked.validity.data(), asked.hashes.data(),
                   n, selection, found.data());
        for (size_t i = 0; i < n; ++i) {
          ASSERT_EQ(Expected(inserted, asked_keys[i], selection, i), found[i]) << "row " << i;
        }
        ASSERT_EQ(12345u, found[n]);
        ASSERT_EQ(size, table.size());
        ASSERT_EQ(bytes, table.arena_bytes());
      }
    }
  }
}

TEST_P(GroupHashTableFindTest, EmptyTablesFindNothingAndStayUnallocated) {
  const std::vector<uint64_t> keys = {1, 2, 3}, hashes = {7, 8, 9};
  const testing::StringRows strings = MakeStringRows({std::string("a"), std::nullopt, std::string()});
  std::vector<uint32_t> found(3, 12345);
  FixedKeyHashTable fixed;
  fixed.Find(keys.data(), hashes.data(), 3, nullptr, found.data());
  EXPECT_EQ(std::vector<uint32_t>(3, kNoGroup), found);
  found.assign(3, 12345);
  WideKeyHashTable wide(1);
  wide.Find(keys.data(), hashes.data(), 3, nullptr, found.data());
  EXPECT_EQ(std::vector<uint32_t>(3, kNoGroup), found);
  found.assign(3, 12345);
  StringKeyHashTable text;
  text.Find(strings.offsets.data(), strings.bytes.data(), strings.validity.data(), strings.hashes.data(), 3,
            nullptr, found.data());
  EXPECT_EQ(std::vector<uint32_t>(3, kNoGroup), found);
  EXPECT_EQ(0u, fixed.capacity() + wide.capacity() + text.capacity());
}

TEST_P(GroupHashTableFindTest, ThreadsFindInOneTableAtOnce) {
  LANEQL_SKIP_WITHOUT_THREADS();
  const size_t n = 200000;
  const std::vector<uint64_t> built = DrawValues(n, n, 11), asked = DrawValues(n, 2 * n, 12);
  std::vector<uint64_t> built_hashes(n), asked_hashes(n);
  HashKeys(built.data(), n, nullptr, built_hashes.data());
  HashKeys(asked.data(), n, nullptr, asked_hashes.data());
  FixedKeyHashTable table;
  std::vector<uint32_t> ids(n);
  std::string error;
  ASSERT_TRUE(table.FindOrInsert(built.data(), built_hashes.data(), n, nullptr, ids.data(), &error));
  std::vector<uint32_t> alone(n);
  table.Find(asked.data(), asked_hashes.data(), n, nullptr, alone.data());
  std::vector<std::vector<uint32_t>> per_thread(2, std::vector<uint32_t>(n));
  std::vector<std::thread> threads;
  for (auto& result : per_thread) {
    threads.emplace_back([&, out = result.data()]() {
      table.Find(asked.data(), asked_hashes.data(), n, nullptr, out);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const auto& out : per_thread) EXPECT_EQ(alone, out);
  size_t hits = 0;
  for (uint32_t id : alone) hits += id != kNoGroup;
  EXPECT_GT(hits, n / 4);  // about half of the asked keys are in the table
  EXPECT_LT(hits, 3 * n / 4);
}

}  // namespace
}  // namespace laneql
