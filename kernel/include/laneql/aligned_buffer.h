// A 64-byte-aligned byte buffer, owned or a read-only View of memory owned elsewhere: the
// storage under every column buffer.
//
// Padding guarantee (what kernels may rely on): the capacity is a multiple of 64 bytes and every
// byte from size() up to capacity() is zero. So a kernel may read whole aligned 64-byte vectors
// of a buffer (up to capacity(), never further) without a scalar tail, and the extra lanes read
// as zero. Only bytes below size() may be written through data(); Resize() keeps the padding
// zero when it shrinks. An empty buffer that was never allocated has data() == nullptr and
// capacity() == 0.
//
// Allocation never throws and never aborts: the functions that allocate return false and set
// *error (when error is not null) to a message naming the size, and leave the buffer unchanged.
//
// Views: View() makes a buffer that reads memory it does not own (a mapped .laneql file), kept
// alive by a shared owner, with no copy. A view is read-only memory, so everything that writes
// copies it into owned memory first (copy-on-write): Reserve, Resize, ResizeForOverwrite,
// Append, Assign (which just drops the view), MakeOwned, and the non-const data() / As<T>().
// The first ones report a failed copy like any allocation; the non-const accessors cannot, so
// they abort on out-of-memory: call MakeOwned() first where that matters. Clear() on a view drops
// it (capacity 0). The const accessors are plain loads on both kinds.
#ifndef LANEQL_ALIGNED_BUFFER_H_
#define LANEQL_ALIGNED_BUFFER_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

namespace laneql {

class AlignedBuffer {
 public:
  static constexpr size_t kAlignment = 64;
  // The largest size the buffer accepts; larger requests fail before reaching the allocator.
  static constexpr size_t kMaxSize = (static_cast<size_t>(PTRDIFF_MAX) / kAlignment) * kAlignment;

  AlignedBuffer() noexcept = default;
  ~AlignedBuffer();
  AlignedBuffer(AlignedBuffer&& other) noexcept;
  AlignedBuffer& operator=(AlignedBuffer&& other) noexcept;
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;

  // A read-only view of `size` bytes at `data`, which the caller guarantees are followed by zero
  // bytes up to `capacity` (a multiple of 64, >= size) and stay valid while `owner` (never null)
  // lives; `data` is 64-byte aligned. size 0 gives an empty, unallocated buffer (no owner kept).
  static AlignedBuffer View(const uint8_t* data, size_t size, size_t capacity,
                            std::shared_ptr<const void> owner);
  // True for a view (memory owned elsewhere, copied on the first write).
  bool is_view() const { return owner_ != nullptr; }
  // Turns a view into an owned copy (same size, capacity rounded up to 64); no-op when owned.
  bool MakeOwned(std::string* error);

  // Capacity for at least `capacity` bytes (exactly, rounded up to 64); never shrinks.
  bool Reserve(size_t capacity, std::string* error);
  // Sets the size, keeping the first min(old, new) bytes; bytes gained read as zero. Grows the
  // capacity to at least twice the old one, so repeated small growth is amortised O(1).
  bool Resize(size_t size, std::string* error);
  // Sets the size like Resize, but bytes gained are NOT zeroed (the caller overwrites every one
  // of them, e.g. a column filled in full); the padding past size() is still zero. Saves a
  // pass over memory that would be written twice. A first allocation is exact (rounded to 64).
  bool ResizeForOverwrite(size_t size, std::string* error);
  // Appends `count` bytes (the source may not lie inside this buffer). Inline when they fit the
  // capacity of owned memory: string results append a row at a time, and the call was a fifth
  // of dayname()'s time.
  bool Append(const void* bytes, size_t count, std::string* error) {
    if (owner_ == nullptr && count <= capacity_ - size_) {
      CopyShort(data_ + size_, static_cast<const uint8_t*>(bytes), count);
      size_ += count;
      return true;
    }
    return AppendGrowing(bytes, count, error);
  }
  // n bytes from `from` to `to` (not overlapping). Up to 32 bytes by two overlapping loads and
  // stores inline: the call to memcpy cost more than the copy for the few bytes of a typical
  // string row (14 % of strftime's time, 22 % of CAST(date AS VARCHAR)'s).
  static void CopyShort(uint8_t* to, const uint8_t* from, size_t n) {
    if (n > 32) {
      std::memcpy(to, from, n);
    } else if (n >= 16) {
      uint8_t head[16], tail[16];
      std::memcpy(head, from, 16);
      std::memcpy(tail, from + n - 16, 16);
      std::memcpy(to, head, 16);
      std::memcpy(to + n - 16, tail, 16);
    } else if (n >= 8) {
      uint64_t head, tail;
      std::memcpy(&head, from, 8);
      std::memcpy(&tail, from + n - 8, 8);
      std::memcpy(to, &head, 8);
      std::memcpy(to + n - 8, &tail, 8);
    } else if (n >= 4) {
      uint32_t head, tail;
      std::memcpy(&head, from, 4);
      std::memcpy(&tail, from + n - 4, 4);
      std::memcpy(to, &head, 4);
      std::memcpy(to + n - 4, &tail, 4);
    } else if (n != 0) {
      to[0] = from[0];
      to[n / 2] = from[n / 2];
      to[n - 1] = from[n - 1];
    }
  }
  // Replaces the contents with a copy of `count` bytes, allocating exactly (rounded up to 64).
  bool Assign(const void* bytes, size_t count, std::string* error);
  // Size 0, capacity kept (and zeroed, keeping the padding guarantee).
  void Clear();

  uint8_t* data() {
    if (__builtin_expect(owner_ != nullptr, 0)) CopyViewForWrite();
    return data_;
  }
  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }

  // The bytes as an array of T (the buffer is 64-byte aligned, so any T's alignment holds).
  template <class T>
  T* As() {
    return reinterpret_cast<T*>(data());
  }
  template <class T>
  const T* As() const {
    return reinterpret_cast<const T*>(data_);
  }

 private:
  // Append when the bytes do not fit (or the buffer is a view): grows, then copies.
  bool AppendGrowing(const void* bytes, size_t count, std::string* error);
  // zero_from: where zeroing of the new capacity starts (size_ or beyond, up to capacity).
  bool Reallocate(size_t capacity, size_t zero_from, std::string* error);
  // MakeOwned for the non-const accessors, which have no way to report a failure.
  void CopyViewForWrite();
  // Frees owned memory or lets go of a view's owner; leaves the buffer empty.
  void Release();

  uint8_t* data_ = nullptr;  // a view's memory is never written through this
  size_t size_ = 0;
  size_t capacity_ = 0;
  std::shared_ptr<const void> owner_;  // null for owned memory
};

}  // namespace laneql

#endif  // LANEQL_ALIGNED_BUFFER_H_
