// Dispatch for the hash kernels: foreach_target.h compiles this file once per SIMD target, and
// HWY_DYNAMIC_DISPATCH calls the best one the CPU supports (or the one ForceTarget chose).
#include "laneql/hash.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "src/simd/hash.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep
#include "hwy/highway.h"
#include "src/simd/hash-inl.h"

HWY_BEFORE_NAMESPACE();
namespace laneql {
namespace HWY_NAMESPACE {

void HashKeysTarget(HashKeyType type, const void* keys, size_t n, const uint64_t* validity,
                    uint64_t* hashes, bool combine) {
  HashKeysImpl(type, keys, n, validity, hashes, combine);
}
void HashStringsTarget(const int32_t* offsets, const uint8_t* bytes, size_t n,
                       const uint64_t* validity, uint64_t* hashes, bool combine) {
  HashStringsImpl(offsets, bytes, n, validity, hashes, combine);
}
void HashWideRowsTarget(const uint64_t* words, size_t stride, size_t n, uint64_t* hashes) {
  HashWideRowsImpl(words, stride, n, hashes);
}

}  // namespace HWY_NAMESPACE
}  // namespace laneql
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace laneql {

HWY_EXPORT(HashKeysTarget);
HWY_EXPORT(HashStringsTarget);
HWY_EXPORT(HashWideRowsTarget);

void HashKeys(HashKeyType type, const void* keys, size_t n, const uint64_t* validity,
              uint64_t* hashes) {
  HWY_DYNAMIC_DISPATCH(HashKeysTarget)(type, keys, n, validity, hashes, false);
}
void HashCombineKeys(HashKeyType type, const void* keys, size_t n, const uint64_t* validity,
                     uint64_t* hashes) {
  HWY_DYNAMIC_DISPATCH(HashKeysTarget)(type, keys, n, validity, hashes, true);
}
void HashStrings(const int32_t* offsets, const uint8_t* bytes, size_t n, const uint64_t* validity,
                 uint64_t* hashes) {
  HWY_DYNAMIC_DISPATCH(HashStringsTarget)(offsets, bytes, n, validity, hashes, false);
}
void HashCombineStrings(const int32_t* offsets, const uint8_t* bytes, size_t n,
                        const uint64_t* validity, uint64_t* hashes) {
  HWY_DYNAMIC_DISPATCH(HashStringsTarget)(offsets, bytes, n, validity, hashes, true);
}

void HashWideRows(const uint64_t* words, size_t stride, size_t n, uint64_t* hashes) {
  if (stride == 0) return;
  HWY_DYNAMIC_DISPATCH(HashWideRowsTarget)(words, stride, n, hashes);
}

}  // namespace laneql
#endif  // HWY_ONCE
