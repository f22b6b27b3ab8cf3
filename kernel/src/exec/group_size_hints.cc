// Group size hints (see group_size_hints.h).
#include "src/exec/group_size_hints.h"

#include <cstdint>

#include "laneql/table.h"

namespace laneql {
namespace exec {

size_t GroupSizeHints::Find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = sizes_.find(key);
  return it == sizes_.end() || it->second.groups < kMinGroupSizeHint ? 0 : it->second.groups;
}

size_t GroupSizeHints::FindKeyBytes(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = sizes_.find(key);
  return it == sizes_.end() || it->second.groups < kMinGroupSizeHint ? 0 : it->second.key_bytes;
}

bool GroupSizeHints::Seen(const std::string& key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sizes_.find(key) != sizes_.end();
}

void GroupSizeHints::Note(const std::string& key, size_t groups, size_t key_bytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (sizes_.size() >= kMaxKeys && sizes_.find(key) == sizes_.end()) sizes_.clear();
  sizes_[key] = Sizes{groups, key_bytes};
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
