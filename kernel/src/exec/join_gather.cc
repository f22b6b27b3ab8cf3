// GatherRows (hash_join.h): a joined relation's column, one source column gathered at a join
// side's row numbers, kNoRow giving NULL. Values move through the gather kernels
// (laneql/gather.h); a NULL slot holds zero bytes or an empty string, as Column requires.
#include <algorithm>
#include <cstring>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "laneql/gather.h"
#include "src/exec/hash_join.h"

namespace laneql {
namespace exec {
namespace {

// The output's validity: the source's bits at the rows, and 0 at kNoRow. Left empty when the
// source has no bitmap and no row is kNoRow (no NULL possible).
bool GatherValidity(const Column& source, const uint32_t* rows, size_t n, const uint32_t* ids,
                    size_t missing, AlignedBuffer* validity, std::string* error) {
  if (n == 0 || (source.validity() == nullptr && missing == 0)) return true;
  const size_t words = BitmaskWords(n);
  if (!validity->ResizeForOverwrite(words * sizeof(uint64_t), error)) return false;
  uint64_t* bits = validity->As<uint64_t>();
  if (source.validity() != nullptr && missing < n) {
    GatherBitmask(source.validity(), ids, n, bits);
  } else {
    for (size_t w = 0; w < words; ++w) bits[w] = ~uint64_t{0};
    bits[words - 1] &= BitmaskTailMask(n);
  }
  if (missing != 0) {
    for (size_t i = 0; i < n; ++i) {
      if (rows[i] == kNoRow) bits[i / 64] &= ~(uint64_t{1} << (i % 64));
    }
  }
  return true;
}

bool GatherFixedValues(const Column& source, const uint32_t* rows, size_t n, const uint32_t* ids,
                       size_t missing, AlignedBuffer* values, std::string* error) {
  const size_t width = TypeByteWidth(source.type());
  if (!values->ResizeForOverwrite(n * width, error)) return false;
  if (n == 0) return true;
  uint8_t* out = values->data();
  if (missing == n) {  // nothing to read (the source may be empty)
    std::memset(out, 0, n * width);
    return true;
  }
  const uint8_t* in = source.values_buffer().data();
  if (width == 16) {  // int128: no 16-byte kernel
    for (size_t i = 0; i < n; ++i) std::memcpy(out + i * 16, in + size_t{ids[i]} * 16, 16);
  } else {
    GatherFixed(width, in, ids, n, out);
  }
  if (missing != 0) {  // those slots read row 0: a NULL slot holds zero bytes
    for (size_t i = 0; i < n; ++i) {
      if (rows[i] == kNoRow) std::memset(out + i * width, 0, width);
    }
  }
  return true;
}

// Any source offset width into int64 offsets, a row at a time: large_string sources, and
// string results past 2^31 - 1 bytes.
template <class Offset>
bool GatherLargeStrings(const Offset* from, const uint8_t* bytes, const uint32_t* rows, size_t n,
                        uint64_t total, AlignedBuffer* values, AlignedBuffer* offsets, std::string* error) {
  if (!offsets->ResizeForOverwrite((n + 1) * sizeof(int64_t), error) ||
      !values->ResizeForOverwrite(static_cast<size_t>(total), error)) {
    return false;
  }
  int64_t* to = offsets->As<int64_t>();
  uint8_t* out = values->data();
  to[0] = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t r = rows[i];
    const size_t length = r == kNoRow ? 0 : static_cast<size_t>(from[r + 1] - from[r]);
    if (length != 0) std::memcpy(out + to[i], bytes + from[r], length);
    to[i + 1] = to[i] + static_cast<int64_t>(length);
  }
  return true;
}

// kString rows through the kernels: the offsets and bytes of the rows other than kNoRow (a
// kNoRow row has no bytes, so theirs are the output's bytes in order), then the offsets spread
// out to every row, a kNoRow row repeating the offset before it.
bool GatherShortStrings(const Column& source, const uint32_t* rows, size_t n, size_t missing, uint64_t total,
                        AlignedBuffer* values, AlignedBuffer* offsets, std::string* error) {
  if (!offsets->ResizeForOverwrite((n + 1) * sizeof(int32_t), error) ||
      !values->ResizeForOverwrite(static_cast<size_t>(total), error)) {
    return false;
  }
  int32_t* to = offsets->As<int32_t>();
  AlignedBuffer present_buffer, present_offsets_buffer;
  const uint32_t* present = rows;
  int32_t* present_offsets = to;
  const size_t count = n - missing;
  if (missing != 0) {
    if (!present_buffer.ResizeForOverwrite(count * sizeof(uint32_t), error) ||
        !present_offsets_buffer.ResizeForOverwrite((count + 1) * sizeof(int32_t), error)) {
      return false;
    }
    uint32_t* kept = present_buffer.As<uint32_t>();
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
      if (rows[i] != kNoRow) kept[k++] = rows[i];
    }
    present = kept;
    present_offsets = present_offsets_buffer.As<int32_t>();
  }
  GatherStringOffsets(source.Offsets32(), present, count, present_offsets);
  if (total != 0) {
    const AlignedBuffer& bytes = source.values_buffer();
    GatherStringData(source.Offsets32(), bytes.data(), bytes.capacity(), present, count, values->data(),
                     static_cast<size_t>(total));
  }
  if (missing != 0) {
    size_t k = 0;
    to[0] = 0;
    for (size_t i = 0; i < n; ++i) {
      if (rows[i] != kNoRow) ++k;
      to[i + 1] = present_offsets[k];
    }
  }
  return true;
}

}  // namespace

