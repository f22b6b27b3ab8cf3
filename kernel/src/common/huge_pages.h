// Transparent huge pages for the large buffers a query grows (hash tables, aggregate states,
// key arenas): on Linux with THP in "madvise" mode (Debian's default), memory the process marks
// with MADV_HUGEPAGE is mapped 2 MiB at a time. A GROUP BY with millions of groups otherwise
// takes a page fault every 4 KiB it touches: perf showed over half of such a query's time in
// the kernel's fault path, and two threads faulting at once contend there, so the query got
// slower with more threads.
#ifndef LANEQL_COMMON_HUGE_PAGES_H_
#define LANEQL_COMMON_HUGE_PAGES_H_

#include <cstddef>

namespace laneql {

// Asks for huge pages over the 2 MiB-aligned part of [begin, begin + bytes) (a hint: a no-op
// elsewhere, on older kernels or when THP is off). Call before first touching the memory.
void AdviseHugePages(void* begin, size_t bytes);

}  // namespace laneql

#endif  // LANEQL_COMMON_HUGE_PAGES_H_
