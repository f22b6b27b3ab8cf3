// A column: one typed array in Arrow's layout, in 64-byte-aligned buffers: owned, or for a
// column read from a .laneql file read-only views of the mapped file (see Verify).
//
// Buffers (see laneql/types.h for the value layouts):
//  - values:   fixed-width types: length() values; string types: the UTF-8 bytes of all rows;
//  - offsets:  string types only: length() + 1 offsets (int32 for string, int64 for
//              large_string), offsets[0] == 0, non-decreasing; row i is bytes
//              [offsets[i], offsets[i + 1]) of values;
//  - validity: optional row bitmask in the laneql/bitmask.h convention (1 = non-null, bits past
//              the last row 0). Absent (validity() == nullptr) means no nulls. A null row still
//              occupies its slot: zero bytes for fixed-width types, an empty string for strings.
// Every buffer keeps AlignedBuffer's zeroed 64-byte padding, so kernels may read whole vectors.
//
// Columns are move-only (they may own hundreds of megabytes). Everything that allocates returns
// false with a message in *error (if error is not null) instead of throwing, and leaves the
// column as it was.
#ifndef LANEQL_COLUMN_H_
#define LANEQL_COLUMN_H_

#include <atomic>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "laneql/types.h"

namespace laneql {

namespace internal {
struct ColumnFileCheck;  // kernel/src/storage/table_file_check.h
struct TableFileColumns;  // the .laneql reader, which builds columns of a mapped file
struct GeneratedColumns;  // the hits generator, whose string offsets rise by construction
class ZoneMap;            // kernel/src/storage/zone_map.h
// What Column::AllAscii and Column::IntegerRange found (-1: not looked yet), each worked out
// under the mutex once, and the column's zone map (Column::Zones), made under it once.
struct ScannedFacts {
  std::mutex mutex;
  std::atomic<int> known{-1};        // AllAscii
  std::atomic<int> range_known{-1};  // IntegerRange: 1 with min and max set, 0 none
  int64_t min = 0, max = 0;
  std::shared_ptr<ZoneMap> zones;              // set under the mutex
  std::atomic<ZoneMap*> zones_made{nullptr};   // zones.get() once made
};
}  // namespace internal

class Column {
 public:
  explicit Column(TypeId type = TypeId::kInt64) : type_(type) {}
  Column(Column&&) noexcept = default;
  Column& operator=(Column&&) noexcept = default;
  Column(const Column&) = delete;
  Column& operator=(const Column&) = delete;

  // --- Whole columns by copy (e.g. from a JS Arrow array or a test vector) ---

  // A fixed-width column of `length` values copied from `values` (TypeByteWidth(type) bytes
  // each); `validity` (nullptr = no nulls) is copied and its bits past `length` ignored.
  static bool FromFixed(TypeId type, const void* values, size_t length, const uint64_t* validity,
                        Column* out, std::string* error);
  // A fixed-width column of `length` zero values and no nulls, to fill through MutableValues().
  static bool Zeroed(TypeId type, size_t length, Column* out, std::string* error);
  // A string column (int32 offsets) from Arrow-style `offsets` (length + 1 entries, which may
  // start above 0, as in a slice) and `data`; copies bytes [offsets[0], offsets[length]) and
  // rebases the offsets to start at 0. Rejects negative or decreasing offsets.
  static bool FromStrings(const int32_t* offsets, const uint8_t* data, size_t length,
                          const uint64_t* validity, Column* out, std::string* error);
  // The same for large_string (int64 offsets).
  static bool FromLargeStrings(const int64_t* offsets, const uint8_t* data, size_t length,
                               const uint64_t* validity, Column* out, std::string* error);

  // Takes over buffers filled by the caller (no copy): `values` (length values of a fixed-width
  // type, or the string bytes), `offsets` (string types: length + 1 offsets from 0 to
  // values.size(), never decreasing, or none for length 0; empty otherwise) and `validity` (empty = no nulls, else
  // at least BitmaskWords(length) words). Checks sizes and offsets (one pass), not the bytes.
  // On failure *out and the buffers passed in are left as they were (they are moved from only
  // on success).
  static bool FromBuffers(TypeId type, size_t length, AlignedBuffer&& values,
                          AlignedBuffer&& offsets, AlignedBuffer&& validity, Column* out,
                          std::string* error);

  // --- Builders: append one row (tests, the data generator, the CSV reader) ---

  // Room for `rows` more rows (and `string_bytes` more bytes for string columns).
  bool Reserve(size_t rows, size_t string_bytes, std::string* error);
  // Appends a value of a fixed-width column; sizeof(T) must equal TypeByteWidth(type()).
  template <class T>
  bool Append(T value, std::string* error) {
    return AppendFixed(&value, sizeof(T), error);
  }
  // A string column whose bytes would pass 2^31 - 1 becomes a large_string (its offsets widened
  // to int64) first; a list column fails there instead.
  bool AppendString(std::string_view value, std::string* error);
  // A null row: zero bytes / an empty string, validity bit 0. The bitmap is created on the
  // first null (all earlier rows valid).
  bool AppendNull(std::string* error);

  // --- Reading ---

