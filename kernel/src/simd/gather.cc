// Dispatch for the gather / compress kernels: foreach_target.h compiles this file once per SIMD
// target, and HWY_DYNAMIC_DISPATCH calls the best one the CPU supports (or the forced one).
#include "laneql/gather.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/gather.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/gather-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

size_t CompressCountTarget(const uint64_t* HWY_RESTRICT mask, size_t n) {
  return CountSelectedImpl(mask, n);
}

size_t CompressU8Target(const uint8_t* HWY_RESTRICT in, size_t n,
                        const uint64_t* HWY_RESTRICT mask, uint8_t* HWY_RESTRICT out) {
  return CompressImpl(in, n, mask, out);
}
size_t CompressU16Target(const uint16_t* HWY_RESTRICT in, size_t n,
                         const uint64_t* HWY_RESTRICT mask, uint16_t* HWY_RESTRICT out) {
  return CompressImpl(in, n, mask, out);
}
size_t CompressU32Target(const uint32_t* HWY_RESTRICT in, size_t n,
                         const uint64_t* HWY_RESTRICT mask, uint32_t* HWY_RESTRICT out) {
  return CompressImpl(in, n, mask, out);
}
size_t CompressU64Target(const uint64_t* HWY_RESTRICT in, size_t n,
                         const uint64_t* HWY_RESTRICT mask, uint64_t* HWY_RESTRICT out) {
  return CompressImpl(in, n, mask, out);
}

void GatherU8Target(const uint8_t* HWY_RESTRICT in, const uint32_t* HWY_RESTRICT indices,
                    size_t count, uint8_t* HWY_RESTRICT out) {
  GatherNarrowImpl(in, indices, count, out);
}
void GatherU16Target(const uint16_t* HWY_RESTRICT in, const uint32_t* HWY_RESTRICT indices,
                     size_t count, uint16_t* HWY_RESTRICT out) {
  GatherNarrowImpl(in, indices, count, out);
}
void GatherU32Target(const uint32_t* HWY_RESTRICT in, const uint32_t* HWY_RESTRICT indices,
                     size_t count, uint32_t* HWY_RESTRICT out) {
  GatherU32Impl(in, indices, count, out);
}
void GatherU64Target(const uint64_t* HWY_RESTRICT in, const uint32_t* HWY_RESTRICT indices,
                     size_t count, uint64_t* HWY_RESTRICT out) {
  GatherU64Impl(in, indices, count, out);
}

void CompressBitmaskTarget(const uint64_t* HWY_RESTRICT bits, size_t n,
                           const uint64_t* HWY_RESTRICT mask, uint64_t* HWY_RESTRICT out) {
  CompressBitmaskImpl(bits, n, mask, out);
}
void GatherBitmaskTarget(const uint64_t* HWY_RESTRICT bits, const uint32_t* HWY_RESTRICT indices,
                         size_t count, uint64_t* HWY_RESTRICT out) {
  GatherBitmaskImpl(bits, indices, count, out);
}

