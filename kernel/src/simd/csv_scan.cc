// Dispatch for the CSV structural scan (foreach_target.h compiles the per-target part once per
// SIMD target).
#include "laneql/csv_scan.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/csv_scan.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/csv_scan-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

void CsvScanBlocksTarget(const uint8_t* data, size_t n, uint8_t delimiter, uint8_t quote,
                         CsvBlockMasks* out) {
  CsvScanBlocksImpl(data, n, delimiter, quote, out);
}
size_t CsvCountByteTarget(const uint8_t* data, size_t n, uint8_t byte) {
  return CsvCountByteImpl(data, n, byte);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace laneql {

HWY_EXPORT(CsvScanBlocksTarget);
HWY_EXPORT(CsvCountByteTarget);

void CsvScanBlocks(const uint8_t* data, size_t n, uint8_t delimiter, uint8_t quote,
                   CsvBlockMasks* out) {
  if (n == 0) return;
  HWY_DYNAMIC_DISPATCH(CsvScanBlocksTarget)(data, n, delimiter, quote, out);
}

size_t CsvCountByte(const uint8_t* data, size_t n, uint8_t byte) {
  if (n == 0) return 0;
  return HWY_DYNAMIC_DISPATCH(CsvCountByteTarget)(data, n, byte);
}

}  // namespace laneql
#endif  // HWY_ONCE
