// How many groups each thread of an earlier run of the same GROUP BY ended with, so that the
// next run sizes its hash tables and aggregate states for them up front instead of growing
// them (ClickHouse does the same: collect_hash_table_stats_during_aggregation).
//
// Why: a table that doubles its way to millions of groups rehashes every slot and copies every
// state at each step, and faults in memory on the way. GROUP BY WatchID, ClientIP on 10 M rows
// spent about a third of its one-thread time growing: sized from the start, about 1000 -> 600
// ms on one thread and 520 -> 430 ms on two (medians of 5 runs in one process each, noisy).
//
// With them it keeps what the sample of a query's table said (SampleSummary): the executor
// chooses its path from a few batches grouped on one thread before the scan (TableSample,
// group_owned.h), 0.9 ms serial on GROUP BY CounterID with AVG(length(URL)) (67 ms on one
// thread); a later run of the same query chooses from the summary instead.
//
// A hint is only a size, a summary only a choice of path: a wrong one (a table replaced by
// another of as many rows at the same address) costs memory, growth or speed, never a wrong
// answer. One Database keeps its own hints.
#ifndef LANEQL_EXEC_GROUP_SIZE_HINTS_H_
#define LANEQL_EXEC_GROUP_SIZE_HINTS_H_

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// Smaller tables grow in a moment; hints below this are not kept.
inline constexpr size_t kMinGroupSizeHint = size_t{1} << 16;

// A sample's counts (TableSample, group_owned.h), as the executor's choices read them.
struct SampleSummary {
  size_t rows = 0;    // rows sampled
  size_t probes = 0;  // of them, rows past the WHERE
  size_t groups = 0;  // groups they formed
  // The same after the first sampled batch alone: where the later batches each add about as
  // many new groups again, the batches share no keys (EstimateGroups, group_owned.cc).
  size_t first_probes = 0, first_groups = 0;
  // Per aggregate: AggregateStates::DistinctValues (ungrouped COUNT(DISTINCT)'s values) and
  // DistinctPairs (grouped, its (group, value) pairs); 0 for other aggregates.
  std::vector<size_t> distinct_values, distinct_pairs;
};

class GroupSizeHints {
 public:
  // The groups per thread noted for `key`, 0 when none or fewer than kMinGroupSizeHint.
  size_t Find(const std::string& key) const;
  // The bytes one thread's string or serialised keys took with them, 0 when Find is 0 (the
  // arena that doubles its way to them copies as many bytes again: 7 % of GROUP BY UserID,
  // minute, SearchPhrase).
  size_t FindKeyBytes(const std::string& key) const;
  // Whether a run of `key` has been noted, with however few groups: a GROUP BY not seen
  // before sizes its tables from a sample instead (FirstRunGroupsPerThread, group_owned.h).
  bool Seen(const std::string& key) const;
  // Notes the most groups one thread held in a run of `key`, and the most key bytes.
  void Note(const std::string& key, size_t groups, size_t key_bytes = 0);

  // The summary noted for a sample key (SampleKey); false when none.
  bool FindSample(const std::string& key, SampleSummary* summary) const;
  void NoteSample(const std::string& key, const SampleSummary& summary);

 private:
  // Past this many keys the hints start over (a bound on the memory of many different queries).
  static constexpr size_t kMaxKeys = 4096;
  mutable std::mutex mutex_;  // queries may run from several threads at once
  struct Sizes {
    size_t groups = 0, key_bytes = 0;
  };
  std::unordered_map<std::string, Sizes> sizes_;
  std::unordered_map<std::string, SampleSummary> samples_;
};

// What identifies a GROUP BY for its hint: the table (address and rows), the keys, the WHERE and
// the thread count (which decides how the groups are split among the threads).
std::string GroupSizeKey(const plan::Plan& plan, int threads);
// What identifies a query's sample: the table, the keys, the WHERE and the aggregates (whose
// COUNT(DISTINCT)s the summary counts); not the threads, as one thread takes the sample.
std::string SampleKey(const plan::Plan& plan);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUP_SIZE_HINTS_H_
