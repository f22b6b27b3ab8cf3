#include "src/common/large_blocks.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#if defined(__GLIBC__) && !defined(__EMSCRIPTEN__)
#include <malloc.h>
#endif

#if defined(__linux__) && !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#include <unistd.h>
#define LANEQL_LARGE_BLOCK_CACHE 1
#endif

namespace laneql {

#if LANEQL_LARGE_BLOCK_CACHE
namespace {

constexpr size_t kHuge = size_t{2} << 20;

// Transparent huge pages (Debian's default THP mode is "madvise"): one fault and one zeroing
// per 2 MiB instead of per 4 KiB. A hint; a no-op on kernels without THP.
void AdviseHugePages(void* begin, size_t bytes) {
#if defined(MADV_HUGEPAGE)
  madvise(begin, bytes, MADV_HUGEPAGE);
#else
  (void)begin;
  (void)bytes;
#endif
}

// From this size on a block is mapped in whole huge pages. Below it, rounding up to 2 MiB
// would waste up to half of the block, so smaller blocks take 64 KiB steps and 4 KiB pages:
// they are here to be kept and reused, not for the huge pages.
constexpr size_t kHugeBlockMinBytes = size_t{4} << 20;
constexpr size_t kSmallStep = size_t{64} << 10;

// Whole 2 MiB pages for a huge block, so that it maps only huge pages; 64 KiB steps below.
size_t MappedBytes(size_t bytes) {
  const size_t step = bytes >= kHugeBlockMinBytes ? kHuge : kSmallStep;
  return (bytes + step - 1) / step * step;
}

struct KeptBlock {
  void* block;
  uint64_t freed;  // the free's sequence number: which block has waited longest
};
using KeptBySize = std::multimap<size_t, KeptBlock>;  // mapped bytes -> block

struct Cache {
  std::mutex mutex;
  KeptBySize kept;
  // Blocks in use that were kept blocks larger than their request: their mapped bytes, which
  // the free's `bytes` do not tell.
  std::map<const void*, size_t> larger_in_use;
  std::map<uint64_t, KeptBySize::iterator> by_age;  // KeptBlock::freed -> its entry in kept
  uint64_t frees = 0;
  size_t kept_bytes = 0;
  size_t budget = 0;

  void Erase(KeptBySize::iterator it) {
    kept_bytes -= it->first;
    by_age.erase(it->second.freed);
    kept.erase(it);
  }
  // Takes the least recently freed blocks out until `bytes` more fit in the budget; they go to
  // `evicted` (mapped bytes, block) for the caller to unmap outside the lock.
  void MakeRoom(size_t bytes, std::vector<std::pair<size_t, void*>>* evicted) {
    while (kept_bytes + bytes > budget && !by_age.empty()) {
      const KeptBySize::iterator oldest = by_age.begin()->second;
      evicted->emplace_back(oldest->first, oldest->second.block);
      Erase(oldest);
    }
  }

  Cache() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    const size_t memory = pages > 0 && page_size > 0
                              ? static_cast<size_t>(pages) * static_cast<size_t>(page_size)
                              : 0;
    // A third of the memory, at most 16 GiB: Q32's blocks on 1 and on 2 threads together are
    // about 5 GB, more than the 4 GiB kept before (so one side always mapped afresh).
    budget = std::min(memory / 3, size_t{16} << 30);
  }
};

Cache& TheCache() {
  static Cache* cache = new Cache();  // never destroyed: blocks may be freed at exit
  return *cache;
}

void* MapBlock(size_t mapped) {
  if (mapped < kHugeBlockMinBytes) {
    void* block =
        mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return block == MAP_FAILED ? nullptr : block;
  }
  // 2 MiB alignment: map one huge page more and trim both ends.
  void* raw = mmap(nullptr, mapped + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (begin + kHuge - 1) & ~(kHuge - 1);
  if (aligned > begin) munmap(raw, aligned - begin);
  const uintptr_t end = begin + mapped + kHuge;
  if (end > aligned + mapped) munmap(reinterpret_cast<void*>(aligned + mapped), end - aligned - mapped);
  AdviseHugePages(reinterpret_cast<void*>(aligned), mapped);
  return reinterpret_cast<void*>(aligned);
}

}  // namespace

void* AllocateLargeBlock(size_t bytes) {
  const size_t mapped = MappedBytes(bytes);
  Cache& cache = TheCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    // The smallest kept block that fits, if it is at most a quarter larger than the request.
    // Taking blocks up to twice the request and unmapping the rest made queries of different
    // sizes in turn destroy each other's blocks: in laneql_thread_scaling_bench, which runs each
    // query on 1 and on 2 threads in turn, GROUP BY WatchID, ClientIP (Q32) faulted in fresh
    // memory on every run of one side, 3.0-4.1 s on one thread against 1.7 s with this rule
    // (with a budget that holds both sides' blocks: Cache).
    auto it = cache.kept.lower_bound(mapped);
    if (it != cache.kept.end() && it->first <= mapped + mapped / 4) {
      void* block = it->second.block;
      // Handed out whole, its size noted for the free. Unmapping the surplus took the
      // process's memory map lock while other threads faulted pages in: 69 munmap calls in 3
      // runs of TPC-H Q18 on 16 threads, in whose slow runs the kernel's time quadrupled.
      if (it->first > mapped) {
        try {
          cache.larger_in_use.emplace(block, it->first);
        } catch (const std::bad_alloc&) {  // no note: the block's size must match the free's
          munmap(static_cast<uint8_t*>(block) + mapped, it->first - mapped);
        }
      }
      cache.Erase(it);
      return block;
    }
  }
  return MapBlock(mapped);
}

