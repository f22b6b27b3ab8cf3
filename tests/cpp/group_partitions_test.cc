// Hash GROUP BY by radix partitions (kernel/src/exec/group_partitions.h): the records a batch
// appends against a plain reference, and through SQL against the hash table path for packed,
// wide and nullable keys, every fixed-width argument type and edge value, on several threads.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "gtest/gtest.h"
#include "laneql/bitmask.h"
#include "laneql/database.h"
#include "laneql/hash.h"
#include "laneql/result_printers.h"
#include "profile_spans.h"
#include "src/exec/group_partitions.h"
#include "src/exec/vector.h"
#include "test_threads.h"

namespace laneql {
namespace {

using exec::GroupPartitions;
using exec::GroupRecordLayout;
using exec::PreparedBatch;
using exec::Vec;
using testing::ExpectSamePathAnswer;
using testing::HasSpan;

// One field of a record as the test expects it.
struct Expected {
  std::vector<uint64_t> key;
  std::vector<uint64_t> args;  // zero-extended bits
  uint32_t row = 0;
  uint32_t nulls = 0;
  bool operator<(const Expected& o) const { return std::tie(row, key) < std::tie(o.row, o.key); }
};

TEST(GroupPartitions, AppendWritesEveryRowsRecordIntoItsHashsPartition) {
  std::mt19937_64 rng(11);
  for (size_t key_words : {size_t{1}, size_t{3}}) {
    // Arguments of 1, 2, 4 and 8 bytes, the 4-byte one with NULLs.
    GroupRecordLayout layout;
    layout.key_words = key_words;
    layout.arg_types = {TypeId::kInt8, TypeId::kInt16, TypeId::kFloat32, TypeId::kInt64};
    layout.arg_of = {-1, 0, 1, 2, 3};
    layout.stride = key_words + layout.arg_types.size() + 1;
    GroupPartitions parts(layout);
    std::vector<Expected> expected;
    std::string error;
    uint32_t next_row = 0;
    // Runs of awkward lengths (empty, one row, around a 64-row word, and more than the first
    // chunk of 65,536 words holds), with the rows given as a range or as ids.
    for (size_t n : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{1000}, size_t{16384},
                     size_t{20000}}) {
      for (bool with_ids : {false, true}) {
        PreparedBatch batch;
        batch.rows.count = n;
        batch.rows.begin = next_row;
        if (with_ids) {  // every third row, as a WHERE leaves them
          for (size_t i = 0; i < n; ++i) batch.ids.push_back(next_row + static_cast<uint32_t>(3 * i));
          batch.rows.ids = batch.ids.data();
        }
        std::vector<uint64_t> words(n * key_words);
        for (uint64_t& w : words) w = rng() % 3 == 0 ? rng() % 7 : rng();
        batch.prepared.count = n;
        batch.prepared.words = words.data();
        batch.prepared.hashes.resize(n);
        for (size_t i = 0; i < n; ++i) {
          uint64_t h = reference::HashWord(words[i * key_words] + kHashGamma);
          for (size_t j = 1; j < key_words; ++j) h = reference::CombineWord(h, words[i * key_words + j]);
          batch.prepared.hashes[i] = h;
        }
        std::vector<Vec> args(4);
        int8_t* a8 = args[0].InitFixed<int8_t>(TypeId::kInt8, n, false, &error);
        int16_t* a16 = args[1].InitFixed<int16_t>(TypeId::kInt16, n, false, &error);
        float* a32 = args[2].InitFixed<float>(TypeId::kFloat32, n, false, &error);
        int64_t* a64 = args[3].InitFixed<int64_t>(TypeId::kInt64, n, false, &error);
        ASSERT_TRUE(a8 && a16 && a32 && a64) << error;
        uint64_t* validity = args[2].InitValidity(&error);
        ASSERT_NE(validity, nullptr) << error;
        for (size_t i = 0; i < n; ++i) {
          Expected e;
          e.key.assign(words.begin() + static_cast<std::ptrdiff_t>(i * key_words),
                       words.begin() + static_cast<std::ptrdiff_t>((i + 1) * key_words));
          e.row = with_ids ? batch.ids[i] : next_row + static_cast<uint32_t>(i);
          a8[i] = static_cast<int8_t>(rng());
          a16[i] = static_cast<int16_t>(rng());
          a32[i] = i % 5 == 0 ? -0.0f : static_cast<float>(static_cast<int64_t>(rng() % 1000) - 500);
          a64[i] = i % 7 == 0 ? std::numeric_limits<int64_t>::min() : static_cast<int64_t>(rng());
          uint32_t bits32;
          std::memcpy(&bits32, &a32[i], 4);
          e.args = {static_cast<uint8_t>(a8[i]), static_cast<uint16_t>(a16[i]), bits32,
                    static_cast<uint64_t>(a64[i])};
          if (i % 4 == 1) {
            validity[i / 64] &= ~(uint64_t{1} << (i % 64));
            e.nulls = 1u << 2;
          }
          expected.push_back(e);
        }
        ASSERT_TRUE(parts.AppendBatch(batch, args, &error)) << error;
        next_row += static_cast<uint32_t>(3 * n + 1);
        ASSERT_EQ(parts.records(), expected.size());
      }
    }
    std::vector<Expected> got;
    for (size_t p = 0; p < GroupPartitions::kPartitions; ++p) {
      size_t in_partition = 0;
      parts.ForEachSegment(p, [&](const uint64_t* records, const uint8_t* bytes, size_t n) {
        EXPECT_EQ(bytes, nullptr);  // no string keys
        EXPECT_GT(n, 0u);  // empty segments are skipped
        for (size_t i = 0; i < n; ++i) {
          const uint64_t* record = records + i * layout.stride;
          Expected e;
          e.key.assign(record, record + key_words);
          e.args.assign(record + key_words, record + key_words + 4);
          e.row = static_cast<uint32_t>(record[layout.stride - 1]);
          e.nulls = static_cast<uint32_t>(record[layout.stride - 1] >> 32);
          uint64_t h = reference::HashWord(e.key[0] + kHashGamma);
          for (size_t j = 1; j < key_words; ++j) h = reference::CombineWord(h, e.key[j]);
          EXPECT_EQ(GroupPartitions::PartitionOf(h), p);
          got.push_back(e);
        }
        in_partition += n;
      });
      EXPECT_EQ(in_partition, parts.PartitionSize(p)) << "partition " << p;
    }
    std::sort(expected.begin(), expected.end());
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].key, expected[i].key) << i;
      ASSERT_EQ(got[i].row, expected[i].row) << i;
      ASSERT_EQ(got[i].nulls, expected[i].nulls) << "row " << got[i].row;
      ASSERT_EQ(got[i].args, expected[i].args) << "row " << got[i].row;
    }
  }
}

