// Arrow arrays -> laneql columns (see arrow_column.h).
//
// Every column is built into fresh AlignedBuffers and handed over with Column::FromBuffers: the
// Arrow table is dropped right after conversion, and laneql's buffers need their 64-byte
// alignment and zero padding anyway. Chunks (one or more per Parquet row group) are
// concatenated in order; a chunk's offset (a slice) shifts its values, offsets and validity
// bits, which Arrow's ArrayData::GetValues and the bit offsets below account for.
#include "arrow_column.h"

#include <arrow/api.h>
#include <arrow/util/bit_util.h>
#include <arrow/util/bitmap_ops.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <string_view>
#include <utility>

#include "laneql/int128.h"

namespace laneql {
namespace parquet_internal {
namespace {

bool Fail(const std::string& message, std::string* error) {
  if (error != nullptr) *error = message;
  return false;
}

// The laneql validity bitmap of all chunks: left empty when no row is null. Arrow's bitmaps are
// LSB-first like laneql's, so each chunk's bits are copied as a range (from its offset to the
// row where the chunk starts in the column).
bool BuildValidity(const arrow::ChunkedArray& array, AlignedBuffer* validity,
                   std::string* error) {
  if (array.null_count() == 0) return true;
  const size_t rows = static_cast<size_t>(array.length());
  // Resize zeroes the bytes: the bits past the last row stay 0, as laneql requires.
  if (!validity->Resize(BitmaskWords(rows) * sizeof(uint64_t), error)) return false;
  uint8_t* bits = validity->data();
  int64_t row = 0;
  for (const std::shared_ptr<arrow::Array>& chunk : array.chunks()) {
    const arrow::ArrayData& data = *chunk->data();
    if (data.length == 0) continue;
    if (chunk->null_count() != 0 && data.buffers[0] != nullptr) {
      arrow::internal::CopyBitmap(data.buffers[0]->data(), data.offset, data.length, bits, row);
    } else {
      arrow::bit_util::SetBitsTo(bits, row, data.length, true);
    }
    row += data.length;
  }
  return true;
}

// Fixed-width columns: each valid value of storage type Src becomes convert(value) of type Dst;
// null rows become 0. `convert` returns false (with a message) for a value it cannot represent.
template <class Src, class Dst, class Convert>
bool ConvertFixed(const arrow::ChunkedArray& array, TypeId type, Convert convert, Column* out,
                  std::string* error) {
  const size_t rows = static_cast<size_t>(array.length());
  AlignedBuffer values;
  AlignedBuffer validity;
  if (!BuildValidity(array, &validity, error)) return false;
  if (!values.ResizeForOverwrite(rows * sizeof(Dst), error)) return false;
  Dst* dst = values.As<Dst>();
  const uint64_t* valid = validity.empty() ? nullptr : validity.As<uint64_t>();
  size_t row = 0;
  for (const std::shared_ptr<arrow::Array>& chunk : array.chunks()) {
    const arrow::ArrayData& data = *chunk->data();
    if (data.length == 0) continue;
    const Src* src = data.GetValues<Src>(1);
    for (int64_t i = 0; i < data.length; ++i, ++row) {
      if (valid != nullptr && !BitmaskGet(valid, row)) {
        dst[row] = Dst{0};  // Arrow leaves anything in a null slot; laneql wants 0.
      } else if (std::string why; !convert(src[i], &dst[row], &why)) {
        return Fail(why + " (row " + std::to_string(row) + ")", error);
      }
    }
  }
  return Column::FromBuffers(type, rows, std::move(values), AlignedBuffer(), std::move(validity),
                             out, error);
}

// The same without a conversion: whole chunks are copied, then null slots zeroed.
template <class T>
bool CopyFixed(const arrow::ChunkedArray& array, TypeId type, Column* out, std::string* error) {
  const size_t rows = static_cast<size_t>(array.length());
  AlignedBuffer values;
  AlignedBuffer validity;
  if (!BuildValidity(array, &validity, error)) return false;
  if (!values.ResizeForOverwrite(rows * sizeof(T), error)) return false;
  T* dst = values.As<T>();
  size_t row = 0;
  for (const std::shared_ptr<arrow::Array>& chunk : array.chunks()) {
    const arrow::ArrayData& data = *chunk->data();
    if (data.length == 0) continue;
    std::memcpy(dst + row, data.GetValues<T>(1), static_cast<size_t>(data.length) * sizeof(T));
    row += static_cast<size_t>(data.length);
  }
  if (!validity.empty()) {
    const uint64_t* valid = validity.As<uint64_t>();
    for (size_t i = 0; i < rows; ++i) {
      if (!BitmaskGet(valid, i)) dst[i] = T{0};  // Arrow leaves anything in a null slot.
    }
  }
  return Column::FromBuffers(type, rows, std::move(values), AlignedBuffer(), std::move(validity),
                             out, error);
}

// Arrow's bool is bit-packed; laneql's is one byte (0 or 1) per value.
bool ConvertBool(const arrow::ChunkedArray& array, Column* out, std::string* error) {
  const size_t rows = static_cast<size_t>(array.length());
  AlignedBuffer values;
  AlignedBuffer validity;
  if (!BuildValidity(array, &validity, error)) return false;
  if (!values.ResizeForOverwrite(rows, error)) return false;
  uint8_t* dst = values.data();
  const uint64_t* valid = validity.empty() ? nullptr : validity.As<uint64_t>();
  size_t row = 0;
  for (const std::shared_ptr<arrow::Array>& chunk : array.chunks()) {
    const arrow::ArrayData& data = *chunk->data();
    if (data.length == 0) continue;
    const uint8_t* bits = data.buffers[1]->data();
    for (int64_t i = 0; i < data.length; ++i, ++row) {
      const bool value = arrow::bit_util::GetBit(bits, data.offset + i);
      dst[row] = (valid == nullptr || BitmaskGet(valid, row)) && value ? 1 : 0;
    }
  }
  return Column::FromBuffers(TypeId::kBool, rows, std::move(values), AlignedBuffer(),
                             std::move(validity), out, error);
}

// Timestamps: laneql keeps seconds and microseconds; milliseconds are scaled up (failing on
// overflow, which only years beyond +-292,000 reach) and nanoseconds divided down, rounding
// toward negative infinity so that an instant before 1970 stays in its microsecond.
bool MillisToMicros(int64_t value, int64_t* out, std::string* error) {
  if (__builtin_mul_overflow(value, int64_t{1000}, out)) {
    *error = "timestamp[ms] value " + std::to_string(value) + " overflows microseconds";
    return false;
  }
  return true;
}

bool NanosToMicros(int64_t value, int64_t* out, std::string*) {
  int64_t micros = value / 1000;
  if (value % 1000 < 0) --micros;
  *out = micros;
  return true;
}

bool ConvertTimestamp(const arrow::ChunkedArray& array, Column* out, std::string* error) {
  switch (static_cast<const arrow::TimestampType&>(*array.type()).unit()) {
    case arrow::TimeUnit::SECOND:
      return CopyFixed<int64_t>(array, TypeId::kTimestampSeconds, out, error);
    case arrow::TimeUnit::MILLI:
      return ConvertFixed<int64_t, int64_t>(array, TypeId::kTimestampMicros,
                                            &MillisToMicros, out, error);
    case arrow::TimeUnit::MICRO:
      return CopyFixed<int64_t>(array, TypeId::kTimestampMicros, out, error);
    case arrow::TimeUnit::NANO:
      return ConvertFixed<int64_t, int64_t>(array, TypeId::kTimestampMicros,
                                            &NanosToMicros, out, error);
  }
  return Fail("unknown timestamp unit in " + array.type()->ToString(), error);
}

// Times of day become microseconds since midnight (TIME): time32 seconds and milliseconds scaled
// up (a day's worth never overflows), time64 nanoseconds divided down.
bool SecondsToMicros(int32_t value, int64_t* out, std::string*) {
  *out = int64_t{value} * 1000000;
  return true;
}
bool MillisOfDayToMicros(int32_t value, int64_t* out, std::string*) {
  *out = int64_t{value} * 1000;
  return true;
}

bool ConvertTime(const arrow::ChunkedArray& array, Column* out, std::string* error) {
  if (array.type()->id() == arrow::Type::TIME32) {
    const bool seconds = static_cast<const arrow::Time32Type&>(*array.type()).unit() == arrow::TimeUnit::SECOND;
    return ConvertFixed<int32_t, int64_t>(array, TypeId::kTime, seconds ? &SecondsToMicros : &MillisOfDayToMicros,
                                          out, error);
  }
  if (static_cast<const arrow::Time64Type&>(*array.type()).unit() == arrow::TimeUnit::MICRO) {
    return CopyFixed<int64_t>(array, TypeId::kTime, out, error);
  }
  return ConvertFixed<int64_t, int64_t>(array, TypeId::kTime, &NanosToMicros, out, error);
}

// --- Strings: string / binary / large variants and dictionaries of them ---

bool IsBinaryLike(arrow::Type::type id) {
  return id == arrow::Type::STRING || id == arrow::Type::BINARY ||
         id == arrow::Type::LARGE_STRING || id == arrow::Type::LARGE_BINARY;
}

bool IsStringColumn(const arrow::DataType& type) {
  if (IsBinaryLike(type.id())) return true;
  if (type.id() != arrow::Type::DICTIONARY) return false;
  return IsBinaryLike(static_cast<const arrow::DictionaryType&>(type).value_type()->id());
}

// Calls visit(row, valid, bytes) for every row of a plain string / binary chunk.
template <class BinaryArrayT, class Visit>
void VisitPlain(const BinaryArrayT& chunk, size_t* row, Visit& visit) {
  for (int64_t i = 0; i < chunk.length(); ++i) {
    const bool valid = chunk.IsValid(i);
    visit((*row)++, valid, valid ? chunk.GetView(i) : std::string_view());
  }
}

// The same through a dictionary: a row is null when its index is or when the entry it points
// to is.
template <class BinaryArrayT, class Visit>
bool VisitDictionary(const arrow::DictionaryArray& chunk, const BinaryArrayT& dictionary,
                     size_t* row, Visit& visit, std::string* error) {
  for (int64_t i = 0; i < chunk.length(); ++i) {
    if (chunk.IsNull(i)) {
      visit((*row)++, false, std::string_view());
      continue;
    }
    const int64_t index = chunk.GetValueIndex(i);
    if (index < 0 || index >= dictionary.length()) {
      return Fail("dictionary index " + std::to_string(index) + " at row " +
                      std::to_string(*row) + " is outside the dictionary's " +
                      std::to_string(dictionary.length()) + " entries",
                  error);
    }
    const bool valid = dictionary.IsValid(index);
    visit((*row)++, valid, valid ? dictionary.GetView(index) : std::string_view());
  }
  return true;
}

// Calls visit(row, valid, bytes) for every row of a string column, chunk after chunk.
template <class Visit>
bool VisitStrings(const arrow::ChunkedArray& array, Visit visit, std::string* error) {
  size_t row = 0;
  for (const std::shared_ptr<arrow::Array>& chunk : array.chunks()) {
    switch (chunk->type_id()) {
      case arrow::Type::STRING:
      case arrow::Type::BINARY:
        VisitPlain(static_cast<const arrow::BinaryArray&>(*chunk), &row, visit);
        break;
      case arrow::Type::LARGE_STRING:
      case arrow::Type::LARGE_BINARY:
        VisitPlain(static_cast<const arrow::LargeBinaryArray&>(*chunk), &row, visit);
        break;
      case arrow::Type::DICTIONARY: {
        const auto& dict_chunk = static_cast<const arrow::DictionaryArray&>(*chunk);
        const arrow::Array& dictionary = *dict_chunk.dictionary();
        const arrow::Type::type id = dictionary.type_id();
        const bool ok =
            id == arrow::Type::STRING || id == arrow::Type::BINARY
                ? VisitDictionary(dict_chunk, static_cast<const arrow::BinaryArray&>(dictionary),
                                  &row, visit, error)
                : VisitDictionary(dict_chunk,
                                  static_cast<const arrow::LargeBinaryArray&>(dictionary), &row,
                                  visit, error);
        if (!ok) return false;
        break;
      }
      default:
        return Fail("a chunk of type " + chunk->type()->ToString() + " in a column of " +
                        array.type()->ToString(),
                    error);
    }
  }
  return true;
}

// Fills the string column's buffers, the offsets `Offset` wide; null rows are empty.
template <class Offset>
bool FillStrings(const arrow::ChunkedArray& array, TypeId type, size_t total_bytes,
                 bool has_nulls, Column* out, std::string* error) {
  const size_t rows = static_cast<size_t>(array.length());
  AlignedBuffer values;
  AlignedBuffer offsets;
  AlignedBuffer validity;
  if (!values.ResizeForOverwrite(total_bytes, error) ||
      !offsets.ResizeForOverwrite((rows + 1) * sizeof(Offset), error)) {
    return false;
  }
  if (has_nulls && !validity.Resize(BitmaskWords(rows) * sizeof(uint64_t), error)) return false;
  uint8_t* bytes = values.data();
  Offset* offset = offsets.As<Offset>();
  uint64_t* valid = has_nulls ? validity.As<uint64_t>() : nullptr;
  offset[0] = 0;
  size_t end = 0;
  auto append = [&](size_t row, bool is_valid, std::string_view value) {
    if (is_valid) {
      if (!value.empty()) std::memcpy(bytes + end, value.data(), value.size());
      end += value.size();
      if (valid != nullptr) BitmaskSet(valid, row);
    }
    offset[row + 1] = static_cast<Offset>(end);
  };
  if (!VisitStrings(array, append, error)) return false;
  return Column::FromBuffers(type, rows, std::move(values), std::move(offsets),
                             std::move(validity), out, error);
}

// String / binary columns: laneql keeps the bytes as they are (binary included, as ClickBench's
// hits.parquet stores its text). Int32 offsets unless the source is large_* or the bytes of all
// chunks together pass INT32_MAX: then large_string's int64 offsets.
bool ConvertStrings(const arrow::ChunkedArray& array, Column* out, std::string* error) {
  size_t total_bytes = 0;
  bool has_nulls = false;
  auto count = [&](size_t, bool is_valid, std::string_view value) {
    if (is_valid) {
      total_bytes += value.size();
    } else {
      has_nulls = true;
    }
  };
  if (!VisitStrings(array, count, error)) return false;
  arrow::Type::type id = array.type()->id();
  if (id == arrow::Type::DICTIONARY) {
    id = static_cast<const arrow::DictionaryType&>(*array.type()).value_type()->id();
  }
  const bool large_source = id == arrow::Type::LARGE_STRING || id == arrow::Type::LARGE_BINARY;
  if (large_source || total_bytes > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    return FillStrings<int64_t>(array, TypeId::kLargeString, total_bytes, has_nulls, out,
                                error);
  }
  return FillStrings<int32_t>(array, TypeId::kString, total_bytes, has_nulls, out, error);
}

bool ConvertColumn(const arrow::ChunkedArray& array, Column* out, std::string* error) {
  const arrow::DataType& type = *array.type();
  if (IsStringColumn(type)) return ConvertStrings(array, out, error);
  switch (type.id()) {
    case arrow::Type::INT8:
      return CopyFixed<int8_t>(array, TypeId::kInt8, out, error);
    case arrow::Type::INT16:
      return CopyFixed<int16_t>(array, TypeId::kInt16, out, error);
    case arrow::Type::INT32:
      return CopyFixed<int32_t>(array, TypeId::kInt32, out, error);
    case arrow::Type::INT64:
      return CopyFixed<int64_t>(array, TypeId::kInt64, out, error);
    case arrow::Type::UINT8:
      return CopyFixed<uint8_t>(array, TypeId::kUInt8, out, error);
    case arrow::Type::UINT16:
      return CopyFixed<uint16_t>(array, TypeId::kUInt16, out, error);
    case arrow::Type::UINT32:
      return CopyFixed<uint32_t>(array, TypeId::kUInt32, out, error);
    case arrow::Type::UINT64:
      return CopyFixed<uint64_t>(array, TypeId::kUInt64, out, error);
    case arrow::Type::FLOAT:
      return CopyFixed<float>(array, TypeId::kFloat32, out, error);
    case arrow::Type::DOUBLE:
      return CopyFixed<double>(array, TypeId::kFloat64, out, error);
    case arrow::Type::DATE32:
      return CopyFixed<int32_t>(array, TypeId::kDate32, out, error);
    case arrow::Type::TIMESTAMP:
      return ConvertTimestamp(array, out, error);
    case arrow::Type::TIME32:
    case arrow::Type::TIME64:
      return ConvertTime(array, out, error);
    case arrow::Type::BOOL:
      return ConvertBool(array, out, error);
    case arrow::Type::DECIMAL128: {
      // Arrow's decimal128 is laneql's DECIMAL layout: 16-byte two's complement of value · 10^s.
      const auto& decimal = static_cast<const arrow::Decimal128Type&>(type);
      if (decimal.precision() < 1 || decimal.precision() > kMaxDecimalPrecision || decimal.scale() < 0 ||
          decimal.scale() > decimal.precision()) {
        return Fail("Arrow type " + type.ToString() + " is not supported (a scale from 0 to the precision)", error);
      }
      return CopyFixed<Int128>(array, DecimalType(decimal.precision(), decimal.scale()), out, error);
    }
    default:
      return Fail("Arrow type " + type.ToString() + " is not supported", error);
  }
}

}  // namespace

bool ColumnFromArrow(const arrow::ChunkedArray& array, const std::string& name, Column* out,
                     std::string* error) {
  std::string why;
  if (ConvertColumn(array, out, &why)) return true;
  if (error != nullptr) *error = "column '" + name + "': " + why;
  return false;
}

}  // namespace parquet_internal
}  // namespace laneql
