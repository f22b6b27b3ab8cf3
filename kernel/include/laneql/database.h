// A database: named in-memory tables and the SQL that runs over them.
//
//   laneql::Database db;
//   db.Register("hits", std::move(table), &error);
//   laneql::Result r = db.Query("SELECT count(*) FROM hits");
//   if (!r.ok()) std::cerr << r.error() << "\n";  // "... at line 1, column 8: ..."
//
// Query never throws: syntax, name, type and run-time errors (overflow, out of memory) come back
// as an error Result whose message says what is wrong and, where it comes from the SQL text,
// where (line and column, also in Result::error_line / error_column).
#ifndef LANEQL_DATABASE_H_
#define LANEQL_DATABASE_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/result.h"
#include "laneql/table.h"

namespace laneql {

namespace exec {
class GroupSizeHints;
class ThreadPool;
}  // namespace exec

struct DatabaseOptions {
  // Threads a query may use, the calling thread included; 0 = laneql::DefaultThreads() (the
  // physical cores). Builds without threads (wasm without pthreads) always use 1.
  int threads = 0;
  // Record a timeline of every query (a span per morsel and phase, per-thread counters) in the
  // trace-event JSON that chrome://tracing and Perfetto open: see Database::LastProfileJson.
  bool profile = false;
  // Tables with fewer rows are queried on the calling thread alone (waking workers costs more
  // than it saves there); tests set it low to run the parallel paths on small tables.
  size_t min_parallel_rows = 65536;
  // Threads' GROUP BY tables with more groups than this (together) are merged two-level: 256
  // partitions merged in parallel. Below it, one after another: cheaper for few groups (2
  // threads of 32,768 groups each: 0.43 ms serially against 1.25 ms two-level), and bounded,
  // since the threshold counts every thread's groups.
  size_t two_level_min_groups = 65536;
  // How a hash GROUP BY splits its work among threads: by rows (each thread its own table of
  // the rows it takes, merged afterwards) or by keys (each thread reads every row and keeps the
  // keys that hash to it: disjoint tables, nothing to merge; for GROUP BYs with about as many
  // groups as rows, where the merge would insert nearly every group again). kAuto chooses from
  // a sample of the table. Results are the same either way. (kernel/src/exec/group_owned.h)
  enum class GroupSplit { kAuto, kRows, kKeys };
  GroupSplit group_split = GroupSplit::kAuto;
  // An ungrouped COUNT(DISTINCT) of a fixed-width value whose set a sample of the table expects
  // to hold at least this many values is counted by radix partitions: each thread appends its
  // values to 256 partitions by hash, and the partitions' distinct values are counted apart, each
  // in a set small enough for the core's cache. (One set that large costs a cache miss per row.)
  // 0: every such COUNT(DISTINCT), whatever its size (tests); SIZE_MAX: none (and no sample).
  size_t partitioned_distinct_min_values = size_t{1} << 16;
  // The same for a hash GROUP BY whose rows mostly start groups of their own but whose keys
  // still repeat (GROUP BY UserID): when a sample expects at least this many rows after the
  // WHERE, each thread appends its rows (keys, aggregate arguments) to 256 partitions by key
  // hash, and the partitions are aggregated apart, each in a table small enough for the core's
  // cache. 0: every GROUP BY the partitions can carry (tests); SIZE_MAX: none (and no sample).
  size_t partitioned_group_min_rows = size_t{1} << 18;
  // With `profile`: also write each query's timeline to this file (replaced per query).
  std::string profile_path;
  // The most working memory one query may hold, in bytes: its hash tables, COUNT(DISTINCT)
  // sets, string arenas, sort buffers, per-thread states and result columns (not the tables it
  // reads). A query that needs more fails with "out of memory: the query needs more than the
  // memory limit of ... (while ...)" and frees what it held. -1 (default): 80 % of the
  // machine's physical memory, as DuckDB does; 0: no limit.
  int64_t memory_limit_bytes = -1;
};

// Settings of one query (Database::Query's second argument).
struct QueryOptions {
  // Threads for this query: 0 = the database's; more than the database has are clamped to them.
  int threads = 0;
  // Record this query's timeline (LastProfileJson) even when the database does not profile all.
  bool profile = false;
  // GROUP BY on one 8/16-bit or boolean key, or on one integer column whose values span at most
  // 65,536: a direct lookup table of 65,536 slots (true: the fast path) or the hash table like
  // any other key (false: same results; for comparing them).
  bool small_key_lookup = true;
  // This query's memory limit in bytes (see DatabaseOptions::memory_limit_bytes): -1 = the
  // database's, 0 = none.
  int64_t memory_limit_bytes = -1;
  // A WITH RECURSIVE query whose recursive part still adds rows after this many rounds is taken
  // to run forever (its step lacks the condition that ends it) and fails instead of hanging.
  int64_t max_recursion_rounds = 100000;
  // Stop the query after this many milliseconds with the error "query timed out after N ms";
  // 0 = no timeout. Checked where Interrupt is: a query stops within a morsel or a sort step.
  int64_t timeout_ms = 0;
};

class Database {
 public:
  Database();
  explicit Database(DatabaseOptions options);
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Registers `table` under `name` (looked up case-insensitively, as SQL identifiers are),
  // replacing a table (or view) of that name. Fails with a message for an empty name. Tables
  // made in SQL (CREATE TABLE, CREATE VIEW) live in the same catalog for the database's
  // lifetime.
  bool Register(std::string name, Table table, std::string* error);
  bool Register(std::string name, std::shared_ptr<const Table> table, std::string* error);
  // The table registered (or created in SQL) under `name` in any letter case, or nullptr. The
  // pointer stays valid until the table is replaced, dropped or inserted into (an INSERT makes
  // a new table); FindTableShared keeps it alive.
  const Table* FindTable(std::string_view name) const;
  std::shared_ptr<const Table> FindTableShared(std::string_view name) const;
  // Table and view names, in their original spelling, sorted.
  std::vector<std::string> TableNames() const;

