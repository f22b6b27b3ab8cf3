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

bool GroupSizeHints::FindSample(const std::string& key, SampleSummary* summary) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = samples_.find(key);
  if (it == samples_.end()) return false;
  *summary = it->second;
  return true;
}

void GroupSizeHints::NoteSample(const std::string& key, const SampleSummary& summary) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (samples_.size() >= kMaxKeys && samples_.find(key) == samples_.end()) samples_.clear();
  samples_[key] = summary;
}

namespace {

// The table (address and rows), the keys and the WHERE.
std::string TableKeysWhere(const plan::Plan& plan) {
  std::string key = std::to_string(reinterpret_cast<uintptr_t>(plan.table)) + "/" +
                    std::to_string(plan.table->num_rows());
  for (const auto& group_key : plan.group_keys) key += "|" + plan::Fingerprint(*group_key);
  key += "|where|";
  if (plan.where) key += plan::Fingerprint(*plan.where);
  return key;
}

}  // namespace

std::string GroupSizeKey(const plan::Plan& plan, int threads) {
  return std::to_string(threads) + "/" + TableKeysWhere(plan);
}

std::string SampleKey(const plan::Plan& plan) {
  std::string key = TableKeysWhere(plan) + "|aggregates";
  for (const plan::Aggregate& aggregate : plan.aggregates) {
    key += "|" + plan::AggregateKey(aggregate);
  }
  return key;
}

}  // namespace exec
}  // namespace laneql
