#include "flags.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "laneql/targets.h"

namespace laneql::cli {
namespace {

// "laneql gen", or "laneql" for the SQL commands, which have no subcommand name.
std::string Who(const char* command) {
  return *command == '\0' ? std::string("laneql") : std::string("laneql ") + command;
}

}  // namespace

bool Flags::Has(const std::string& name) const {
  return std::any_of(given.begin(), given.end(), [&](const auto& g) { return g.first == name; });
}

std::string Flags::Get(const std::string& name, const std::string& fallback) const {
  for (auto it = given.rbegin(); it != given.rend(); ++it) {
    if (it->first == name) return it->second;
  }
  return fallback;
}

std::vector<std::string> Flags::All(const std::string& name) const {
  std::vector<std::string> values;
  for (const auto& [flag, value] : given) {
    if (flag == name) values.push_back(value);
  }
  return values;
}

bool ParseFlags(const char* command, const std::vector<std::string>& args, const FlagSpec& spec,
                Flags* flags) {
  auto known = [](const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
  };
  for (size_t i = 0; i < args.size(); ++i) {
    std::string name = args[i], value;
    if (name.empty() || name[0] != '-' || name == "-") {
      if (flags->positionals.size() >= spec.max_positionals) {
        std::fprintf(stderr, "%s: unexpected argument '%s' (try laneql --help)\n", Who(command).c_str(),
                     name.c_str());
        return false;
      }
      flags->positionals.push_back(name);
      continue;
    }
    const size_t eq = name.find('=');
    const bool inline_value = name.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inline_value) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (known(spec.switches, name) && !inline_value) {
      flags->given.emplace_back(name, "1");
    } else if (known(spec.with_value, name)) {
      if (!inline_value) {
        if (i + 1 >= args.size()) {
          std::fprintf(stderr, "%s: %s needs a value\n", Who(command).c_str(), name.c_str());
          return false;
        }
        value = args[++i];
      }
      flags->given.emplace_back(name, value);
    } else {
      std::fprintf(stderr, "%s: unknown argument '%s' (try laneql --help)\n", Who(command).c_str(),
                   args[i].c_str());
      return false;
    }
  }
  return true;
}

bool ParseCount(const char* command, const std::string& flag, const std::string& text,
                uint64_t min, uint64_t max, uint64_t* out) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || text[0] == '+' || text[0] == ' ' || *end != '\0' ||
      errno != 0 || v < min || v > max) {
    std::fprintf(stderr, "%s: %s must be a whole number from %llu to %llu, got '%s'\n",
                 Who(command).c_str(), flag.c_str(), static_cast<unsigned long long>(min),
                 static_cast<unsigned long long>(max), text.c_str());
    return false;
  }
  *out = v;
  return true;
}

bool ApplyTarget(const char* command, const Flags& flags) {
  if (!flags.Has("--target")) return true;
  std::string error;
  if (ForceTarget(flags.Get("--target", ""), &error)) return true;
  std::fprintf(stderr, "%s: %s\n", Who(command).c_str(), error.c_str());
  return false;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

}  // namespace laneql::cli
