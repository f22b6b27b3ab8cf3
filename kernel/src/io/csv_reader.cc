// ReadCsvFile / ReadCsvText (laneql/csv.h): the driver. It strips the byte-order mark, sniffs
// (csv_sniffer.h), cuts the data into one chunk per thread at record boundaries, parses the
// chunks in parallel (csv_chunk_parser.h) and joins their columns in order.
//
// Chunk boundaries: each thread first counts the quotes of an equal share of the bytes (SIMD);
// the running parity says whether a share starts inside a quoted field, and a short walk from
// there finds the first line feed outside quotes, after which the chunk's first record starts.
// Records are split by quote parity (csv_records.h), so the records, the rows and the first bad
// row reported are the same for every thread count.
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#if !defined(__EMSCRIPTEN__)
#include <sys/mman.h>
#endif
#if !(defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__))
#include <thread>
#define LANEQL_CSV_THREADS 1
#endif

#include "laneql/csv.h"
#include "laneql/csv_scan.h"
#include "laneql/system_info.h"
#include "src/io/csv_chunk_parser.h"
#include "src/io/csv_records.h"
#include "src/io/csv_sniffer.h"

namespace laneql {
namespace {

// Below this many bytes per chunk another thread costs more than it saves.
constexpr size_t kMinChunkBytes = 256 * 1024;

// Runs body(i) for i in [0, tasks) on up to `threads` threads (tasks taken in order).
template <class Body>
void RunParallel(int threads, size_t tasks, const Body& body) {
#ifdef LANEQL_CSV_THREADS
  const size_t workers = std::min(tasks, static_cast<size_t>(std::max(threads, 1)));
  if (workers > 1) {
    std::atomic<size_t> next{0};
    const auto work = [&]() {
      for (size_t i = next++; i < tasks; i = next++) body(i);
    };
    std::vector<std::thread> pool;
    pool.reserve(workers - 1);
    for (size_t w = 1; w < workers; ++w) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    return;
  }
#else
  (void)threads;
#endif
  for (size_t i = 0; i < tasks; ++i) body(i);
}

bool CheckOptions(const CsvReadOptions& options, std::string* message) {
  const char d = options.delimiter, q = options.quote;
  if (d == '\n' || d == '\r' || q == '\n' || q == '\r' || q == 0 || (d != 0 && d == q)) {
    *message = "invalid CSV options: the delimiter and the quote must differ and be neither a "
               "line end nor (for the quote) NUL";
    return false;
  }
  if (options.escape != options.quote) {
    *message = "invalid CSV options: only escape == quote (doubled quotes, RFC 4180) is supported";
    return false;
  }
  return true;
}

// The offset where the chunk that nominally starts at `nominal` really starts: after the first
// line feed at or after nominal - 1 that is outside quotes. `inside` = parity before nominal.
size_t ChunkStart(std::string_view text, char quote, size_t nominal, bool inside) {
  size_t i = nominal - 1;
  if (text[i] == quote) inside = !inside;  // parity before i
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == quote) {
      inside = !inside;
    } else if (c == '\n' && !inside) {
      return i + 1;
    }
  }
  return text.size();
}

void SetError(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
}

bool ReadText(std::string_view input, const CsvReadOptions& options, Table* out,
              CsvReadStats* stats, std::string* error, std::string_view source_name) {
  std::string message;
  if (!CheckOptions(options, &message)) {
    SetError(error, std::string(source_name) + ": " + message);
    return false;
  }
  std::string_view text = input;
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);

  csv::SniffResult sniff;
  if (!csv::Sniff(text, options, &sniff, &message)) {
    SetError(error, std::string(source_name) + ": " + message);
    return false;
  }
  csv::ParseSettings settings;
  settings.text = text;
  settings.delimiter = sniff.delimiter;
  settings.quote = options.quote;
  settings.null_string = options.null_string;
  settings.columns = sniff.columns;
  settings.types_inferred = sniff.types_inferred;
  settings.sampled_rows = sniff.sampled_rows;
  settings.skip_bad_rows = options.skip_bad_rows;
  std::atomic<size_t> parsed{0}, parsed_rows{0};
  settings.progress = options.progress;
  settings.parsed = &parsed;
  settings.parsed_rows = &parsed_rows;

  // Chunks: one per thread, none smaller than kMinChunkBytes.
  const size_t begin = sniff.data_begin;
  const size_t bytes = text.size() - begin;
  int threads = 1;
#ifdef LANEQL_CSV_THREADS
  // DefaultThreads() reads the CPU topology, which costs more than parsing a small text.
  if (bytes >= 2 * kMinChunkBytes) threads = options.threads > 0 ? options.threads : DefaultThreads();
