// Group size hints (see group_size_hints.h).
#include "src/exec/group_size_hints.h"

#include <cstdint>

#include "laneql/table.h"

namespace laneql {
namespace exec {

size_t GroupSizeHints::Find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = groups_.find(key);
  return it == groups_.end() || it->second < kMinGroupSizeHint ? 0 : it->second;
}

bool GroupSizeHints::Seen(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return groups_.find(key) != groups_.end();
}

void GroupSizeHints::Note(const std::string& key, size_t groups) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (groups_.size() >= kMaxKeys && groups_.find(key) == groups_.end()) groups_.clear();
  groups_[key] = groups;
}

std::string GroupSizeKey(const plan::Plan& plan, int threads) {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(plan.table)) + "/" +
                    std::to_string(plan.table->num_rows()) + "/" + std::to_string(threads);
  for (const auto& group_key : plan.group_keys) key += "|" + plan::Fingerprint(*group_key);
  key += "|where|";
  if (plan.where) key += plan::Fingerprint(*plan.where);
  return key;
}

}  // namespace exec
}  // namespace laneql
