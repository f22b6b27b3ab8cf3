// Profiler: per-thread span buffers and their trace-event JSON (see profile.h).
#include "src/exec/profile.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string_view>
#include <utility>

namespace laneql {
namespace exec {
namespace {

uint64_t SteadyNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// JSON string contents: quote and backslash escaped, control characters as \u00XX. Bytes >= 0x80
// pass through, so UTF-8 text stays UTF-8 (JSON allows it unescaped).
void AppendEscaped(std::string* out, std::string_view s) {
  for (const char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(static_cast<char>(c));
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out->append(buf);
    } else {
      out->push_back(static_cast<char>(c));
    }
  }
}

// Nanoseconds as microseconds with three decimals, from integers only: a float printf would
// round large timestamps and follows the C locale's decimal point.
void AppendMicros(std::string* out, uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
  out->append(buf);
}

void AppendCounters(std::string* out, const ProfileCounters& c) {
  char buf[96];
  std::snprintf(buf, sizeof(buf), "{\"rows\": %" PRIu64 ", \"bytes\": %" PRIu64
                ", \"probes\": %" PRIu64, c.rows, c.bytes, c.probes);
  out->append(buf);
  // The join counters only where a join set them: every other span keeps its three args.
  for (const auto& [name, value] : {std::pair<const char*, uint64_t>{"build", c.build},
                                    {"partitions", c.partitions},
                                    {"filtered", c.filtered},
                                    {"skipped", c.skipped},
                                    {"matches", c.matches}}) {
    if (value == 0) continue;
    std::snprintf(buf, sizeof(buf), ", \"%s\": %" PRIu64, name, value);
    out->append(buf);
  }
  if (c.cpu_ns != 0) {
    out->append(", \"cpu_us\": ");
    AppendMicros(out, c.cpu_ns);
  }
  out->push_back('}');
}

}  // namespace

uint64_t ThreadCpuNs() {
#if defined(__EMSCRIPTEN__) || !defined(CLOCK_THREAD_CPUTIME_ID)
  return 0;
#else
  timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
#endif
}

// One thread's spans. Each thread appends only to its own track, but a track's vector header
// and totals are written on every span: two tracks on one cache line would false-share, so each
// starts on its own line and is padded to a whole number of lines.
struct alignas(64) Profiler::Track {
  struct Span {
    const char* name;
    const char* category;
    uint64_t start, end;
    ProfileCounters counters;
  };
  std::vector<Span> spans;
  ProfileCounters totals;
};

Profiler::Profiler(int threads) : origin_ns_(SteadyNs()) {
  static_assert(alignof(Track) == 64 && sizeof(Track) % 64 == 0,
                "each thread writes only its own Track: two on one cache line would false-share");
  threads = std::max(threads, 1);
  tracks_.reserve(threads);
  // unique_ptr + C++17 aligned new: every Track gets its own cache lines wherever it lands.
  for (int t = 0; t < threads; ++t) tracks_.push_back(std::make_unique<Track>());
}

Profiler::~Profiler() = default;

int Profiler::threads() const { return static_cast<int>(tracks_.size()); }

// Clamped at 0: a thread's clock may read a little behind the thread that made the profiler
// (seen in wasm, where each Worker's clock has its own origin), and an unsigned difference would
// wrap to a time 584 years on.
uint64_t Profiler::Now() const {
  const uint64_t now = SteadyNs();
  return now > origin_ns_ ? now - origin_ns_ : 0;
}

void Profiler::AddSpan(int thread, const char* name, const char* category, uint64_t start,
                       uint64_t end, const ProfileCounters& counters) {
  // A bad index is a caller's bug, but profiling must never take a query down with it.
  if (thread < 0 || thread >= threads()) return;
  Track& track = *tracks_[thread];
  track.spans.push_back({name, category, start, end < start ? start : end, counters});
  track.totals.rows += counters.rows;
  track.totals.bytes += counters.bytes;
  track.totals.probes += counters.probes;
  // build and partitions describe a join's table, repeated on its spans: not summed.
  track.totals.filtered += counters.filtered;
  track.totals.skipped += counters.skipped;
  track.totals.matches += counters.matches;
}

void Profiler::SetQuery(std::string sql) { query_ = std::move(sql); }

std::string Profiler::TraceJson() const {
  // One event per line: tools that read the trace line by line rely on it.
  std::vector<std::string> events;
  uint64_t query_end = 0;
  bool any_span = false;
  for (int t = 0; t < threads(); ++t) {
    std::string e = "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": 1, \"tid\": " +
                    std::to_string(t) + ", \"args\": {\"name\": \"" +
                    (t == 0 ? std::string("main") : "worker " + std::to_string(t)) + "\"}}";
    events.push_back(std::move(e));
  }
  for (int t = 0; t < threads(); ++t) {
    for (const Track::Span& span : tracks_[t]->spans) {
      std::string e = "{\"name\": \"";
      AppendEscaped(&e, span.name != nullptr ? span.name : "");
      e += "\", \"cat\": \"";
      AppendEscaped(&e, span.category != nullptr ? span.category : "");
      e += "\", \"ph\": \"X\", \"pid\": 1, \"tid\": " + std::to_string(t) + ", \"ts\": ";
      AppendMicros(&e, span.start);
      e += ", \"dur\": ";
      AppendMicros(&e, span.end >= span.start ? span.end - span.start : 0);
      e += ", \"args\": ";
      AppendCounters(&e, span.counters);
      e += "}";
      events.push_back(std::move(e));
      query_end = std::max(query_end, span.end);
      any_span = true;
    }
  }
  // The totals of every track at the end of the query (the latest span end on any track);
  // a profiler that recorded nothing has no query end, so only the metadata is written.
  // Viewers key counters by process, name and "id" (not tid): the id keeps tracks apart.
  for (int t = 0; any_span && t < threads(); ++t) {
    std::string e = "{\"name\": \"totals\", \"ph\": \"C\", \"pid\": 1, \"tid\": " +
                    std::to_string(t) + ", \"id\": " + std::to_string(t) + ", \"ts\": ";
    AppendMicros(&e, query_end);
    e += ", \"args\": ";
    AppendCounters(&e, tracks_[t]->totals);
    e += "}";
    events.push_back(std::move(e));
  }
  std::string json = "{\"traceEvents\": [\n";
  for (size_t i = 0; i < events.size(); ++i) {
    json += events[i];
    json += i + 1 < events.size() ? ",\n" : "\n";
  }
  json += "],\n\"displayTimeUnit\": \"ms\",\n\"otherData\": {\"query\": \"";
  AppendEscaped(&json, query_);
  json += "\", \"threads\": " + std::to_string(threads()) + "}}\n";
  return json;
}

bool Profiler::WriteTraceJson(const std::string& path, std::string* error) const {
  // Written beside the target and renamed over it, so a reader (the demo polling the file)
  // never sees half a trace.
  const std::string json = TraceJson();
  const std::string tmp = path + ".tmp";
  std::FILE* file = std::fopen(tmp.c_str(), "wb");
  bool ok = file != nullptr;
  int err = ok ? 0 : errno;
  if (ok && std::fwrite(json.data(), 1, json.size(), file) != json.size()) {
    ok = false;
    err = errno;
  }
  if (file != nullptr && std::fclose(file) != 0 && ok) {
    ok = false;
    err = errno;
  }
  if (ok && std::rename(tmp.c_str(), path.c_str()) != 0) {
    ok = false;
    err = errno;
  }
  if (!ok) {
    if (file != nullptr) std::remove(tmp.c_str());
    if (error != nullptr) *error = "cannot write profile '" + path + "': " + std::strerror(err);
  }
  return ok;
}

}  // namespace exec
}  // namespace laneql