int64_t CompressStringOffsetsTarget(const int32_t* HWY_RESTRICT offsets, size_t n,
                                    const uint64_t* HWY_RESTRICT mask,
                                    int32_t* HWY_RESTRICT out_offsets) {
  return CompressStringOffsetsImpl(offsets, n, mask, out_offsets);
}
void CompressStringDataTarget(const int32_t* HWY_RESTRICT offsets,
                              const uint8_t* HWY_RESTRICT data, size_t n,
                              const uint64_t* HWY_RESTRICT mask, uint8_t* HWY_RESTRICT out_data,
                              size_t out_bytes) {
  CompressStringDataImpl(offsets, data, n, mask, out_data, out_bytes);
}
int64_t GatherStringOffsetsTarget(const int32_t* HWY_RESTRICT offsets,
                                  const uint32_t* HWY_RESTRICT indices, size_t count,
                                  int32_t* HWY_RESTRICT out_offsets) {
  return GatherStringOffsetsImpl(offsets, indices, count, out_offsets);
}
void GatherStringDataTarget(const int32_t* HWY_RESTRICT offsets, const uint8_t* HWY_RESTRICT data,
                            size_t data_bytes, const uint32_t* HWY_RESTRICT indices, size_t count,
                            uint8_t* HWY_RESTRICT out_data, size_t out_bytes) {
  GatherStringDataImpl(offsets, data, data_bytes, indices, count, out_data, out_bytes);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace laneql {

HWY_EXPORT(CompressCountTarget);
HWY_EXPORT(CompressU8Target);
HWY_EXPORT(CompressU16Target);
HWY_EXPORT(CompressU32Target);
HWY_EXPORT(CompressU64Target);
HWY_EXPORT(GatherU8Target);
HWY_EXPORT(GatherU16Target);
HWY_EXPORT(GatherU32Target);
HWY_EXPORT(GatherU64Target);
HWY_EXPORT(CompressBitmaskTarget);
HWY_EXPORT(GatherBitmaskTarget);
HWY_EXPORT(CompressStringOffsetsTarget);
HWY_EXPORT(CompressStringDataTarget);
HWY_EXPORT(GatherStringOffsetsTarget);
HWY_EXPORT(GatherStringDataTarget);

size_t CompressCount(const uint64_t* mask, size_t n) {
  return HWY_DYNAMIC_DISPATCH(CompressCountTarget)(mask, n);
}

size_t CompressU8(const uint8_t* in, size_t n, const uint64_t* mask, uint8_t* out) {
  return HWY_DYNAMIC_DISPATCH(CompressU8Target)(in, n, mask, out);
}
size_t CompressU16(const uint16_t* in, size_t n, const uint64_t* mask, uint16_t* out) {
  return HWY_DYNAMIC_DISPATCH(CompressU16Target)(in, n, mask, out);
}
size_t CompressU32(const uint32_t* in, size_t n, const uint64_t* mask, uint32_t* out) {
  return HWY_DYNAMIC_DISPATCH(CompressU32Target)(in, n, mask, out);
}
size_t CompressU64(const uint64_t* in, size_t n, const uint64_t* mask, uint64_t* out) {
  return HWY_DYNAMIC_DISPATCH(CompressU64Target)(in, n, mask, out);
}

void GatherU8(const uint8_t* in, const uint32_t* indices, size_t count, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(GatherU8Target)(in, indices, count, out);
}
void GatherU16(const uint16_t* in, const uint32_t* indices, size_t count, uint16_t* out) {
  HWY_DYNAMIC_DISPATCH(GatherU16Target)(in, indices, count, out);
}
void GatherU32(const uint32_t* in, const uint32_t* indices, size_t count, uint32_t* out) {
  HWY_DYNAMIC_DISPATCH(GatherU32Target)(in, indices, count, out);
}
void GatherU64(const uint64_t* in, const uint32_t* indices, size_t count, uint64_t* out) {
  HWY_DYNAMIC_DISPATCH(GatherU64Target)(in, indices, count, out);
}

void CompressBitmask(const uint64_t* bits, size_t n, const uint64_t* mask, uint64_t* out) {
  HWY_DYNAMIC_DISPATCH(CompressBitmaskTarget)(bits, n, mask, out);
}
void GatherBitmask(const uint64_t* bits, const uint32_t* indices, size_t count, uint64_t* out) {
  HWY_DYNAMIC_DISPATCH(GatherBitmaskTarget)(bits, indices, count, out);
}

int64_t CompressStringOffsets(const int32_t* offsets, size_t n, const uint64_t* mask,
                              int32_t* out_offsets) {
  return HWY_DYNAMIC_DISPATCH(CompressStringOffsetsTarget)(offsets, n, mask, out_offsets);
}
void CompressStringData(const int32_t* offsets, const uint8_t* data, size_t n,
                        const uint64_t* mask, uint8_t* out_data, size_t out_bytes) {
  HWY_DYNAMIC_DISPATCH(CompressStringDataTarget)(offsets, data, n, mask, out_data, out_bytes);
}
int64_t GatherStringOffsets(const int32_t* offsets, const uint32_t* indices, size_t count,
                            int32_t* out_offsets) {
  return HWY_DYNAMIC_DISPATCH(GatherStringOffsetsTarget)(offsets, indices, count, out_offsets);
}
void GatherStringData(const int32_t* offsets, const uint8_t* data, size_t data_bytes,
                      const uint32_t* indices, size_t count, uint8_t* out_data,
                      size_t out_bytes) {
  HWY_DYNAMIC_DISPATCH(GatherStringDataTarget)(offsets, data, data_bytes, indices, count,
                                               out_data, out_bytes);
}

size_t CompressFixed(size_t width, const void* in, size_t n, const uint64_t* mask, void* out) {
  switch (width) {
    case 1:
      return CompressU8(static_cast<const uint8_t*>(in), n, mask, static_cast<uint8_t*>(out));
    case 2:
      return CompressU16(static_cast<const uint16_t*>(in), n, mask, static_cast<uint16_t*>(out));
    case 4:
      return CompressU32(static_cast<const uint32_t*>(in), n, mask, static_cast<uint32_t*>(out));
    case 8:
      return CompressU64(static_cast<const uint64_t*>(in), n, mask, static_cast<uint64_t*>(out));
  }
  HWY_ABORT("CompressFixed: width %zu is not 1, 2, 4 or 8", width);
}

void GatherFixed(size_t width, const void* in, const uint32_t* indices, size_t count, void* out) {
  switch (width) {
    case 1:
      return GatherU8(static_cast<const uint8_t*>(in), indices, count, static_cast<uint8_t*>(out));
    case 2:
      return GatherU16(static_cast<const uint16_t*>(in), indices, count,
                       static_cast<uint16_t*>(out));
    case 4:
      return GatherU32(static_cast<const uint32_t*>(in), indices, count,
                       static_cast<uint32_t*>(out));
    case 8:
      return GatherU64(static_cast<const uint64_t*>(in), indices, count,
                       static_cast<uint64_t*>(out));
  }
  HWY_ABORT("GatherFixed: width %zu is not 1, 2, 4 or 8", width);
}

}  // namespace laneql
#endif  // HWY_ONCE