  // Called with a table name that no registered table has, before a query fails on it: it may
  // return a table to use for that name (nullptr: none), as DuckDB's replacement scans do. The
  // laneql CLI generates `hits` this way, only when a query names it. It is called from the
  // thread running the query (several at once if queries run concurrently); the table it
  // returns is kept alive by the query that asked for it. Set it before queries run.
  using TableProvider = std::function<std::shared_ptr<const Table>(std::string_view name)>;
  void SetTableProvider(TableProvider provider) { provider_ = std::move(provider); }

  // Parses, binds, plans and runs one statement: a query (SELECT, WITH, VALUES, set
  // operations), COPY, CREATE TABLE / VIEW, INSERT, DROP, DESCRIBE or SHOW TABLES.
  Result Query(std::string_view sql) const;
  Result Query(std::string_view sql, const QueryOptions& options) const;

  // Stops the queries running now, from any thread or a signal handler (it is one lock-free
  // atomic increment): each stops at its next morsel, allocation or sort step, discards what
  // it did and returns the error "query interrupted". Queries that start afterwards run
  // normally.
  void Interrupt() const { interrupts_.fetch_add(1, std::memory_order_relaxed); }

  // The thread count queries run with (options.threads resolved).
  int threads() const { return threads_; }
  // The memory limit queries run with, in bytes (options.memory_limit_bytes resolved; 0: none).
  uint64_t memory_limit_bytes() const { return memory_limit_bytes_; }
  // The last profiled query's timeline as trace-event JSON ("" until a query is profiled:
  // DatabaseOptions::profile or QueryOptions::profile).
  std::string LastProfileJson() const;

 private:
  class SqlCatalog;  // exec::Catalog over the members below (database.cc)
  struct Entry {
    std::string name;
    std::shared_ptr<const Table> table;  // null for a view
    std::string view_sql;                // a view's query
    std::vector<std::string> view_columns;
  };
  // By ASCII-lower-cased name; statements change it, hence mutable under catalog_mutex_.
  mutable std::map<std::string, Entry> tables_;
  mutable std::mutex catalog_mutex_;
  DatabaseOptions options_;
  int threads_ = 1;
  uint64_t memory_limit_bytes_ = 0;
  // Created once, reused by every query (workers sleep between queries).
  std::unique_ptr<exec::ThreadPool> pool_;
  std::unique_ptr<exec::GroupSizeHints> group_size_hints_;  // sizes of earlier GROUP BYs
  TableProvider provider_;
  // Async-signal-safe only if lock-free: Interrupt is meant for SIGINT handlers.
  mutable std::atomic<uint64_t> interrupts_{0};
  static_assert(std::atomic<uint64_t>::is_always_lock_free,
                "Interrupt() must be callable from a signal handler");
  mutable std::mutex profile_mutex_;  // queries may run from several threads at once
  mutable std::string last_profile_;
};

}  // namespace laneql

#endif  // LANEQL_DATABASE_H_
