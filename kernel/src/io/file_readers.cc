// The registry of extra table-file readers and the choice of reader by extension
// (laneql/file_readers.h). A handful of entries at most, registered at start-up and read per
// query, so a mutex-guarded vector is plenty.
#include "laneql/file_readers.h"
#include "src/common/ascii.h"

#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace laneql {
namespace {

struct Registry {
  std::mutex mutex;
  std::vector<std::pair<std::string, TableFileReader>> readers;  // lower-case extension
};

Registry& GetRegistry() {
  static Registry* registry = new Registry;  // never destroyed: readers may run at exit
  return *registry;
}

}  // namespace

void RegisterTableFileReader(std::string_view extension, TableFileReader reader) {
  Registry& registry = GetRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  const std::string key = ascii::Lower(extension);
  for (auto& entry : registry.readers) {
    if (entry.first == key) {
      entry.second = reader;
      return;
    }
  }
  registry.readers.emplace_back(key, reader);
}

TableFileReader FindTableFileReader(std::string_view path) {
  const std::string lower = ascii::Lower(path);
  Registry& registry = GetRegistry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  for (const auto& entry : registry.readers) {
    if (ascii::EndsWith(lower, entry.first)) return entry.second;
  }
  return nullptr;
}

TableFileFormat TableFileFormatOf(std::string_view path) {
  const std::string lower = ascii::Lower(path);
  const auto ends_with = [&lower](std::string_view suffix) {
    return ascii::EndsWith(lower, suffix);
  };
  if (ends_with(".csv") || ends_with(".txt")) return TableFileFormat::kCsv;
  if (ends_with(".tsv") || ends_with(".tab")) return TableFileFormat::kTsv;
  if (ends_with(".laneql")) return TableFileFormat::kLaneql;
  if (FindTableFileReader(path) != nullptr) return TableFileFormat::kRegistered;
  return TableFileFormat::kUnknown;
}

}  // namespace laneql
