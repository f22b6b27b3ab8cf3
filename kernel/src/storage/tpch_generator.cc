// GenerateTpch / GenerateTpchTable: a table's units (rows, parts or orders: tpch_tables.h) split
// into contiguous ranges, one per thread; each range's row count is worked out first, so its
// fixed-width values are written in place into the whole table's buffers, and its strings into
// pieces of its own that are joined at the end. Values depend only on (seed, scale factor,
// row, column), never on the split, so any thread count gives the same bytes.
#include "laneql/tpch_generator.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "laneql/aligned_buffer.h"
#include "laneql/column.h"
#include "src/storage/row_range_threads.h"
#include "src/storage/tpch_model.h"
#include "src/storage/tpch_tables.h"

namespace laneql {
namespace {

using internal::RangeBegin;
using internal::RunTasks;
using tpch::TableDef;

// Units written between progress reports.
constexpr uint64_t kChunkUnits = 4096;
// Below this many units per thread, starting threads costs more than it saves.
constexpr uint64_t kMinUnitsPerThread = 8192;
// The largest scale factor whose counts stay far inside int64 and double's exact integers; the
// memory and int32 offset checks refuse much smaller ones first.
constexpr double kMaxScaleFactor = 1e6;

void SetError(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
}

std::string FormatScale(double scale_factor) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", scale_factor);
  return text;
}

// One thread's share: units [first_unit, first_unit + units), rows [out_row, out_row + rows).
struct Range {
  uint64_t first_unit = 0;
  uint64_t units = 0;
  uint64_t out_row = 0;
  uint64_t rows = 0;
  tpch::RowSink sink;
  std::string error;  // empty = success
};

// `bases[c]`: fixed-width column c's buffer for the whole table (nullptr for strings).
void FillRange(const tpch::Model& model, const TableDef& def, const TpchOptions& options,
               const std::vector<uint8_t*>& bases, std::atomic<size_t>* done, Range* range) {
  const size_t columns = def.columns.size();
  range->sink.fixed.assign(columns, nullptr);
  range->sink.strings.resize(columns);
  try {
    for (size_t c = 0; c < columns; ++c) {
      const TypeId type = def.columns[c].type;
      if (IsString(type)) {
        range->sink.strings[c].ends.reserve(range->rows);
      } else {
        range->sink.fixed[c] = bases[c] + range->out_row * TypeByteWidth(type);
      }
    }
    for (uint64_t start = 0; start < range->units; start += kChunkUnits) {
      const uint64_t n = std::min(kChunkUnits, range->units - start);
      const uint64_t rows = def.fill(model, range->first_unit + start, n, &range->sink);
      for (size_t c = 0; c < columns; ++c) {
        if (range->sink.fixed[c] != nullptr) {
          range->sink.fixed[c] += rows * TypeByteWidth(def.columns[c].type);
        }
      }
      const size_t rows_done = done->fetch_add(rows, std::memory_order_relaxed) + rows;
      if (options.progress) options.progress(rows_done);
    }
  } catch (const std::bad_alloc&) {
    range->error = "out of memory generating TPC-H table " + std::string(def.name);
  }
}

// The ranges' pieces of string column `c` as one column.
bool JoinStrings(const TableDef& def, size_t c, uint64_t rows, std::vector<Range>* ranges,
                 Column* out, std::string* error) {
  uint64_t total = 0;
  for (const Range& range : *ranges) total += range.sink.strings[c].bytes.size();
  if (total > static_cast<uint64_t>(INT32_MAX)) {
    SetError(error, "TPC-H column " + std::string(def.columns[c].name) + " needs " +
                        std::to_string(total) + " bytes, over the int32 string offset limit");
    return false;
  }
  AlignedBuffer bytes;
  AlignedBuffer offsets;
  if (!bytes.ResizeForOverwrite(total, error) ||
      !offsets.ResizeForOverwrite((rows + 1) * sizeof(int32_t), error)) {
    return false;
  }
  int32_t* ends = offsets.As<int32_t>();
  ends[0] = 0;
  uint64_t row = 0;
  int32_t base = 0;
  for (Range& range : *ranges) {
    tpch::StringPiece& piece = range.sink.strings[c];
    if (!piece.bytes.empty()) {
      std::memcpy(bytes.data() + base, piece.bytes.data(), piece.bytes.size());
    }
    for (uint32_t end : piece.ends) ends[++row] = base + static_cast<int32_t>(end);
    base += static_cast<int32_t>(piece.bytes.size());
    piece = tpch::StringPiece();  // frees the piece before the next one is copied
  }
  return Column::FromBuffers(def.columns[c].type, rows, std::move(bytes), std::move(offsets),
                             AlignedBuffer(), out, error);
}

bool BuildTable(const tpch::Model& model, const TableDef& def, const TpchOptions& options,
                Table* out, std::string* error) {
  const uint64_t units = def.units(model.scale());
  const size_t threads = internal::RangeThreads(options.threads, units, kMinUnitsPerThread);
  std::vector<Range> ranges(threads);
  for (size_t t = 0; t < threads; ++t) {
    ranges[t].first_unit = RangeBegin(units, threads, t);
    ranges[t].units = RangeBegin(units, threads, t + 1) - ranges[t].first_unit;
  }
  RunTasks(threads, [&](size_t t) {
    ranges[t].rows = def.rows_of(model, ranges[t].first_unit, ranges[t].units);
  });
  uint64_t rows = 0;
  for (Range& range : ranges) {
    range.out_row = rows;
    rows += range.rows;
  }

  const size_t columns = def.columns.size();
  std::vector<AlignedBuffer> fixed(columns);
  std::vector<uint8_t*> bases(columns, nullptr);
  for (size_t c = 0; c < columns; ++c) {
    const TypeId type = def.columns[c].type;
    if (IsString(type)) continue;
    if (!fixed[c].ResizeForOverwrite(rows * TypeByteWidth(type), error)) return false;
    bases[c] = fixed[c].data();
  }
  std::atomic<size_t> done{0};
  RunTasks(threads,
           [&](size_t t) { FillRange(model, def, options, bases, &done, &ranges[t]); });
  for (const Range& range : ranges) {
    if (!range.error.empty()) {
      SetError(error, range.error);
      return false;
    }
  }

  Table table;
  for (size_t c = 0; c < columns; ++c) {
    const TypeId type = def.columns[c].type;
    Column column(type);
    const bool built =
        IsString(type) ? JoinStrings(def, c, rows, &ranges, &column, error)
                       : Column::FromBuffers(type, rows, std::move(fixed[c]), AlignedBuffer(),
                                             AlignedBuffer(), &column, error);
    if (!built || !table.AddColumn(def.columns[c].name, std::move(column), error)) return false;
  }
  *out = std::move(table);
  return true;
}

double PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;  // unknown: not checked
  return static_cast<double>(pages) * static_cast<double>(page_size);
}

}  // namespace

