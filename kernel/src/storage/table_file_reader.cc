// OpenTableFile: maps a .laneql file and builds its columns as views of the mapping. Only the
// header and the directory are read here (checksummed, and every number in them checked before
// it is used to address the mapping), so opening takes microseconds whatever the file's size;
// each column's bytes are checked the first time a query reads it (table_file_check.h).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#ifndef __EMSCRIPTEN__
#include <sys/mman.h>
#endif

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "laneql/table_file.h"
#include "src/storage/checksum.h"
#include "src/storage/table_file_check.h"
#include "src/storage/table_file_format.h"

namespace laneql {
namespace internal {

// Column's friend: builds a column from views without touching their bytes (no null count
// pass, no tail masking; the lazy check covers both).
struct TableFileColumns {
  static Column Make(TypeId type, uint64_t length, uint64_t null_count, AlignedBuffer values,
                     AlignedBuffer offsets, AlignedBuffer validity,
                     std::shared_ptr<const ColumnFileCheck> check) {
    Column column(type);
    column.length_ = static_cast<size_t>(length);
    column.null_count_ = static_cast<size_t>(null_count);
    column.values_ = std::move(values);
    column.offsets_ = std::move(offsets);
    column.validity_ = std::move(validity);
    column.file_check_ = std::move(check);
    return column;
  }
};

}  // namespace internal

namespace {

using internal::BufferEntry;
using internal::ColumnEntry;
using internal::FileHeader;

// The bytes of a whole file and what keeps them alive.
struct FileBytes {
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  std::shared_ptr<const void> owner;
};

#ifndef __EMSCRIPTEN__
// A read-only private mapping, unmapped when the last column of the file lets go of it.
class FileMapping {
 public:
  FileMapping(void* address, size_t size) : address_(address), size_(size) {}
  ~FileMapping() { ::munmap(address_, size_); }
  FileMapping(const FileMapping&) = delete;  // one owner unmaps, once
  FileMapping& operator=(const FileMapping&) = delete;

