// The native columnar file format, `.laneql`: a table as it lies in memory, so that opening it
// is an mmap and a header check, not a parse or a copy.
//
// Layout (all integers little-endian; see kernel/src/storage/table_file_format.h):
//  - a fixed header: magic, format version, row and column counts, where the column directory
//    lies, and a checksum of the header and of the directory;
//  - the column directory: per column its name, type, length, null count and, per buffer
//    (values, offsets, validity), its file offset, size and checksum;
//  - the buffers, each at a 64-byte-aligned offset and followed by zero bytes up to the next
//    multiple of 64, so that a mapped buffer keeps AlignedBuffer's padding guarantee.
//
// Opening checks the header, the directory and that every buffer lies inside the file, in
// microseconds whatever the file's size. A column's data checksums are checked the first time a
// query reads that column (Column::Verify), before any kernel touches it: `SELECT count(*)`
// reads no column and checks none. Corruption is reported as an error naming the file and
// column, never a crash. Files are written to a temporary name, flushed and renamed into place.
#ifndef LANEQL_TABLE_FILE_H_
#define LANEQL_TABLE_FILE_H_

#include <functional>
#include <string>

#include "laneql/table.h"

namespace laneql {

// Writes every column of `table` (any types, nulls, zero rows) to `path` atomically.
// `progress`, if set, is called with the number of columns written after each one (for a
// progress bar: writing is most of `laneql gen`'s time).
bool WriteTableFile(const Table& table, const std::string& path, std::string* error,
                    const std::function<void(size_t columns_written)>& progress = nullptr);

// The same for a table whose columns come in parts, so that a table larger than memory can be
// written: next_part fills its empty `part` with the next columns (each with the rows of the
// first) and returns true, an empty part ending the table, or returns false with *error set.
// Only one part is held at a time. Column names must be unique in any letter case.
bool WriteTableFileInParts(const std::function<bool(Table* part, std::string* error)>& next_part,
                           const std::string& path, std::string* error,
                           const std::function<void(size_t columns_written)>& progress = nullptr);

// Maps the file at `path` and returns its columns as views of the mapping (no copy); the mapping
// lives as long as any column of it does. Checks the header and directory only.
bool OpenTableFile(const std::string& path, Table* out, std::string* error);

// Checks every column's checksums now (what a full `laneql import` check or a test wants).
bool VerifyTableFile(const std::string& path, std::string* error);

}  // namespace laneql

#endif  // LANEQL_TABLE_FILE_H_
