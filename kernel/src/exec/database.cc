// Database: the table catalog and the entry point of every query.
#include "laneql/database.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "laneql/system_info.h"
#include "src/common/large_blocks.h"
#include "src/common/query_budget.h"
#include "src/exec/query_runner.h"
#include "src/exec/thread_pool.h"

namespace laneql {
namespace {

std::string FoldName(std::string_view name) {
  std::string folded(name);
  for (char& c : folded) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return folded;
}

}  // namespace

class Database::SqlCatalog : public exec::Catalog {
 public:
  SqlCatalog(const Database* db, std::vector<std::shared_ptr<const Table>>* provided)
      : db_(db), provided_(provided) {}

  std::shared_ptr<const Table> FindTable(std::string_view name) override {
    if (std::shared_ptr<const Table> table = db_->FindTableShared(name)) return table;
    {
      std::lock_guard<std::mutex> lock(db_->catalog_mutex_);
      auto it = db_->tables_.find(FoldName(name));
      if (it != db_->tables_.end()) return nullptr;  // a view
    }
    if (!db_->provider_) return nullptr;
    // A table the provider makes is a table the query reads, not its working memory: outside
    // the query's budget, as registered tables are.
    const ScopedQueryBudget outside_the_budget(nullptr);
    std::shared_ptr<const Table> table = db_->provider_(name);
    if (table != nullptr) provided_->push_back(table);
    return table;
  }
  bool FindView(std::string_view name, exec::ViewDef* out) override {
    std::lock_guard<std::mutex> lock(db_->catalog_mutex_);
    auto it = db_->tables_.find(FoldName(name));
    if (it == db_->tables_.end() || it->second.table != nullptr) return false;
    *out = exec::ViewDef{it->second.name, it->second.view_sql, it->second.view_columns};
    return true;
  }
  bool PutTable(const std::string& name, std::shared_ptr<const Table> table, bool replace,
                std::string* error) override {
    std::lock_guard<std::mutex> lock(db_->catalog_mutex_);
    Entry& entry = db_->tables_[FoldName(name)];
    if (!replace && !entry.name.empty()) {
      *error = std::string(entry.table ? "table" : "view") + " \"" + entry.name + "\" already exists";
      return false;
    }
    entry = Entry{name, std::move(table), "", {}};
    return true;
  }
  bool PutView(const exec::ViewDef& view, bool replace, std::string* error) override {
    std::lock_guard<std::mutex> lock(db_->catalog_mutex_);
    Entry& entry = db_->tables_[FoldName(view.name)];
    if (!entry.name.empty() && (!replace || entry.table != nullptr)) {
      *error = std::string(entry.table ? "table" : "view") + " \"" + entry.name + "\" already exists";
      return false;
    }
    entry = Entry{view.name, nullptr, view.sql, view.columns};
    return true;
  }
  bool SwapTable(const std::string& name, const std::shared_ptr<const Table>& expected,
                 std::shared_ptr<const Table> table) override {
    std::lock_guard<std::mutex> lock(db_->catalog_mutex_);
    auto it = db_->tables_.find(FoldName(name));
    if (it == db_->tables_.end() || it->second.table != expected) return false;
    it->second.table = std::move(table);
    return true;
  }
  bool Drop(const std::string& name, bool view) override {
    std::lock_guard<std::mutex> lock(db_->catalog_mutex_);
    auto it = db_->tables_.find(FoldName(name));
    if (it == db_->tables_.end() || (it->second.table == nullptr) != view) return false;
    db_->tables_.erase(it);
    return true;
  }
  bool HasTableOrView(std::string_view name) override {
    std::lock_guard<std::mutex> lock(db_->catalog_mutex_);
    return db_->tables_.count(FoldName(name)) != 0;
  }
  std::vector<std::string> Names() override { return db_->TableNames(); }

