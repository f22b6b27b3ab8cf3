// RegexpReplacer and RegexpMatcher on RE2.
#include "src/exec/regexp.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>

#include "src/exec/regexp_simple.h"

#include <re2/re2.h>

namespace laneql {
namespace exec {

namespace {

// A compiled pattern that each thread matches with a copy of its own. An RE2 object takes a
// reader lock on its DFA cache at every match, and threads sharing one spun on that lock's
// cache line: regexp_matches over 10 M strings took 857 ms on one thread and 1,184 ms on two,
// 62 % of it in the lock. A thread compiles its copy from the same pattern and options the
// first time it matches; it keeps the copies of the last few patterns it used, found by an id
// no other pattern of the process shares.
class PerThreadRe2 {
 public:
  PerThreadRe2(const std::string& pattern, const RE2::Options& options)
      : pattern_(pattern), options_(options), id_(next_id_.fetch_add(1, std::memory_order_relaxed) + 1),
        shared_(pattern, options) {}
  // The one compiled here: its errors, groups and options.
  const RE2& shared() const { return shared_; }
  // This thread's copy.
  const RE2& Get() const {
    struct Slot {
      uint64_t id = 0;
      std::unique_ptr<RE2> regex;
    };
    thread_local std::array<Slot, 8> slots;
    thread_local size_t next = 0;
    for (const Slot& slot : slots) {
      if (slot.id == id_) return *slot.regex;
    }
    Slot& slot = slots[next++ % slots.size()];
    slot.regex = std::make_unique<RE2>(pattern_, options_);
    slot.id = id_;
    return *slot.regex;
  }

 private:
  static inline std::atomic<uint64_t> next_id_{0};
  const std::string pattern_;
  const RE2::Options options_;
  const uint64_t id_;
  const RE2 shared_;
};

class Re2Replacer final : public RegexpReplacer {
 public:
  Re2Replacer(const std::string& pattern, const RE2::Options& options, std::string replacement,
              bool global)
      : regex_(pattern, options), replacement_(std::move(replacement)), global_(global) {}
  const RE2& regex() const { return regex_.shared(); }

  void Replace(std::string_view text, std::string* out) const override {
    if (simple_ != nullptr && simple_->Replace(text, out)) return;
    if (global_) {
      std::string result(text);
      RE2::GlobalReplace(&result, regex_.Get(), replacement_);
      out->append(result);
      return;
    }
    // First match only: find it with just the groups the replacement uses, then write
    // prefix + rewritten match + suffix (no copy of the whole text to edit in place).
    re2::StringPiece groups[10];
    const int n = groups_needed_;
    const RE2& regex = regex_.Get();
    if (!regex.Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED, groups, n)) {
      out->append(text);
      return;
    }
    const size_t start = static_cast<size_t>(groups[0].data() - text.data());
    out->append(text.substr(0, start));
    std::string rewritten;
    regex.Rewrite(&rewritten, replacement_, groups, n);
    out->append(rewritten);
    out->append(text.substr(start + groups[0].size()));
  }
  // \0 .. \9 used by the replacement, plus the whole match.
  void CountGroups() {
    int highest = 0;
    for (size_t i = 0; i + 1 < replacement_.size(); ++i) {
      if (replacement_[i] == '\\' && replacement_[i + 1] >= '0' && replacement_[i + 1] <= '9') {
        highest = std::max(highest, replacement_[i + 1] - '0');
        ++i;
      }
    }
    groups_needed_ = 1 + highest;
  }
  // A pattern simple enough to replace in one pass (regexp_simple.h), case-sensitive only.
  void UseSimpleForm(std::string_view pattern) {
    if (regex().options().case_sensitive()) simple_ = SimpleReplace::Parse(pattern, replacement_, global_);
  }

 private:
  PerThreadRe2 regex_;
  std::string replacement_;
  bool global_;
  int groups_needed_ = 1;
  std::unique_ptr<SimpleReplace> simple_;
};

class Re2Matcher final : public RegexpMatcher {
 public:
  Re2Matcher(const std::string& pattern, const RE2::Options& options) : regex_(pattern, options) {}
  const RE2& regex() const { return regex_.shared(); }
  bool PartialMatch(std::string_view text) const override {
    return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), regex_.Get());
  }
  bool FullMatch(std::string_view text) const override {
    return RE2::FullMatch(re2::StringPiece(text.data(), text.size()), regex_.Get());
  }
  bool Extract(std::string_view text, int group, std::string_view* out) const override {
    if (group < 0 || group > regex().NumberOfCapturingGroups()) return false;
    re2::StringPiece groups[10];
    *out = std::string_view();
    if (regex_.Get().Match(re2::StringPiece(text.data(), text.size()), 0, text.size(), RE2::UNANCHORED, groups,
                           group + 1) &&
        groups[group].data() != nullptr) {
      *out = std::string_view(groups[group].data(), groups[group].size());
    }
    return true;
  }
  int Groups() const override { return regex().NumberOfCapturingGroups(); }

 private:
  PerThreadRe2 regex_;
};

}  // namespace

std::shared_ptr<const RegexpMatcher> RegexpMatcher::Compile(const std::string& function, const std::string& pattern,
                                                            const std::string& options, std::string* error) {
  RE2::Options re2_options;
  re2_options.set_log_errors(false);
  re2_options.set_dot_nl(true);  // DuckDB's default: . matches a newline
  for (char c : options) {
    if (c == 'i') {
      re2_options.set_case_sensitive(false);
    } else if (c == 'c') {
      re2_options.set_case_sensitive(true);
    } else if (c == 's') {
      re2_options.set_dot_nl(true);
    } else {
      *error = function + ": unknown option '" + c + "' (use i, c or s)";
      return nullptr;
    }
  }
  auto matcher = std::make_shared<Re2Matcher>(pattern, re2_options);
  if (!matcher->regex().ok()) {
    *error = function + ": invalid regular expression '" + pattern + "': " + matcher->regex().error();
    return nullptr;
  }
  if (matcher->Groups() > 9) {
    *error = function + ": at most 9 capturing groups";
    return nullptr;
  }
  return matcher;
}

std::shared_ptr<const RegexpReplacer> RegexpReplacer::Compile(const std::string& pattern,
                                                              const std::string& replacement,
                                                              const std::string& options,
                                                              std::string* error) {
  RE2::Options re2_options;
  re2_options.set_log_errors(false);
  bool global = false;
  for (char c : options) {
    if (c == 'g') {
      global = true;
    } else if (c == 'i') {
      re2_options.set_case_sensitive(false);
    } else if (c == 'c') {
      re2_options.set_case_sensitive(true);
    } else {
      *error = std::string("regexp_replace: unknown option '") + c + "' (use g, i or c)";
      return nullptr;
    }
  }
  auto replacer = std::make_shared<Re2Replacer>(pattern, re2_options, replacement, global);
  if (!replacer->regex().ok()) {
    *error = "regexp_replace: invalid regular expression '" + pattern + "': " + replacer->regex().error();
    return nullptr;
  }
  std::string rewrite_error;
  if (!replacer->regex().CheckRewriteString(replacement, &rewrite_error)) {
    *error = "regexp_replace: invalid replacement '" + replacement + "': " + rewrite_error;
    return nullptr;
  }
  replacer->CountGroups();
  replacer->UseSimpleForm(pattern);
  return replacer;
}

}  // namespace exec
}  // namespace laneql
