// A query's budget: the working memory it may hold (DatabaseOptions / QueryOptions memory limit)
// and whether it must stop (Database::Interrupt, QueryOptions::timeout_ms).
//
// Memory is accounted where it grows, not per row: every AlignedBuffer allocation made while a
// budget is installed on the thread (hash tables, COUNT(DISTINCT) sets, string arenas, key and
// result columns, evaluated vectors) adds its capacity with one atomic add and gives it back when
// freed; the few large std::vector structures (aggregate states, row-id lists, sort
// permutations) charge their growth through ChargeQueryMemory. The budget is installed for the
// execution of a query on the thread that runs it (ScopedQueryBudget), and ThreadPool::Run
// installs the caller's on its workers for the run, so each operator finds it without plumbing.
// An operator names what it is doing (ScopedMemoryActivity) so that the error says what grew.
#ifndef LANEQL_COMMON_QUERY_BUDGET_H_
#define LANEQL_COMMON_QUERY_BUDGET_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <utility>

namespace laneql {

class QueryBudget {
 public:
  // `limit_bytes` 0: no memory limit. `interrupts`: Database::Interrupt's counter (null: none),
  // read now; the query stops once it moves. `timeout_ms` 0: no deadline.
  QueryBudget(uint64_t limit_bytes, const std::atomic<uint64_t>* interrupts, int64_t timeout_ms);
  QueryBudget(const QueryBudget&) = delete;
  QueryBudget& operator=(const QueryBudget&) = delete;

  // Adds `bytes` to the memory in use; over the limit it takes nothing back, sets *error (when
  // not null) and returns false. With may_refuse false the bytes are added regardless (memory
  // that a caller cannot do without, e.g. a copy it has no way to report failing).
  bool Charge(size_t bytes, bool may_refuse, const char* activity, std::string* error);
  void Release(size_t bytes) { used_.fetch_sub(static_cast<int64_t>(bytes), std::memory_order_relaxed); }

  // True once the query was interrupted or ran past its deadline (and from then on).
  bool Stopped() const;
  // "query interrupted" or "query timed out after N ms" (for a stopped query).
  std::string StopMessage() const;

  // The message of the first QueryAbort thrown for this query ("" when none was): how a handler
  // learns what stopped the query when it cannot match the exception's type (see QueryAbort).
  void RecordAbort(const std::string& message);
  std::string AbortMessage() const;

  uint64_t limit_bytes() const { return limit_bytes_; }
  // The most memory held at once so far (accounted bytes).
  int64_t peak_bytes() const { return peak_.load(std::memory_order_relaxed); }
  int64_t used_bytes() const { return used_.load(std::memory_order_relaxed); }

 private:
  enum Stop : int { kRunning = 0, kInterrupted = 1, kTimedOut = 2 };

  const uint64_t limit_bytes_;
  const std::atomic<uint64_t>* interrupts_;
  const uint64_t interrupts_at_start_;
  const int64_t timeout_ms_;
  const std::chrono::steady_clock::time_point deadline_;
  mutable std::atomic<int> stop_{kRunning};
  mutable std::mutex abort_mutex_;  // a query aborts once: no hot path takes it
  std::string abort_message_;
  // Both on their own cache line: every thread adds to them as its buffers grow.
  alignas(64) std::atomic<int64_t> used_{0};
  std::atomic<int64_t> peak_{0};
};

// "64 MiB", "1.5 GiB", "512 KiB", "100 bytes": how limits are written in messages.
std::string FormatBytes(uint64_t bytes);

// The budget installed on this thread (null outside a query's execution).
QueryBudget* CurrentQueryBudget();
// What this thread's query is doing, for the out-of-memory message (null: nothing named).
const char* CurrentMemoryActivity();

// Installs `budget` (may be null) on this thread for the scope, with `activity` (null: none).
class ScopedQueryBudget {
 public:
  explicit ScopedQueryBudget(QueryBudget* budget, const char* activity = nullptr);
  ~ScopedQueryBudget();
  ScopedQueryBudget(const ScopedQueryBudget&) = delete;
  ScopedQueryBudget& operator=(const ScopedQueryBudget&) = delete;

 private:
  QueryBudget* previous_budget_;
  const char* previous_activity_;
};

// Names what the thread does for the scope, e.g. "growing the GROUP BY hash table": an
// out-of-memory error raised inside says "(while growing the GROUP BY hash table)".
class ScopedMemoryActivity {
 public:
  explicit ScopedMemoryActivity(const char* activity);
  ~ScopedMemoryActivity();
  ScopedMemoryActivity(const ScopedMemoryActivity&) = delete;
  ScopedMemoryActivity& operator=(const ScopedMemoryActivity&) = delete;

 private:
  const char* previous_;
};

// The hooks. Outside a query (no budget installed) they do nothing and succeed. Charge also
// refuses (with the stop message) once the query has been stopped, so that a query stops at its
// next allocation wherever it is.
bool ChargeQueryMemory(size_t bytes, std::string* error, bool may_refuse = true);
void ReleaseQueryMemory(size_t bytes);

// Thrown (and caught by exec::Execute) where an error cannot be returned: inside a sort's
// comparison, or from SortPositions. what() is the query's error message, which the throw also
// records in the query's budget: Emscripten 3.1.6's pthread runtime (libc++abi-mt-except) matches
// no typed handler, only catch (...) (measured: a thrown int skips catch (int)), so the wasm
// flavours read the message from there.
class QueryAbort : public std::exception {
 public:
  explicit QueryAbort(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

// The message of the QueryAbort this thread's query threw ("" when none, or no query).
std::string CurrentQueryAbortMessage();
// Throws QueryAbort with the stop message when this thread's query has stopped.
void ThrowIfQueryStopped();
// ChargeQueryMemory that throws QueryAbort on failure.
void ChargeQueryMemoryOrThrow(size_t bytes);

// Charges `bytes` (ChargeQueryMemoryOrThrow) and gives them back when it goes out of scope: the
// memory a function holds only while it runs.
class ScopedQueryCharge {
 public:
  explicit ScopedQueryCharge(size_t bytes) : bytes_(bytes) { ChargeQueryMemoryOrThrow(bytes); }
  ~ScopedQueryCharge() { ReleaseQueryMemory(bytes_); }
  ScopedQueryCharge(const ScopedQueryCharge&) = delete;
  ScopedQueryCharge& operator=(const ScopedQueryCharge&) = delete;

 private:
  size_t bytes_;
};

}  // namespace laneql

#endif  // LANEQL_COMMON_QUERY_BUDGET_H_
