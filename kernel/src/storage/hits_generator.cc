// GenerateHits / GenerateHitsRange: splits the rows into contiguous ranges, one per thread,
// fills each range chunk by chunk (the shared row facts once, then every column), writes
// fixed-width values straight into the output columns and string values into per-range byte
// sinks that are joined at the end. Values depend only on (seed, rows, row, column), never on
// the split, so any thread count gives the same bytes.
#include "laneql/hits_generator.h"

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "src/storage/hits_column_fill.h"
#include "src/storage/hits_columns.h"
#include "src/storage/hits_row_model.h"
#include "src/storage/hits_text.h"

namespace laneql {
namespace {

using hits::ByteSink;
using hits::kChunkRows;
using hits::kNumHitsColumns;
constexpr size_t kColumns = kNumHitsColumns;

// Below this many rows per thread, starting threads costs more than it saves.
constexpr size_t kMinRowsPerThread = 16384;
// Every URL has at least "http://" + a domain + "/" (16 bytes): a bound on the string bytes
// that tells at once when a table cannot fit int32 string offsets.
constexpr size_t kMinUrlBytes = 16;
// A generous estimate of the bytes a row takes (fixed-width values, string offsets, text).
constexpr size_t kEstimatedBytesPerRow = 700;

void SetError(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
}

struct StringPart {
  ByteSink bytes;
  std::unique_ptr<int32_t[]> offsets;  // count + 1 entries, offsets[0] == 0
};

// One thread's rows: [first_row, first_row + count) of the table, at out_row of the output.
struct RangeJob {
  size_t first_row = 0;
  size_t count = 0;
  size_t out_row = 0;
  std::vector<StringPart> strings;  // by column; used for the string columns only
  std::string error;                // empty = success
};

void RunRange(const hits::HitsParams& params, const std::vector<uint8_t*>& fixed_bases,
              RangeJob* job) {
  const std::vector<HitsColumnSpec>& schema = HitsSchema();
  job->strings.resize(kNumHitsColumns);
  for (int col = 0; col < kNumHitsColumns; ++col) {
    if (!IsString(schema[col].type)) continue;
    int32_t* offsets = new (std::nothrow) int32_t[job->count + 1];
    if (offsets == nullptr) {
      job->error = "out of memory for the offsets of " + schema[col].name;
      return;
    }
    offsets[0] = 0;
    job->strings[col].offsets.reset(offsets);
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
      if (fixed_bases[col] != nullptr) {
        const size_t width = TypeByteWidth(schema[col].type);
        hits::FillNumericColumn(col, *chunk, fixed_bases[col] + (job->out_row + start) * width);
        continue;
      }
      StringPart& part = job->strings[col];
      if (!hits::FillTextColumn(col, *chunk, &part.bytes, part.offsets.get() + 1 + start)) {
        job->error = "string column " + schema[col].name + " of rows " +
                     std::to_string(job->first_row) + ".." +
                     std::to_string(job->first_row + job->count) +
                     " does not fit int32 string offsets (over 2 GiB of text) or memory";
        return;
      }
    }
  }
}

// Runs task(t) for t in [0, tasks), task 0 on the calling thread. A thread that cannot be
// started runs its task here instead, so the result never depends on thread creation.
template <class Task>
void RunTasks(size_t tasks, const Task& task) {
  std::vector<std::thread> workers;
  for (size_t t = 1; t < tasks; ++t) {
    try {
      workers.emplace_back([&task, t] { task(t); });
    } catch (const std::system_error&) {
      task(t);
    }
  }
  task(0);
  for (std::thread& worker : workers) worker.join();
}

uint8_t* MutableBase(Column* column) {
  switch (TypeByteWidth(column->type())) {
    case 2: return reinterpret_cast<uint8_t*>(column->MutableValues<int16_t>());
    case 4: return reinterpret_cast<uint8_t*>(column->MutableValues<int32_t>());
    default: return reinterpret_cast<uint8_t*>(column->MutableValues<int64_t>());
  }
}

// Joins the ranges' pieces of one string column into a column.
bool JoinStrings(int col, std::vector<RangeJob>* jobs, size_t count, Column* out,
                 std::string* error) {
  const std::string& name = HitsSchema()[col].name;
  if (count == 0) {
    *out = Column(TypeId::kString);
    return true;
  }
  if (jobs->size() == 1) {
    StringPart& part = (*jobs)[0].strings[col];
    const bool ok = Column::FromStrings(part.offsets.get(),
                                        reinterpret_cast<const uint8_t*>(part.bytes.data()), count,
                                        nullptr, out, error);
    part.bytes.Release();
    part.offsets.reset();
    return ok;
  }
  size_t total = 0;
  for (const RangeJob& job : *jobs) total += job.strings[col].bytes.size();
  if (total > static_cast<size_t>(INT32_MAX)) {
    SetError(error, "string column " + name + " needs " + std::to_string(total) +
                        " bytes, over the int32 string offset limit");
    return false;
  }
  std::unique_ptr<int32_t[]> offsets(new (std::nothrow) int32_t[count + 1]);
  std::unique_ptr<uint8_t[]> bytes(new (std::nothrow) uint8_t[total == 0 ? 1 : total]);
  if (offsets == nullptr || bytes == nullptr) {
    SetError(error, "out of memory joining string column " + name);
    return false;
  }
  offsets[0] = 0;
  size_t row = 0;
  int32_t base = 0;
  for (RangeJob& job : *jobs) {
    StringPart& part = job.strings[col];
    for (size_t i = 1; i <= job.count; ++i) offsets[row + i] = base + part.offsets[i];
    if (part.bytes.size() != 0) {
      std::memcpy(bytes.get() + base, part.bytes.data(), part.bytes.size());
    }
    row += job.count;
    base += static_cast<int32_t>(part.bytes.size());
    part.bytes.Release();
    part.offsets.reset();
  }
  return Column::FromStrings(offsets.get(), bytes.get(), count, nullptr, out, error);
}

// Refuses at once what cannot work, rather than failing after minutes or being killed for
// memory: tables whose URL column alone passes the int32 offsets, or far beyond the RAM.
bool CheckSize(size_t count, std::string* error) {
  if (count > static_cast<size_t>(INT32_MAX) / kMinUrlBytes) {
    SetError(error, std::to_string(count) +
                        " rows do not fit int32 string offsets (the URL column alone would "
                        "pass 2 GiB); generate at most " +
                        std::to_string(static_cast<size_t>(INT32_MAX) / kMinUrlBytes) +
                        " rows per table");
    return false;
  }
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page_size > 0) {
    const double memory = static_cast<double>(pages) * static_cast<double>(page_size);
    const double needed = static_cast<double>(count) * kEstimatedBytesPerRow;
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

}  // namespace

bool GenerateHitsRange(const HitsOptions& options, size_t first_row, size_t count, Table* out,
                       std::string* error) {
  *out = Table();
  if (first_row > options.rows || count > options.rows - first_row) {
    SetError(error, "rows " + std::to_string(first_row) + " + " + std::to_string(count) +
                        " lie outside the table's " + std::to_string(options.rows) + " rows");
    return false;
  }
  if (!CheckSize(count, error)) return false;
  const std::vector<HitsColumnSpec>& schema = HitsSchema();
  const hits::HitsParams params = hits::MakeHitsParams(options.seed, options.rows);

  size_t threads = options.threads < 1 ? 1 : static_cast<size_t>(options.threads);
  threads = std::max<size_t>(1, std::min(threads, count / kMinRowsPerThread));
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

  // The fixed-width columns, full size, allocated (and so zeroed: most of the page faults) by
  // all threads, then filled in place by every range.
  std::vector<Column> columns(kNumHitsColumns);
  std::vector<uint8_t*> fixed_bases(kNumHitsColumns, nullptr);
  RunTasks(threads, [&](size_t t) {
    for (size_t col = t; col < kColumns; col += threads) {
      if (IsString(schema[col].type)) continue;
      if (!Column::Zeroed(schema[col].type, count, &columns[col], &errors[t])) return;
      if (count != 0) fixed_bases[col] = MutableBase(&columns[col]);
    }
  });
  if (first_error()) return false;

  std::vector<RangeJob> jobs(threads);
  for (size_t t = 0; t < threads; ++t) {
    // Contiguous ranges, the first count % threads one row longer.
    const size_t begin = count / threads * t + std::min(t, count % threads);
    const size_t end = count / threads * (t + 1) + std::min(t + 1, count % threads);
    jobs[t].first_row = first_row + begin;
    jobs[t].count = end - begin;
    jobs[t].out_row = begin;
  }
  RunTasks(threads, [&](size_t t) { RunRange(params, fixed_bases, &jobs[t]); });
  for (const RangeJob& job : jobs) {
    if (!job.error.empty()) {
      SetError(error, job.error);
      return false;
    }
  }

  // The string columns, joined from the ranges' pieces, a share of the columns per thread.
  RunTasks(threads, [&](size_t t) {
    for (size_t col = t; col < kColumns; col += threads) {
      if (!IsString(schema[col].type)) continue;
      if (!JoinStrings(static_cast<int>(col), &jobs, count, &columns[col], &errors[t])) return;
    }
  });
  if (first_error()) return false;

  Table table;
  for (int col = 0; col < kNumHitsColumns; ++col) {
    if (!table.AddColumn(schema[col].name, std::move(columns[col]), error)) return false;
  }
  *out = std::move(table);
  return true;
}

bool GenerateHits(const HitsOptions& options, Table* out, std::string* error) {
  return GenerateHitsRange(options, 0, options.rows, out, error);
}

}  // namespace laneql
