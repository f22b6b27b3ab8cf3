// `laneql info`: the CPU, the SIMD targets compiled, supported and dispatched, threads, version.
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "flags.h"
#include "laneql/system_info.h"
#include "laneql/targets.h"
#include "laneql/version.h"

namespace laneql::cli {
namespace {

std::string JsonNames(const std::vector<SimdTarget>& targets) {
  std::string out = "[";
  for (size_t i = 0; i < targets.size(); ++i) out += (i ? ", " : "") + JsonString(targets[i].name);
  return out + "]";
}

std::string PlainNames(const std::vector<SimdTarget>& targets) {
  std::string out;
  for (const SimdTarget& t : targets) out += (out.empty() ? "" : " ") + t.name;
  return out;
}

}  // namespace

int RunInfo(const std::vector<std::string>& args) {
  Flags flags;
  if (!ParseFlags("info", args, {{"--target"}, {"--json"}, 0}, &flags)) return kExitUsage;
  if (!ApplyTarget("info", flags)) return kExitUsage;
  const std::string cpu = CpuModel();
  const std::vector<SimdTarget> compiled = CompiledTargets(), supported = SupportedTargets();
  const SimdTarget dispatched = DispatchedTarget();
  if (flags.Has("--json")) {
    std::printf(
        "{\"version\": %s, \"cpu\": %s, \"compiled_targets\": %s, \"supported_targets\": %s, "
        "\"dispatched_target\": %s, \"logical_processors\": %d, \"threads\": %d}\n",
        JsonString(Version()).c_str(), JsonString(cpu).c_str(), JsonNames(compiled).c_str(),
        JsonNames(supported).c_str(), JsonString(dispatched.name).c_str(), LogicalProcessors(),
        DefaultThreads());
  } else {
    std::printf("laneql            %s\n", Version());
    std::printf("cpu               %s\n", cpu.c_str());
    std::printf("compiled targets  %s\n", PlainNames(compiled).c_str());
    std::printf("supported targets %s\n", PlainNames(supported).c_str());
    std::printf("dispatched target %s%s\n", dispatched.name.c_str(),
                flags.Has("--target") ? " (forced by --target)" : "");
    std::printf("logical cpus      %d\n", LogicalProcessors());
    std::printf("threads           %d (default: physical cores)\n", DefaultThreads());
  }
  return kExitOk;
}

}  // namespace laneql::cli
