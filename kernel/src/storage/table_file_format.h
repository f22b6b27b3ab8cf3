// The on-disk layout of a .laneql table file, version 1 (the design: laneql/table_file.h).
//
//   offset 0                     FileHeader (128 bytes)
//   offset 128, 64-aligned ...   the column buffers, each at a multiple of 64 and followed by
//                                zero bytes up to the next multiple of 64 (its "capacity")
//   header.directory_offset      the directory: num_columns ColumnEntry, then the names
//   header.file_size             end of file (the directory is the last thing in it)
//
// Every integer is little-endian (the only byte order laneql runs on) and every struct is made
// of uint64 fields (plus the magic), so the structs have no padding and are written and read
// with memcpy. The buffers come first and the directory last so the writer can stream the
// buffers out, computing their checksums as it goes, and then write what it learned.
#ifndef LANEQL_STORAGE_TABLE_FILE_FORMAT_H_
#define LANEQL_STORAGE_TABLE_FILE_FORMAT_H_

#include <cstddef>
#include <cstdint>

namespace laneql::internal {

// "LANEQL" + "\r\n": a file moved through a text-mode transfer loses the bytes, so fails here.
inline constexpr uint8_t kTableFileMagic[8] = {'L', 'A', 'N', 'E', 'Q', 'L', '\r', '\n'};
inline constexpr uint64_t kTableFileVersion = 1;
inline constexpr uint64_t kTableFileAlignment = 64;

struct FileHeader {
  uint8_t magic[8];           // kTableFileMagic
  uint64_t version;           // kTableFileVersion; read before anything else is trusted
  uint64_t header_size;       // sizeof(FileHeader)
  uint64_t file_size;         // the whole file: a truncated or extended copy fails on open
  uint64_t num_rows;          // every column's length (0 when there are no columns)
  uint64_t num_columns;
  uint64_t directory_offset;  // 64-aligned, after the last buffer
  uint64_t directory_size;    // num_columns * sizeof(ColumnEntry) + the names' bytes
  uint64_t directory_checksum;
  uint64_t reserved[6];       // zero (room for later versions)
  uint64_t header_checksum;   // Checksum64 of every byte above
};
static_assert(sizeof(FileHeader) == 128, "FileHeader has a fixed size");

// One buffer of a column. A buffer of size 0 has offset 0 and checksum 0 (absent).
struct BufferEntry {
  uint64_t offset;    // from the start of the file, a multiple of 64
  uint64_t size;      // bytes of data; zero bytes follow up to the next multiple of 64
  uint64_t checksum;  // Checksum64 of the `size` data bytes
};

// Which BufferEntry holds what (see laneql/column.h for the layouts).
enum BufferKind { kValuesBuffer = 0, kOffsetsBuffer = 1, kValidityBuffer = 2, kNumBufferKinds = 3 };
inline constexpr const char* kBufferKindNames[kNumBufferKinds] = {"values", "offsets", "validity"};

struct ColumnEntry {
  uint64_t name_offset;  // from the start of the directory, inside the names area
  uint64_t name_size;    // bytes of UTF-8, not terminated
  uint64_t type;         // a laneql::TypeId
  uint64_t length;       // rows; equal to FileHeader::num_rows
  uint64_t null_count;   // rows that are null; a validity buffer is present iff this is > 0
  BufferEntry buffers[kNumBufferKinds];
};
static_assert(sizeof(ColumnEntry) == 112, "ColumnEntry has a fixed size");

inline constexpr uint64_t RoundUpToAlignment(uint64_t bytes) {
  return (bytes + kTableFileAlignment - 1) / kTableFileAlignment * kTableFileAlignment;
}

}  // namespace laneql::internal

#endif  // LANEQL_STORAGE_TABLE_FILE_FORMAT_H_
