#include "src/storage/table_statistics.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace laneql {
namespace {

// A sampled value as bytes (fixed-width values by their bit pattern, strings by their bytes).
std::string ValueBytes(const Column& column, size_t row) {
  if (IsString(column.type())) return std::string(column.StringAt(row));
  const size_t width = TypeByteWidth(column.type());
  const uint8_t* values = column.values_buffer().data();
  return std::string(reinterpret_cast<const char*>(values + row * width), width);
}

// A number, date or timestamp value as a double in the column's units; false for other types
// and NaN.
bool NumericValue(const Column& column, size_t row, double* out) {
  switch (column.type()) {
    case TypeId::kInt8: *out = column.Values<int8_t>()[row]; break;
    case TypeId::kInt16: *out = column.Values<int16_t>()[row]; break;
    case TypeId::kInt32:
    case TypeId::kDate32: *out = column.Values<int32_t>()[row]; break;
    case TypeId::kInt64:
    case TypeId::kTimestampSeconds:
    case TypeId::kTimestampMicros: *out = static_cast<double>(column.Values<int64_t>()[row]); break;
    case TypeId::kUInt8: *out = column.Values<uint8_t>()[row]; break;
    case TypeId::kUInt16: *out = column.Values<uint16_t>()[row]; break;
    case TypeId::kUInt32: *out = column.Values<uint32_t>()[row]; break;
    case TypeId::kUInt64: *out = static_cast<double>(column.Values<uint64_t>()[row]); break;
    case TypeId::kFloat32: *out = column.Values<float>()[row]; break;
    case TypeId::kFloat64: *out = column.Values<double>()[row]; break;
    default: return false;
  }
  return *out == *out;
}

// The place of each sampled row inside its stratum is hashed, not fixed: a fixed stride meets
// periodic data (x = row % 5000) at the same few values again and again.
uint64_t SplitMix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

struct Cache {
  std::mutex mutex;
  // Keyed by address, checked against the weak pointer (an address is reused after a free).
  struct Entry {
    std::weak_ptr<const Table> table;
    std::vector<bool> made;
    std::vector<ColumnStatistics> columns;
  };
  std::map<const Table*, Entry> entries;
};

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: used until exit from any thread
  return *cache;
}

}  // namespace

ColumnStatistics ComputeColumnStatistics(const Column& column) {
  ColumnStatistics stats;
  const size_t n = column.length();
  if (n == 0) return stats;
  std::string error;
  if (!column.Verify(&error)) {  // a damaged .laneql column is not read: assume all distinct
    stats.distinct = static_cast<double>(n);
    return stats;
  }
  const size_t s = std::min(n, kStatisticsSample);
  std::unordered_map<std::string, size_t> counts;
  size_t nulls = 0;
  for (size_t i = 0; i < s; ++i) {
    // One row from each of s equal strata, at a hashed place inside it: no row twice. In 64
    // bits: i * n passes 2^32 from 2^20 rows on, and size_t is 32 bits in wasm32, where the
    // wrapped bounds once made `end - begin` huge and the row anywhere in memory (a trap).
    const uint64_t begin = uint64_t{i} * n / s, end = uint64_t{i + 1} * n / s;
    const size_t row = static_cast<size_t>(begin + SplitMix(i) % std::max<uint64_t>(1, end - begin));
    if (!column.IsValid(row)) {
      ++nulls;
      continue;
    }
    ++counts[ValueBytes(column, row)];
    double value = 0;
    if (NumericValue(column, row, &value)) {
      stats.min = stats.has_range ? std::min(stats.min, value) : value;
      stats.max = stats.has_range ? std::max(stats.max, value) : value;
      stats.has_range = true;
    }
  }
  stats.null_fraction = static_cast<double>(nulls) / static_cast<double>(s);
  const double sampled = static_cast<double>(s - nulls);
  if (sampled == 0) return stats;
  const double d = static_cast<double>(counts.size());
  double once = 0;
  for (const auto& entry : counts) once += entry.second == 1 ? 1 : 0;
  // Duj1: D = d / (1 - (1 - q) * f1 / s), q the sampled fraction of the non-NULL rows.
  const double rows = static_cast<double>(n) * (1 - stats.null_fraction);
  const double q = sampled / std::max(rows, sampled);
  const double denominator = 1 - (1 - q) * once / sampled;
  stats.distinct = denominator <= 0 ? rows : std::min(rows, d / denominator);
  stats.distinct = std::max(stats.distinct, 1.0);
  return stats;
}

ColumnStatistics TableColumnStatistics(const std::shared_ptr<const Table>& table, size_t column) {
  Cache& cache = TheCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    auto it = cache.entries.find(table.get());
    if (it != cache.entries.end() && it->second.table.lock() == table && it->second.made[column]) {
      return it->second.columns[column];
    }
  }
  // Made outside the lock (a sample of the column); two threads may both make it, alike.
  const ColumnStatistics stats = ComputeColumnStatistics(table->column(column));
  std::lock_guard<std::mutex> lock(cache.mutex);
  // Entries of freed tables (or of an address reused by a new table) go first.
  for (auto e = cache.entries.begin(); e != cache.entries.end();) {
    const std::shared_ptr<const Table> held = e->second.table.lock();
    e = held == nullptr || (e->first == table.get() && held != table) ? cache.entries.erase(e) : std::next(e);
  }
  Cache::Entry& entry = cache.entries[table.get()];
  if (entry.made.empty()) {
    entry.table = table;
    entry.made.assign(table->num_columns(), false);
    entry.columns.resize(table->num_columns());
  }
  entry.made[column] = true;
  entry.columns[column] = stats;
  return stats;
}

}  // namespace laneql