 private:
  const Database* db_;
  std::vector<std::shared_ptr<const Table>>* provided_;
};

Database::Database() : Database(DatabaseOptions()) {}

Database::Database(DatabaseOptions options) : options_(std::move(options)) {
  RetainFreedHeapMemory();  // large_blocks.h
  pool_ = std::make_unique<exec::ThreadPool>(options_.threads > 0 ? options_.threads : DefaultThreads());
  threads_ = pool_->threads();
  group_size_hints_ = std::make_unique<exec::GroupSizeHints>();
  memory_limit_bytes_ = options_.memory_limit_bytes < 0
                            ? DefaultMemoryLimitBytes()
                            : static_cast<uint64_t>(options_.memory_limit_bytes);
}

std::string Database::LastProfileJson() const {
  std::lock_guard<std::mutex> lock(profile_mutex_);
  return last_profile_;
}
Database::~Database() = default;

bool Database::Register(std::string name, Table table, std::string* error) {
  return Register(std::move(name), std::make_shared<const Table>(std::move(table)), error);
}

bool Database::Register(std::string name, std::shared_ptr<const Table> table,
                        std::string* error) {
  if (name.empty() || table == nullptr) {
    if (error != nullptr) *error = name.empty() ? "a table needs a name" : "no table to register";
    return false;
  }
  std::string key = FoldName(name);
  std::lock_guard<std::mutex> lock(catalog_mutex_);
  tables_[key] = Entry{std::move(name), std::move(table), "", {}};
  return true;
}

const Table* Database::FindTable(std::string_view name) const {
  return FindTableShared(name).get();
}

std::shared_ptr<const Table> Database::FindTableShared(std::string_view name) const {
  std::lock_guard<std::mutex> lock(catalog_mutex_);
  auto it = tables_.find(FoldName(name));
  return it == tables_.end() ? nullptr : it->second.table;
}

std::vector<std::string> Database::TableNames() const {
  std::lock_guard<std::mutex> lock(catalog_mutex_);
  std::vector<std::string> names;
  for (const auto& [key, entry] : tables_) names.push_back(entry.name);
  return names;
}

Result Database::Query(std::string_view sql) const { return Query(sql, QueryOptions()); }

Result Database::Query(std::string_view sql, const QueryOptions& options) const {
  // Tables the provider hands this query live as long as the query.
  std::vector<std::shared_ptr<const Table>> provided;
  SqlCatalog catalog(this, &provided);
  const uint64_t memory_limit = options.memory_limit_bytes < 0
                                    ? memory_limit_bytes_
                                    : static_cast<uint64_t>(options.memory_limit_bytes);
  QueryBudget budget(memory_limit, &interrupts_, options.timeout_ms);
  exec::ExecContext ctx;
  ctx.budget = &budget;
  ctx.pool = pool_.get();
  ctx.group_size_hints = group_size_hints_.get();
  ctx.threads = options.threads > 0 ? std::min(options.threads, threads_) : threads_;
  ctx.min_parallel_rows = options_.min_parallel_rows;
  ctx.two_level_min_groups = options_.two_level_min_groups;
  ctx.group_split = static_cast<int>(options_.group_split);
  ctx.partitioned_distinct_min_values = options_.partitioned_distinct_min_values;
  ctx.partitioned_group_min_rows = options_.partitioned_group_min_rows;
  ctx.small_key_lookup = options.small_key_lookup;
  ctx.max_recursion_rounds = options.max_recursion_rounds;
  if (!options_.profile && !options.profile) return RunQuery(sql, &catalog, ctx);
  exec::Profiler profiler(ctx.threads);
  profiler.SetQuery(std::string(sql));
  ctx.profiler = &profiler;
  Result result = RunQuery(sql, &catalog, ctx);
  std::string json = profiler.TraceJson();
  std::string error;
  if (!options_.profile_path.empty() && !profiler.WriteTraceJson(options_.profile_path, &error) &&
      result.ok()) {
    result = Result::Error(error);
  }
  std::lock_guard<std::mutex> lock(profile_mutex_);
  last_profile_ = std::move(json);
  return result;
}

}  // namespace laneql