 private:
  void* address_;
  size_t size_;
};
#endif

// Opens, checks what kind of file `path` is and maps (natively) or reads (Emscripten, whose
// file systems have no real mmap) the whole of it.
bool LoadFile(const std::string& path, FileBytes* out, std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    *error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  if (S_ISDIR(info.st_mode)) {
    *error = path + " is a directory, not a laneql table file";
    return false;
  }
  if (!S_ISREG(info.st_mode)) {
    *error = path + " is not a regular file";
    return false;
  }
  const uint64_t size = static_cast<uint64_t>(info.st_size);
  if (size == 0) {
    *error = path + " is empty, not a laneql table file";
    return false;
  }
  if (size > AlignedBuffer::kMaxSize) {
    *error = path + " is too large to map (" + std::to_string(size) + " bytes)";
    return false;
  }
#ifndef __EMSCRIPTEN__
  void* address = ::mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_PRIVATE, fd, 0);
  if (address == MAP_FAILED) {
    *error = "cannot map " + path + ": " + std::strerror(errno);
    return false;
  }
  auto mapping = std::make_shared<FileMapping>(address, static_cast<size_t>(size));
  out->data = static_cast<const uint8_t*>(address);
  out->owner = std::move(mapping);
#else
  auto buffer = std::make_shared<AlignedBuffer>();
  if (!buffer->ResizeForOverwrite(static_cast<size_t>(size), error)) {
    *error = "cannot read " + path + ": " + *error;
    return false;
  }
  uint64_t done = 0;
  while (done < size) {
    const ssize_t got = ::read(fd, buffer->data() + done, static_cast<size_t>(size - done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      *error = "cannot read " + path + ": " +
               (got < 0 ? std::string(std::strerror(errno)) : "the file got shorter");
      return false;
    }
    done += static_cast<uint64_t>(got);
  }
  out->data = buffer->data();
  out->owner = std::move(buffer);
#endif
  out->size = size;
  return true;
}

// The header, checked in the order that gives the most useful message: is it a laneql file at
// all, is it a version this code reads, then is it intact and does it match the file's size.
bool ReadHeader(const std::string& path, const FileBytes& file, FileHeader* header,
                std::string* error) {
  const bool has_magic = file.size >= sizeof(internal::kTableFileMagic) &&
                         std::memcmp(file.data, internal::kTableFileMagic,
                                     sizeof(internal::kTableFileMagic)) == 0;
  if (!has_magic) {
    *error = path + " is not a laneql table file (it does not start with the LANEQL signature)";
    return false;
  }
  if (file.size < sizeof(FileHeader)) {
    *error = path + " is truncated: " + std::to_string(file.size) + " bytes, shorter than the " +
             std::to_string(sizeof(FileHeader)) + "-byte header";
    return false;
  }
  std::memcpy(header, file.data, sizeof(FileHeader));
  if (header->version != internal::kTableFileVersion) {
    *error = path + ": format version " + std::to_string(header->version) +
             " is not supported; this laneql reads version " +
             std::to_string(internal::kTableFileVersion);
    return false;
  }
  if (header->header_size != sizeof(FileHeader) ||
      internal::Checksum64(header, offsetof(FileHeader, header_checksum)) !=
          header->header_checksum) {
    *error = path + " is corrupt (header checksum mismatch)";
    return false;
  }
  for (uint64_t word : header->reserved) {
    if (word != 0) {
      *error = path + " is corrupt (reserved header fields are not zero)";
      return false;
    }
  }
  if (header->file_size != file.size) {
    *error = path + (file.size < header->file_size ? " is truncated: " : " is corrupt: ") +
             std::to_string(file.size) + " bytes, the header says " +
             std::to_string(header->file_size);
    return false;
  }
  const uint64_t dir = header->directory_offset;
  if (dir % internal::kTableFileAlignment != 0 || dir < sizeof(FileHeader) || dir > file.size ||
      header->directory_size > file.size - dir ||
      header->num_columns > header->directory_size / sizeof(ColumnEntry)) {
    *error = path + " is corrupt (the column directory does not fit in the file)";
    return false;
  }
  if (internal::Checksum64(file.data + dir, header->directory_size) !=
      header->directory_checksum) {
    *error = path + " is corrupt (column directory checksum mismatch)";
    return false;
  }
  if (header->num_columns == 0 && header->num_rows != 0) {
    *error = path + " is corrupt (" + std::to_string(header->num_rows) + " rows but no columns)";
    return false;
  }
  return true;
}

// The bytes each buffer of a column must have, given its type, length and null count; why says
// what does not fit.
bool ExpectedSizes(const ColumnEntry& entry, uint64_t expected[internal::kNumBufferKinds],
                   std::string* why) {
  const TypeId type = static_cast<TypeId>(entry.type);
  const uint64_t length = entry.length;
  const BufferEntry* b = entry.buffers;
  if (IsFixedWidth(type)) {
    if (length > AlignedBuffer::kMaxSize / TypeByteWidth(type)) {
      *why = std::to_string(length) + " rows cannot fit in memory";
      return false;
    }
    expected[internal::kValuesBuffer] = length * TypeByteWidth(type);
    expected[internal::kOffsetsBuffer] = 0;
  } else {
    const uint64_t width = OffsetByteWidth(type);
    if (length >= AlignedBuffer::kMaxSize / width) {
      *why = std::to_string(length) + " rows cannot fit in memory";
      return false;
    }
    // A string column with no rows may omit its single 0 offset (and then has no bytes).
    const bool omitted = length == 0 && b[internal::kOffsetsBuffer].size == 0;
    expected[internal::kOffsetsBuffer] = omitted ? 0 : (length + 1) * width;
    expected[internal::kValuesBuffer] = b[internal::kValuesBuffer].size;  // checked lazily
    if (omitted && b[internal::kValuesBuffer].size != 0) {
      *why = "string bytes without offsets";
      return false;
    }
    if (type == TypeId::kString && b[internal::kValuesBuffer].size > INT32_MAX) {
      *why = "more string bytes than int32 offsets can address";
      return false;
    }
  }
  if (entry.null_count > length) {
    *why = std::to_string(entry.null_count) + " nulls in " + std::to_string(length) + " rows";
    return false;
  }
  // Kernels take their no-null fast paths on "no bitmap", so a bitmap means nulls.
  expected[internal::kValidityBuffer] =
      entry.null_count == 0 ? 0 : BitmaskWords(length) * sizeof(uint64_t);
  return true;
}

// Checks one directory entry against the header and the file; builds the column.
bool ReadColumn(const std::string& path, const FileBytes& file, const FileHeader& header,
                size_t index, std::string* name, Column* out, std::string* error) {
  const uint8_t* dir = file.data + header.directory_offset;
  ColumnEntry entry;
  std::memcpy(&entry, dir + index * sizeof(ColumnEntry), sizeof(entry));
  // The messages' beginnings, built only on failure (opening builds none).
  auto where = [&] { return path + " is corrupt (column " + std::to_string(index); };
  const uint64_t names_start = header.num_columns * sizeof(ColumnEntry);
  if (entry.name_offset < names_start || entry.name_offset > header.directory_size ||
      entry.name_size > header.directory_size - entry.name_offset) {
    *error = where() + ": its name lies outside the directory)";
    return false;
  }
  name->assign(reinterpret_cast<const char*>(dir + entry.name_offset),
               static_cast<size_t>(entry.name_size));
  auto named = [&] { return where() + " '" + *name + "': "; };
  if (!IsValidTypeId(entry.type)) {
    *error = named() + "unknown type id " + std::to_string(entry.type) + ")";
    return false;
  }
  if (entry.length != header.num_rows) {
    *error = named() + std::to_string(entry.length) + " rows, the table has " +
             std::to_string(header.num_rows) + ")";
    return false;
  }
  uint64_t expected[internal::kNumBufferKinds];
  std::string why;
  if (!ExpectedSizes(entry, expected, &why)) {
    *error = named() + why + ")";
    return false;
  }
  auto check = std::make_shared<internal::ColumnFileCheck>();
  AlignedBuffer views[internal::kNumBufferKinds];
  for (int k = 0; k < internal::kNumBufferKinds; ++k) {
    const BufferEntry& b = entry.buffers[k];
    const char* kind = internal::kBufferKindNames[k];
    if (b.size != expected[k]) {
      *error = named() + kind + " buffer has " + std::to_string(b.size) + " bytes, expected " +
               std::to_string(expected[k]) + ")";
      return false;
    }
    if (b.size == 0) {
      if (b.offset != 0 || b.checksum != 0) {
        *error = named() + "empty " + kind + " buffer with an offset or checksum)";
        return false;
      }
      continue;
    }
    // Buffers lie between the header and the directory, padding included.
    const uint64_t end = header.directory_offset;
    if (b.offset % internal::kTableFileAlignment != 0 || b.offset < sizeof(FileHeader) ||
        b.size > end || b.offset > end - internal::RoundUpToAlignment(b.size)) {
      *error = named() + kind + " buffer at offset " + std::to_string(b.offset) + " with " +
               std::to_string(b.size) + " bytes lies outside the data area)";
      return false;
    }
    const uint8_t* data = file.data + b.offset;
    const uint64_t capacity = internal::RoundUpToAlignment(b.size);
    check->buffers[k] = {data, b.size, capacity, b.checksum};
    views[k] = AlignedBuffer::View(data, static_cast<size_t>(b.size),
                                   static_cast<size_t>(capacity), file.owner);
  }
  const TypeId type = static_cast<TypeId>(entry.type);
  check->file = path;
  check->column = *name;
  check->type = type;
  check->length = entry.length;
  check->null_count = entry.null_count;
  check->owner = file.owner;
  *out = internal::TableFileColumns::Make(
      type, entry.length, entry.null_count, std::move(views[internal::kValuesBuffer]),
      std::move(views[internal::kOffsetsBuffer]), std::move(views[internal::kValidityBuffer]),
      std::move(check));
  return true;
}

}  // namespace

bool OpenTableFile(const std::string& path, Table* out, std::string* error) {
  std::string message;
  FileBytes file;
  FileHeader header;
  if (!LoadFile(path, &file, &message) || !ReadHeader(path, file, &header, &message)) {
    if (error != nullptr) *error = std::move(message);
    return false;
  }
  Table table;
  for (size_t c = 0; c < header.num_columns; ++c) {
    std::string name;
    Column column;
    if (!ReadColumn(path, file, header, c, &name, &column, &message)) {
      if (error != nullptr) *error = std::move(message);
      return false;
    }
    if (!table.AddColumn(name, std::move(column), &message)) {  // empty or duplicate names
      if (error != nullptr) *error = path + " is corrupt (" + message + ")";
      return false;
    }
  }
  *out = std::move(table);
  return true;
}

bool VerifyTableFile(const std::string& path, std::string* error) {
  Table table;
  if (!OpenTableFile(path, &table, error)) return false;
  for (size_t c = 0; c < table.num_columns(); ++c) {
    if (!table.column(c).Verify(error)) return false;
  }
  return true;
}

}  // namespace laneql
