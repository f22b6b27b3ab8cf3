// A query's timeline: spans per thread (one per morsel and per phase: scan/filter, aggregate,
// convert, merge, sort, output, hash join build / probe) with per-span counters (rows, bytes,
// hash probes; a join's build rows, partitions, filtered probe rows and matches), written as
// trace-event JSON that chrome://tracing and Perfetto open and the web demo draws.
//
// Each thread appends to its own buffer (no lock, no shared cache line), so recording costs two
// clock reads and a push_back per span; a null Profiler* makes every call a no-op.
#ifndef LANEQL_EXEC_PROFILE_H_
#define LANEQL_EXEC_PROFILE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace laneql {
namespace exec {

// rows, bytes and probes are every span's args; the join counters (a hash join's build and probe
// spans) are written only when non-zero, so other spans keep their three args.
struct ProfileCounters {
  uint64_t rows = 0;    // rows read by the span
  uint64_t bytes = 0;   // bytes of column data read
  uint64_t probes = 0;  // hash-table probes (rows looked up or inserted)
  uint64_t build = 0;       // a join's build-side rows
  uint64_t partitions = 0;  // the partitions its hash table was placed in (1: not partitioned)
  uint64_t filtered = 0;    // probe rows its key filter dropped before they reached the table
  uint64_t skipped = 0;     // source rows min/max runtime filters left unread (join_range_skip.h)
  uint64_t matches = 0;     // pairs of equal keys that passed the join's residual condition
  // CPU time the span's thread spent in it (ScopedSpan; 0 = not measured, not written): under
  // more threads than cores a span's wall time includes waiting for a core, its CPU time not,
  // so CPU time per phase shows work that grows with the thread count (bench/efficiency).
  // Not added to the track's totals: spans nest.
  uint64_t cpu_ns = 0;
};

// The calling thread's CPU time in nanoseconds (CLOCK_THREAD_CPUTIME_ID); 0 where the platform
// has no per-thread CPU clock (wasm).
uint64_t ThreadCpuNs();

class Profiler {
 public:
  // `threads`: the tracks (thread 0 is the calling thread, 1.. the pool's workers).
  explicit Profiler(int threads);
  ~Profiler();
  Profiler(const Profiler&) = delete;
  Profiler& operator=(const Profiler&) = delete;

  int threads() const;
  // Nanoseconds since the profiler was made (steady clock).
  uint64_t Now() const;
  // Records a finished span [start, end) (from Now()) on track `thread`. Only the thread that
  // owns track `thread` calls this for it. `name` and `category` must outlive the profiler
  // (string literals). The counters become the span's args and add to the track's totals.
  void AddSpan(int thread, const char* name, const char* category, uint64_t start, uint64_t end,
               const ProfileCounters& counters = {});
  // The query text, shown in the trace's metadata.
  void SetQuery(std::string sql);
  // {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": {...}}: a thread_name
  // metadata event per track ("main", "worker 1", ...), an "X" event per span (ts / dur in
  // microseconds with ns precision, args = counters), and per track a "C" counter event with
  // its totals at the end of the query.
  std::string TraceJson() const;
  // Writes TraceJson() to `path` (replacing it); false with *error naming the path on failure.
  bool WriteTraceJson(const std::string& path, std::string* error) const;

 private:
  struct Track;
  uint64_t origin_ns_;
  std::string query_;
  std::vector<std::unique_ptr<Track>> tracks_;
};

// Records a span from construction to destruction, with its thread's CPU time in it; does
// nothing when the profiler is null.
class ScopedSpan {
 public:
  ScopedSpan(Profiler* profiler, int thread, const char* name, const char* category)
      : profiler_(profiler), thread_(thread), name_(name), category_(category),
        start_(profiler != nullptr ? profiler->Now() : 0), cpu_start_(profiler != nullptr ? ThreadCpuNs() : 0) {}
  ~ScopedSpan() {
    if (profiler_ == nullptr) return;
    const uint64_t cpu = ThreadCpuNs();
    counters_.cpu_ns = cpu > cpu_start_ ? cpu - cpu_start_ : 0;
    profiler_->AddSpan(thread_, name_, category_, start_, profiler_->Now(), counters_);
  }
  ScopedSpan(const ScopedSpan&) = delete;
  ScopedSpan& operator=(const ScopedSpan&) = delete;
  ProfileCounters& counters() { return counters_; }

 private:
  Profiler* profiler_;
  int thread_;
  const char* name_;
  const char* category_;
  uint64_t start_;
  uint64_t cpu_start_;
  ProfileCounters counters_;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_PROFILE_H_