void FreeLargeBlock(void* p, size_t bytes) {
  if (p == nullptr) return;
  size_t mapped = MappedBytes(bytes);
  Cache& cache = TheCache();
  std::vector<std::pair<size_t, void*>> evicted;
  bool keep = false;
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (!cache.larger_in_use.empty()) {
      const auto larger = cache.larger_in_use.find(p);
      if (larger != cache.larger_in_use.end()) {
        mapped = larger->second;
        cache.larger_in_use.erase(larger);
      }
    }
    // A full cache gives up the blocks freed longest ago, not this one: the block a query
    // just freed is the one its next run asks for. Keeping the first blocks instead let the
    // hits generator's growth leftovers (8 GB of odd sizes) fill the budget for good, after
    // which every block a query freed was unmapped and mapped afresh by its next run: the
    // 2-thread runs of laneql_thread_scaling_bench faulted 55.6 K pages, 33.9 K with this rule.
    if (mapped <= cache.budget) {
      cache.MakeRoom(mapped, &evicted);
      const auto it = cache.kept.emplace(mapped, KeptBlock{p, ++cache.frees});
      cache.by_age.emplace(cache.frees, it);
      cache.kept_bytes += mapped;
      keep = true;
    }
  }
  for (const auto& [bytes_mapped, block] : evicted) munmap(block, bytes_mapped);
  if (!keep) munmap(p, mapped);
}

void ReleaseLargeBlocks() {
  Cache& cache = TheCache();
  KeptBySize kept;
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    kept.swap(cache.kept);
    cache.by_age.clear();
    cache.kept_bytes = 0;
  }
  for (const auto& [mapped, kept_block] : kept) munmap(kept_block.block, mapped);
}

size_t LargeBlockBudget() {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.budget;
}

void SetLargeBlockBudget(size_t bytes) {
  Cache& cache = TheCache();
  std::vector<std::pair<size_t, void*>> evicted;
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    cache.budget = bytes;
    cache.MakeRoom(0, &evicted);
  }
  for (const auto& [mapped, block] : evicted) munmap(block, mapped);
}

size_t KeptLargeBlockBytes() {
  Cache& cache = TheCache();
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.kept_bytes;
}

#else  // no cache: the C++ allocator

void* AllocateLargeBlock(size_t bytes) {
  return ::operator new(bytes, std::align_val_t{64}, std::nothrow);
}
void FreeLargeBlock(void* p, size_t bytes) {
  (void)bytes;
  ::operator delete(p, std::align_val_t{64});
}
void ReleaseLargeBlocks() {}
size_t KeptLargeBlockBytes() { return 0; }
size_t LargeBlockBudget() { return 0; }
void SetLargeBlockBudget(size_t bytes) { (void)bytes; }

#endif

bool RetainFreedHeapMemory() {
#if defined(__GLIBC__) && !defined(__EMSCRIPTEN__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__)
  static std::once_flag once;
  std::call_once(once, [] {
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    // A thread's arena grows in heaps of 64 MiB, and glibc unmaps a heap as soon as it is all
    // free unless the padding kept at the top (M_TOP_PAD) wants it: a whole heap of padding.
    // (It also pads each growth of the heap by as much, in address space only.)
    mallopt(M_TOP_PAD, 64 << 20);
  });
  return true;
#else
  return false;
#endif
}

}  // namespace laneql
