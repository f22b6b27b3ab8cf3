// libFuzzer target: the .laneql table file reader (laneql/table_file.h) on any bytes. Opening
// must give a table or an error naming the file; a column must verify or fail with a message;
// and a table whose columns verify must be safe to read: every value formats, and a query over
// each column runs or fails cleanly.
//
// Input: byte 0 bit 0 asks for the checksums to be repaired (the header's, the directory's and
// every in-bounds buffer's, plus the header's file size): without it nearly every mutation stops
// at a checksum mismatch and the checks behind the checksums would go untested. The rest is the
// file, handed to the reader through an in-memory file (memfd), so no disk is touched.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "laneql/database.h"
#include "laneql/result.h"
#include "laneql/table.h"
#include "laneql/table_file.h"
#include "src/storage/checksum.h"
#include "src/storage/table_file_format.h"

namespace {

using laneql::internal::BufferEntry;
using laneql::internal::Checksum64;
using laneql::internal::ColumnEntry;
using laneql::internal::FileHeader;

// Fixes what a checksum guards, where the numbers leave it in bounds; leaves the rest as is.
void RepairChecksums(std::vector<uint8_t>* file) {
  const uint64_t size = file->size();
  if (size < sizeof(FileHeader)) return;
  FileHeader header;
  std::memcpy(&header, file->data(), sizeof(header));
  header.file_size = size;
  const uint64_t dir = header.directory_offset;
  if (dir <= size && header.directory_size <= size - dir) {
    const uint64_t entries = std::min<uint64_t>(header.num_columns,
                                                header.directory_size / sizeof(ColumnEntry));
    for (uint64_t c = 0; c < entries; ++c) {
      ColumnEntry entry;
      uint8_t* at = file->data() + dir + c * sizeof(ColumnEntry);
      std::memcpy(&entry, at, sizeof(entry));
      for (BufferEntry& b : entry.buffers) {
        if (b.size != 0 && b.offset <= size && b.size <= size - b.offset) {
          b.checksum = Checksum64(file->data() + b.offset, b.size);
        }
      }
      std::memcpy(at, &entry, sizeof(entry));
    }
    header.directory_checksum = Checksum64(file->data() + dir, header.directory_size);
  }
  header.header_checksum = Checksum64(&header, offsetof(FileHeader, header_checksum));
  std::memcpy(file->data(), &header, sizeof(header));
}

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "table_file fuzzer: %s: %s\n", what, detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  std::vector<uint8_t> file(data + 1, data + size);
  if ((data[0] & 1) != 0) RepairChecksums(&file);

  const int fd = memfd_create("fuzz.laneql", MFD_CLOEXEC);
  if (fd < 0) Fail("memfd_create", std::strerror(errno));
  size_t done = 0;
  while (done < file.size()) {
    const ssize_t wrote = ::write(fd, file.data() + done, file.size() - done);
    if (wrote <= 0) Fail("write to the memfd", std::strerror(errno));
    done += static_cast<size_t>(wrote);
  }
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  laneql::Table table;
  std::string error;
  const bool opened = laneql::OpenTableFile(path, &table, &error);
  ::close(fd);  // the mapping, if any, outlives the descriptor
  if (!opened) {
    if (error.find(path) == std::string::npos) Fail("an open error not naming the file", error);
    return 0;
  }
  std::vector<std::string> verified;
  for (size_t c = 0; c < table.num_columns(); ++c) {
    const laneql::Column& column = table.column(c);
    if (!column.Verify(&error)) {
      if (error.empty()) Fail("a failed check without a message", table.column_name(c));
      continue;
    }
    if (column.length() != table.num_rows()) Fail("a column of another length", error);
    for (size_t r = 0; r < column.length(); ++r) {
      (void)laneql::FormatValue(column, r, laneql::ValueStyle::kText);
    }
    verified.push_back(table.column_name(c));
  }

  // Queries check the columns they read, then run kernels over them.
  laneql::DatabaseOptions options;
  options.threads = 1;
  laneql::Database db(options);
  if (!db.Register("t", std::move(table), &error)) return 0;
  for (size_t c = 0; c < verified.size() && c < 8; ++c) {
    std::string name = "\"";
    for (char ch : verified[c]) name += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    name += "\"";
    const laneql::Result r = db.Query("SELECT min(" + name + "), max(" + name + "), count(" +
                                      name + "), count(DISTINCT " + name + ") FROM t");
    if (!r.ok() && r.error().empty()) Fail("an error result without a message", verified[c]);
  }
  const laneql::Result all = db.Query("SELECT * FROM t LIMIT 5");
  if (!all.ok() && all.error().empty()) Fail("an error result without a message", "SELECT *");
  return 0;
}
