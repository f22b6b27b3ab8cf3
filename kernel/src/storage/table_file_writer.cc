// WriteTableFile (and WriteTableFileInParts, whose columns come a part at a time): streams the
// columns' buffers into a temporary file next to the target,
// computing their checksums on the way, then the directory and the header, flushes it to disk
// and renames it over the target. A reader therefore sees the old file or the whole new one,
// never a half-written one, and a failure leaves the target as it was and no temporary behind.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "laneql/aligned_buffer.h"
#include "laneql/bitmask.h"
#include "laneql/table_file.h"
#include "src/common/ascii.h"
#include "src/storage/checksum.h"
#include "src/storage/table_file_format.h"

namespace laneql {
namespace {

using internal::BufferEntry;
using internal::ColumnEntry;
using internal::FileHeader;

// A file being written: an fd, the bytes written so far, and the first error.
class FileSink {
 public:
  explicit FileSink(int fd) : fd_(fd) {}

  uint64_t position() const { return position_; }

  bool Write(const void* bytes, size_t count, std::string* why) {
    const uint8_t* p = static_cast<const uint8_t*>(bytes);
    while (count > 0) {
      const size_t chunk = count < (size_t{1} << 30) ? count : (size_t{1} << 30);
      const ssize_t written = ::write(fd_, p, chunk);
      if (written < 0 && errno == EINTR) continue;
      if (written <= 0) {
        *why = written < 0 ? std::strerror(errno) : "the device accepted no more bytes";
        return false;
      }
      p += written;
      count -= static_cast<size_t>(written);
      position_ += static_cast<uint64_t>(written);
    }
    return true;
  }

  // Zero bytes up to the next multiple of 64: the padding every buffer is followed by.
  bool PadToAlignment(std::string* why) {
    static const uint8_t kZeros[internal::kTableFileAlignment] = {};
    const uint64_t padded = internal::RoundUpToAlignment(position_);
    return Write(kZeros, static_cast<size_t>(padded - position_), why);
  }

 private:
  int fd_;
  uint64_t position_ = 0;
};

// One buffer to write: `bytes` of `data`.
struct BufferSource {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

// The three buffers of a column as the file stores them: exactly the sizes the reader expects
// (a validity bitmap may be longer in memory; the file holds BitmaskWords(length) words), with
// the validity bits past the last row cleared (in `masked_validity` when they were not).
bool ColumnSources(const Column& column, const std::string& name, AlignedBuffer* masked_validity,
                   BufferSource sources[internal::kNumBufferKinds], std::string* why) {
  const AlignedBuffer& values = column.values_buffer();
  const AlignedBuffer& offsets = column.offsets_buffer();
  const size_t length = column.length();
  sources[internal::kValuesBuffer] = {values.data(), values.size()};
  sources[internal::kOffsetsBuffer] = {offsets.data(), offsets.size()};
  sources[internal::kValidityBuffer] = {};
  const bool sizes_ok =
      IsFixedWidth(column.type())
          ? values.size() == length * TypeByteWidth(column.type()) && offsets.empty()
          : (offsets.empty() ? length == 0 && values.empty()
                             : offsets.size() == (length + 1) * OffsetByteWidth(column.type()));
  if (!sizes_ok) {
    *why = "column '" + name + "' has buffers of " + std::to_string(values.size()) + " and " +
           std::to_string(offsets.size()) + " bytes, which do not hold its " +
           std::to_string(length) + " rows";
    return false;
  }
  if (column.validity() != nullptr && column.null_count() != 0) {
    const size_t words = BitmaskWords(length);
    const uint64_t* bits = column.validity();
    if ((bits[words - 1] & ~BitmaskTailMask(length)) != 0) {
      if (!masked_validity->Assign(bits, words * sizeof(uint64_t), why)) return false;
      masked_validity->As<uint64_t>()[words - 1] &= BitmaskTailMask(length);
      bits = masked_validity->As<uint64_t>();
    }
    sources[internal::kValidityBuffer] = {reinterpret_cast<const uint8_t*>(bits),
                                          words * sizeof(uint64_t)};
  }
  return true;
}

// Writes the buffers of the columns it is given, then the directory and header, through a
// sink; *why says what failed.
class ContentsWriter {
 public:
  explicit ContentsWriter(FileSink* sink) : sink_(sink) {}

  bool Begin(std::string* why) {
    const FileHeader blank{};
    return sink_->Write(&blank, sizeof(blank), why);  // filled in at the end
  }

