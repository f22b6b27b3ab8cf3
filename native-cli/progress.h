// A one-line progress bar on stderr for long loads, imports and generation: done/total, rows,
// MB/s (rows/s where the bytes are not known yet) and the time left. It draws only when stderr is a terminal (a pipe or a log file gets
// nothing), at most ten times a second, and erases itself when finished.
#ifndef LANEQL_NATIVE_CLI_PROGRESS_H_
#define LANEQL_NATIVE_CLI_PROGRESS_H_

#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace laneql::cli {

class ProgressBar {
 public:
  // `total` is in the unit Update's `done` counts (rows or bytes); 0 = unknown.
  ProgressBar(std::string label, uint64_t total);
  ~ProgressBar() { Finish(); }
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // Thread-safe; cheap when it does not redraw. `rows` and `bytes` so far (0 = not known) give
  // the rows shown and the MB/s.
  void Update(uint64_t done, uint64_t rows, uint64_t bytes);
  // Erases the bar (once); later Updates draw nothing.
  void Finish();
  bool enabled() const { return enabled_; }

 private:
  const std::string label_;
  const uint64_t total_;
  const bool enabled_;
  const std::chrono::steady_clock::time_point start_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point last_draw_;
  size_t drawn_width_ = 0;
  bool finished_ = false;
};

}  // namespace laneql::cli

#endif  // LANEQL_NATIVE_CLI_PROGRESS_H_
