// String vector building, Vec -> Column, and a Vec compressed by a row mask.
#include "src/exec/vector.h"

#include <algorithm>
#include <cstring>

#include "laneql/gather.h"
#include "src/exec/string_chunks.h"

namespace laneql {
namespace exec {

bool StringVecBuilder::Init(size_t rows, bool is_constant, std::string* error) {
  rows_ = is_constant ? 1 : rows;
  constant_ = is_constant;
  row_ = 0;
  null_rows_.clear();
  if (!offsets_.Resize((rows_ + 1) * sizeof(int32_t), error)) return false;
  data_.Clear();
  return true;
}

bool StringVecBuilder::Append(std::string_view value, std::string* error) {
  if (!AppendPart(value, error)) return false;
  EndRow();
  return true;
}

bool StringVecBuilder::AppendPart(std::string_view part, std::string* error) {
  if (data_.size() + part.size() > static_cast<size_t>(INT32_MAX)) {
    if (error != nullptr) *error = kStringBatchTooLarge;
    return false;
  }
  return part.empty() || data_.Append(part.data(), part.size(), error);
}

bool StringVecBuilder::Finish(Vec* out, std::string* error) {
  out->type = TypeId::kString;
  out->constant = constant_;
  if (!constant_) out->count = rows_;
  out->own_offsets = std::move(offsets_);
  out->own_values = std::move(data_);
  out->offsets = out->own_offsets.As<int32_t>();
  // An empty data buffer has no storage; offsets are all 0 then, so any non-null base works.
  static const uint8_t kEmpty[64] = {};
  out->values = out->own_values.data() != nullptr ? out->own_values.data() : kEmpty;
  out->validity = nullptr;
  out->ascii = false;  // built bytes: not looked at
  if (!null_rows_.empty()) {
    uint64_t* bits = out->InitValidity(error);
    if (bits == nullptr) return false;
    for (size_t r : null_rows_) bits[r / 64] &= ~(uint64_t{1} << (r % 64));
  }
  return true;
}

bool CopyValidity(const Vec& in, Vec* out, std::string* error) {
  if (in.validity == nullptr) return true;
  if (!out->own_validity.Assign(in.validity, BitmaskWords(in.stored()) * 8, error)) return false;
  out->validity = out->own_validity.As<uint64_t>();
  return true;
}

bool VecToColumn(const Vec& vec, Column* out, std::string* error) {
  const size_t n = vec.count;
  Column column(vec.type);
  if (IsString(vec.type)) {
    size_t bytes = 0;
    for (size_t i = 0; i < n; ++i) bytes += vec.Str(i).size();
    if (!column.Reserve(n, bytes, error)) return false;
    for (size_t i = 0; i < n; ++i) {
      const bool ok = vec.IsNull(i) ? column.AppendNull(error) : column.AppendString(vec.Str(i), error);
      if (!ok) return false;
    }
  } else {
    const size_t width = TypeByteWidth(vec.type);
    AlignedBuffer values;
    if (!values.Resize(n * width, error)) return false;
    if (vec.constant) {
      for (size_t i = 0; i < n; ++i) std::memcpy(values.data() + i * width, vec.values, width);
    } else if (n != 0) {
      std::memcpy(values.data(), vec.values, n * width);
    }
    AlignedBuffer validity;
    bool any_null = false;
    for (size_t i = 0; i < n && !any_null; ++i) any_null = vec.IsNull(i);
    if (any_null) {
      if (!validity.Resize(BitmaskWords(n) * 8, error)) return false;
      for (size_t i = 0; i < n; ++i) {
        if (!vec.IsNull(i)) BitmaskSet(validity.As<uint64_t>(), i);
      }
    }
    return Column::FromBuffers(vec.type, n, std::move(values), AlignedBuffer(), std::move(validity), out, error);
  }
  *out = std::move(column);
  return true;
}

bool CanCompressVec(TypeId type) {
  if (IsString(type)) return false;
  const size_t width = TypeByteWidth(type);
  return width == 1 || width == 2 || width == 4 || width == 8;
}

bool CompressVec(const Vec& in, const uint64_t* mask, size_t kept, Vec* out, std::string* error) {
  const size_t width = TypeByteWidth(in.type);
  out->type = in.type;
  out->count = kept;
  out->constant = in.constant;
  out->ascii = false;
  const size_t stored = in.constant ? 1 : kept;
  // Room for one value even for none (an unallocated buffer reads as a failed allocation).
  if (!out->own_values.Resize(std::max<size_t>(stored, 1) * width, error)) return false;
  out->values = out->own_values.data();
  out->validity = nullptr;
  if (in.constant) {
    std::memcpy(out->own_values.data(), in.values, width);
  } else {
    CompressFixed(width, in.values, in.count, mask, out->own_values.data());
  }
  if (in.validity != nullptr) {
    if (!out->own_validity.Resize(BitmaskWords(stored) * 8 + 8, error)) return false;
    uint64_t* bits = out->own_validity.As<uint64_t>();
    if (in.constant) {
      bits[0] = in.validity[0] & 1;
    } else {
      CompressBitmask(in.validity, in.count, mask, bits);
    }
    out->validity = bits;
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
