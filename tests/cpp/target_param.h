// Runs a test once per SIMD target that this build compiled and this CPU supports, with
// dispatch forced to that target, in the spirit of Highway's own per-target tests: every kernel
// is checked on every target, not only on the best one.
#ifndef LANEQL_TESTS_CPP_TARGET_PARAM_H_
#define LANEQL_TESTS_CPP_TARGET_PARAM_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace laneql::testing {

std::vector<int64_t> TargetsToTest();
std::string TargetParamName(const ::testing::TestParamInfo<int64_t>& info);

class PerTargetTest : public ::testing::TestWithParam<int64_t> {
 protected:
  void SetUp() override;
  void TearDown() override;
};

}  // namespace laneql::testing

// Declares a per-target test suite; define tests with TEST_P(Suite, Name).
#define LANEQL_PER_TARGET_SUITE(Suite)                                          \
  class Suite : public ::laneql::testing::PerTargetTest {};                     \
  INSTANTIATE_TEST_SUITE_P(AllTargets, Suite,                                   \
                           ::testing::ValuesIn(::laneql::testing::TargetsToTest()), \
                           ::laneql::testing::TargetParamName)

#endif  // LANEQL_TESTS_CPP_TARGET_PARAM_H_
