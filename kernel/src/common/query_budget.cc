// QueryBudget: the memory accounting and the stop checks of one query, and the thread-local
// hooks through which buffers and operators reach it.
#include "src/common/query_budget.h"

#include <cstdio>

namespace laneql {
namespace {

struct ThreadQuery {
  QueryBudget* budget = nullptr;
  const char* activity = nullptr;
};

thread_local ThreadQuery t_query;

}  // namespace

QueryBudget::QueryBudget(uint64_t limit_bytes, const std::atomic<uint64_t>* interrupts,
                         int64_t timeout_ms)
    : limit_bytes_(limit_bytes),
      interrupts_(interrupts),
      interrupts_at_start_(interrupts != nullptr ? interrupts->load(std::memory_order_relaxed) : 0),
      timeout_ms_(timeout_ms > 0 ? timeout_ms : 0),
      deadline_(std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms_)) {}

bool QueryBudget::Charge(size_t bytes, bool may_refuse, const char* activity,
                         std::string* error) {
  const int64_t add = static_cast<int64_t>(bytes);
  const int64_t now = used_.fetch_add(add, std::memory_order_relaxed) + add;
  if (may_refuse && limit_bytes_ != 0 && now > static_cast<int64_t>(limit_bytes_)) {
    used_.fetch_sub(add, std::memory_order_relaxed);
    if (error != nullptr) {
      *error = "out of memory: the query needs more than the memory limit of " +
               FormatBytes(limit_bytes_) + " (while " +
               (activity != nullptr ? activity : "running the query") + ")";
    }
    return false;
  }
  int64_t peak = peak_.load(std::memory_order_relaxed);
  while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
  return true;
}

bool QueryBudget::Stopped() const {
  int stop = stop_.load(std::memory_order_relaxed);
  if (stop != kRunning) return true;
  if (interrupts_ != nullptr &&
      interrupts_->load(std::memory_order_relaxed) != interrupts_at_start_) {
    stop = kInterrupted;
  } else if (timeout_ms_ != 0 && std::chrono::steady_clock::now() >= deadline_) {
    stop = kTimedOut;
  } else {
    return false;
  }
  int expected = kRunning;
  stop_.compare_exchange_strong(expected, stop, std::memory_order_relaxed);
  return true;
}

std::string QueryBudget::StopMessage() const {
  if (stop_.load(std::memory_order_relaxed) == kTimedOut) {
    return "query timed out after " + std::to_string(timeout_ms_) + " ms";
  }
  return "query interrupted";
}

void QueryBudget::RecordAbort(const std::string& message) {
  const std::lock_guard<std::mutex> lock(abort_mutex_);
  if (abort_message_.empty()) abort_message_ = message;
}

std::string QueryBudget::AbortMessage() const {
  const std::lock_guard<std::mutex> lock(abort_mutex_);
  return abort_message_;
}

std::string FormatBytes(uint64_t bytes) {
  static const char* const kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  double value = static_cast<double>(bytes) / 1024.0;
  int unit = 0;
  while (value >= 1024.0 && unit < 5) {
    value /= 1024.0;
    ++unit;
  }
  char text[32];
  // Whole numbers as such (64 MiB); others to one decimal (1.5 GiB).
  if (value == static_cast<double>(static_cast<uint64_t>(value))) {
    std::snprintf(text, sizeof(text), "%.0f %s", value, kUnits[unit]);
  } else {
    std::snprintf(text, sizeof(text), "%.1f %s", value, kUnits[unit]);
  }
  return text;
}

QueryBudget* CurrentQueryBudget() { return t_query.budget; }
const char* CurrentMemoryActivity() { return t_query.activity; }

ScopedQueryBudget::ScopedQueryBudget(QueryBudget* budget, const char* activity)
    : previous_budget_(t_query.budget), previous_activity_(t_query.activity) {
  t_query.budget = budget;
  t_query.activity = activity;
}

ScopedQueryBudget::~ScopedQueryBudget() {
  t_query.budget = previous_budget_;
  t_query.activity = previous_activity_;
}

ScopedMemoryActivity::ScopedMemoryActivity(const char* activity) : previous_(t_query.activity) {
  t_query.activity = activity;
}

ScopedMemoryActivity::~ScopedMemoryActivity() { t_query.activity = previous_; }

bool ChargeQueryMemory(size_t bytes, std::string* error, bool may_refuse) {
  QueryBudget* budget = t_query.budget;
  if (budget == nullptr) return true;
  if (may_refuse && budget->Stopped()) {
    if (error != nullptr) *error = budget->StopMessage();
    return false;
  }
  return budget->Charge(bytes, may_refuse, t_query.activity, error);
}

void ReleaseQueryMemory(size_t bytes) {
  if (QueryBudget* budget = t_query.budget) budget->Release(bytes);
}

namespace {

[[noreturn]] void ThrowQueryAbort(const std::string& message) {
  if (t_query.budget != nullptr) t_query.budget->RecordAbort(message);
  throw QueryAbort(message);
}

}  // namespace

std::string CurrentQueryAbortMessage() {
  return t_query.budget != nullptr ? t_query.budget->AbortMessage() : std::string();
}

void ThrowIfQueryStopped() {
  const QueryBudget* budget = t_query.budget;
  if (budget != nullptr && budget->Stopped()) ThrowQueryAbort(budget->StopMessage());
}

void ChargeQueryMemoryOrThrow(size_t bytes) {
  std::string error;
  if (!ChargeQueryMemory(bytes, &error)) ThrowQueryAbort(error);
}

}  // namespace laneql
