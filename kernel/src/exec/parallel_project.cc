#include "src/exec/parallel_project.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "src/common/query_budget.h"
#include "src/exec/executor.h"
#include "src/exec/string_chunks.h"
#include "src/exec/morsel.h"
#include "src/exec/output_stage.h"

namespace laneql {
namespace exec {

namespace {

// Whether any of the part's rows is NULL (a bitmap may be there with every bit set).
bool HasNull(const Vec& part) {
  if (part.validity == nullptr || part.count == 0) return false;
  if (part.constant) return part.IsNull(0);
  const size_t words = BitmaskWords(part.count);
  for (size_t w = 0; w < words; ++w) {
    const uint64_t expected = w + 1 == words ? BitmaskTailMask(part.count) : ~uint64_t{0};
    if ((part.validity[w] & expected) != expected) return true;
  }
  return false;
}

// The part's validity as whole words of the column's bitmap from word `first` (the part starts
// at row 64 * first): its own bits, all set for a part without NULLs.
void WriteValidity(const Vec& part, uint64_t* bits, size_t first) {
  const size_t words = BitmaskWords(part.count);
  for (size_t w = 0; w < words; ++w) {
    uint64_t word = ~uint64_t{0};
    if (part.constant) {
      word = part.IsNull(0) ? 0 : word;
    } else if (part.validity != nullptr) {
      word = part.validity[w];
    }
    if (w + 1 == words) word &= BitmaskTailMask(part.count);
    bits[first + w] = word;
  }
}

// The part's string rows at `row` / byte `byte` of the column: its bytes and offsets (int32,
// or int64 for a large_string), NULL rows empty (as Column::AppendNull leaves them).
template <class Offset>
void WriteStrings(const Vec& part, uint8_t* data, Offset* offsets, size_t row, size_t byte) {
  if (!part.constant && part.validity == nullptr) {
    // The rows' bytes lie together: one copy, the offsets moved by the difference of starts.
    const int32_t from = part.offsets[0];
    const size_t bytes = static_cast<size_t>(part.offsets[part.count] - from);
    if (bytes != 0) std::memcpy(data + byte, part.values + from, bytes);
    const int64_t shift = static_cast<int64_t>(byte) - from;
    for (size_t i = 0; i < part.count; ++i) {
      offsets[row + i] = static_cast<Offset>(part.offsets[i] + shift);
    }
    return;
  }
  for (size_t i = 0; i < part.count; ++i) {
    offsets[row + i] = static_cast<Offset>(byte);
    if (part.IsNull(i)) continue;
    const std::string_view s = part.Str(i);
    if (!s.empty()) std::memcpy(data + byte, s.data(), s.size());
    byte += s.size();
  }
}

size_t StringBytes(const Vec& part) {
  if (!part.constant && part.validity == nullptr) {
    return part.count == 0 ? 0 : static_cast<size_t>(part.offsets[part.count] - part.offsets[0]);
  }
  if (part.constant) return part.IsNull(0) ? 0 : part.Str(0).size() * part.count;
  size_t bytes = 0;
  for (size_t i = 0; i < part.count; ++i) bytes += part.IsNull(i) ? 0 : part.Str(i).size();
  return bytes;
}

// Rows per chunk: about four chunks per thread, whole batches (so a chunk's column slices stay
// aligned to 64 rows and can be borrowed), at least two batches.
size_t ChunkRows(size_t rows, int threads) {
  const size_t per_chunk = std::min(rows / (static_cast<size_t>(threads) * 4), kMaxChunkRows);
  const size_t batches = std::max<size_t>((per_chunk + kBatchRows - 1) / kBatchRows, 2);
  return batches * kBatchRows;
}

}  // namespace

bool VecsToColumn(const std::vector<Vec>& parts, TypeId type, const ExecContext& ctx, int threads, Column* out,
                  std::string* error) {
  const size_t n_parts = parts.size();
  std::vector<size_t> first_row(n_parts + 1, 0), first_byte(n_parts + 1, 0);
  bool any_null = false;
  const bool strings = IsString(type);
  for (size_t p = 0; p < n_parts; ++p) {
    first_row[p + 1] = first_row[p] + parts[p].count;
    if (p + 1 < n_parts && parts[p].count % 64 != 0) {
      *error = "internal error: a part before the last holds a row count that is not a multiple of 64";
      return false;
    }
    any_null |= HasNull(parts[p]);
    first_byte[p + 1] = first_byte[p] + (strings ? StringBytes(parts[p]) : 0);
  }
  const size_t rows = first_row[n_parts];
  AlignedBuffer values, offsets, validity;
  // Past 2^31 - 1 bytes a string column takes int64 offsets (large_string); a list cannot.
  const bool large = strings && first_byte[n_parts] > static_cast<size_t>(std::numeric_limits<int32_t>::max());
  if (large && type != TypeId::kString) {
    *error = "a list column holds at most 2^31 - 1 bytes";
    return false;
  }
  if (large) type = TypeId::kLargeString;
  if (strings) {
    if (!values.ResizeForOverwrite(first_byte[n_parts], error) ||
        !offsets.ResizeForOverwrite((rows + 1) * (large ? sizeof(int64_t) : sizeof(int32_t)), error)) {
      return false;
    }
    if (large) {
      offsets.As<int64_t>()[rows] = static_cast<int64_t>(first_byte[n_parts]);
    } else {
      offsets.As<int32_t>()[rows] = static_cast<int32_t>(first_byte[n_parts]);
    }
  } else if (!values.ResizeForOverwrite(rows * TypeByteWidth(type), error)) {
    return false;
  }
  if (any_null && !validity.Resize(BitmaskWords(rows) * sizeof(uint64_t), error)) return false;
  const size_t width = strings ? 0 : TypeByteWidth(type);
  auto write = [&](size_t p, int, std::string*) {
    const Vec& part = parts[p];
    if (large) {
      WriteStrings(part, values.data(), offsets.As<int64_t>(), first_row[p], first_byte[p]);
    } else if (strings) {
      WriteStrings(part, values.data(), offsets.As<int32_t>(), first_row[p], first_byte[p]);
    } else if (part.constant) {
      for (size_t i = 0; i < part.count; ++i) std::memcpy(values.data() + (first_row[p] + i) * width, part.values, width);
    } else if (part.count != 0) {
      std::memcpy(values.data() + first_row[p] * width, part.values, part.count * width);
    }
    if (any_null) WriteValidity(part, validity.As<uint64_t>(), first_row[p] / 64);
    return true;
  };
  if (!RunTasks(ctx, threads, n_parts, write, error)) return false;
  return Column::FromBuffers(type, rows, std::move(values), std::move(offsets), std::move(validity), out, error);
}

bool ConcatColumns(const std::vector<Column>& parts, const ExecContext& ctx, int threads, Column* out,
                   std::string* error) {
  if (parts.empty()) {
    *error = "internal error: no columns to join";
    return false;
  }
  const TypeId type = parts[0].type();
  std::vector<Vec> vecs(parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    const Column& part = parts[p];
    if (part.type() != type || type == TypeId::kLargeString) {
      *error = "internal error: columns of other types cannot be joined";
      return false;
    }
    vecs[p].type = type;
    vecs[p].count = part.length();
    vecs[p].values = part.values_buffer().data();
    vecs[p].offsets = IsString(type) ? part.Offsets32() : nullptr;
    vecs[p].validity = part.validity();
  }
  return VecsToColumn(vecs, type, ctx, threads, out, error);
}

Result ProjectOnThreads(const plan::Plan& plan, const ExecContext& ctx, const Evaluator& evaluator,
                        const RowSet& rows) {
  // Chunks for the threads the tasks will run on (RunTasks takes no more than the processors).
  const int threads = TaskThreads(ThreadsFor(rows.count, ctx.ThreadsAvailable(), ctx.min_parallel_rows), rows.count);
  Evaluator serial = evaluator;
  // One thread evaluates the rows at once, unless they are many: a Vec's strings have int32
  // offsets, so a column of over 2 GiB of text is made of chunks (then a large_string).
  if ((threads <= 1 && rows.count <= kMaxChunkRows) || plan.num_visible == 0 || rows.mask != nullptr) {
    return Project(plan, &serial, rows);
  }
  const ScopedMemoryActivity activity("building the result");
  const size_t chunk = ChunkRows(rows.count, threads);
  const size_t chunks = (rows.count + chunk - 1) / chunk;
  // parts[o][c]: output o over chunk c.
  std::vector<std::vector<Vec>> parts(plan.num_visible);
  for (std::vector<Vec>& output : parts) output.resize(chunks);
  auto evaluate = [&](size_t c, int, std::string* task_error) {
    Evaluator local = evaluator;
    RowSet slice;
    slice.count = std::min(chunk, rows.count - c * chunk);
    if (rows.ids != nullptr) {
      slice.ids = rows.ids + c * chunk;
    } else {
      slice.begin = rows.begin + c * chunk;
    }
    for (size_t o = 0; o < plan.num_visible; ++o) {
      if (!local.Eval(*plan.outputs[o], slice, &parts[o][c], task_error)) return false;
    }
    return true;
  };
  std::string error;
  if (!RunTasks(ctx, threads, chunks, evaluate, &error)) {
    if (ctx.Interrupted()) return Result::Error(ctx.StopMessage());
    // The error a single thread meets first (an earlier row's, or an earlier output's).
    parts.clear();
    return Project(plan, &serial, rows);
  }
  Result result;
  for (size_t o = 0; o < plan.num_visible; ++o) {
    Column column;
    const TypeId type = parts[o][0].type;
    for (const Vec& part : parts[o]) {
      if (part.type != type) return Result::Error("internal error: an output's chunks differ in type");
    }
    if (!VecsToColumn(parts[o], type, ctx, threads, &column, &error) ||
        !result.AddColumn(plan.names[o], std::move(column), &error)) {
      return Result::Error(error);
    }
    parts[o].clear();  // each output's chunks freed once written
  }
  return result;
}

}  // namespace exec
}  // namespace laneql
