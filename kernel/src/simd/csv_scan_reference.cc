// Scalar references for the CSV structural scan: one byte at a time, no Highway.
#include "laneql/csv_scan.h"

namespace laneql {
namespace reference {

void CsvScanBlocks(const uint8_t* data, size_t n, uint8_t delimiter, uint8_t quote,
                   CsvBlockMasks* out) {
  for (size_t b = 0; b < CsvScanBlockCount(n); ++b) out[b] = CsvBlockMasks{};
  for (size_t i = 0; i < n; ++i) {
    CsvBlockMasks& block = out[i / 64];
    const uint64_t bit = uint64_t{1} << (i % 64);
    if (data[i] == quote) block.quotes |= bit;
    if (data[i] == delimiter) block.delimiters |= bit;
    if (data[i] == '\n') block.newlines |= bit;
    if (data[i] >= 0x80) block.non_ascii |= bit;
  }
}

size_t CsvCountByte(const uint8_t* data, size_t n, uint8_t byte) {
  size_t count = 0;
  for (size_t i = 0; i < n; ++i) count += data[i] == byte ? 1 : 0;
  return count;
}

}  // namespace reference
}  // namespace laneql