TEST(GroupPartitions, SerialisedKeysGoAsBytesBesideTheirRecords) {
  std::mt19937_64 rng(5);
  GroupRecordLayout layout;
  layout.key = GroupRecordLayout::Key::kSerialized;
  layout.key_words = 2;
  layout.stride = 3;  // the key's length and hash, and the last word: no arguments
  GroupPartitions parts(layout);
  // (row, key) of every row appended, and of every record read back.
  std::vector<std::pair<uint32_t, std::string>> expected, got;
  std::map<uint32_t, uint64_t> hash_of_row;
  std::string error;
  uint32_t next_row = 0;
  for (size_t n : {size_t{0}, size_t{1}, size_t{65}, size_t{5000}, size_t{16384}}) {
    PreparedBatch batch;
    batch.rows.begin = next_row;
    batch.rows.count = n;
    batch.prepared.count = n;
    std::string data;
    std::vector<int32_t> offsets{0};
    for (size_t i = 0; i < n; ++i) {
      const uint32_t row = next_row + static_cast<uint32_t>(i);
      const uint64_t hash = rng();
      batch.prepared.hashes.push_back(hash);
      hash_of_row[row] = hash;
      // Empty keys among them (a serialised key is never empty, but the bytes need not care).
      const std::string key = rng() % 5 == 0 ? "" : std::string(rng() % 70, static_cast<char>('a' + rng() % 26));
      data += key;
      offsets.push_back(static_cast<int32_t>(data.size()));
      expected.emplace_back(row, key);
    }
    ASSERT_TRUE(batch.prepared.ser_offsets.Resize(offsets.size() * sizeof(int32_t), &error)) << error;
    std::memcpy(batch.prepared.ser_offsets.data(), offsets.data(), offsets.size() * sizeof(int32_t));
    ASSERT_TRUE(batch.prepared.ser_data.Resize(std::max<size_t>(data.size(), 1), &error)) << error;
    std::memcpy(batch.prepared.ser_data.data(), data.data(), data.size());
    ASSERT_TRUE(parts.AppendBatch(batch, {}, &error)) << error;
    next_row += static_cast<uint32_t>(n);
  }
  for (size_t p = 0; p < GroupPartitions::kPartitions; ++p) {
    parts.ForEachSegment(p, [&](const uint64_t* records, const uint8_t* bytes, size_t n) {
      ASSERT_NE(bytes, nullptr);
      for (size_t i = 0; i < n; ++i) {
        const uint64_t length = records[3 * i];
        const uint32_t row = static_cast<uint32_t>(records[3 * i + 2]);
        EXPECT_EQ(records[3 * i + 1], hash_of_row[row]);  // the hash carried
        EXPECT_EQ(GroupPartitions::PartitionOf(hash_of_row[row]), p) << row;
        got.emplace_back(row, std::string(reinterpret_cast<const char*>(bytes), length));
        bytes += length;
      }
    });
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
}

TEST(GroupPartitions, OneStringKeysOwnBytesGoBesideTheirRecords) {
  std::mt19937_64 rng(8);
  GroupRecordLayout layout;
  layout.key = GroupRecordLayout::Key::kString;
  layout.key_words = 2;
  layout.arg_types = {TypeId::kInt32};
  layout.arg_of = {0};
  layout.stride = 4;  // the key's length and hash, the argument, the last word
  GroupPartitions parts(layout);
  // (row, key or nullopt, argument) of every row appended, and of every record read back.
  using Row = std::tuple<uint32_t, std::optional<std::string>, uint64_t>;
  std::vector<Row> expected, got;
  std::map<uint32_t, uint64_t> hash_of_row;
  std::string error;
  uint32_t next_row = 0;
  std::vector<std::vector<int32_t>> keep_offsets;
  std::vector<std::string> keep_data;
  std::vector<std::vector<uint64_t>> keep_validity;
  std::vector<std::vector<int32_t>> keep_args;
  for (size_t n : {size_t{0}, size_t{1}, size_t{64}, size_t{5000}, size_t{16384}}) {
    PreparedBatch batch;
    batch.rows.begin = next_row;
    batch.rows.count = n;
    batch.prepared.count = n;
    // Offsets that start past the bytes' beginning, as a column's slice borrows them; NULLs
    // whose offsets span bytes (which must not be carried), empty keys, keys of 0..70 bytes.
    std::string& data = keep_data.emplace_back(std::string(37, '#'));
    std::vector<int32_t>& offsets = keep_offsets.emplace_back(1, 37);
    std::vector<uint64_t>& validity = keep_validity.emplace_back((n + 63) / 64 + 1, ~uint64_t{0});
    std::vector<int32_t>& values = keep_args.emplace_back();
    for (size_t i = 0; i < n; ++i) {
      const uint32_t row = next_row + static_cast<uint32_t>(i);
      const uint64_t hash = rng();
      batch.prepared.hashes.push_back(hash);
      hash_of_row[row] = hash;
      const std::string key = std::string(rng() % 71, static_cast<char>('a' + rng() % 26));
      data += key;
      offsets.push_back(static_cast<int32_t>(data.size()));
      values.push_back(static_cast<int32_t>(rng()));
      const bool null = rng() % 9 == 0;
      if (null) validity[i / 64] &= ~(uint64_t{1} << (i % 64));
      expected.emplace_back(row, null ? std::nullopt : std::optional<std::string>(key),
                            static_cast<uint32_t>(values.back()));
    }
    Vec key;
    key.type = TypeId::kString;
    key.count = n;
    key.values = reinterpret_cast<const uint8_t*>(data.data());
    key.offsets = offsets.data();
    key.validity = validity.data();
    batch.keys.push_back(std::move(key));
    std::vector<Vec> args(1);
    args[0].type = TypeId::kInt32;
    args[0].count = n;
    args[0].values = reinterpret_cast<const uint8_t*>(values.data());
    ASSERT_TRUE(parts.AppendBatch(batch, args, &error)) << error;
    next_row += static_cast<uint32_t>(n);
  }
  for (size_t p = 0; p < GroupPartitions::kPartitions; ++p) {
    parts.ForEachSegment(p, [&](const uint64_t* records, const uint8_t* bytes, size_t n) {
      ASSERT_NE(bytes, nullptr);
      for (size_t i = 0; i < n; ++i) {
        const uint64_t* record = records + 4 * i;
        const uint32_t row = static_cast<uint32_t>(record[3]);
        EXPECT_EQ(record[1], hash_of_row[row]);
        EXPECT_EQ(GroupPartitions::PartitionOf(hash_of_row[row]), p) << row;
        if (record[0] == GroupRecordLayout::kNullKeyLength) {
          got.emplace_back(row, std::nullopt, record[2]);
          continue;
        }
        got.emplace_back(row, std::string(reinterpret_cast<const char*>(bytes), record[0]), record[2]);
        bytes += record[0];
      }
    });
  }
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
}

// Keys with about `per_key` rows each (k), a nullable key (nk, NULL every 13th row), and
// arguments of every fixed-width type with NULLs (every 11th row) and edge values.
std::shared_ptr<Table> GroupTable(size_t rows, size_t per_key) {
  Column k(TypeId::kInt64), k32(TypeId::kInt32), k16(TypeId::kInt16), nk(TypeId::kInt32);
  Column i8(TypeId::kInt8), i16(TypeId::kInt16);
  Column i64(TypeId::kInt64), f64(TypeId::kFloat64), f32(TypeId::kFloat32), b(TypeId::kBool), s(TypeId::kString);
  std::string error;
  const double specials[] = {0.0, -0.0, std::numeric_limits<double>::quiet_NaN(),
                             -std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity()};
  const uint64_t keys = std::max<size_t>(rows / std::max<size_t>(per_key, 1), 1);
  for (size_t r = 0; r < rows; ++r) {
    const uint64_t key = uint64_t{r} * 2654435761u % keys;
    EXPECT_TRUE(k.Append<int64_t>(static_cast<int64_t>(key * 1000003) - 7, &error));
    EXPECT_TRUE(k32.Append<int32_t>(static_cast<int32_t>(key % 1000), &error));
    EXPECT_TRUE(k16.Append<int16_t>(static_cast<int16_t>(key % 300), &error));
    EXPECT_TRUE(r % 13 == 0 ? nk.AppendNull(&error)
                            : nk.Append<int32_t>(static_cast<int32_t>(key % 5000), &error));
    if (r % 11 == 0) {
      for (Column* c : {&i8, &i16, &i64, &f64, &f32, &b, &s}) EXPECT_TRUE(c->AppendNull(&error));
      continue;
    }
    EXPECT_TRUE(i8.Append<int8_t>(static_cast<int8_t>(r % 256 - 128), &error));
    EXPECT_TRUE(i16.Append<int16_t>(static_cast<int16_t>(r % 65536 - 32768), &error));
    const int64_t extreme = r % 2 ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
    EXPECT_TRUE(i64.Append<int64_t>(r % 17 == 0 ? extreme : static_cast<int64_t>(r * 31), &error));
    const double d = r % 7 == 0 ? specials[(r / 7) % 6] : static_cast<double>(r % 1000) / 8.0;
    EXPECT_TRUE(f64.Append<double>(d, &error));
    EXPECT_TRUE(f32.Append<float>(static_cast<float>(d), &error));
    EXPECT_TRUE(b.Append<bool>(r % 3 == 0, &error));
    // Many strings, some empty, some long.
    const std::string text =
        r % 29 == 0 ? "" : "s" + std::to_string(key % 20011) + std::string(key % 3 ? 0 : 40, 'x');
    EXPECT_TRUE(s.AppendString(text, &error));
  }
  auto table = std::make_shared<Table>();
  const std::pair<const char*, Column*> columns[] = {
      {"k", &k},     {"k32", &k32}, {"k16", &k16}, {"nk", &nk}, {"i8", &i8}, {"i16", &i16},
      {"i64", &i64}, {"f64", &f64}, {"f32", &f32}, {"b", &b},   {"s", &s}};
  for (const auto& [name, column] : columns) {
    EXPECT_TRUE(table->AddColumn(name, std::move(*column), &error)) << error;
  }
  return table;
}

DatabaseOptions Options(int threads, size_t min_rows) {
  DatabaseOptions options;
  options.threads = threads;
  options.min_parallel_rows = 0;
  options.profile = true;
  options.partitioned_group_min_rows = min_rows;
  return options;
}

TEST(PartitionedGroupBy, SqlMatchesTheHashTablePathForEveryKeyAndArgument) {
  auto table = GroupTable(100'003, 3);  // six batches and a tail
  auto empty = GroupTable(0, 1);
  const char* queries[] = {
      // Packed keys (one 8-byte integer; two narrower ones), every argument type, ties broken
      // by each group's first row (ORDER BY the count), and no ORDER BY at all (groups in the
      // order of their first rows).
      "SELECT k, count(*) AS c, count(i8), sum(i16), avg(i64), min(f64), max(f32), min(b), max(i8) FROM t "
      "GROUP BY k ORDER BY c DESC LIMIT 50",
      "SELECT k32, k16, count(*), sum(i64), min(i16), max(f64) FROM t GROUP BY k32, k16",
      "SELECT k32, i8 % 3 AS m, count(*), sum(i64) FROM t GROUP BY k32, m ORDER BY 3 DESC, 1, 2 LIMIT 30",
      // Wide keys: a nullable one, three words, a float key (-0.0 and 0.0 one group, NaNs one).
      "SELECT nk, k32, count(*), sum(i8), avg(i16) FROM t GROUP BY nk, k32 ORDER BY 3 DESC, 1, 2 LIMIT 40",
      "SELECT k, k32, i16, count(*) FROM t GROUP BY k, k32, i16 ORDER BY 4 DESC LIMIT 30",
      "SELECT f64 AS x, count(*), min(i64), max(i64) FROM t GROUP BY x ORDER BY 2 DESC, 1 LIMIT 30",
      // Expressions and constants as arguments, WHERE keeping some, none or all rows, HAVING.
      "SELECT k, sum(i16 + 1), count(1), max(i64 % 5) FROM t WHERE i8 > 0 GROUP BY k ORDER BY 2 DESC, 1 LIMIT 25",
      "SELECT k, count(*) FROM t WHERE i16 > 40000 GROUP BY k",
      "SELECT k, count(*) AS c FROM t WHERE k > -100 GROUP BY k HAVING count(*) > 3 ORDER BY c, k LIMIT 20",
      // Strings among the keys, serialised as bytes beside the records: with NULLs and empty
      // strings, beside a nullable key, under a WHERE on the string.
      "SELECT k32, s, count(*), min(f64) FROM t GROUP BY k32, s ORDER BY 3 DESC, 1, 2 LIMIT 30",
      "SELECT s, k16, count(*), sum(i16), max(i64) FROM t GROUP BY s, k16 ORDER BY 3 DESC, 1, 2 LIMIT 30",
      "SELECT s, nk, count(*) FROM t WHERE s <> 's3' GROUP BY s, nk",
      // COUNT(DISTINCT)s of fixed-width values (NULLs, -0.0 and 0.0, NaNs), each in its
      // partition's set, beside other aggregates.
      // (One key of a column spanning few values takes the direct table: k32 + 0 does not.)
      "SELECT k32 + 0 AS kk, count(DISTINCT i8), count(DISTINCT f64), count(*), sum(i16) FROM t GROUP BY kk "
      "ORDER BY 2 DESC, 3 DESC, 1 LIMIT 30",
      "SELECT s, k16, count(DISTINCT i64) AS u FROM t WHERE s <> '' GROUP BY s, k16 "
      "ORDER BY u DESC, s, k16 LIMIT 30",
      "SELECT k32 + 0 AS kk, count(*) AS c, sum(i8) FROM t GROUP BY kk HAVING sum(i8) > 0 ORDER BY c DESC LIMIT 10",
      // Float sums (NaN, infinities, -0.0 among them), whose bits depend on the order of the
      // additions: each group's records are folded in row order, as one thread's scan adds.
      "SELECT k, sum(f64), avg(f32), sum(f64 * 1e15 + i16), count(*) FROM t GROUP BY k ORDER BY 4 DESC, 1 LIMIT 40",
      // Every group's sum, by the hash of its bits: 1e16, -1e16 and 1.5 added in another order
      // give another sum.
      "SELECT sum(hash(x)), count(*) FROM (SELECT k, sum(CASE WHEN i16 % 3 = 0 THEN 1e16 WHEN i16 % 3 = 1 "
      "THEN -1e16 ELSE 1.5 END) AS x FROM t GROUP BY k)",
      "SELECT sum(hash(x)), sum(hash(y)) FROM (SELECT k, s, sum(i64 * 1e-3 + f64) AS x, avg(f32 * 1e9 + i8) AS y "
      "FROM t GROUP BY k, s)",
      "SELECT k32, s, sum(f64 / 3), avg(f64) FROM t GROUP BY k32, s ORDER BY 3 DESC, 1, 2 LIMIT 30",
  };
  std::string error;
  Database reference_db(Options(1, SIZE_MAX));
  ASSERT_TRUE(reference_db.Register("t", table, &error)) << error;
  ASSERT_TRUE(reference_db.Register("e", empty, &error)) << error;
  for (int threads : {1, 2, 3, 6}) {
    Database db(Options(threads, 0));
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    ASSERT_TRUE(db.Register("e", empty, &error)) << error;
    for (const char* sql : queries) ExpectSamePathAnswer(reference_db, db, sql, "aggregate partition", threads);
    const Result none = db.Query("SELECT k, count(*), sum(i8) FROM e GROUP BY k");
    ASSERT_TRUE(none.ok()) << none.error();
    EXPECT_EQ(none.num_rows(), 0u);
  }
}

TEST(PartitionedGroupBy, TheCountsAreThoseOfTheDefinition) {
  auto table = GroupTable(50'000, 4);
  std::map<int64_t, std::pair<int64_t, int64_t>> expected;  // k -> (count(*), sum(i16))
  const Column& k = table->column(0);
  const Column& i16 = table->column(5);
  for (size_t r = 0; r < table->num_rows(); ++r) {
    auto& [count, sum] = expected[k.Values<int64_t>()[r]];
    ++count;
    if (i16.IsValid(r)) sum += i16.Values<int16_t>()[r];
  }
  std::string csv = "k,count_star(),sum(i16)\n";
  for (const auto& [key, counts] : expected) {
    csv += std::to_string(key) + "," + std::to_string(counts.first) + "," + std::to_string(counts.second) + "\n";
  }
  std::string error;
  for (int threads : {1, 2}) {
    Database db(Options(threads, 0));
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    const Result r = db.Query("SELECT k, count(*), sum(i16) FROM t GROUP BY k ORDER BY k");
    ASSERT_TRUE(r.ok()) << r.error();
    EXPECT_TRUE(HasSpan(db.LastProfileJson(), "aggregate partition"));
    EXPECT_EQ(PrintCsv(r), csv);
  }
}

TEST(PartitionedGroupBy, OnlyQueriesThePartitionsCanCarry) {
  auto table = GroupTable(20'000, 3);
  std::string error;
  Database db(Options(2, 0));
  ASSERT_TRUE(db.Register("t", table, &error)) << error;
  const std::pair<const char*, bool> cases[] = {
      {"SELECT k, min(f64), max(f32) FROM t GROUP BY k", true},
      {"SELECT s, count(*) FROM t GROUP BY s", false},             // one string key: its own table
      {"SELECT k, s, count(*) FROM t GROUP BY k, s", true},        // a string among the keys
      {"SELECT i8, count(*) FROM t GROUP BY i8", false},           // the direct table of 8-bit keys
      {"SELECT k, min(s) FROM t GROUP BY k", false},               // a string argument
      {"SELECT k, sum(f64) FROM t GROUP BY k", true},              // a float sum: folded in row order
      {"SELECT k, avg(f32) FROM t GROUP BY k", true},
      {"SELECT k, count(DISTINCT i16) FROM t GROUP BY k", true},   // counted in the partition
      {"SELECT k, count(DISTINCT s) FROM t GROUP BY k", false},    // of strings
      {"SELECT k, count(*) FROM t GROUP BY k LIMIT 5", false},     // GROUP BY ... LIMIT: first groups
  };
  for (const auto& [sql, partitioned] : cases) {
    const Result r = db.Query(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.error();
    EXPECT_EQ(HasSpan(db.LastProfileJson(), "aggregate partition"), partitioned) << sql;
  }
}

TEST(PartitionedGroupBy, ChosenFromASampleWhenKeysRepeat) {
  // 40 batches. r: keys of about 6 rows each, spread over the table (partitioned); u: every
  // row its own key (states as large as the rows: not); m: 100 keys (a small table: not).
  const size_t rows = 40 * 16384;
  Column r6(TypeId::kInt64), u(TypeId::kInt64), m(TypeId::kInt32);
  std::string error;
  for (size_t i = 0; i < rows; ++i) {
    ASSERT_TRUE(r6.Append<int64_t>(static_cast<int64_t>(uint64_t{i} * 2654435761u % (rows / 6)), &error));
    ASSERT_TRUE(u.Append<int64_t>(static_cast<int64_t>(uint64_t{i} * 2654435761u % 1000000007u), &error));
    ASSERT_TRUE(m.Append<int32_t>(static_cast<int32_t>(i % 100), &error));
  }
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("r", std::move(r6), &error)) << error;
  ASSERT_TRUE(table->AddColumn("u", std::move(u), &error)) << error;
  ASSERT_TRUE(table->AddColumn("m", std::move(m), &error)) << error;
  for (int threads : {1, 2}) {
    DatabaseOptions options;
    options.threads = threads;
    options.profile = true;
    Database db(options);
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    Result result = db.Query("SELECT r, count(*) AS c FROM t GROUP BY r ORDER BY c DESC, r LIMIT 3");
    ASSERT_TRUE(result.ok()) << result.error();
    EXPECT_TRUE(HasSpan(db.LastProfileJson(), "aggregate partition")) << threads;
    // 655,360 rows = 6 * 109,226 + 4: the keys of rows 0..3 (and of every row congruent to
    // them) have 7 rows, the others 6.
    const auto key_of = [&](uint64_t i) { return std::to_string(i * 2654435761u % (rows / 6)); };
    EXPECT_EQ(PrintCsv(result), "r,c\n" + key_of(0) + ",7\n" + key_of(1) + ",7\n" + key_of(2) + ",7\n");
    result = db.Query("SELECT r, count(*) FROM t GROUP BY r");
    ASSERT_TRUE(result.ok()) << result.error();
    EXPECT_EQ(result.num_rows(), rows / 6);
    EXPECT_TRUE(HasSpan(db.LastProfileJson(), "aggregate partition")) << threads;
    result = db.Query("SELECT u, count(*) AS c FROM t GROUP BY u ORDER BY c DESC, u LIMIT 3");
    ASSERT_TRUE(result.ok()) << result.error();
    EXPECT_FALSE(HasSpan(db.LastProfileJson(), "aggregate partition")) << threads;
    result = db.Query("SELECT m, count(*) FROM t GROUP BY m");
    ASSERT_TRUE(result.ok()) << result.error();
    EXPECT_EQ(result.num_rows(), 100u);
    EXPECT_FALSE(HasSpan(db.LastProfileJson(), "aggregate partition")) << threads;
    // A split by keys, asked for, is kept.
    options.group_split = DatabaseOptions::GroupSplit::kKeys;
    Database keys(options);
    ASSERT_TRUE(keys.Register("t", table, &error)) << error;
    result = keys.Query("SELECT r, count(*) AS c FROM t GROUP BY r ORDER BY c DESC, r LIMIT 3");
    ASSERT_TRUE(result.ok()) << result.error();
    EXPECT_FALSE(HasSpan(keys.LastProfileJson(), "aggregate partition")) << threads;
  }
}

// Past kMaxOwners (4) threads the split by keys is closed and the split by rows' merge grows
// with the threads, so many groups are partitioned even where each key has one row; few
// groups are not. The answers are those of one thread.
TEST(PartitionedGroupBy, PastFourThreadsManyGroupsArePartitionedEvenWithoutRepeats) {
  LANEQL_SKIP_WITHOUT_THREADS();
  const size_t rows = 40 * 16384;  // enough batches for the sample (kMinBatches)
  Column u(TypeId::kInt64), m(TypeId::kInt32), s(TypeId::kString);
  std::string error;
  for (size_t i = 0; i < rows; ++i) {
    const uint64_t scrambled = uint64_t{i} * 2654435761u % 1000000007u;
    ASSERT_TRUE(u.Append<int64_t>(static_cast<int64_t>(scrambled), &error));
    ASSERT_TRUE(m.Append<int32_t>(static_cast<int32_t>(i % 100), &error));
    // One string key of about 3 rows each, a NULL and an empty string among them, of 2 to 45
    // bytes.
    const uint64_t key = scrambled % (rows / 3);
    if (key == 7) {
      ASSERT_TRUE(s.AppendNull(&error)) << error;
    } else {
      const std::string text = key == 11 ? std::string() : "k" + std::to_string(key * 7919) + std::string(key % 37, '-');
      ASSERT_TRUE(s.AppendString(text, &error)) << error;
    }
  }
  auto table = std::make_shared<Table>();
  ASSERT_TRUE(table->AddColumn("u", std::move(u), &error)) << error;
  ASSERT_TRUE(table->AddColumn("m", std::move(m), &error)) << error;
  ASSERT_TRUE(table->AddColumn("s", std::move(s), &error)) << error;
  const char* queries[] = {
      "SELECT u, count(*) AS c, sum(m) FROM t GROUP BY u ORDER BY c DESC, u LIMIT 5",
      "SELECT m, count(*) AS c FROM t GROUP BY m ORDER BY m LIMIT 5",  // few groups: never
      // One string key: its bytes in the partitions past 4 threads. Every group, in the order
      // of its first row, and ties broken by it; float sums as one thread adds them; pairs of
      // COUNT(DISTINCT); under a WHERE (the keys gathered, not the column's slices).
      "SELECT s, count(*) AS c, min(m), max(u) FROM t GROUP BY s",
      "SELECT s, count(*) AS c FROM t GROUP BY s ORDER BY c DESC LIMIT 7",
      "SELECT sum(hash(x)), count(*) FROM (SELECT s, sum(u * 1e-7 + m * 1e9) AS x FROM t GROUP BY s)",
      "SELECT s, count(DISTINCT m) AS d, count(*) FROM t WHERE m % 3 <> 0 GROUP BY s ORDER BY d DESC, s LIMIT 9",
  };
  constexpr int kQueries = sizeof(queries) / sizeof(queries[0]);
  const bool partitioned_past_4[kQueries] = {true, false, true, true, true, true};
  std::string one_thread[kQueries];
  for (int threads : {1, 4, 8}) {
    DatabaseOptions options;
    options.threads = threads;
    options.min_parallel_rows = 0;
    options.profile = true;
    Database db(options);
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    for (int q = 0; q < kQueries; ++q) {
      Result result = db.Query(queries[q]);
      ASSERT_TRUE(result.ok()) << result.error();
      if (threads == 1) one_thread[q] = PrintCsv(result);
      EXPECT_EQ(PrintCsv(result), one_thread[q]) << threads << " " << queries[q];
      EXPECT_EQ(HasSpan(db.LastProfileJson(), "aggregate partition"), partitioned_past_4[q] && threads > 4)
          << threads << " " << queries[q];
    }
    Result all = db.Query("SELECT u, count(*) FROM t GROUP BY u");
    ASSERT_TRUE(all.ok()) << all.error();
    EXPECT_EQ(all.num_rows(), rows);
  }
}

TEST(PartitionedGroupBy, TheMemoryLimitStopsItWithAnErrorAndTheDatabaseStaysUsable) {
  auto table = GroupTable(300'000, 2);
  for (int threads : {1, 2}) {
    DatabaseOptions options = Options(threads, 0);
    options.memory_limit_bytes = 1 << 20;
    Database db(options);
    std::string error;
    ASSERT_TRUE(db.Register("t", table, &error)) << error;
    const Result r = db.Query("SELECT k, count(*), sum(i64) FROM t GROUP BY k");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().rfind("out of memory: the query needs more than the memory limit of 1 MiB (while ", 0), 0u)
        << r.error();
    const Result small = db.Query("SELECT count(*), count(i8) FROM t WHERE i8 IS NULL");
    ASSERT_TRUE(small.ok()) << small.error();
    EXPECT_EQ(PrintCsv(small), "count_star(),count(i8)\n27273,0\n");
  }
}

}  // namespace
}  // namespace laneql
