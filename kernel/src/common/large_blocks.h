// Large blocks (hash tables, aggregate state arrays, key arenas of big GROUP BYs, the columns
// of generated tables) come from mmap, with huge pages advised from 4 MiB on, and a freed one
// is kept for the next query instead of being returned to the kernel at once.
//
// Why: a GROUP BY with millions of groups grows gigabytes of such memory, and every fresh page
// costs a fault and the kernel's zeroing of it; on the 2-vCPU VM here perf showed 60 % of a
// high-cardinality query's time in clear_page_erms, and two threads faulting at once slowed
// each other down. Allocators of analytical engines keep such memory (jemalloc's retained
// pages in ClickHouse, DuckDB's buffer pool); glibc unmaps every block over 32 MiB on free.
// Blocks are kept up to a budget (a third of the physical memory, at most 16 GiB); a free that
// would exceed it unmaps the blocks freed longest ago first. Elsewhere than on Linux (wasm)
// these are plain operator new / delete.
#ifndef LANEQL_COMMON_LARGE_BLOCKS_H_
#define LANEQL_COMMON_LARGE_BLOCKS_H_

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace laneql {

// From this size on, allocations go through the large block cache. (1 MiB: the hits
// generator's int32 and string offset columns of a million rows are 4 MB, just under 4 MiB;
// with glibc each table faulted them in afresh, 0.13 s of system time in 0.34 s.)
inline constexpr size_t kLargeBlockMinBytes = size_t{1} << 20;

// At least `bytes` bytes, 64-byte aligned (page aligned; 2 MiB aligned from 4 MiB on, where
// huge pages are advised), or null when out of memory.
// `bytes` must be >= kLargeBlockMinBytes; free with FreeLargeBlock(p, bytes), the same bytes.
void* AllocateLargeBlock(size_t bytes);
void FreeLargeBlock(void* p, size_t bytes);
// Returns every kept block to the kernel (tests, and a memory limit that needs the room).
void ReleaseLargeBlocks();
// Bytes kept for reuse now.
size_t KeptLargeBlockBytes();
// How many bytes of freed blocks may be kept (0 where nothing is kept), and setting it, which
// unmaps the blocks freed longest ago until the kept ones fit (tests, embedders short of memory).
size_t LargeBlockBudget();
void SetLargeBlockBudget(size_t bytes);

// The same policy for the C library's heap, set once per process (Database calls it): glibc
// gives the top of a heap back to the kernel once more than 128 KiB of it are free, and so a
// query's smaller blocks (the tables and states of a radix-partitioned GROUP BY's 256
// partitions, some 60 MB for GROUP BY UserID) were faulted in and zeroed afresh on every
// run, two threads' faults contending in the kernel: 29 K faults per run on 2 threads, 124-139
// ms against 106-109 ms when kept. Freed heap memory is now kept up to 1 GiB per arena (as
// jemalloc retains it for ClickHouse), and requests up to 32 MiB are served from the heap (the
// most glibc's own adaptive threshold would allow). A worker thread's arena also kept unmapping
// each of its 64 MiB heaps once all free (700-11,000 faults in every 2-thread run of GROUP BY
// UserID and UserID, SearchPhrase, on the worker alone), which 64 MiB of top padding stops.
// Elsewhere than glibc, and under the sanitizers (whose allocators replace glibc's), nothing.
// Returns whether the policy holds.
bool RetainFreedHeapMemory();

// A std::allocator whose large blocks come from the cache, for per-group state arrays.
template <class T>
struct LargeBlockAllocator {
  using value_type = T;
  LargeBlockAllocator() = default;
  template <class U>
  LargeBlockAllocator(const LargeBlockAllocator<U>&) {}  // NOLINT: allocators convert implicitly
  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    void* p = bytes >= kLargeBlockMinBytes ? AllocateLargeBlock(bytes) : ::operator new(bytes);
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    if (n * sizeof(T) >= kLargeBlockMinBytes) FreeLargeBlock(p, n * sizeof(T));
    else ::operator delete(p);
  }
  // resize(n) default-initialises: numbers are left unwritten (and fresh pages untouched) for
  // code that writes every element itself (AggregateStates::ResizeForCopy); resize(n, value)
  // and every other construction are as with std::allocator.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
  template <class U>
  bool operator==(const LargeBlockAllocator<U>&) const { return true; }
  template <class U>
  bool operator!=(const LargeBlockAllocator<U>&) const { return false; }
};

}  // namespace laneql

#endif  // LANEQL_COMMON_LARGE_BLOCKS_H_
