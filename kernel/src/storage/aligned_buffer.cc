// AlignedBuffer: aligned operator new (nothrow), zeroed padding, amortised growth.
#include "laneql/aligned_buffer.h"

#include <cstring>
#include <new>
#include <utility>

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

AlignedBuffer::~AlignedBuffer() {
  if (data_ != nullptr) ::operator delete(data_, kAlign);
}

AlignedBuffer::AlignedBuffer(AlignedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

AlignedBuffer& AlignedBuffer::operator=(AlignedBuffer&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) ::operator delete(data_, kAlign);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

bool AlignedBuffer::Reallocate(size_t capacity, size_t zero_from, std::string* error) {
  if (capacity > kMaxSize) {
    SetError(error, "cannot allocate a buffer of " + std::to_string(capacity) +
                        " bytes: larger than the address space allows");
    return false;
  }
  capacity = RoundUp64(capacity);
  auto* fresh = static_cast<uint8_t*>(::operator new(capacity, kAlign, std::nothrow));
  if (fresh == nullptr) {
    SetError(error, "out of memory allocating a buffer of " + std::to_string(capacity) + " bytes");
    return false;
  }
  if (size_ != 0) std::memcpy(fresh, data_, size_);
  if (zero_from < size_) zero_from = size_;
  if (zero_from < capacity) std::memset(fresh + zero_from, 0, capacity - zero_from);  // padding
  if (data_ != nullptr) ::operator delete(data_, kAlign);
  data_ = fresh;
  capacity_ = capacity;
  return true;
}

bool AlignedBuffer::Reserve(size_t capacity, std::string* error) {
  if (capacity <= capacity_) return true;
  return Reallocate(capacity, size_, error);
}

bool AlignedBuffer::Resize(size_t size, std::string* error) {
  if (size > capacity_) {
    // Doubling amortises appends; a first allocation is exact (a column sized up front).
    const size_t doubled = capacity_ > kMaxSize / 2 ? kMaxSize : capacity_ * 2;
    if (!Reallocate(size > doubled ? size : doubled, size_, error)) return false;
  } else if (size < size_) {
    std::memset(data_ + size, 0, size_ - size);  // bytes past size() stay zero
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

bool AlignedBuffer::Append(const void* bytes, size_t count, std::string* error) {
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
  if (size_ != 0) std::memset(data_, 0, size_);
  size_ = 0;
}

}  // namespace laneql
