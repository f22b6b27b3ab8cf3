// Facts about the machine that the CLI and the bindings report.
#ifndef LANEQL_SYSTEM_INFO_H_
#define LANEQL_SYSTEM_INFO_H_

#include <cstdint>
#include <string>

namespace laneql {

// e.g. "Intel(R) Xeon(R) Platinum 8480+"; "unknown" where it cannot be read (wasm).
std::string CpuModel();
// Logical processors this process may run on (>= 1).
int LogicalProcessors();
// The default worker count: physical cores where the topology is known, else logical processors.
int DefaultThreads();
// The machine's physical memory in bytes; 0 where it cannot be read (wasm).
uint64_t PhysicalMemoryBytes();
// The memory limit a Database uses by default: 80 % of PhysicalMemoryBytes(), or 0 (none) when
// that is unknown.
uint64_t DefaultMemoryLimitBytes();

}  // namespace laneql

#endif  // LANEQL_SYSTEM_INFO_H_