bool GatherRows(const Column& source, const std::vector<uint32_t>& rows, Column* out, std::string* error) {
  return GatherRows(source, rows.data(), rows.size(), out, error);
}

bool GatherRows(const Column& source, const uint32_t* rows, size_t n, Column* out, std::string* error) {
  const ScopedMemoryActivity activity("gathering a join's output column");
  const size_t missing = static_cast<size_t>(std::count(rows, rows + n, kNoRow));
  // Row numbers with kNoRow replaced by row 0, for the kernels (only when some row is read, so
  // row 0 exists); those slots are cleared afterwards.
  AlignedBuffer substituted;
  const uint32_t* ids = rows;
  if (missing != 0 && missing != n) {
    if (!substituted.ResizeForOverwrite(n * sizeof(uint32_t), error)) return false;
    uint32_t* to = substituted.As<uint32_t>();
    for (size_t i = 0; i < n; ++i) to[i] = rows[i] == kNoRow ? 0 : rows[i];
    ids = to;
  }
  AlignedBuffer values, offsets, validity;
  TypeId type = source.type();
  if (IsString(type)) {
    const bool narrow = PhysicalType(type) == TypeId::kString;  // int32 offsets: strings and lists
    uint64_t total = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint32_t r = rows[i];
      if (r == kNoRow) continue;
      total += narrow
                   ? static_cast<uint64_t>(source.Offsets32()[r + 1] - source.Offsets32()[r])
                   : static_cast<uint64_t>(source.Offsets64()[r + 1] - source.Offsets64()[r]);
    }
    if (total > static_cast<uint64_t>(AlignedBuffer::kMaxSize)) {
      *error = "a joined string column would exceed the address space";
      return false;
    }
    bool ok;
    if (narrow && total <= static_cast<uint64_t>(INT32_MAX)) {
      ok = GatherShortStrings(source, rows, n, missing, total, &values, &offsets, error);
    } else if (IsList(type)) {
      *error = "a list column would exceed 2 GiB";  // lists have no 64-bit offsets
      return false;
    } else if (narrow) {
      type = TypeId::kLargeString;  // int32 offsets cannot address the result
      ok = GatherLargeStrings(source.Offsets32(), source.StringData(), rows, n, total, &values, &offsets, error);
    } else {
      ok = GatherLargeStrings(source.Offsets64(), source.StringData(), rows, n, total, &values, &offsets, error);
    }
    if (!ok) return false;
    if (n == 0) offsets = AlignedBuffer();  // FromBuffers takes no offsets for no rows
  } else if (!GatherFixedValues(source, rows, n, ids, missing, &values, error)) {
    return false;
  }
  if (!GatherValidity(source, rows, n, ids, missing, &validity, error)) return false;
  return Column::FromBuffers(type, n, std::move(values), std::move(offsets), std::move(validity), out, error);
}

}  // namespace exec
}  // namespace laneql
