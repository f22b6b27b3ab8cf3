// Dispatch for the Bloom filter test: foreach_target.h compiles this file once per SIMD target,
// and HWY_DYNAMIC_DISPATCH calls the best one the CPU supports (or the one ForceTarget chose).
#include "laneql/bloom_filter.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/bloom_filter.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/bloom_filter-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

void BloomFilterTestTarget(const uint64_t* words, int shift, const uint64_t* hashes, size_t n, uint64_t* hits) {
  BloomFilterTestImpl(words, shift, hashes, n, hits);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace laneql {

HWY_EXPORT(BloomFilterTestTarget);

void BloomFilterTest(const uint64_t* words, int shift, const uint64_t* hashes, size_t n, uint64_t* hits) {
  HWY_DYNAMIC_DISPATCH(BloomFilterTestTarget)(words, shift, hashes, n, hits);
}

}  // namespace laneql
#endif  // HWY_ONCE