  // Every column of `part` (num_rows rows each) after those written so far.
  bool AddColumns(const Table& part, const std::function<void(size_t)>& progress, std::string* why) {
    for (size_t c = 0; c < part.num_columns(); ++c) {
      const Column& column = part.column(c);
      const std::string& name = part.column_name(c);
      if (!entries_.empty() && column.length() != entries_[0].length) {
        *why = "column '" + name + "' has " + std::to_string(column.length()) + " rows, the first " +
               std::to_string(entries_[0].length);
        return false;
      }
      for (const std::string& earlier : names_) {
        if (ascii::EqualsIgnoreCase(earlier, name)) {  // the reader's Table would refuse the file
          *why = "column '" + name + "' comes twice";
          return false;
        }
      }
      AlignedBuffer masked_validity;
      BufferSource sources[internal::kNumBufferKinds];
      if (!ColumnSources(column, name, &masked_validity, sources, why)) return false;
      ColumnEntry entry{};
      entry.type = static_cast<uint64_t>(column.type());
      entry.length = column.length();
      entry.null_count = sources[internal::kValidityBuffer].size != 0 ? column.null_count() : 0;
      for (int k = 0; k < internal::kNumBufferKinds; ++k) {
        const BufferSource& source = sources[k];
        if (source.size == 0) continue;  // absent: offset, size and checksum 0
        entry.buffers[k].offset = sink_->position();
        entry.buffers[k].size = source.size;
        entry.buffers[k].checksum = internal::Checksum64(source.data, source.size);
        if (!sink_->Write(source.data, source.size, why) || !sink_->PadToAlignment(why)) return false;
      }
      entries_.push_back(entry);
      names_.push_back(name);
      if (progress) progress(entries_.size());
    }
    return true;
  }

  bool Finish(int fd, std::string* why) {
    // The directory: the entries, then the names they point at.
    const uint64_t entries_bytes = entries_.size() * sizeof(ColumnEntry);
    std::string names;
    for (size_t c = 0; c < entries_.size(); ++c) {
      entries_[c].name_offset = entries_bytes + names.size();
      entries_[c].name_size = names_[c].size();
      names += names_[c];
    }
    std::string directory(entries_bytes + names.size(), '\0');
    if (!entries_.empty()) std::memcpy(&directory[0], entries_.data(), entries_bytes);
    if (!names.empty()) std::memcpy(&directory[entries_bytes], names.data(), names.size());
    FileHeader header{};
    std::memcpy(header.magic, internal::kTableFileMagic, sizeof(header.magic));
    header.version = internal::kTableFileVersion;
    header.header_size = sizeof(FileHeader);
    header.num_rows = entries_.empty() ? 0 : entries_[0].length;
    header.num_columns = entries_.size();
    header.directory_offset = sink_->position();  // 64-aligned: every buffer ends padded
    header.directory_size = directory.size();
    header.directory_checksum = internal::Checksum64(directory.data(), directory.size());
    header.file_size = header.directory_offset + header.directory_size;
    header.header_checksum = internal::Checksum64(&header, offsetof(FileHeader, header_checksum));
    if (!sink_->Write(directory.data(), directory.size(), why)) return false;
    if (::lseek(fd, 0, SEEK_SET) != 0) {
      *why = std::strerror(errno);
      return false;
    }
    FileSink header_sink(fd);
    return header_sink.Write(&header, sizeof(header), why);
  }

 private:
  FileSink* sink_;
  std::vector<ColumnEntry> entries_;
  std::vector<std::string> names_;
};

// "/a/b/c.laneql" -> "/a/b", "c.laneql" -> "." (where the rename's directory entry lives).
std::string DirectoryOf(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Writes a file to a temporary name next to `path` through `write_columns`, which adds the
// columns to the writer it is given, then renames it over `path`.
bool WriteAtomically(const std::string& path, std::string* error,
                     const std::function<bool(ContentsWriter* writer, std::string* why)>& write_columns) {
  static std::atomic<uint64_t> counter{0};
  const std::string temp = path + ".tmp-" + std::to_string(::getpid()) + "-" +
                           std::to_string(counter.fetch_add(1));
  auto fail = [&](const std::string& why) {
    if (error != nullptr) *error = "cannot write " + path + ": " + why;
    return false;
  };
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return fail("cannot create " + temp + ": " + std::strerror(errno));
  std::string why;
  FileSink sink(fd);
  ContentsWriter writer(&sink);
  bool ok = writer.Begin(&why) && write_columns(&writer, &why) && writer.Finish(fd, &why);
  if (ok && ::fsync(fd) != 0) {
    why = std::string("flushing to disk failed: ") + std::strerror(errno);
    ok = false;
  }
  if (::close(fd) != 0 && ok) {
    why = std::string("closing failed: ") + std::strerror(errno);
    ok = false;
  }
  if (ok && ::rename(temp.c_str(), path.c_str()) != 0) {
    why = "cannot rename " + temp + " to it: " + std::strerror(errno);
    ok = false;
  }
  if (!ok) {
    ::unlink(temp.c_str());
    return fail(why);
  }
  // Make the rename itself durable. Best effort: the file is complete either way.
  const int dir_fd = ::open(DirectoryOf(path).c_str(), O_RDONLY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return true;
}

}  // namespace

bool WriteTableFile(const Table& table, const std::string& path, std::string* error,
                    const std::function<void(size_t columns_written)>& progress) {
  return WriteAtomically(path, error, [&](ContentsWriter* writer, std::string* why) {
    return writer->AddColumns(table, progress, why);
  });
}

bool WriteTableFileInParts(const std::function<bool(Table* part, std::string* error)>& next_part,
                           const std::string& path, std::string* error,
                           const std::function<void(size_t columns_written)>& progress) {
  return WriteAtomically(path, error, [&](ContentsWriter* writer, std::string* why) {
    for (;;) {
      Table part;  // one part held at a time
      if (!next_part(&part, why)) return false;
      if (part.num_columns() == 0) return true;
      if (!writer->AddColumns(part, progress, why)) return false;
    }
  });
}

}  // namespace laneql
