// Facts about the machine that the CLI and the bindings report.
#ifndef LANEQL_SYSTEM_INFO_H_
#define LANEQL_SYSTEM_INFO_H_

#include <string>

namespace laneql {

// e.g. "Intel(R) Xeon(R) Platinum 8480+"; "unknown" where it cannot be read (wasm).
std::string CpuModel();
// Logical processors this process may run on (>= 1).
int LogicalProcessors();
// The default worker count: physical cores where the topology is known, else logical processors.
int DefaultThreads();

}  // namespace laneql

#endif  // LANEQL_SYSTEM_INFO_H_
