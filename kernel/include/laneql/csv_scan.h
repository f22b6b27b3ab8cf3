// The structural scan of the CSV reader: which bytes of a text are quotes, delimiters, line
// feeds or non-ASCII, as one bitmask per 64-byte block (bit i of block b = byte 64 * b + i).
// The reader turns quote bits into "inside quotes" masks with a prefix XOR, so that delimiters
// and line feeds inside quoted fields drop out without a byte-at-a-time state machine, and it
// counts quotes per chunk to know, before parsing in parallel, whether a chunk starts inside a
// quoted field. CR is not a structural byte: the parser strips it before a line feed.
//
// SIMD kernels dispatched at run time, plus the plain scalar references they are tested against.
#ifndef LANEQL_CSV_SCAN_H_
#define LANEQL_CSV_SCAN_H_

#include <cstddef>
#include <cstdint>

namespace laneql {

struct CsvBlockMasks {
  uint64_t quotes = 0;
  uint64_t delimiters = 0;
  uint64_t newlines = 0;   // '\n'
  uint64_t non_ascii = 0;  // bytes >= 0x80 (the reader validates UTF-8 only where one is set)
};

// Fills CsvScanBlockCount(n) blocks for data[0, n). Bits past byte n are 0. Reads no byte past
// data + n (the last partial block is copied), so `data` needs no padding.
inline size_t CsvScanBlockCount(size_t n) { return (n + 63) / 64; }
void CsvScanBlocks(const uint8_t* data, size_t n, uint8_t delimiter, uint8_t quote,
                   CsvBlockMasks* out);

// How many bytes of data[0, n) equal `byte` (the quote count that decides a chunk's parity).
size_t CsvCountByte(const uint8_t* data, size_t n, uint8_t byte);

namespace reference {
void CsvScanBlocks(const uint8_t* data, size_t n, uint8_t delimiter, uint8_t quote,
                   CsvBlockMasks* out);
size_t CsvCountByte(const uint8_t* data, size_t n, uint8_t byte);
}  // namespace reference

}  // namespace laneql

#endif  // LANEQL_CSV_SCAN_H_
