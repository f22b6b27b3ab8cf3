// COUNT(DISTINCT) of many fixed-width values, counted by radix partitions.
//
// One hash set of every value costs a cache miss per row once it outgrows the caches: COUNT(
// DISTINCT UserID) over 10 M rows (1.8 M values) spent 20 ns a row in it on one thread, and two
// threads' sets competed for the same L3. Here each thread instead appends its rows' values,
// batch by batch, to 256 partitions by hash (DistinctPartitions: a run per batch, its values
// grouped by partition: sequential writes). Afterwards the partitions are counted in parallel,
// each in a small set that stays in the core's own cache (a 256th of the values), and the count
// is the sum of theirs: no value is in two partitions. No phase repeats work per thread, and the
// result does not depend on how rows were split. Grouped, the same with (group, value) pairs:
// partitioned by value, and counted once the threads' groups are merged, under the merged
// group ids. The executor chooses this from a sample (group_owned.h, PartitionedDistincts).
#ifndef LANEQL_EXEC_DISTINCT_PARTITIONS_H_
#define LANEQL_EXEC_DISTINCT_PARTITIONS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "laneql/aligned_buffer.h"
#include "src/exec/exec_context.h"

namespace laneql {
namespace exec {

class DistinctPartitions {
 public:
  static constexpr size_t kPartitions = 256;
  // Bits 32..39 of the hash: the count's sets take their slots from the low bits, which stay
  // spread within a partition.
  static size_t PartitionOf(uint64_t hash) { return (hash >> 32) & (kPartitions - 1); }
  // By group (grouped only): a pair's partition is its group id's low bits.
  static size_t PartitionOfGroup(uint32_t group) { return group & (kPartitions - 1); }

  // Grouped pairs are partitioned by value, so that a value's pairs with every group meet in
  // one partition whichever thread saw them; or, `by_group`, by the group id, when each
  // group's pairs all come from one thread (an owned scan's, or the only one's). Then the
  // groups of a partition are every 256th, and their counts (a 256th of them) stay in the
  // core's cache, where counts by value land all over an array of every group: Q13's 580,000
  // groups spent half the count in those increments.
  explicit DistinctPartitions(bool by_group = false) : by_group_(by_group) {}
  bool by_group() const { return by_group_; }

  // Appends the words of the rows [0, n) set in `selection` (an n-row bitmask), hashes[i]
  // being word i's hash (unused, and may be null, by group); grouped, with each row's group
  // id (groups[i], this thread's numbering), else `groups` is null. False (with *error) when
  // the memory limit refuses. kRunValues values or more are partitioned at once, as a run of
  // their own; fewer are staged, and partitioned as one run once the stage is full. Appended
  // a batch at a time, an owned scan's thread gave a run about 2,000 (group, value) pairs, 8
  // a partition, and counting then visited 256 x (runs) segments of a few values each, a
  // run's offsets and first lines a cache miss apiece (Q13, 2 threads: 2 x 611 runs, 17 ms of
  // CPU counting against 10.7 on one thread). Staging every append cost a batch of 16,384
  // values a copy for nothing (COUNT(DISTINCT UserID): 73 -> 80 ms on one thread).
  bool Append(const uint64_t* words, const uint32_t* groups, const uint64_t* hashes, size_t n,
              const uint64_t* selection, std::string* error);
  static constexpr size_t kRunValues = 4096;  // 16 values a partition on average
  static constexpr size_t kStageValues = 16384;
  // Partitions what is staged. Call once the appending is done, before the partitions are
  // read (the counts below fail on a side that still holds staged values).
  bool Finish(std::string* error);
  bool finished() const { return staged_ == 0; }
  size_t values() const { return values_; }  // appended so far, repeats included
  // After Finish: how many values partition p holds, and fn(values, groups, n) for each run's
  // share of them (groups null when ungrouped).
  size_t PartitionSize(size_t p) const;
  // The segments lie a run apart in memory, each a few cache lines long, too short for the
  // hardware prefetcher to find: the runs' offsets and the segments' first lines a few runs
  // ahead are prefetched.
  template <class Fn>
  void ForEachSegment(size_t p, const Fn& fn) const {
    constexpr size_t kAheadOffsets = 8, kAheadValues = 4;
    const size_t runs = runs_.size();
    for (size_t r = 0; r < runs; ++r) {
      if (r + kAheadOffsets < runs) __builtin_prefetch(&runs_[r + kAheadOffsets].begin[p]);
      if (r + kAheadValues < runs) {
        const Run& ahead = runs_[r + kAheadValues];
        const uint64_t* first = ahead.values + ahead.begin[p];
        __builtin_prefetch(first);
        __builtin_prefetch(first + 8);
      }
      const Run& run = runs_[r];
      const uint32_t begin = run.begin[p], end = run.begin[p + 1];
      if (end == begin) continue;
      fn(run.values + begin, run.groups != nullptr ? run.groups + begin : nullptr, end - begin);
    }
  }

 private:
  // One batch's values (and groups), partition p at [begin[p], begin[p + 1]).
  struct Run {
    const uint64_t* values;
    const uint32_t* groups;
    uint32_t begin[kPartitions + 1];
  };
  // Values (and groups) live in chunks that are never moved (runs point into them), each twice
  // the size of the one before up to kMaxChunkValues: small inputs take little, and a 10 M row
  // table takes ten 8 MiB blocks, which the large block cache keeps for the next query.
  static constexpr size_t kFirstChunkValues = size_t{1} << 16;
  static constexpr size_t kMaxChunkValues = size_t{1} << 20;
  // Room for `n` more values (and groups) in the last chunk.
  bool MakeRoom(size_t n, bool grouped, std::string* error);
  // A new run whose partition p gets sizes[p] values from values + next[p] (next: out).
  void StartRun(const uint64_t* values, const uint32_t* groups, const uint32_t* sizes, uint32_t* next);
  // The staged values as one run (grouped: with their groups).
  bool PartitionStaged(std::string* error);
  // Staged values, their groups (grouped) and partitions: 16,384 of them take 208 KB, which
  // stay in the core's cache until they are partitioned.
  AlignedBuffer stage_values_, stage_groups_, stage_parts_;
  size_t staged_ = 0;
  std::vector<AlignedBuffer> value_chunks_, group_chunks_;
  size_t chunk_values_ = 0;  // values the last chunk holds
  size_t chunk_used_ = 0;    // of them taken
  std::vector<Run> runs_;
  size_t values_ = 0;
  bool by_group_ = false;
};

// The number of distinct words in the union of the sides' values (one COUNT(DISTINCT)'s
// partitions from every thread), counted partition by partition on `threads` threads.
bool CountDistinctPartitions(const std::vector<const DistinctPartitions*>& sides,
                             const ExecContext& ctx, int threads, size_t* count, std::string* error);
// Grouped: counts[g] += the number of distinct values of group g < groups over every side's
// (group, value) pairs, side w's group id l being targets[w][l] after the merge of the groups.
bool CountDistinctPairPartitions(const std::vector<const DistinctPartitions*>& sides,
                                 const std::vector<const uint32_t*>& targets, size_t groups,
                                 const ExecContext& ctx, int threads, int64_t* counts,
                                 std::string* error);
// The same for sides partitioned by group: side w's group l is merged group
// sum(side_groups[0..w)) + l, and counts[g] += group g's distinct values for every merged g.
bool CountDistinctPairsByGroup(const std::vector<const DistinctPartitions*>& sides,
                               const std::vector<size_t>& side_groups, const ExecContext& ctx,
                               int threads, int64_t* counts, std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_DISTINCT_PARTITIONS_H_
