// The profiler: spans from several threads land on their own tracks, the trace is strictly valid
// JSON with one event per line, names and the query are escaped, times are printed exactly from
// integer nanoseconds, totals add up, and the file is written whole or not at all.
#include "src/exec/profile.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "test_threads.h"

namespace laneql {
namespace exec {
namespace {

// A strict JSON checker (RFC 8259): recursive descent over one value and nothing after it but
// whitespace. No trailing commas, no single quotes, no raw control characters in strings, no
// leading zeros, only the defined escapes.
class JsonChecker {
 public:
  static bool Valid(const std::string& text) {
    JsonChecker checker(text);
    checker.SkipSpace();
    if (!checker.Value()) return false;
    checker.SkipSpace();
    return checker.pos_ == text.size();
  }

 private:
  explicit JsonChecker(const std::string& text) : s_(text) {}

  bool AtEnd() const { return pos_ >= s_.size(); }
  char Peek() const { return AtEnd() ? '\0' : s_[pos_]; }
  bool Eat(char c) {
    if (Peek() != c || AtEnd()) return false;
    ++pos_;
    return true;
  }
  void SkipSpace() {
    while (!AtEnd() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }
  bool Literal(const char* word) {
    for (; *word != '\0'; ++word) {
      if (!Eat(*word)) return false;
    }
    return true;
  }
  static bool IsDigit(char c) { return c >= '0' && c <= '9'; }
  static bool IsHex(char c) {
    return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }

  bool Value() {
    if (++depth_ > 200) return false;
    bool ok = false;
    switch (Peek()) {
      case '{': ok = Object(); break;
      case '[': ok = Array(); break;
      case '"': ok = String(); break;
      case 't': ok = Literal("true"); break;
      case 'f': ok = Literal("false"); break;
      case 'n': ok = Literal("null"); break;
      default: ok = Number(); break;
    }
    --depth_;
    return ok;
  }
  bool Object() {
    Eat('{');
    SkipSpace();
    if (Eat('}')) return true;
    while (true) {
      SkipSpace();
      if (Peek() != '"' || !String()) return false;
      SkipSpace();
      if (!Eat(':')) return false;
      SkipSpace();
      if (!Value()) return false;
      SkipSpace();
      if (Eat('}')) return true;
      if (!Eat(',')) return false;  // after a comma another member must follow: no trailing comma
    }
  }
  bool Array() {
    Eat('[');
    SkipSpace();
    if (Eat(']')) return true;
    while (true) {
      SkipSpace();
      if (!Value()) return false;
      SkipSpace();
      if (Eat(']')) return true;
      if (!Eat(',')) return false;
    }
  }
  bool String() {
    if (!Eat('"')) return false;
    while (!AtEnd()) {
      const unsigned char c = static_cast<unsigned char>(s_[pos_++]);
      if (c == '"') return true;
      if (c < 0x20) return false;  // control characters must be escaped
      if (c != '\\') continue;
      if (AtEnd()) return false;
      const char e = s_[pos_++];
      if (e == 'u') {
        for (int i = 0; i < 4; ++i) {
          if (AtEnd() || !IsHex(s_[pos_++])) return false;
        }
      } else if (std::string("\"\\/bfnrt").find(e) == std::string::npos) {
        return false;
      }
    }
    return false;  // unterminated
  }
  bool Number() {
    Eat('-');
    if (Eat('0')) {
      // no leading zeros: "01" is not a number
    } else if (IsDigit(Peek())) {
      while (IsDigit(Peek())) ++pos_;
    } else {
      return false;
    }
    if (Eat('.')) {
      if (!IsDigit(Peek())) return false;
      while (IsDigit(Peek())) ++pos_;
    }
    if (Peek() == 'e' || Peek() == 'E') {
      ++pos_;
      if (Peek() == '+' || Peek() == '-') ++pos_;
      if (!IsDigit(Peek())) return false;
      while (IsDigit(Peek())) ++pos_;
    }
    return true;
  }

  const std::string& s_;
  size_t pos_ = 0;
  int depth_ = 0;
};

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The trace's lines of one event kind ("X", "M", "C"), in order.
std::vector<std::string> EventLines(const std::string& json, const std::string& ph) {
  std::vector<std::string> out;
  for (const std::string& line : Lines(json)) {
    if (Contains(line, "\"ph\": \"" + ph + "\"")) out.push_back(line);
  }
  return out;
}

std::string SpanLine(const char* name, int tid, const std::string& ts, const std::string& dur,
                     uint64_t rows, uint64_t bytes, uint64_t probes) {
  return std::string("{\"name\": \"") + name + "\", \"cat\": \"" + name +
         "\", \"ph\": \"X\", \"pid\": 1, \"tid\": " + std::to_string(tid) + ", \"ts\": " + ts +
         ", \"dur\": " + dur + ", \"args\": {\"rows\": " + std::to_string(rows) +
         ", \"bytes\": " + std::to_string(bytes) + ", \"probes\": " + std::to_string(probes) +
         "}}";
}

TEST(JsonCheckerTest, AcceptsValidAndRejectsBrokenJson) {
  EXPECT_TRUE(JsonChecker::Valid(R"({"a": [1, -2.5, 3e10, 0, true, false, null, "x\"\u00e9"]})"));
  EXPECT_TRUE(JsonChecker::Valid(" {} "));
  EXPECT_TRUE(JsonChecker::Valid("[[], {}, \"\"]"));
  const char* broken[] = {
      "",                      // nothing
      R"({"a": 1,})",          // trailing comma in an object
      "[1, 2,]",               // trailing comma in an array
      R"({"a" 1})",            // no colon
      R"({"a": 1)",            // unclosed
      R"("unterminated)",      // unterminated string
      R"({'a': 1})",           // single quotes
      R"({"a": 01})",          // leading zero
      R"({"a": 1.})",          // no fraction digits
      R"({"a": "\q"})",        // unknown escape
      R"({"a": "\u12"})",      // short \u escape
      "{\"a\": \"tab\there\"}",  // raw control character
      R"({"a": tru})",         // broken literal
      "[1] [2]",               // two values
      "{\"a\": 1}}",           // extra bracket
  };
  for (const char* text : broken) EXPECT_FALSE(JsonChecker::Valid(text)) << text;
}

TEST(ProfileTest, EmptyProfilerGivesOnlyMetadata) {
  Profiler profiler(3);
  EXPECT_EQ(profiler.threads(), 3);
  const std::string json = profiler.TraceJson();
  EXPECT_TRUE(JsonChecker::Valid(json)) << json;
  const std::vector<std::string> lines = Lines(json);
  ASSERT_EQ(lines.size(), 7u) << json;
  EXPECT_EQ(lines[0], "{\"traceEvents\": [");
  EXPECT_EQ(lines[1], R"({"name": "thread_name", "ph": "M", "pid": 1, "tid": 0, "args": {"name": "main"}},)");
  EXPECT_EQ(lines[2], R"({"name": "thread_name", "ph": "M", "pid": 1, "tid": 1, "args": {"name": "worker 1"}},)");
  EXPECT_EQ(lines[3], R"({"name": "thread_name", "ph": "M", "pid": 1, "tid": 2, "args": {"name": "worker 2"}})");
  EXPECT_EQ(lines[4], "],");
  EXPECT_EQ(lines[5], R"("displayTimeUnit": "ms",)");
  EXPECT_EQ(lines[6], R"("otherData": {"query": "", "threads": 3}})");
  EXPECT_TRUE(EventLines(json, "X").empty());
  EXPECT_TRUE(EventLines(json, "C").empty());
}

TEST(ProfileTest, FewerThanOneThreadIsOneAndBadIndicesAreIgnored) {
  Profiler profiler(0);
  EXPECT_EQ(profiler.threads(), 1);
  profiler.AddSpan(-1, "scan", "scan", 0, 10, {1, 2, 3});
  profiler.AddSpan(1, "scan", "scan", 0, 10, {1, 2, 3});
  profiler.AddSpan(1000, "scan", "scan", 0, 10, {1, 2, 3});
  EXPECT_TRUE(EventLines(profiler.TraceJson(), "X").empty());
  EXPECT_EQ(Profiler(-5).threads(), 1);
}

TEST(ProfileTest, ConcurrentThreadsLandOnTheirTracks) {
  LANEQL_SKIP_WITHOUT_THREADS();
  constexpr int kThreads = 4;
  constexpr int kSpans = 200;
  Profiler profiler(kThreads);
  // Each thread records spans with times and counters that say which thread and span they are.
  auto record = [&profiler](int t) {
    for (int i = 0; i < kSpans; ++i) {
      const uint64_t start = static_cast<uint64_t>(i) * 1000;
      profiler.AddSpan(t, "scan", "scan", start, start + 500,
                       {static_cast<uint64_t>(t * 1000 + i), static_cast<uint64_t>(t), 7});
    }
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(record, t);
  for (std::thread& thread : threads) thread.join();

  const std::string json = profiler.TraceJson();
  EXPECT_TRUE(JsonChecker::Valid(json));
  // Tracks in order 0..3, each track's spans in the order they were recorded.
  const std::vector<std::string> spans = EventLines(json, "X");
  ASSERT_EQ(spans.size(), static_cast<size_t>(kThreads * kSpans));
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kSpans; ++i) {
      std::string expected = SpanLine("scan", t, std::to_string(i) + ".000", "0.500",
                                      t * 1000 + i, t, 7) + ",";
      ASSERT_EQ(spans[t * kSpans + i], expected) << "thread " << t << " span " << i;
    }
  }
  // A totals counter event per track, at the end of the query (the latest span end).
  const std::vector<std::string> totals = EventLines(json, "C");
  ASSERT_EQ(totals.size(), static_cast<size_t>(kThreads));
  for (int t = 0; t < kThreads; ++t) {
    const uint64_t rows = static_cast<uint64_t>(t) * 1000 * kSpans + kSpans * (kSpans - 1) / 2;
    std::string expected = R"({"name": "totals", "ph": "C", "pid": 1, "tid": )" +
                           std::to_string(t) + R"(, "id": )" + std::to_string(t) + R"(, "ts": 199.500, "args": {"rows": )" +
                           std::to_string(rows) + ", \"bytes\": " + std::to_string(t * kSpans) +
                           ", \"probes\": " + std::to_string(7 * kSpans) + "}}";
    if (t + 1 < kThreads) expected += ",";
    EXPECT_EQ(totals[t], expected);
  }
}

TEST(ProfileTest, TimesArePrintedFromIntegerNanoseconds) {
  Profiler profiler(1);
  profiler.AddSpan(0, "a", "a", 2000, 3500);
  profiler.AddSpan(0, "b", "b", 5, 5);
  profiler.AddSpan(0, "c", "c", 123456789012ull, 123456789012ull + 1000001);
  profiler.AddSpan(0, "d", "d", 999, 1000);
  const std::vector<std::string> spans = EventLines(profiler.TraceJson(), "X");
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_TRUE(Contains(spans[0], "\"ts\": 2.000, \"dur\": 1.500,")) << spans[0];
  EXPECT_TRUE(Contains(spans[1], "\"ts\": 0.005, \"dur\": 0.000,")) << spans[1];
  EXPECT_TRUE(Contains(spans[2], "\"ts\": 123456789.012, \"dur\": 1000.001,")) << spans[2];
  EXPECT_TRUE(Contains(spans[3], "\"ts\": 0.999, \"dur\": 0.001,")) << spans[3];
  const std::vector<std::string> totals = EventLines(profiler.TraceJson(), "C");
  ASSERT_EQ(totals.size(), 1u);
  EXPECT_TRUE(Contains(totals[0], "\"ts\": 123457789.013,")) << totals[0];
}

// A ScopedSpan writes the CPU time its thread spent in it (cpu_us): a busy span has some, a span
// that sleeps next to none, neither more than its duration; AddSpan's spans and the totals have
// none (spans nest, so CPU times are not summed).
TEST(ProfileTest, ScopedSpansCarryTheirThreadsCpuTime) {
  Profiler profiler(1);
  if (ThreadCpuNs() == 0) {
    // No per-thread CPU clock (wasm): spans carry no cpu_us at all.
    { ScopedSpan span(&profiler, 0, "busy", "scan"); }
    EXPECT_FALSE(Contains(profiler.TraceJson(), "cpu_us"));
    return;
  }
  volatile uint64_t sink = 0;
  {
    ScopedSpan busy(&profiler, 0, "busy", "scan");
    const uint64_t until = ThreadCpuNs() + 3000000;  // 3 ms of this thread's CPU time
    while (ThreadCpuNs() < until) sink = sink + 1;
  }
  {
    ScopedSpan idle(&profiler, 0, "idle", "scan");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  profiler.AddSpan(0, "given", "scan", 0, 1000);
  const std::string json = profiler.TraceJson();
  EXPECT_TRUE(JsonChecker::Valid(json)) << json;
  const std::vector<std::string> spans = EventLines(json, "X");
  ASSERT_EQ(spans.size(), 3u);
  auto number_after = [](const std::string& line, const std::string& key) {
    const size_t at = line.find("\"" + key + "\": ");
    return at == std::string::npos ? -1.0 : std::stod(line.substr(at + key.size() + 4));
  };
  const double busy_cpu = number_after(spans[0], "cpu_us"), busy_dur = number_after(spans[0], "dur");
  EXPECT_GE(busy_cpu, 3000.0) << spans[0];
  EXPECT_LE(busy_cpu, busy_dur + 1.0) << spans[0];
  const double idle_cpu = number_after(spans[1], "cpu_us"), idle_dur = number_after(spans[1], "dur");
  EXPECT_GE(idle_dur, 20000.0) << spans[1];
  EXPECT_LT(idle_cpu, idle_dur / 4) << spans[1];  // -1 (not written) when it used no measurable CPU
  EXPECT_FALSE(Contains(spans[2], "cpu_us")) << spans[2];
  EXPECT_FALSE(Contains(EventLines(json, "C")[0], "cpu_us"));
}

TEST(ProfileTest, QueryAndNamesAreEscaped) {
  Profiler profiler(2);
  profiler.SetQuery("SELECT \"a\\b\"\n\tFROM t WHERE s = '\x01Яндекс'");
  profiler.AddSpan(1, "we\"ird\\", "c\nat", 0, 1);
  const std::string json = profiler.TraceJson();
  EXPECT_TRUE(JsonChecker::Valid(json)) << json;
  EXPECT_TRUE(Contains(
      json, R"("otherData": {"query": "SELECT \"a\\b\"\u000a\u0009FROM t WHERE s = '\u0001Яндекс'", "threads": 2}})"))
      << json;
  EXPECT_TRUE(Contains(json, R"({"name": "we\"ird\\", "cat": "c\u000aat", "ph": "X")")) << json;
  // Escaping keeps one event per line.
  EXPECT_EQ(EventLines(json, "X").size(), 1u);
}

TEST(ProfileTest, TotalsAreTheSumOfSpanCounters) {
  Profiler profiler(2);
  profiler.AddSpan(0, "scan", "scan", 0, 100, {16384, 65536, 0});
  profiler.AddSpan(0, "aggregate", "aggregate", 100, 300, {16384, 0, 16384});
  profiler.AddSpan(0, "sort", "sort", 300, 350);
  profiler.AddSpan(1, "scan", "scan", 10, 120, {100, 400, 3});
  const std::string json = profiler.TraceJson();
  EXPECT_TRUE(JsonChecker::Valid(json)) << json;
  const std::vector<std::string> totals = EventLines(json, "C");
  ASSERT_EQ(totals.size(), 2u);
  EXPECT_EQ(totals[0], R"({"name": "totals", "ph": "C", "pid": 1, "tid": 0, "id": 0, "ts": 0.350, "args": {"rows": 32768, "bytes": 65536, "probes": 16384}},)");
  EXPECT_EQ(totals[1], R"({"name": "totals", "ph": "C", "pid": 1, "tid": 1, "id": 1, "ts": 0.350, "args": {"rows": 100, "bytes": 400, "probes": 3}})");
  EXPECT_EQ(Lines(json).back(), R"("otherData": {"query": "", "threads": 2}})");
}

TEST(ProfileTest, ScopedSpan) {
  { ScopedSpan nothing(nullptr, 0, "scan", "scan"); nothing.counters().rows = 5; }  // no-op
  Profiler profiler(2);
  const uint64_t before = profiler.Now();
  {
    ScopedSpan span(&profiler, 1, "merge", "merge");
    span.counters().rows = 42;
    span.counters().probes = 9;
  }
  const uint64_t after = profiler.Now();
  EXPECT_LE(before, after);
  const std::string json = profiler.TraceJson();
  EXPECT_TRUE(JsonChecker::Valid(json)) << json;
  const std::vector<std::string> spans = EventLines(json, "X");
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_TRUE(Contains(spans[0], R"({"name": "merge", "cat": "merge", "ph": "X", "pid": 1, "tid": 1, "ts": )"))
      << spans[0];
  // The counters, then (where the span used measurable CPU time) its cpu_us.
  EXPECT_TRUE(Contains(spans[0], R"("args": {"rows": 42, "bytes": 0, "probes": 9)")) << spans[0];
}

#ifndef __EMSCRIPTEN__  // the wasm test run has no writable file system to rely on
TEST(ProfileTest, WriteTraceJson) {
  Profiler profiler(2);
  profiler.SetQuery("SELECT 1");
  profiler.AddSpan(1, "scan", "scan", 10, 20, {1, 8, 0});
  const std::string dir = ::testing::TempDir();

  const std::string missing = dir + "laneql_profile_test_no_such_dir/trace.json";
  std::string error;
  EXPECT_FALSE(profiler.WriteTraceJson(missing, &error));
  EXPECT_EQ(error.rfind("cannot write profile '" + missing + "': ", 0), 0u) << error;
  EXPECT_GT(error.size(), ("cannot write profile '" + missing + "': ").size()) << error;

  const std::string path = dir + "laneql_profile_test_trace.json";
  std::remove(path.c_str());
  error.clear();
  ASSERT_TRUE(profiler.WriteTraceJson(path, &error)) << error;
  ASSERT_TRUE(profiler.WriteTraceJson(path, &error)) << error;  // replaces the file
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  EXPECT_EQ(content.str(), profiler.TraceJson());
  EXPECT_FALSE(std::ifstream(path + ".tmp").good());  // the temporary file was renamed
  std::remove(path.c_str());
}
#endif

}  // namespace
}  // namespace exec
}  // namespace laneql