const std::vector<std::string>& TpchTableNames() {
  static const std::vector<std::string>* const kNames = [] {
    auto* names = new std::vector<std::string>;
    for (const TableDef& def : tpch::TableDefs()) names->emplace_back(def.name);
    return names;
  }();
  return *kNames;
}

bool CheckTpchScale(double scale_factor, bool all_at_once, std::string* error) {
  if (!(scale_factor > 0) || !std::isfinite(scale_factor) || scale_factor > kMaxScaleFactor) {
    SetError(error, "the TPC-H scale factor must be a number > 0 (and at most " +
                        FormatScale(kMaxScaleFactor) + "), got " + FormatScale(scale_factor));
    return false;
  }
  // The table whose text reaches int32 string offsets at the smallest scale (10 % over the
  // average text length, for its spread), and the memory the tables take while built.
  double largest = 0, sum = 0, offset_limit = 0;
  const TableDef* largest_def = nullptr;
  const TableDef* offset_def = nullptr;
  for (const TableDef& def : tpch::TableDefs()) {
    const double limit = INT32_MAX / (1.1 * def.rows_at_sf1 * def.longest_text_bytes_per_row);
    if (offset_def == nullptr || limit < offset_limit) {
      offset_limit = limit;
      offset_def = &def;
    }
    const double bytes = def.rows_at_sf1 * scale_factor * def.build_bytes_per_row;
    sum += bytes;
    if (bytes > largest) {
      largest = bytes;
      largest_def = &def;
    }
  }
  if (scale_factor > offset_limit) {
    SetError(error, "TPC-H at SF " + FormatScale(scale_factor) + ": a string column of " +
                        std::string(offset_def->name) +
                        " would pass 2 GiB, the limit of int32 string offsets; SF " +
                        FormatScale(std::floor(offset_limit)) + " is the most it allows");
    return false;
  }
  const double memory = PhysicalMemoryBytes();
  const double needed = all_at_once ? sum : largest;
  if (memory > 0 && needed > memory) {
    SetError(error, "TPC-H at SF " + FormatScale(scale_factor) + " needs about " +
                        std::to_string(static_cast<uint64_t>(needed / (1 << 20))) +
                        " MiB of memory to build " +
                        (all_at_once ? std::string("its tables")
                                     : "table " + std::string(largest_def->name)) +
                        ", more than this machine's " +
                        std::to_string(static_cast<uint64_t>(memory / (1 << 20))) + " MiB");
    return false;
  }
  return true;
}

uint64_t TpchTableRows(const TpchOptions& options, std::string_view name) {
  const TableDef* def = tpch::FindTableDef(name);
  if (def == nullptr || !CheckTpchScale(options.scale_factor, false, nullptr)) return 0;
  const tpch::Model model(options.scale_factor, options.seed);
  return def->rows_of(model, 0, def->units(model.scale()));
}

bool GenerateTpchTable(const TpchOptions& options, std::string_view name, Table* out,
                       std::string* error) {
  *out = Table();
  const TableDef* def = tpch::FindTableDef(name);
  if (def == nullptr) {
    std::string names;
    for (const std::string& table : TpchTableNames()) names += (names.empty() ? "" : ", ") + table;
    SetError(error, "TPC-H has no table '" + std::string(name) + "' (its tables: " + names + ")");
    return false;
  }
  if (!CheckTpchScale(options.scale_factor, false, error)) return false;
  const tpch::Model model(options.scale_factor, options.seed);
  return BuildTable(model, *def, options, out, error);
}

bool GenerateTpch(const TpchOptions& options, std::vector<std::pair<std::string, Table>>* tables,
                  std::string* error) {
  tables->clear();
  if (!CheckTpchScale(options.scale_factor, true, error)) return false;
  const tpch::Model model(options.scale_factor, options.seed);
  std::vector<std::pair<std::string, Table>> built;
  for (const TableDef& def : tpch::TableDefs()) {
    Table table;
    if (!BuildTable(model, def, options, &table, error)) return false;
    built.emplace_back(std::string(def.name), std::move(table));
  }
  *tables = std::move(built);
  return true;
}

}  // namespace laneql
