// Target introspection and forcing, which `laneql info --target` and the benchmarks rely on.
#include <cctype>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "hwy/targets.h"  // HWY_TARGETS and the target bits of this build
#include "laneql/targets.h"

namespace laneql {
namespace {

bool Contains(const std::vector<SimdTarget>& list, const std::string& name) {
  for (const SimdTarget& t : list) {
    if (t.name == name) return true;
  }
  return false;
}

class TargetsTest : public ::testing::Test {
 protected:
  void TearDown() override { ResetTarget(); }
};

TEST_F(TargetsTest, CompiledTargetsIncludeFallbackAndTheLadder) {
  const std::vector<SimdTarget> compiled = CompiledTargets();
  ASSERT_FALSE(compiled.empty());
#if defined(__EMSCRIPTEN__)
  // No run-time dispatch on wasm: each flavour is built for exactly one target.
  ASSERT_EQ(1u, compiled.size());
#if defined(__wasm_simd128__)
  EXPECT_EQ("WASM", compiled.front().name);
#else
  EXPECT_EQ("EMU128", compiled.front().name);
#endif
#else
  EXPECT_TRUE(Contains(compiled, "EMU128") || Contains(compiled, "SCALAR"));
#endif
#if defined(__x86_64__)
  // The x86 ladder, as far as this build compiles it: all of it by default; the sanitizer builds
  // leave out the AVX-512 targets and SSE4 (LANEQL_EXTRA_DISABLED_TARGETS), never AVX2.
  const std::pair<int64_t, const char*> ladder[] = {{HWY_AVX3_SPR, "AVX3_SPR"},
                                                    {HWY_AVX3_ZEN4, "AVX3_ZEN4"},
                                                    {HWY_AVX3, "AVX3"},
                                                    {HWY_AVX2, "AVX2"},
                                                    {HWY_SSE4, "SSE4"}};
  for (const auto& [bit, name] : ladder) {
    EXPECT_EQ((HWY_TARGETS & bit) != 0, Contains(compiled, name)) << name;
  }
  EXPECT_TRUE(Contains(compiled, "AVX2"));
#endif
#if defined(__aarch64__)
  // The aarch64 targets, as far as this build compiles them (the cross build, run under
  // qemu-user: make test-arm64): NEON always (it is the baseline; NEON_WITHOUT_AES for CPUs
  // without the crypto extension), SVE/SVE2 and their fixed-width variants with run-time dispatch.
  const std::pair<int64_t, const char*> ladder[] = {{HWY_SVE2_128, "SVE2_128"},
                                                    {HWY_SVE_256, "SVE_256"},
                                                    {HWY_SVE2, "SVE2"},
                                                    {HWY_SVE, "SVE"},
                                                    {HWY_NEON, "NEON"},
                                                    {HWY_NEON_WITHOUT_AES, "NEON_WITHOUT_AES"}};
  for (const auto& [bit, name] : ladder) {
    EXPECT_EQ((HWY_TARGETS & bit) != 0, Contains(compiled, name)) << name;
  }
  EXPECT_TRUE(Contains(compiled, "NEON"));
#endif
}

TEST_F(TargetsTest, DispatchUsesTheBestSupportedTarget) {
  const std::vector<SimdTarget> supported = SupportedTargets();
  ASSERT_FALSE(supported.empty());
  EXPECT_EQ(supported.front().name, DispatchedTarget().name);
}

TEST_F(TargetsTest, ForceEachSupportedTargetThenReset) {
  const std::string best = DispatchedTarget().name;
  for (const SimdTarget& t : SupportedTargets()) {
    std::string error;
    ASSERT_TRUE(ForceTarget(t.name, &error)) << error;
    EXPECT_EQ(t.name, DispatchedTarget().name);
    // Asking what is supported must not undo the forcing (Highway re-detects as a side effect).
    EXPECT_EQ(t.name, SupportedTargets().front().name);
    EXPECT_EQ(t.name, DispatchedTarget().name);
  }
  ResetTarget();
  EXPECT_EQ(best, DispatchedTarget().name);
}

TEST_F(TargetsTest, ForceIsCaseInsensitive) {
  const SimdTarget last = SupportedTargets().back();
  std::string lower = last.name, error;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  ASSERT_TRUE(ForceTarget(lower, &error)) << error;
  EXPECT_EQ(last.name, DispatchedTarget().name);
}

TEST_F(TargetsTest, UnknownTargetIsRejectedWithTheValidNames) {
  const std::string best = DispatchedTarget().name;
  std::string error;
  EXPECT_FALSE(ForceTarget("AVX9000", &error));
  EXPECT_NE(std::string::npos, error.find("unknown SIMD target 'AVX9000'")) << error;
  EXPECT_NE(std::string::npos, error.find(CompiledTargets().front().name)) << error;
  EXPECT_EQ(best, DispatchedTarget().name);
}

TEST_F(TargetsTest, UnsupportedTargetIsRejected) {
  for (const SimdTarget& t : CompiledTargets()) {
    if (Contains(SupportedTargets(), t.name)) continue;
    std::string error;
    EXPECT_FALSE(ForceTarget(t.name, &error)) << t.name;
    EXPECT_NE(std::string::npos, error.find("not supported by this CPU")) << error;
    return;
  }
  GTEST_SKIP() << "this CPU supports every compiled target";
}

}  // namespace
}  // namespace laneql