#endif
  const size_t chunks = std::max<size_t>(
      1, std::min(static_cast<size_t>(std::max(threads, 1)), bytes / kMinChunkBytes));
  std::vector<size_t> nominal(chunks + 1);
  for (size_t t = 0; t <= chunks; ++t) nominal[t] = begin + bytes / chunks * t;
  nominal[chunks] = text.size();
  std::vector<size_t> starts(chunks + 1, begin);
  starts[chunks] = text.size();
  if (chunks > 1) {
    std::vector<size_t> quotes(chunks);
    RunParallel(threads, chunks, [&](size_t t) {
      quotes[t] = CsvCountByte(reinterpret_cast<const uint8_t*>(text.data()) + nominal[t],
                               nominal[t + 1] - nominal[t], static_cast<uint8_t>(options.quote));
    });
    size_t before = 0;  // quotes before nominal[t]
    for (size_t t = 1; t < chunks; ++t) {
      before += quotes[t - 1];
      starts[t] = std::max(starts[t - 1],
                           ChunkStart(text, options.quote, nominal[t], (before & 1) != 0));
    }
  }

  std::vector<csv::ChunkResult> results(chunks);
  std::atomic<size_t> first_failed_chunk{chunks};
  RunParallel(threads, chunks, [&](size_t t) {
    csv::ParseChunk(settings, starts[t], starts[t + 1], t, &first_failed_chunk, &results[t]);
  });
  if (options.progress) {
    size_t rows = 0;
    for (const csv::ChunkResult& r : results) rows += r.rows;
    options.progress(text.size(), text.size(), rows);
  }

  CsvReadStats local;
  local.bytes = input.size();
  for (const csv::ChunkResult& r : results) {
    local.bad_rows_skipped += r.bad_rows;
    if (r.has_bad_row && local.first_bad_row.empty()) {
      size_t line, column;
      csv::LineAndColumn(text, r.bad_offset, &line, &column);
      local.first_bad_row = std::string(source_name) + ":" + std::to_string(line) + ":" +
                            std::to_string(column) + ": " + r.bad_problem;
    }
  }
  if (!options.skip_bad_rows && !local.first_bad_row.empty()) {
    SetError(error, local.first_bad_row);
    return false;
  }

  const size_t num_columns = settings.columns.size();
  std::vector<Column> columns(num_columns);
  std::vector<std::string> errors(num_columns);
  RunParallel(threads, num_columns, [&](size_t c) {
    csv::JoinParts(results, c, settings.columns[c].type, &columns[c], &errors[c]);
  });
  Table table;
  for (size_t c = 0; c < num_columns; ++c) {
    std::string add_error;
    if (!errors[c].empty() || !table.AddColumn(settings.columns[c].name, std::move(columns[c]),
                                               &add_error)) {
      SetError(error, std::string(source_name) + ": column \"" + settings.columns[c].name +
                          "\": " + (errors[c].empty() ? add_error : errors[c]));
      return false;
    }
  }
  local.rows = table.num_rows();
  *out = std::move(table);
  if (stats != nullptr) *stats = std::move(local);
  return true;
}

}  // namespace

bool ReadCsvText(std::string_view text, const CsvReadOptions& options, Table* out,
                 CsvReadStats* stats, std::string* error, std::string_view source_name) {
  return ReadText(text, options, out, stats, error, source_name);
}

bool ReadCsvFile(const std::string& path, const CsvReadOptions& options, Table* out,
                 CsvReadStats* stats, std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) {
    SetError(error, "cannot open '" + path + "': " + std::strerror(errno));
    return false;
  }
  struct stat st;
  const bool stat_ok = ::fstat(fd, &st) == 0;
  if (!stat_ok || !S_ISREG(st.st_mode)) {
    const std::string why = !stat_ok ? std::strerror(errno)
                            : S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file";
    ::close(fd);
    SetError(error, "cannot read '" + path + "': " + why);
    return false;
  }
  const size_t size = static_cast<size_t>(st.st_size);
  if (size == 0) {
    ::close(fd);
    return ReadText(std::string_view(), options, out, stats, error, path);
  }
#if !defined(__EMSCRIPTEN__)
  void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (mapped != MAP_FAILED) {
    ::close(fd);
    ::madvise(mapped, size, MADV_SEQUENTIAL);
    const bool ok = ReadText(std::string_view(static_cast<const char*>(mapped), size), options,
                             out, stats, error, path);
    ::munmap(mapped, size);
    return ok;
  }
#endif
  // No mmap (wasm, or a file system without it): one buffer filled by read().
  std::string buffer(size, '\0');
  size_t done = 0;
  while (done < size) {
    const ssize_t got = ::read(fd, &buffer[done], size - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      const std::string why = got == 0 ? "unexpected end of file" : std::strerror(errno);
      ::close(fd);
      SetError(error, "cannot read '" + path + "': " + why);
      return false;
    }
    done += static_cast<size_t>(got);
  }
  ::close(fd);
  return ReadText(buffer, options, out, stats, error, path);
}

}  // namespace laneql
