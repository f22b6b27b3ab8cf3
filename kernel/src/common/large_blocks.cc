#include "src/common/large_blocks.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <new>

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

struct Cache {
  std::mutex mutex;
  std::multimap<size_t, void*> kept;  // mapped bytes -> block
  size_t kept_bytes = 0;
  size_t budget = 0;

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
      void* block = it->second;
      cache.kept_bytes -= it->first;
      // Its true size is it->first; the caller frees `bytes`, whose mapped size may be
      // smaller: unmap the surplus now so sizes stay consistent.
      if (it->first > mapped) {
        munmap(static_cast<uint8_t*>(block) + mapped, it->first - mapped);
      }
      cache.kept.erase(it);
      return block;
    }
  }
  return MapBlock(mapped);
}

void FreeLargeBlock(void* p, size_t bytes) {
  if (p == nullptr) return;
  const size_t mapped = MappedBytes(bytes);
  Cache& cache = TheCache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (cache.kept_bytes + mapped <= cache.budget) {
      cache.kept.emplace(mapped, p);
      cache.kept_bytes += mapped;
      return;
    }
  }
  munmap(p, mapped);
}

void ReleaseLargeBlocks() {
  Cache& cache = TheCache();
  std::multimap<size_t, void*> kept;
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    kept.swap(cache.kept);
    cache.kept_bytes = 0;
  }
  for (const auto& [mapped, block] : kept) munmap(block, mapped);
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

#endif

}  // namespace laneql
