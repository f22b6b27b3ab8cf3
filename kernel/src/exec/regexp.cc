// RegexpReplacer on RE2, or a clear refusal in builds without it (LANEQL_HAVE_RE2 unset).
#include "src/exec/regexp.h"

#ifdef LANEQL_HAVE_RE2
#include <re2/re2.h>
#endif

namespace laneql {
namespace exec {

#ifdef LANEQL_HAVE_RE2
namespace {

class Re2Replacer final : public RegexpReplacer {
 public:
  Re2Replacer(const std::string& pattern, const RE2::Options& options, std::string replacement,
              bool global)
      : regex_(pattern, options), replacement_(std::move(replacement)), global_(global) {}
  const RE2& regex() const { return regex_; }

  void Replace(std::string_view text, std::string* out) const override {
    std::string result(text);
    if (global_) {
      RE2::GlobalReplace(&result, regex_, replacement_);
    } else {
      RE2::Replace(&result, regex_, replacement_);
    }
    out->append(result);
  }

 private:
  RE2 regex_;
  std::string replacement_;
  bool global_;
};

}  // namespace

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
  return replacer;
}

#else

std::shared_ptr<const RegexpReplacer> RegexpReplacer::Compile(const std::string&,
                                                              const std::string&,
                                                              const std::string&,
                                                              std::string* error) {
  *error = "regexp_replace is not available in this build (the WebAssembly builds have no RE2)";
  return nullptr;
}

#endif

}  // namespace exec
}  // namespace laneql
