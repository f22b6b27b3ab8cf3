// Column: construction by copy, row-at-a-time builders, typed reads.
//
// The builders reserve every buffer they will touch before changing any of them, so a failed
// allocation leaves the column exactly as it was (no half-appended row).
#include "laneql/column.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "laneql/string_match.h"
#include "src/storage/integer_values.h"
#include "src/storage/table_file_check.h"
#include "src/storage/zone_map.h"

namespace laneql {
namespace {

// A string column with no rows still has one offset, 0; before the first append the offsets
// buffer is empty and these stand in for it. Aligned like the buffers they replace.
alignas(64) constexpr int32_t kZeroOffset32[16] = {};
alignas(64) constexpr int64_t kZeroOffset64[8] = {};

void SetError(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
}

// Capacity for `bytes` bytes, doubling so that row-at-a-time appends stay amortised O(1).
bool EnsureCapacity(AlignedBuffer* buffer, size_t bytes, std::string* error) {
  if (bytes <= buffer->capacity()) return true;
  const size_t cap = buffer->capacity();
  const size_t doubled = cap > AlignedBuffer::kMaxSize / 2 ? AlignedBuffer::kMaxSize : cap * 2;
  return buffer->Reserve(bytes > doubled ? bytes : doubled, error);
}

size_t CountNulls(const uint64_t* validity, size_t length) {
  size_t valid = 0;
  for (size_t w = 0; w < BitmaskWords(length); ++w) valid += __builtin_popcountll(validity[w]);
  return length - valid;
}

template <class Offset>
bool CheckOffsets(const Offset* offsets, size_t length, std::string* error) {
  if (offsets[0] < 0) {
    SetError(error, "string offsets start below 0 (" + std::to_string(offsets[0]) + ")");
    return false;
  }
  // One branch-free pass the compiler can vectorise (this runs over every generated string
  // column); only a failure goes back for the first decreasing row.
  bool decreasing = false;
  for (size_t i = 0; i < length; ++i) decreasing |= offsets[i + 1] < offsets[i];
  if (!decreasing) return true;
  for (size_t i = 0; i < length; ++i) {
    if (offsets[i + 1] < offsets[i]) {
      SetError(error, "string offsets decrease at row " + std::to_string(i) + " (" +
                          std::to_string(offsets[i]) + " then " +
                          std::to_string(offsets[i + 1]) + ")");
      return false;
    }
  }
  return true;
}

// A fixed-width type, and `length` values of it fit in a buffer.
bool CheckFixedLength(const char* caller, TypeId type, size_t length, std::string* error) {
  if (!IsFixedWidth(type)) {
    SetError(error, std::string(caller) + " needs a fixed-width type, not " + TypeName(type));
    return false;
  }
  if (length > AlignedBuffer::kMaxSize / TypeByteWidth(type)) {
    SetError(error, "cannot allocate " + std::to_string(length) + " values of " + TypeName(type));
    return false;
  }
  return true;
}

}  // namespace

bool Column::CopyValidity(const uint64_t* validity, size_t length, std::string* error) {
  validity_ = AlignedBuffer();
  null_count_ = 0;
  if (validity == nullptr || length == 0) return true;
  AlignedBuffer bits;
  if (!bits.Assign(validity, BitmaskWords(length) * sizeof(uint64_t), error)) return false;
  bits.As<uint64_t>()[BitmaskWords(length) - 1] &= BitmaskTailMask(length);
  const size_t nulls = CountNulls(bits.As<uint64_t>(), length);
  // A bitmap without a single null is dropped: "no bitmap" is what kernels test for to take
  // their no-null fast paths.
  if (nulls != 0) {
    validity_ = std::move(bits);
    null_count_ = nulls;
  }
  return true;
}

bool Column::FromFixed(TypeId type, const void* values, size_t length, const uint64_t* validity,
                       Column* out, std::string* error) {
  if (!CheckFixedLength("FromFixed", type, length, error)) return false;
  const size_t width = TypeByteWidth(type);
  Column column(type);
  if (length != 0 && !column.values_.Assign(values, length * width, error)) return false;
  if (!column.CopyValidity(validity, length, error)) return false;
  column.length_ = length;
  *out = std::move(column);
  return true;
}

bool Column::Zeroed(TypeId type, size_t length, Column* out, std::string* error) {
  if (!CheckFixedLength("Zeroed", type, length, error)) return false;
  const size_t width = TypeByteWidth(type);
  Column column(type);
  if (!column.values_.Reserve(length * width, error)) return false;
  if (!column.values_.Resize(length * width, error)) return false;  // reserved: zeroes only
  column.length_ = length;
  *out = std::move(column);
  return true;
}

namespace {

template <class Offset>
bool CheckTakenOffsets(const AlignedBuffer& offsets, size_t length, size_t bytes,
                       std::string* error) {
  if (length == 0 && offsets.empty() && bytes == 0) return true;  // no offsets needed
  if (length >= AlignedBuffer::kMaxSize / sizeof(Offset) ||
      offsets.size() != (length + 1) * sizeof(Offset)) {
    SetError(error, "FromBuffers: " + std::to_string(offsets.size()) +
                        " bytes of offsets do not hold " + std::to_string(length) + " strings");
    return false;
  }
  const Offset* own = offsets.As<Offset>();
  if (own[0] != 0 || static_cast<uint64_t>(own[length]) != bytes) {
    SetError(error, "FromBuffers: string offsets must run from 0 to the " +
                        std::to_string(bytes) + " value bytes");
    return false;
  }
  return CheckOffsets(own, length, error);
}

}  // namespace

bool Column::FromBuffers(TypeId type, size_t length, AlignedBuffer&& values,
                         AlignedBuffer&& offsets, AlignedBuffer&& validity, Column* out,
                         std::string* error) {
  if (IsFixedWidth(type)) {
    const size_t width = TypeByteWidth(type);
    if (length > AlignedBuffer::kMaxSize / width || values.size() != length * width ||
        !offsets.empty()) {
      SetError(error, "FromBuffers: " + std::to_string(values.size()) + " value bytes and " +
                          std::to_string(offsets.size()) + " offset bytes do not hold " +
                          std::to_string(length) + " values of " + TypeName(type));
      return false;
    }
  } else if (PhysicalType(type) == TypeId::kString) {
    if (!CheckTakenOffsets<int32_t>(offsets, length, values.size(), error)) return false;
  } else if (type == TypeId::kLargeString) {
    if (!CheckTakenOffsets<int64_t>(offsets, length, values.size(), error)) return false;
  } else {
    SetError(error, std::string("FromBuffers cannot build a column of ") + TypeName(type));
    return false;
  }
  size_t nulls = 0;
  if (!validity.empty()) {
    if (validity.size() < BitmaskWords(length) * sizeof(uint64_t)) {
      SetError(error, "FromBuffers: the validity bitmap is shorter than " +
                          std::to_string(length) + " rows");
      return false;
    }
    if (length != 0) {
      validity.As<uint64_t>()[BitmaskWords(length) - 1] &= BitmaskTailMask(length);
      nulls = CountNulls(validity.As<const uint64_t>(), length);
    }
  }
  Column column(type);
  column.values_ = std::move(values);
  column.offsets_ = std::move(offsets);
  // A bitmap without nulls is dropped, as in CopyValidity: kernels test for "no bitmap".
  if (nulls != 0) column.validity_ = std::move(validity);
  column.null_count_ = nulls;
  column.length_ = length;
  *out = std::move(column);
  return true;
}

template <class Offset>
bool Column::FromStringRows(TypeId type, const Offset* offsets, const uint8_t* data,
                            size_t length, const uint64_t* validity, Column* out,
                            std::string* error) {
  Column column(type);
  if (length != 0) {
    if (!CheckOffsets(offsets, length, error)) return false;
    const Offset base = offsets[0];
    const uint64_t bytes = static_cast<uint64_t>(offsets[length] - base);
    if (bytes > AlignedBuffer::kMaxSize || length > AlignedBuffer::kMaxSize / sizeof(Offset) - 1) {
      SetError(error, std::string("cannot allocate a ") + TypeName(type) + " column of " +
                          std::to_string(length) + " rows and " + std::to_string(bytes) +
                          " bytes");
      return false;
    }
    if (!column.values_.Assign(data + base, static_cast<size_t>(bytes), error)) return false;
    if (!column.offsets_.Resize((length + 1) * sizeof(Offset), error)) return false;
    Offset* own = column.offsets_.As<Offset>();
    for (size_t i = 0; i <= length; ++i) own[i] = offsets[i] - base;
  }
  if (!column.CopyValidity(validity, length, error)) return false;
  column.length_ = length;
  *out = std::move(column);
  return true;
}

bool Column::FromStrings(const int32_t* offsets, const uint8_t* data, size_t length,
                         const uint64_t* validity, Column* out, std::string* error) {
  return FromStringRows(TypeId::kString, offsets, data, length, validity, out, error);
}

bool Column::FromLargeStrings(const int64_t* offsets, const uint8_t* data, size_t length,
                              const uint64_t* validity, Column* out, std::string* error) {
  return FromStringRows(TypeId::kLargeString, offsets, data, length, validity, out, error);
}

bool Column::Reserve(size_t rows, size_t string_bytes, std::string* error) {
  if (rows > AlignedBuffer::kMaxSize / 8 - length_ - 1) {
    SetError(error, "cannot reserve " + std::to_string(rows) + " more rows");
    return false;
  }
  const size_t total = length_ + rows;
  if (IsFixedWidth(type_)) {
    if (!values_.Reserve(total * TypeByteWidth(type_), error)) return false;
  } else {
    if (!values_.Reserve(values_.size() + string_bytes, error)) return false;
    if (!offsets_.Reserve((total + 1) * OffsetByteWidth(type_), error)) return false;
  }
  if (!validity_.empty() &&
      !validity_.Reserve(BitmaskWords(total) * sizeof(uint64_t), error)) {
    return false;
  }
  return true;
}

void Column::AppendValidBit() {
  if (validity_.empty()) return;  // no bitmap: every row is valid
  validity_.Resize(BitmaskWords(length_ + 1) * sizeof(uint64_t), nullptr);  // room reserved
  BitmaskSet(validity_.As<uint64_t>(), length_);
}

bool Column::AppendEndOffset(std::string* error) {
  // offsets_ holds length_ + 1 entries once the first row is appended (the leading 0 included).
  const size_t w = OffsetByteWidth(type_);
  const size_t entries = length_ + 2;
  if (!EnsureCapacity(&offsets_, entries * w, error)) return false;
  offsets_.Resize(entries * w, nullptr);  // within capacity; a fresh offsets[0] reads 0
  if (w == 4) {
    offsets_.As<int32_t>()[length_ + 1] = static_cast<int32_t>(values_.size());
  } else {
    offsets_.As<int64_t>()[length_ + 1] = static_cast<int64_t>(values_.size());
  }
  return true;
}

bool Column::AppendFixed(const void* value, size_t width, std::string* error) {
  if (!IsFixedWidth(type_) || width != TypeByteWidth(type_)) {
    SetError(error, "cannot append a " + std::to_string(width) + "-byte value to a " +
                        TypeName(type_) + " column");
    return false;
  }
  // Room first (values, then validity), so that nothing changes unless everything fits.
  if (!EnsureCapacity(&values_, values_.size() + width, error)) return false;
  if (!validity_.empty() &&
      !EnsureCapacity(&validity_, BitmaskWords(length_ + 1) * sizeof(uint64_t), error)) {
    return false;
  }
  values_.Append(value, width, nullptr);  // within capacity
  AppendValidBit();
  ++length_;
  ForgetScannedFacts();
  return true;
}

bool Column::WidenOffsets(std::string* error) {
  AlignedBuffer wide;
  if (!wide.ResizeForOverwrite((length_ + 1) * sizeof(int64_t), error) ||
      !wide.Reserve((length_ + 2) * sizeof(int64_t) * 5 / 4, error)) {
    return false;
  }
  const int32_t* narrow = Offsets32();
  int64_t* to = wide.As<int64_t>();
  for (size_t r = 0; r <= length_; ++r) to[r] = narrow[r];
  offsets_ = std::move(wide);
  type_ = TypeId::kLargeString;
  return true;
}

bool Column::AppendString(std::string_view value, std::string* error) {
  if (!IsString(type_)) {
    SetError(error, std::string("cannot append a string to a ") + TypeName(type_) + " column");
    return false;
  }
  const size_t new_bytes = values_.size() + value.size();
  if (PhysicalType(type_) == TypeId::kString &&
      new_bytes > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
    if (type_ != TypeId::kString) {  // a list: no int64 form
      SetError(error, "a list column holds at most 2^31 - 1 bytes");
      return false;
    }
    if (!WidenOffsets(error)) return false;
  }
  const size_t w = OffsetByteWidth(type_);
  if (!EnsureCapacity(&values_, new_bytes, error) ||
      !EnsureCapacity(&offsets_, (length_ + 2) * w, error) ||
      (!validity_.empty() &&
       !EnsureCapacity(&validity_, BitmaskWords(length_ + 1) * sizeof(uint64_t), error))) {
    return false;
  }
  values_.Append(value.data(), value.size(), nullptr);  // all within capacity from here on
  ForgetScannedFacts();
  AppendEndOffset(nullptr);
  AppendValidBit();
  ++length_;
  return true;
}

bool Column::AppendNull(std::string* error) {
  const size_t words = BitmaskWords(length_ + 1);
  // The bitmap is the one allocation that may be new: make it first.
  if (!EnsureCapacity(&validity_, words * sizeof(uint64_t), error)) return false;
  if (IsFixedWidth(type_)) {
    if (!EnsureCapacity(&values_, values_.size() + TypeByteWidth(type_), error)) return false;
    values_.Resize(values_.size() + TypeByteWidth(type_), nullptr);  // zero bytes
  } else {
    if (!EnsureCapacity(&offsets_, (length_ + 2) * OffsetByteWidth(type_), error)) return false;
    AppendEndOffset(nullptr);  // an empty string
  }
  if (validity_.empty()) {
    // First null: all earlier rows are valid. Capacity is there, so this cannot fail.
    validity_.Resize(words * sizeof(uint64_t), nullptr);
    uint64_t* w = validity_.As<uint64_t>();
    for (size_t i = 0; i < length_ / 64; ++i) w[i] = ~uint64_t{0};
    if (length_ % 64 != 0) w[length_ / 64] = BitmaskTailMask(length_);
  } else {
    validity_.Resize(words * sizeof(uint64_t), nullptr);  // the new bit is 0 = null
  }
  ++length_;
  ++null_count_;
  ForgetScannedFacts();
  return true;
}

void Column::ForgetScannedFacts() {
  if (facts_ == nullptr) return;
  if (facts_.use_count() > 1) {  // shared with the column this one views (ShareFactsOf)
    facts_ = std::make_shared<internal::ScannedFacts>();
    return;
  }
  facts_->known.store(-1, std::memory_order_relaxed);
  facts_->range_known.store(-1, std::memory_order_relaxed);
  // Columns change only while no query reads them (a table being built), so nothing can hold
  // the map dropped here.
  facts_->zones_made.store(nullptr, std::memory_order_relaxed);
  facts_->zones.reset();
}

internal::ZoneMap* Column::Zones() const {
  if (facts_ == nullptr || length_ == 0 || !internal::ZoneMap::Supports(type_)) return nullptr;
  internal::ZoneMap* zones = facts_->zones_made.load(std::memory_order_acquire);
  if (zones != nullptr) return zones;
  std::lock_guard<std::mutex> lock(facts_->mutex);
  if (facts_->zones == nullptr) {
    facts_->zones = std::make_shared<internal::ZoneMap>(length_);
    facts_->zones_made.store(facts_->zones.get(), std::memory_order_release);
  }
  return facts_->zones.get();
}

namespace {

// One pass: the loop without NULLs has no branch (the compiler's min/max vectors).
bool ScanIntegerRange(const Column& column, int64_t* min, int64_t* max) {
  bool found = false;
  WithIntegerValues(column, [&](const auto* values) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    const size_t rows = column.length();
    const uint64_t* bits = column.validity();
    if (bits == nullptr) {
      for (size_t i = 0; i < rows; ++i) {
        const int64_t v = static_cast<int64_t>(values[i]);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
      }
      found = rows != 0;
    } else {
      for (size_t i = 0; i < rows; ++i) {
        if (!BitmaskGet(bits, i)) continue;
        const int64_t v = static_cast<int64_t>(values[i]);
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        found = true;
      }
    }
    *min = lo;
    *max = hi;
  });
  return found;
}

}  // namespace

