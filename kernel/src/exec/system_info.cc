#include "laneql/system_info.h"

#include <algorithm>
#include <fstream>
#include <set>
#include <thread>

#if defined(__unix__) && !defined(__EMSCRIPTEN__)
#include <unistd.h>
#endif

#include "hwy/contrib/thread_pool/topology.h"

namespace laneql {

std::string CpuModel() {
#if defined(__linux__) && !defined(__EMSCRIPTEN__)
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    // x86 says "model name", many Arm kernels only "CPU part"; take the first that names a model.
    if (line.rfind("model name", 0) == 0 || line.rfind("Model", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
  }
#endif
#if defined(__EMSCRIPTEN__)
  return "unknown (WebAssembly)";
#else
  return "unknown";
#endif
}

int LogicalProcessors() {
  const size_t n = std::max<size_t>(hwy::TotalLogicalProcessors(),
                                    std::thread::hardware_concurrency());
  return static_cast<int>(std::max<size_t>(n, 1));
}

int DefaultThreads() {
  // Physical cores: SMT siblings share a core's load ports and caches, and scans are memory-
  // bound, so a second thread per core rarely pays. Unknown topology (VMs, wasm): logical ones.
  const hwy::Topology topology;
  size_t cores = 0;
  for (const hwy::Topology::Package& package : topology.packages) cores += package.cores.size();
  return cores != 0 ? static_cast<int>(cores) : LogicalProcessors();
}

uint64_t PhysicalMemoryBytes() {
#if defined(__unix__) && !defined(__EMSCRIPTEN__)
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page_size > 0) return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page_size);
#endif
  return 0;
}

uint64_t DefaultMemoryLimitBytes() { return PhysicalMemoryBytes() / 5 * 4; }

}  // namespace laneql
