// Vec: the values of one expression for a run of rows, the unit the evaluator passes around.
// It either borrows a table column's buffers (a contiguous range starting at a multiple of 64
// rows, so the validity bitmap can be borrowed too) or owns buffers it computed. Strings keep
// Arrow's layout with int32 offsets that need not start at 0 (borrowed slices).
#ifndef LANEQL_EXEC_VECTOR_H_
#define LANEQL_EXEC_VECTOR_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "laneql/column.h"
#include "laneql/types.h"

namespace laneql {
namespace exec {

struct Vec {
  TypeId type = TypeId::kInt32;
  size_t count = 0;
  bool constant = false;  // one stored row stands for all `count` rows
  const uint8_t* values = nullptr;    // fixed: row 0's value; strings: the byte base
  const int32_t* offsets = nullptr;   // strings: rows + 1 offsets into `values`
  const uint64_t* validity = nullptr; // nullptr = no NULLs; bit i = row i
  // Strings: every byte known to be below 0x80 (rows of a column whose AllAscii is known), so
  // length() is the byte length. False when unknown.
  bool ascii = false;
  AlignedBuffer own_values, own_offsets, own_validity;

  Vec() = default;
  Vec(Vec&&) noexcept = default;
  Vec& operator=(Vec&&) noexcept = default;

  size_t Row(size_t i) const { return constant ? 0 : i; }
  bool IsNull(size_t i) const { return validity != nullptr && !BitmaskGet(validity, Row(i)); }
  template <class T>
  T Get(size_t i) const {
    return reinterpret_cast<const T*>(values)[Row(i)];
  }
  template <class T>
  const T* Data() const {
    return reinterpret_cast<const T*>(values);
  }
  std::string_view Str(size_t i) const {
    const size_t r = Row(i);
    return std::string_view(reinterpret_cast<const char*>(values) + offsets[r],
                            static_cast<size_t>(offsets[r + 1] - offsets[r]));
  }
  // Rows physically stored (1 for a constant).
  size_t stored() const { return constant ? 1 : count; }

  // --- building owned vectors ---
  // `rows` fixed-width values of `type`, zeroed, no NULLs yet; returns the value array.
  template <class T>
  T* InitFixed(TypeId t, size_t rows, bool is_constant, std::string* error) {
    type = t;
    count = rows;
    constant = is_constant;
    const size_t stored_rows = is_constant ? 1 : rows;
    // Room for one value even for 0 rows: a buffer never allocated has data() == nullptr, which
    // callers take for an allocation failure (a query whose WHERE keeps no row then failed with
    // an empty error message).
    const size_t room = stored_rows > 0 ? stored_rows : 1;
    if (!own_values.Resize(room * sizeof(T), error)) return nullptr;
    values = own_values.data();
    validity = nullptr;
    return own_values.As<T>();
  }
  // An all-valid bitmap to clear bits in (call after Init*).
  uint64_t* InitValidity(std::string* error) {
    const size_t words = BitmaskWords(stored());
    if (!own_validity.Resize(words * 8, error) ||
        (own_validity.data() == nullptr && !own_validity.Reserve(64, error))) {
      return nullptr;  // as InitFixed, never null for 0 rows
    }
    uint64_t* bits = own_validity.As<uint64_t>();
    for (size_t w = 0; w < words; ++w) bits[w] = ~uint64_t{0};
    if (words != 0) bits[words - 1] &= BitmaskTailMask(stored());
    validity = bits;
    return bits;
  }
};

// Builds a string Vec row by row.
class StringVecBuilder {
 public:
  bool Init(size_t rows, bool is_constant, std::string* error);
  bool Append(std::string_view value, std::string* error);
  // A row made of several parts: AppendPart for each, then EndRow (the parts written straight
  // into the result, not joined in a string first).
  bool AppendPart(std::string_view part, std::string* error);
  void EndRow() { offsets_.As<int32_t>()[++row_] = static_cast<int32_t>(data_.size()); }
  void AppendNull() {
    null_rows_.push_back(row_);
    Append(std::string_view(), nullptr);
  }
  // Moves the built rows into *out.
  bool Finish(Vec* out, std::string* error);

 private:
  size_t rows_ = 0;
  size_t row_ = 0;
  bool constant_ = false;
  AlignedBuffer offsets_, data_;
  std::vector<size_t> null_rows_;
};

// out's validity = a copy of in's (none when in has none).
bool CopyValidity(const Vec& in, Vec* out, std::string* error);

// A Vec that owns a copy of `column`'s rows (for finished results and tests).
bool VecToColumn(const Vec& vec, Column* out, std::string* error);

// Whether CompressVec takes values of `type`: fixed widths of 1, 2, 4 or 8 bytes.
bool CanCompressVec(TypeId type);
// The rows of `in` (of a type CanCompressVec takes) whose bit is set in `mask` (over in.count
// rows, `kept` of them set), in order, into *out with buffers of its own; a constant stays one.
bool CompressVec(const Vec& in, const uint64_t* mask, size_t kept, Vec* out, std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_VECTOR_H_
