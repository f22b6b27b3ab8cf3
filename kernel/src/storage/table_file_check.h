// The lazy check of a column read from a .laneql file (Column::Verify): what the reader records
// at open (where the column's buffers lie in the mapping and their checksums) and the one-time
// check of the bytes themselves, run the first time a query reads the column.
#ifndef LANEQL_STORAGE_TABLE_FILE_CHECK_H_
#define LANEQL_STORAGE_TABLE_FILE_CHECK_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "laneql/types.h"
#include "src/storage/table_file_format.h"

namespace laneql::internal {

struct ColumnFileCheck {
  struct Buffer {
    const uint8_t* data = nullptr;  // inside the mapping; null when size is 0
    uint64_t size = 0;
    uint64_t capacity = 0;          // size rounded up to 64: the padding is checked too
    uint64_t checksum = 0;
  };

  std::string file;    // the path as given to OpenTableFile, for the message
  std::string column;  // the column's name
  TypeId type = TypeId::kInt64;
  uint64_t length = 0;
  uint64_t null_count = 0;
  Buffer buffers[kNumBufferKinds];
  // The file's bytes stay mapped while the check may still run, even if the column has since
  // copied its buffers (a write to a view copies it).
  std::shared_ptr<const void> owner;

  // The cached answer; written once under `once`.
  mutable std::once_flag once;
  mutable bool ok = false;
  mutable std::string message;
};

// Checks the column's bytes the first time it is called (checksums, zero padding, string
// offsets, bool values, validity bits against the null count) and returns the cached answer
// afterwards. Thread-safe. On failure *error (if not null) names the file and the column.
bool RunColumnFileCheck(const ColumnFileCheck& check, std::string* error);

}  // namespace laneql::internal

#endif  // LANEQL_STORAGE_TABLE_FILE_CHECK_H_
