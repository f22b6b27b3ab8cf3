#include "target_param.h"

#include "hwy/targets.h"
#include "laneql/targets.h"

namespace laneql::testing {

std::vector<int64_t> TargetsToTest() {
  std::vector<int64_t> out;
  for (const SimdTarget& t : SupportedTargets()) out.push_back(t.bits);
  return out;
}

std::string TargetParamName(const ::testing::TestParamInfo<int64_t>& info) {
  return hwy::TargetName(info.param);
}

void PerTargetTest::SetUp() {
  hwy::SetSupportedTargetsForTest(GetParam());
  // Prove the forcing took: otherwise every instance would silently test the same target.
  ASSERT_EQ(DispatchedTarget().bits, GetParam())
      << "dispatch did not switch to " << hwy::TargetName(GetParam());
}

void PerTargetTest::TearDown() { hwy::SetSupportedTargetsForTest(0); }

}  // namespace laneql::testing
