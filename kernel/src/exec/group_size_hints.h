// How many groups each thread of an earlier run of the same GROUP BY ended with, so that the
// next run sizes its hash tables and aggregate states for them up front instead of growing
// them (ClickHouse does the same: collect_hash_table_stats_during_aggregation).
//
// Why: a table that doubles its way to millions of groups rehashes every slot and copies every
// state at each step, and faults in memory on the way. GROUP BY WatchID, ClientIP on 10 M rows
// spent about a third of its one-thread time growing: sized from the start, about 1000 -> 600
// ms on one thread and 520 -> 430 ms on two (medians of 5 runs in one process each, noisy).
//
// A hint is only a size: a wrong one (a table replaced by another of as many rows at the same
// address) costs memory or growth, never a wrong answer. One Database keeps its own hints.
#ifndef LANEQL_EXEC_GROUP_SIZE_HINTS_H_
#define LANEQL_EXEC_GROUP_SIZE_HINTS_H_

#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// Smaller tables grow in a moment; hints below this are not kept.
inline constexpr size_t kMinGroupSizeHint = size_t{1} << 16;

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

 private:
  // Past this many keys the hints start over (a bound on the memory of many different queries).
  static constexpr size_t kMaxKeys = 4096;
  mutable std::mutex mutex_;  // queries may run from several threads at once
  struct Sizes {
    size_t groups = 0, key_bytes = 0;
  };
  std::unordered_map<std::string, Sizes> sizes_;
};

// What identifies a GROUP BY for its hint: the table (address and rows), the keys, the WHERE and
// the thread count (which decides how the groups are split among the threads).
std::string GroupSizeKey(const plan::Plan& plan, int threads);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUP_SIZE_HINTS_H_