bool Column::IntegerRange(int64_t* min, int64_t* max) const {
  if (facts_ == nullptr) return ScanIntegerRange(*this, min, max);
  // Check before locking: once known, no query takes the mutex again.
  if (facts_->range_known.load(std::memory_order_acquire) < 0) {
    std::lock_guard<std::mutex> lock(facts_->mutex);
    if (facts_->range_known.load(std::memory_order_relaxed) < 0) {
      int64_t lo = 0, hi = 0;
      const bool found = ScanIntegerRange(*this, &lo, &hi);
      facts_->min = lo;
      facts_->max = hi;
      facts_->range_known.store(found ? 1 : 0, std::memory_order_release);
    }
  }
  if (facts_->range_known.load(std::memory_order_acquire) != 1) return false;
  *min = facts_->min;
  *max = facts_->max;
  return true;
}

bool Column::AllAscii() const {
  if (!IsString(type_) || IsList(type_)) return false;
  const size_t bytes = type_ == TypeId::kString ? static_cast<size_t>(Offsets32()[length_])
                                                : static_cast<size_t>(Offsets64()[length_]);
  if (facts_ == nullptr) return BytesAreAscii(values_.data(), bytes);
  // Check before locking: once known, no query takes the mutex again.
  const int known = facts_->known.load(std::memory_order_acquire);
  if (known >= 0) return known == 1;
  std::lock_guard<std::mutex> lock(facts_->mutex);
  if (facts_->known.load(std::memory_order_relaxed) < 0) {
    facts_->known.store(BytesAreAscii(values_.data(), bytes) ? 1 : 0, std::memory_order_release);
  }
  return facts_->known.load(std::memory_order_relaxed) == 1;
}

const int32_t* Column::Offsets32() const {
  assert(PhysicalType(type_) == TypeId::kString && "Offsets32 of a column without int32 offsets");
  return offsets_.empty() ? kZeroOffset32 : offsets_.As<int32_t>();
}

const int64_t* Column::Offsets64() const {
  assert(type_ == TypeId::kLargeString && "Offsets64 of a column without int64 offsets");
  return offsets_.empty() ? kZeroOffset64 : offsets_.As<int64_t>();
}

std::string_view Column::StringAt(size_t row) const {
  if (!IsValid(row)) return std::string_view();
  const char* bytes = reinterpret_cast<const char*>(values_.data());
  if (PhysicalType(type_) == TypeId::kString) {
    const int32_t* o = offsets_.As<int32_t>();
    return std::string_view(bytes + o[row], static_cast<size_t>(o[row + 1] - o[row]));
  }
  const int64_t* o = offsets_.As<int64_t>();
  return std::string_view(bytes + o[row], static_cast<size_t>(o[row + 1] - o[row]));
}

bool Column::Verify(std::string* error) const {
  if (file_check_ == nullptr) return true;  // built in memory: nothing to check
  return internal::RunColumnFileCheck(*file_check_, error);
}

}  // namespace laneql