  TypeId type() const { return type_; }
  size_t length() const { return length_; }
  size_t null_count() const { return null_count_; }
  // The validity bitmap, or nullptr when the column has no nulls bitmap (all rows valid).
  const uint64_t* validity() const {
    return validity_.empty() ? nullptr : validity_.As<uint64_t>();
  }
  bool IsValid(size_t row) const {
    return validity_.empty() || BitmaskGet(validity_.As<uint64_t>(), row);
  }

  // The values as T (sizeof(T) must be the type's width; the bits are reinterpreted, so
  // Values<uint64_t>() on a float64 column gives the bit patterns the gather kernels move).
  // nullptr for an empty column that never allocated.
  template <class T>
  const T* Values() const {
    assert(sizeof(T) == TypeByteWidth(type_) && "Values<T>: T must have the type's width");
    return values_.As<T>();
  }
  template <class T>
  T* MutableValues() {
    assert(sizeof(T) == TypeByteWidth(type_) && "MutableValues<T>: T must have the type's width");
    ForgetScannedFacts();
    return values_.As<T>();
  }
  // String columns: offsets (length() + 1 entries; a valid pointer to a single 0 even for an
  // empty column) and the UTF-8 bytes.
  const int32_t* Offsets32() const;
  const int64_t* Offsets64() const;
  const uint8_t* StringData() const { return values_.data(); }
  // Row `row` of a string column of either offset width. Null rows read as "".
  std::string_view StringAt(size_t row) const;

  // String columns: whether every byte is below 0x80, so that each byte is a code point (as
  // DuckDB's string statistics know has_unicode). One scan the first time, then the kept
  // answer; appending a string forgets it. False for other types. Thread-safe; a column of a
  // file must have passed Verify.
  bool AllAscii() const;
  // AllAscii's answer if it has been worked out, else false: no scan.
  bool KnownAscii() const {
    return facts_ != nullptr && facts_->known.load(std::memory_order_acquire) == 1;
  }
  // Integer columns (the signed integers, uint8 to uint32, dates and timestamps): the smallest
  // and largest non-NULL value, exact. One scan the first time, then the kept answer, as
  // AllAscii (appending, or MutableValues, forgets it). False for other types and when every
  // row is NULL. A file's column must have passed Verify.
  bool IntegerRange(int64_t* min, int64_t* max) const;
  // The column's zone map (per block of rows, the smallest and largest value: see
  // kernel/src/storage/zone_map.h), made empty on the first call and filled block by block as
  // filters ask; kept as AllAscii's answer is. Null for types without zone maps and for an empty
  // column. Thread-safe.
  internal::ZoneMap* Zones() const;
  // For a column whose values are those of `source` (a view of its buffers): shares what
  // `source` has worked out and keeps (AllAscii, IntegerRange, the zone map) instead of
  // working it out again. Changing this column afterwards stops the sharing.
  void ShareFactsOf(const Column& source) {
    if (source.facts_ != nullptr && source.length_ == length_ && source.type_ == type_) facts_ = source.facts_;
  }

  // Checks a column whose buffers are views of a file (laneql/table_file.h) against the file's
  // checksums, once: later calls return the first answer at no cost. Columns built in memory
  // always pass. Thread-safe. Queries call it for every column they read, before reading it.
  bool Verify(std::string* error) const;

  // The buffers themselves (for the bindings and for kernels that use the padding).
  const AlignedBuffer& values_buffer() const { return values_; }
  const AlignedBuffer& offsets_buffer() const { return offsets_; }
  const AlignedBuffer& validity_buffer() const { return validity_; }

 private:
  bool AppendFixed(const void* value, size_t width, std::string* error);
  // A string column's offsets widened to int64: it becomes a large_string (AppendString).
  bool WidenOffsets(std::string* error);
  // Appends the offset that ends the newest row (string columns).
  bool AppendEndOffset(std::string* error);
  // Sets the validity bit of the row being appended, if there is a bitmap (room reserved).
  void AppendValidBit();
  bool CopyValidity(const uint64_t* validity, size_t length, std::string* error);
  // FromStrings / FromLargeStrings, for either offset width.
  template <class Offset>
  static bool FromStringRows(TypeId type, const Offset* offsets, const uint8_t* data,
                             size_t length, const uint64_t* validity, Column* out,
                             std::string* error);

  friend struct internal::TableFileColumns;
  friend struct internal::GeneratedColumns;

  TypeId type_;
  size_t length_ = 0;
  size_t null_count_ = 0;
  AlignedBuffer values_;
  AlignedBuffer offsets_;
  AlignedBuffer validity_;
  // Columns read from a .laneql file: what Verify checks, once (shared by moved-to columns).
  // Null for columns built in memory.
  std::shared_ptr<const internal::ColumnFileCheck> file_check_;
  // Values changed: AllAscii, IntegerRange and the zone map look again.
  void ForgetScannedFacts();
  // AllAscii's and IntegerRange's answers (a pointer, as a mutex cannot move; null only in a
  // moved-from column).
  std::shared_ptr<internal::ScannedFacts> facts_ = std::make_shared<internal::ScannedFacts>();
};

}  // namespace laneql

#endif  // LANEQL_COLUMN_H_
