// GenerateHits / GenerateHitsRange: splits the rows into contiguous ranges, one per thread,
// fills each range chunk by chunk (the shared row facts once, then every column), writes
// fixed-width values straight into the output columns and string values into per-range byte
// sinks that are joined at the end. Values depend only on (seed, rows, row, column), never on
// the split, so any thread count gives the same bytes.
#include "laneql/hits_generator.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <climits>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "laneql/aligned_buffer.h"
#include "src/common/ascii.h"
#include "src/storage/hits_column_fill.h"
#include "src/storage/hits_columns.h"
#include "src/storage/hits_row_model.h"
#include "src/storage/hits_text.h"
#include "src/storage/row_range_threads.h"

namespace laneql {
namespace internal {

// A generated string column from its buffers. Column::FromBuffers would read every offset
// again to check that none decreases (4 % of the generator's time, a pass over 4 bytes a row
// of 30 columns long out of cache); here each end is the byte sink's cursor after the row's
// value, which only advances, and the last end is the bytes' size.
struct GeneratedColumns {
  // `Offset` int32_t (a string column) or int64_t (large_string).
  template <class Offset>
  static Column Strings(size_t count, AlignedBuffer&& bytes, AlignedBuffer&& offsets) {
    assert(offsets.size() >= (count + 1) * sizeof(Offset));
    assert(static_cast<size_t>(offsets.As<Offset>()[count]) == bytes.size());
    Column column(sizeof(Offset) == 8 ? TypeId::kLargeString : TypeId::kString);
    column.length_ = count;
    column.values_ = std::move(bytes);
    column.offsets_ = std::move(offsets);
    return column;
  }
};

}  // namespace internal

namespace {

using hits::ByteSink;
using hits::kChunkRows;
using hits::kMaxValueBytes;
using hits::kNumHitsColumns;
using internal::RangeBegin;
using internal::RunTasks;
constexpr size_t kColumns = kNumHitsColumns;

// Below this many rows per thread, starting threads costs more than it saves.
constexpr size_t kMinRowsPerThread = 16384;
// At most this many rows per range: a range's text goes into int32 offsets before the ranges
// are joined, and 8 M rows of the longest column (URL, about 103 bytes a row) are about 0.9 GB.
constexpr size_t kMaxRangeRows = size_t{8} << 20;

void SetError(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
}

struct StringPart {
  ByteSink bytes;
  AlignedBuffer offsets;  // count + 1 int32 entries, offsets[0] == 0
};

// Room for the rest of a range's text once its first chunk shows how long the values run, so
// the sink is rarely copied to grow; a little over, as later chunks may run longer.
bool ReserveFromFirstChunk(size_t chunk_rows, size_t range_rows, ByteSink* bytes) {
  const double per_row = static_cast<double>(bytes->size()) / static_cast<double>(chunk_rows);
  const double estimate = per_row * 1.06 * static_cast<double>(range_rows) + kMaxValueBytes;
  if (estimate >= static_cast<double>(INT32_MAX)) return true;  // Room() will grow or refuse
  return bytes->Reserve(static_cast<size_t>(estimate));
}

// One thread's rows: [first_row, first_row + count) of the table, at out_row of the output.
struct RangeJob {
  size_t first_row = 0;
  size_t count = 0;
  size_t out_row = 0;
  std::vector<StringPart> strings;  // by column; used for the string columns only
  std::string error;                // empty = success
};

// `done` counts the rows every range has finished, for options.progress.
// `wanted[col]`: the column is generated (HitsOptions::columns).
void RunRange(const hits::HitsParams& params, const std::vector<uint8_t*>& fixed_bases,
              const std::vector<bool>& wanted, const HitsOptions& options,
              std::atomic<size_t>* done, RangeJob* job) {
  const std::vector<HitsColumnSpec>& schema = HitsSchema();
  job->strings.resize(kNumHitsColumns);
  for (int col = 0; col < kNumHitsColumns; ++col) {
    if (!wanted[col] || !IsString(schema[col].type)) continue;
    AlignedBuffer& offsets = job->strings[col].offsets;
    if (!offsets.ResizeForOverwrite((job->count + 1) * sizeof(int32_t), &job->error)) return;
    hits::PrefaultForWrite(offsets.data(), offsets.size());
    offsets.As<int32_t>()[0] = 0;
  }
  // This range's share of the fixed-width columns, mapped by this thread in one call each.
  for (int col = 0; col < kNumHitsColumns; ++col) {
    if (fixed_bases[col] == nullptr) continue;
    const size_t width = TypeByteWidth(schema[col].type);
    hits::PrefaultForWrite(fixed_bases[col] + job->out_row * width, job->count * width);
  }
  std::unique_ptr<hits::RowChunk> chunk(new (std::nothrow) hits::RowChunk);
  if (chunk == nullptr) {
    job->error = "out of memory for a row chunk";
    return;
  }
  for (size_t start = 0; start < job->count; start += kChunkRows) {
    const size_t n = std::min(kChunkRows, job->count - start);
    hits::FillRowChunk(params, job->first_row + start, n, chunk.get());
    for (int col = 0; col < kNumHitsColumns; ++col) {
      if (!wanted[col]) continue;
      if (fixed_bases[col] != nullptr) {
        const size_t width = TypeByteWidth(schema[col].type);
        hits::FillNumericColumn(col, *chunk, fixed_bases[col] + (job->out_row + start) * width);
        continue;
      }
      StringPart& part = job->strings[col];
      if (!hits::FillTextColumn(col, *chunk, &part.bytes, part.offsets.As<int32_t>() + 1 + start) ||
          (start == 0 && !ReserveFromFirstChunk(n, job->count, &part.bytes))) {
        job->error = "string column " + schema[col].name + " of rows " +
                     std::to_string(job->first_row) + ".." +
                     std::to_string(job->first_row + job->count) +
                     " does not fit int32 string offsets (over 2 GiB of text) or memory";
        return;
      }
    }
    const size_t rows_done = done->fetch_add(n, std::memory_order_relaxed) + n;
    if (options.progress) options.progress(rows_done);
  }
}

// Copies the ranges' pieces of one string column into `bytes` and `offsets` (count + 1
// entries of Offset) of the final size, releasing each piece once copied.
template <class Offset>
void CopyStringParts(int col, std::vector<RangeJob>* jobs, Offset* own, uint8_t* bytes) {
  own[0] = 0;
  size_t row = 0;
  Offset base = 0;
  for (RangeJob& job : *jobs) {
    StringPart& part = job.strings[col];
    const int32_t* ends = part.offsets.As<int32_t>();
    for (size_t i = 1; i <= job.count; ++i) own[row + i] = base + static_cast<Offset>(ends[i]);
    if (part.bytes.size() != 0) std::memcpy(bytes + base, part.bytes.data(), part.bytes.size());
    row += job.count;
    base += static_cast<Offset>(part.bytes.size());
    part.bytes.Release();
    part.offsets = AlignedBuffer();
  }
}

// Joins the ranges' pieces of one string column into a column. One range's buffers become the
// column as they are; several are copied once into buffers of the final size, with int64
// offsets (large_string) when the text passes 2 GiB, as URL does past about 20 M rows.
bool JoinStrings(int col, std::vector<RangeJob>* jobs, size_t count, Column* out,
                 std::string* error) {
  if (count == 0) {
    *out = Column(TypeId::kString);
    return true;
  }
  if (jobs->size() == 1) {
    StringPart& part = (*jobs)[0].strings[col];
    *out = internal::GeneratedColumns::Strings<int32_t>(count, part.bytes.Take(), std::move(part.offsets));
    return true;
  }
  size_t total = 0;
  for (const RangeJob& job : *jobs) total += job.strings[col].bytes.size();
  const bool large = total > static_cast<size_t>(INT32_MAX);
  AlignedBuffer offsets;
  AlignedBuffer bytes;
  if (!offsets.ResizeForOverwrite((count + 1) * (large ? sizeof(int64_t) : sizeof(int32_t)), error) ||
      !bytes.ResizeForOverwrite(total, error)) {
    return false;
  }
  if (large) {
    CopyStringParts(col, jobs, offsets.As<int64_t>(), bytes.data());
    *out = internal::GeneratedColumns::Strings<int64_t>(count, std::move(bytes), std::move(offsets));
  } else {
    CopyStringParts(col, jobs, offsets.As<int32_t>(), bytes.data());
    *out = internal::GeneratedColumns::Strings<int32_t>(count, std::move(bytes), std::move(offsets));
  }
  return true;
}

// About the bytes a row of the wanted columns takes while the table is built (measured: 2 M
// rows of all 105 columns peaked at 690 bytes a row of RSS, the .laneql file 614). Fixed-width
// values exactly; a string column its int32 offset plus its text: Title, URL and Referer are
// long (64, 103 and 59 bytes on average), the others a few bytes; 25 % on top of the averages
// for the string buffers' growth.
size_t RowBytes(const std::vector<bool>& wanted) {
  const std::vector<HitsColumnSpec>& schema = HitsSchema();
  size_t bytes = 0;
  for (size_t col = 0; col < kColumns; ++col) {
    if (!wanted[col]) continue;
    const HitsColumnSpec& spec = schema[col];
    if (!IsString(spec.type)) {
      bytes += TypeByteWidth(spec.type);
    } else if (spec.name == "URL") {
      bytes += sizeof(int32_t) + 130;
    } else if (spec.name == "Title") {
      bytes += sizeof(int32_t) + 80;
    } else if (spec.name == "Referer") {
      bytes += sizeof(int32_t) + 75;
    } else {
      bytes += sizeof(int32_t) + 4;
    }
  }
  return bytes;
}

// Refuses at once what cannot work, rather than failing after minutes or being killed for
// memory: tables far beyond the RAM.
bool CheckSize(size_t count, const std::vector<bool>& wanted, std::string* error) {
  const double needed = static_cast<double>(count) * static_cast<double>(RowBytes(wanted));
  if (needed >= static_cast<double>(SIZE_MAX)) {  // wasm32 may not know its memory (sysconf)
    SetError(error, std::to_string(count) + " rows need about " +
                        std::to_string(static_cast<uint64_t>(needed / (1 << 20))) +
                        " MiB, more than this build can address");
    return false;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    const double memory = static_cast<double>(pages) * static_cast<double>(page_size);
    if (needed > memory) {
      SetError(error, std::to_string(count) + " rows need about " +
                          std::to_string(static_cast<uint64_t>(needed / (1 << 20))) +
                          " MiB, more than this machine's " +
                          std::to_string(static_cast<uint64_t>(memory / (1 << 20))) + " MiB");
      return false;
    }
  }
  return true;
}

// Which columns to generate: `names` in any letter case, or all when empty.
bool WantedColumns(const std::vector<std::string>& names, std::vector<bool>* wanted,
                   std::string* error) {
  wanted->assign(kColumns, names.empty());
  const std::vector<HitsColumnSpec>& schema = HitsSchema();
  for (const std::string& name : names) {
    size_t col = 0;
    while (col < kColumns && !ascii::EqualsIgnoreCase(schema[col].name, name)) ++col;
    if (col == kColumns) {
      SetError(error, "hits has no column '" + name + "'");
      return false;
    }
    (*wanted)[col] = true;
  }
  return true;
}

}  // namespace

size_t EstimateHitsRowBytes(const std::vector<std::string>& columns) {
  std::vector<bool> wanted(kColumns, columns.empty());
  const std::vector<HitsColumnSpec>& schema = HitsSchema();
  for (const std::string& name : columns) {
    for (size_t col = 0; col < kColumns; ++col) {
      if (ascii::EqualsIgnoreCase(schema[col].name, name)) wanted[col] = true;
    }
  }
  return RowBytes(wanted);
}

bool GenerateHitsRange(const HitsOptions& options, size_t first_row, size_t count, Table* out,
                       std::string* error) {
  *out = Table();
  if (first_row > options.rows || count > options.rows - first_row) {
    SetError(error, "rows " + std::to_string(first_row) + " + " + std::to_string(count) +
                        " lie outside the table's " + std::to_string(options.rows) + " rows");
    return false;
  }
  const std::vector<HitsColumnSpec>& schema = HitsSchema();
  std::vector<bool> wanted;
  if (!WantedColumns(options.columns, &wanted, error)) return false;
  if (!CheckSize(count, wanted, error)) return false;
  const hits::HitsParams params = hits::MakeHitsParams(options.seed, options.rows);

  const size_t threads = internal::RangeThreads(options.threads, count, kMinRowsPerThread);
  std::vector<std::string> errors(threads);
  const auto first_error = [&]() -> bool {
    for (const std::string& message : errors) {
      if (!message.empty()) {
        SetError(error, message);
        return true;
      }
    }
    return false;
  };

  // The fixed-width columns, full size but not zeroed (every value is written): each range
  // fills its rows in place, so its thread also takes those pages' first-touch faults.
  std::vector<Column> columns(kNumHitsColumns);
  std::vector<AlignedBuffer> fixed(kNumHitsColumns);
  std::vector<uint8_t*> fixed_bases(kNumHitsColumns, nullptr);
  for (size_t col = 0; col < kColumns; ++col) {
    if (!wanted[col] || IsString(schema[col].type)) continue;
    if (!fixed[col].ResizeForOverwrite(count * TypeByteWidth(schema[col].type), error)) {
      return false;
    }
    if (count != 0) fixed_bases[col] = fixed[col].data();
  }

  // A range per thread, or more where one would pass int32 string offsets in its pieces.
  const size_t ranges = std::max(threads, (count + kMaxRangeRows - 1) / kMaxRangeRows);
  std::vector<RangeJob> jobs(ranges);
  for (size_t j = 0; j < ranges; ++j) {
    const size_t begin = RangeBegin(count, ranges, j);
    const size_t end = RangeBegin(count, ranges, j + 1);
    jobs[j].first_row = first_row + begin;
    jobs[j].count = end - begin;
    jobs[j].out_row = begin;
  }
  std::atomic<size_t> done{0};
  RunTasks(threads, [&](size_t t) {
    for (size_t j = t; j < ranges; j += threads) {
      RunRange(params, fixed_bases, wanted, options, &done, &jobs[j]);
      if (!jobs[j].error.empty()) return;  // reported below
    }
  });
  for (const RangeJob& job : jobs) {
    if (!job.error.empty()) {
      SetError(error, job.error);
      return false;
    }
  }

  // The string columns, joined from the ranges' pieces, a share of the columns per thread; the
  // fixed-width ones take over their filled buffers.
  RunTasks(threads, [&](size_t t) {
    for (size_t col = t; col < kColumns; col += threads) {
      if (!wanted[col]) continue;
      if (!IsString(schema[col].type)) {
        if (!Column::FromBuffers(schema[col].type, count, std::move(fixed[col]), AlignedBuffer(),
                                 AlignedBuffer(), &columns[col], &errors[t])) {
          return;
        }
        continue;
      }
      if (!JoinStrings(static_cast<int>(col), &jobs, count, &columns[col], &errors[t])) return;
    }
  });
  if (first_error()) return false;

  Table table;
  for (int col = 0; col < kNumHitsColumns; ++col) {
    if (!wanted[col]) continue;
    if (!table.AddColumn(schema[col].name, std::move(columns[col]), error)) return false;
  }
  *out = std::move(table);
  return true;
}

bool GenerateHits(const HitsOptions& options, Table* out, std::string* error) {
  return GenerateHitsRange(options, 0, options.rows, out, error);
}

}  // namespace laneql
