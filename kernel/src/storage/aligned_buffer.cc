// AlignedBuffer: aligned operator new (nothrow), zeroed padding, amortised growth, and read-only
// views of memory owned elsewhere that are copied on the first write.
#include "laneql/aligned_buffer.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "src/common/large_blocks.h"
#include "src/common/query_budget.h"

namespace laneql {
namespace {

constexpr std::align_val_t kAlign{AlignedBuffer::kAlignment};

size_t RoundUp64(size_t bytes) {
  return (bytes + AlignedBuffer::kAlignment - 1) / AlignedBuffer::kAlignment *
         AlignedBuffer::kAlignment;
}

void SetError(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
}

}  // namespace

AlignedBuffer::~AlignedBuffer() { Release(); }

void AlignedBuffer::Release() {
  if (owner_ != nullptr) {
    owner_.reset();  // a view: the memory belongs to the owner
  } else if (data_ != nullptr) {
    if (capacity_ >= kLargeBlockMinBytes) FreeLargeBlock(data_, capacity_);
    else ::operator delete(data_, kAlign);
    ReleaseQueryMemory(capacity_);  // a query's memory (its budget), if one is running
  }
  data_ = nullptr;
  size_ = 0;
  capacity_ = 0;
}

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)),
      owner_(std::move(other.owner_)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    Release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
    owner_ = std::move(other.owner_);
  }
  return *this;
}

AlignedBuffer AlignedBuffer::View(const uint8_t* data, size_t size, size_t capacity,
                                  std::shared_ptr<const void> owner) {
  AlignedBuffer view;
  if (size == 0) return view;
  assert(data != nullptr && owner != nullptr && "View: data and owner must be set");
  assert(reinterpret_cast<uintptr_t>(data) % kAlignment == 0 && "View: data must be aligned");
  assert(capacity >= size && capacity % kAlignment == 0 && "View: capacity must be padded");
  // Never written through: every writing path copies a view first (see the header).
  view.data_ = const_cast<uint8_t*>(data);
  view.size_ = size;
  view.capacity_ = capacity;
  view.owner_ = std::move(owner);
  return view;
}

bool AlignedBuffer::MakeOwned(std::string* error) {
  if (owner_ == nullptr) return true;
  return Reallocate(capacity_, size_, error);  // copies size_ bytes, zeroes the padding
}

void AlignedBuffer::CopyViewForWrite() {
  std::string error;
  // Outside any query's budget: a limit must not refuse a copy that cannot report failing.
  const ScopedQueryBudget unaccounted(nullptr);
  if (!MakeOwned(&error)) {
    // The non-const accessors return a pointer and cannot report a failure; writing into the
    // read-only view instead would corrupt (or fault on) memory that is not ours.
    std::fprintf(stderr, "laneql: copying a read-only buffer for writing failed: %s\n",
                 error.c_str());
    std::abort();
  }
}

bool AlignedBuffer::Reallocate(size_t capacity, size_t zero_from, std::string* error) {
  if (capacity > kMaxSize) {
    SetError(error, "cannot allocate a buffer of " + std::to_string(capacity) +
                        " bytes: larger than the address space allows");
    return false;
  }
  capacity = RoundUp64(capacity);
  // A running query's memory limit (and its stop: see query_budget.h) may refuse the bytes.
  if (!ChargeQueryMemory(capacity, error)) return false;
  auto* fresh = static_cast<uint8_t*>(capacity >= kLargeBlockMinBytes
                                          ? AllocateLargeBlock(capacity)
                                          : ::operator new(capacity, kAlign, std::nothrow));
  if (fresh == nullptr) {
    ReleaseQueryMemory(capacity);
    SetError(error, "out of memory allocating a buffer of " + std::to_string(capacity) + " bytes");
    return false;
  }
  if (size_ != 0) std::memcpy(fresh, data_, size_);  // from owned memory or a view
  if (zero_from < size_) zero_from = size_;
  if (zero_from < capacity) std::memset(fresh + zero_from, 0, capacity - zero_from);  // padding
  const size_t size = size_;
  Release();
  data_ = fresh;
  size_ = size;
  capacity_ = capacity;
  return true;
}

bool AlignedBuffer::Reserve(size_t capacity, std::string* error) {
  if (capacity <= capacity_) return MakeOwned(error);  // reserving is preparing to write
  return Reallocate(capacity, size_, error);
}

bool AlignedBuffer::Resize(size_t size, std::string* error) {
  if (size > capacity_) {
    // Doubling amortises appends; a first allocation is exact (a column sized up front).
    const size_t doubled = capacity_ > kMaxSize / 2 ? kMaxSize : capacity_ * 2;
    if (!Reallocate(size > doubled ? size : doubled, size_, error)) return false;
  } else {
    if (!MakeOwned(error)) return false;
    if (size < size_) std::memset(data_ + size, 0, size_ - size);  // bytes past size() stay zero
  }
  size_ = size;
  return true;
}

bool AlignedBuffer::ResizeForOverwrite(size_t size, std::string* error) {
  if (size <= capacity_) return Resize(size, error);
  // Exact when first allocated (a column sized up front), doubling afterwards.
  const size_t doubled = capacity_ > kMaxSize / 2 ? kMaxSize : capacity_ * 2;
  if (!Reallocate(size > doubled ? size : doubled, size, error)) return false;
  size_ = size;
  return true;
}

bool AlignedBuffer::AppendGrowing(const void* bytes, size_t count, std::string* error) {
  if (count == 0) return true;
  if (count > kMaxSize - size_) {
    SetError(error, "cannot grow a buffer of " + std::to_string(size_) + " bytes by " +
                        std::to_string(count) + " bytes: larger than the address space allows");
    return false;
  }
  const size_t old_size = size_;
  if (!Resize(old_size + count, error)) return false;
  std::memcpy(data_ + old_size, bytes, count);
  return true;
}

bool AlignedBuffer::Assign(const void* bytes, size_t count, std::string* error) {
  if (owner_ != nullptr) {
    // A view is replaced, not copied; its bytes may be the source, so it is let go last.
    AlignedBuffer fresh;
    if (count != 0) {
      if (!fresh.Reallocate(count, count, error)) return false;
      std::memcpy(fresh.data_, bytes, count);
      fresh.size_ = count;
    }
    *this = std::move(fresh);
    return true;
  }
  if (count > capacity_) {
    AlignedBuffer fresh;
    if (!fresh.Reallocate(count, count, error)) return false;
    *this = std::move(fresh);
  } else {
    Clear();
  }
  if (count != 0) std::memcpy(data_, bytes, count);
  size_ = count;
  return true;
}

void AlignedBuffer::Clear() {
  if (owner_ != nullptr) {
    Release();  // nothing of a view is worth keeping
    return;
  }
  if (size_ != 0) std::memset(data_, 0, size_);
  size_ = 0;
}

}  // namespace laneql
