#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <utility>

namespace laneql::cli {
namespace {

constexpr int kBarWidth = 24;
constexpr auto kRedrawInterval = std::chrono::milliseconds(100);

std::string Count(uint64_t n) {
  char buf[32];
  if (n >= 1000000) {
    std::snprintf(buf, sizeof(buf), "%.1f M", n / 1e6);
  } else {
    std::snprintf(buf, sizeof(buf), "%llu", static_cast<unsigned long long>(n));
  }
  return buf;
}

// The bar's text: `seconds` since the start.
std::string Render(const std::string& label, uint64_t done, uint64_t total, uint64_t rows,
                   uint64_t bytes, double seconds) {
  std::string line = label;
  if (total > 0) {
    const double fraction = done >= total ? 1.0 : static_cast<double>(done) / total;
    const int filled = static_cast<int>(fraction * kBarWidth);
    line += " [" + std::string(filled, '#') + std::string(kBarWidth - filled, '.') + "]";
    char pct[16];
    std::snprintf(pct, sizeof(pct), " %3d%%", static_cast<int>(fraction * 100));
    line += pct;
    // Early rates say little about the end: no ETA before a second and 2 % have passed.
    if (fraction >= 0.02 && fraction < 1 && seconds >= 1) {
      char eta[32];
      std::snprintf(eta, sizeof(eta), "  ETA %.0f s", seconds * (1 - fraction) / fraction);
      line += eta;
    }
  }
  if (rows > 0) line += "  " + Count(rows) + " rows";
  if (seconds > 0 && (bytes > 0 || rows > 0)) {
    // MB/s where the bytes are known; rows/s for generation into memory, where they are not.
    char rate[32];
    if (bytes > 0) {
      std::snprintf(rate, sizeof(rate), "  %.0f MB/s", bytes / seconds / 1e6);
    } else {
      std::snprintf(rate, sizeof(rate), "  %.2f M rows/s", rows / seconds / 1e6);
    }
    line += rate;
  }
  return line;
}

}  // namespace

ProgressBar::ProgressBar(std::string label, uint64_t total)
    : label_(std::move(label)),
      total_(total),
      enabled_(isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

void ProgressBar::Update(uint64_t done, uint64_t rows, uint64_t bytes) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  // Threads that find another one drawing skip this update rather than wait.
  std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock() || finished_ || now - last_draw_ < kRedrawInterval) return;
  last_draw_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  std::string line = Render(label_, done, total_, rows, bytes, seconds);
  const size_t width = line.size();
  if (width < drawn_width_) line += std::string(drawn_width_ - width, ' ');
  drawn_width_ = width;
  std::fprintf(stderr, "\r%s", line.c_str());
  std::fflush(stderr);
}

void ProgressBar::Finish() {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  if (drawn_width_ > 0) {
    std::fprintf(stderr, "\r%s\r", std::string(drawn_width_, ' ').c_str());
    std::fflush(stderr);
  }
}

}  // namespace laneql::cli
