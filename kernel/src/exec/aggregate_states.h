// Aggregate states for every group, in flat arrays indexed by group id (no allocation per
// group except for string MIN / MAX values): COUNT(*), COUNT, SUM (exact 128-bit for integers,
// double in row order for floats), AVG, MIN / MAX (DuckDB's total float order, byte-wise
// strings), COUNT(DISTINCT) through one hash set of (group, value) pairs; the library
// aggregates (stddev, quantiles, ...) through their own state classes
// (aggregate_function_state.h).
// Not thread-safe: each thread of a query fills its own, and the executor merges them.
#ifndef LANEQL_EXEC_AGGREGATE_STATES_H_
#define LANEQL_EXEC_AGGREGATE_STATES_H_

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "laneql/column.h"
#include "laneql/group_hash_table.h"
#include "laneql/int128.h"
#include "src/common/large_blocks.h"
#include "src/exec/aggregate_function_state.h"
#include "src/exec/distinct_partitions.h"
#include "src/exec/exec_context.h"
#include "src/exec/hash_ownership.h"
#include "src/exec/vector.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

// A per-group array: millions of groups make these large (src/common/large_blocks.h).
template <class T>
using StateArray = std::vector<T, LargeBlockAllocator<T>>;
// Per group, the first row (in table order) that fell into it: the tie order of ORDER BY
// after a parallel GROUP BY (output_stage.h).
using FirstRows = StateArray<uint64_t>;
inline constexpr uint64_t kNoRow = UINT64_MAX;  // a group no row fell into yet

// The 64-bit words COUNT(DISTINCT) compares, out[i * stride] for rows [0, count) of a
// fixed-width vector (not Int128): integers widened by value, floats canonical (-0.0 as 0.0,
// one NaN). The type is dispatched once per call: per row it was 11 % of a 2-thread
// COUNT(DISTINCT UserID) scan.
void DistinctWords(const Vec& vec, size_t count, uint64_t* out, size_t stride);

// The smallest power of two >= n (1 for 0): the capacities growth by doubling leaves, and so the
// block sizes that queries free and take again (large_blocks.h keeps them); a state array
// reserved at an exact size would map fresh memory where a kept block of its power of two fits.
inline size_t DoublingCapacity(size_t n) {
  size_t capacity = 1;
  while (capacity < n) capacity *= 2;
  return capacity;
}

class AggregateStates {
 public:
  // `ungrouped`: a single group (COUNT(DISTINCT) then hashes values alone).
  AggregateStates(const std::vector<plan::Aggregate>& aggregates, bool ungrouped);
  // Room for `groups` groups; new ones start empty.
  bool Resize(size_t groups, std::string* error);
  // Capacity for `groups` groups (group_size_hints.h), so that Resize up to them moves nothing.
  bool Reserve(size_t groups, std::string* error);
  // Folds `count` rows into aggregate `a`: row i goes to group_ids[i] (ignored when kNoGroup);
  // `arg` holds the argument's values (null for COUNT(*)), `arg2` the second argument's of a
  // library aggregate that takes two (covar_pop, arg_min, ...), `keys` the values of the ORDER BY
  // keys of one written agg(x ORDER BY k).
  // `rows`: the table rows of the rows folded, for a library aggregate (SetRows).
  bool Update(size_t a, const Vec* arg, const uint32_t* group_ids, size_t count,
              std::string* error, const Vec* arg2 = nullptr, const std::vector<Vec>* keys = nullptr,
              const RowSet* rows = nullptr);
  // Float SUM / AVG of several aggregates at once over few groups: row i's values[k][i] (no
  // NULLs) go to aggregate aggs[k]'s group group_ids[i] (ignored when kNoGroup), each group's
  // values added in row order, as Update adds them: the same bits. One pass over the rows keeps
  // the aggregates' add chains in flight together, where one pass per aggregate waited on each
  // group's previous store (TPC-H Q1: 7 float sums over 4 groups). `groups` (the states'
  // group count) must be at most kFusedFloatSumGroups.
  // COUNT(*) aggregates `count_stars` take the rows per group of the same pass.
  static constexpr size_t kFusedFloatSumGroups = 64;
  void UpdateFloatSums(const std::vector<size_t>& aggs, const std::vector<const double*>& values,
                       const std::vector<size_t>& count_stars, const uint32_t* group_ids,
                       size_t count, size_t groups);
  // Ungrouped fast path: rows [0, n) of a fixed-width column slice, under optional select /
  // validity masks, through the SIMD aggregate kernels. False when the aggregate / type has no
  // kernel (the caller then uses Update).
  bool UpdateKernel(size_t a, TypeId type, const void* data, size_t n, const uint64_t* select,
                    const uint64_t* validity);
  // Adds `rows` to COUNT(*) / COUNT(non-null column) of the single group without data.
  void AddCount(size_t a, uint64_t rows) { state_[a].counts[0] += rows; }
  // Ungrouped float SUM / AVG, whose result must not depend on how rows were split among
  // threads: the executor takes each batch's partial sum out (TakeFloatSum leaves +0.0), and
  // after the scan sets the sum of those partials added in batch order.
  bool IsFloatSum(size_t a) const;
  double TakeFloatSum(size_t a);
  void SetFloatSum(size_t a, double sum) { state_[a].reals[0] = sum; }
  // The same for group g of a grouped float SUM / AVG (group_batch_partials.h).
  double TakeGroupFloatSum(size_t a, uint32_t g) {
    const double sum = state_[a].reals[g];
    state_[a].reals[g] = 0.0;
    return sum;
  }
  void SetGroupFloatSum(size_t a, uint32_t g, double sum) { state_[a].reals[g] = sum; }
  // Folds in the states of `other` (built over other rows with the same aggregates), whose
  // group g is this one's mapping[g] (Grouper::Merge); `groups` = this side's group count.
  // With insert_pairs false, the (group, value) pairs of a grouped COUNT(DISTINCT) are left
  // out: the caller counts them (CountPairsNotIn).
  bool Merge(const AggregateStates& other, const std::vector<uint32_t>& mapping, size_t groups,
             std::string* error, bool insert_pairs = true);

  // --- Two-level merge (group_merge.cc). Threads call these at once, for disjoint groups. ---
  // Folds other's groups [begin, end) into this side's groups targets[g] (room made beforehand
  // by Resize), for every aggregate but COUNT(DISTINCT).
  void MergeRange(const AggregateStates& other, size_t begin, size_t end, const uint32_t* targets);
  // --- Owned scan (group_owned.cc): the threads' groups are disjoint, so the merged states are
  // their states one after the other. ---
  // Room for `groups` groups, not zeroed: CopyGroups writes every one.
  bool ResizeForCopy(size_t groups, std::string* error);
  // Writes other's groups [begin, end) to this side's groups from `to` on: every state,
  // COUNT(DISTINCT)'s counts included (each group's values were all seen by one thread, so its
  // count is final; the pair sets are not carried over). Threads call it at once for disjoint
  // ranges, and each first-touches the pages it writes.
  void CopyGroups(const AggregateStates& other, size_t begin, size_t end, size_t to);
  // Whether ResizeForCopy(groups) would move nothing (every array has the capacity).
  bool HasCapacity(size_t groups) const;
  size_t num_aggregates() const { return state_.size(); }
  // Aggregate a's library state (null unless plan::AggKind::kFunction).
  AggregateFunctionState* function_state(size_t a) { return state_[a].function.get(); }
  // Grouped COUNT(DISTINCT) keeps a set of (group, value) pairs: their number, and pair p's group.
  bool IsDistinctPairs(size_t a) const;
  size_t DistinctPairs(size_t a) const;
  // Room for `pairs` pairs in aggregate a's set of fixed-width (group, value) pairs, if it keeps
  // one (a partition's set sized as the last partition's ended, instead of doubling its way up).
  bool ReserveDistinctPairs(size_t a, size_t pairs, std::string* error);
  uint32_t DistinctPairGroup(size_t a, size_t pair) const;
  struct PairSource {
    const AggregateStates* states;
    const uint32_t* pairs;    // pair indices of states' set
    size_t n;
    const uint32_t* targets;  // this side's group for each of states' groups
  };
  // Ungrouped COUNT(DISTINCT) keeps a set of values: their number and hashes (by which they
  // are partitioned), the distinct count of the union of the sources' values items[0..n) (one
  // partition), and the final count.
  bool IsDistinctValues(size_t a) const;
  size_t DistinctValues(size_t a) const;
  const uint64_t* DistinctValueHashes(size_t a) const;
  struct ValueSource {
    const AggregateStates* states;
    const uint32_t* items;
    size_t n;
  };
  static bool CountDistinctUnion(size_t a, const std::vector<ValueSource>& sources, size_t* count,
                                 std::string* error);
  // How many of this side's distinct values of aggregate `a`, items [begin, end) of its set,
  // none of the `earlier` sides' sets holds: looked up, not inserted, so that several threads
  // may count ranges at once. The union of sets S0, S1, ... has |S0| + the values of each Sw
  // that no set before it holds.
  size_t CountValuesNotIn(size_t a, size_t begin, size_t end,
                          const std::vector<const AggregateStates*>& earlier) const;
  // The same for a grouped COUNT(DISTINCT)'s (group, value) pairs when the groups are few
  // (group_merge.cc): this side's pairs [begin, end), whose groups are targets[g] in the merged
  // numbering, are looked up in each earlier side's set under that side's group id for it
  // (local[merged id], kNoGroup or past `groups` where that side has no such group); each pair
  // found in none adds one to counts[merged id].
  struct PairLookup {
    const AggregateStates* states;
    const uint32_t* local;
    size_t groups;
  };
  void CountPairsNotIn(size_t a, size_t begin, size_t end, const uint32_t* targets,
                       const std::vector<PairLookup>& earlier, int64_t* counts) const;
  // counts[g] added to aggregate a's count of group g, for g < groups.
  void AddCounts(size_t a, const int64_t* counts, size_t groups);
  void SetDistinctCount(size_t a, size_t count) { state_[a].counts[0] = static_cast<int64_t>(count); }
  // COUNT(DISTINCT) of a fixed-width value (not 128-bit: CanPartitionDistinct) counted by
  // radix partitions (distinct_partitions.h): from now on its values (grouped: its (group,
  // value) pairs) are appended to partitions instead of inserted into a set, and the executor
  // counts them after the scan and the merge (CountDistinctPartitions and SetDistinctCount;
  // grouped, CountDistinctPairPartitions and AddCounts).
  bool CanPartitionDistinct(size_t a) const {
    return state_[a].distinct_fixed != nullptr || state_[a].distinct_wide != nullptr;
  }
  // by_group: the pairs partitioned by group id (DistinctPartitions), for an owned scan or
  // one thread.
  void PartitionDistinct(size_t a, bool by_group = false);
  bool IsPartitionedDistinct(size_t a) const { return state_[a].partitioned; }
  // Partitions the values the partitioned COUNT(DISTINCT)s still stage: each thread's, once
  // its scan is done (in parallel, on the thread that staged them).
  bool FinishDistinctPartitions(std::string* error);
  // Aggregate a's partitions, moved out: taken from every thread's states before the merge,
  // which may replace them (the two-level merge builds new states).
  std::unique_ptr<DistinctPartitions> TakeDistinctPartitions(size_t a) {
    return std::move(state_[a].distinct_partitions);
  }
  // Ungrouped COUNT(DISTINCT) split by value (group_owned.h): this side keeps only the values
  // whose hash falls to `owner` (HashOwnership::OwnerOf), so the owners' sets are disjoint and
  // the count is the sum of their sizes.
  void SetDistinctOwnership(uint32_t owner, uint32_t owners) { ownership_.Set(owner, owners); }
  // Grouped COUNT(DISTINCT) split by value (AggregateWorker::SetValueOwnership): the threads'
  // (group, value) pairs are disjoint, so Merge adds other's counts instead of its pairs.
  void SetDistinctPairsDisjoint() { pairs_disjoint_ = true; }
  bool pairs_disjoint() const { return pairs_disjoint_; }
  // Inserts the sources' pairs, under this side's groups, into one fresh set and counts each
  // new pair for its group: the pairs of one partition's groups.
  bool MergeDistinctPartition(size_t a, const std::vector<PairSource>& sources, std::string* error);

  // The results of aggregate `a` for groups [0, groups), as a column of its result type. With
  // `ctx`, the counts of many groups are copied out on its threads.
  bool Finish(size_t a, size_t groups, Column* out, std::string* error,
              const ExecContext* ctx = nullptr) const;
  // The same for the groups ids[i] alone (every group in order when ids is null).
  bool Finish(size_t a, const std::vector<uint32_t>* ids, size_t groups, Column* out,
              std::string* error, const ExecContext* ctx = nullptr) const;

 private:
  friend class StateParts;
  // Finish over several sides' states read as one: parts[p]'s groups are the groups
  // [offsets[p], offsets[p + 1]) (offsets has one entry more than parts).
  struct State;
  // Whether a state's counts are its results as they stand: COUNT, COUNT(*) or COUNT(DISTINCT)
  // of a 64-bit result.
  static bool CountsAreResults(const State& s);
  static bool FinishParts(const std::vector<const AggregateStates*>& parts,
                          const std::vector<size_t>& offsets, size_t a,
                          const std::vector<uint32_t>* ids, Column* out, std::string* error,
                          const ExecContext* ctx);
  // The part that holds group g (of the parts' numbering) for aggregate a, and g's index there.
  static std::pair<const State*, size_t> Locate(const std::vector<const AggregateStates*>& parts,
                                                const std::vector<size_t>& offsets, size_t a, size_t g);
  // FinishParts' rows [begin, end) (of ids, or of the groups) into *out, on this thread.
  static bool FinishRows(const std::vector<const AggregateStates*>& parts, const std::vector<size_t>& offsets,
                         size_t a, const std::vector<uint32_t>* ids, size_t begin, size_t end, Column* out,
                         std::string* error);
  // Set once, from any thread (CopyGroups runs on several into one merged state); movable, so
  // a State stays movable.
  struct OverflowFlag {
    std::atomic<bool> value{false};
    OverflowFlag() = default;
    OverflowFlag(OverflowFlag&& other) noexcept : value(other.value.load(std::memory_order_relaxed)) {}
    OverflowFlag& operator=(OverflowFlag&& other) noexcept {
      value.store(other.value.load(std::memory_order_relaxed), std::memory_order_relaxed);
      return *this;
    }
    void Set() { value.store(true, std::memory_order_relaxed); }
    bool IsSet() const { return value.load(std::memory_order_relaxed); }
  };
  struct State {
    plan::AggKind kind;
    TypeId arg_type = TypeId::kInt64;
    TypeId result_type = TypeId::kInt64;
    StateArray<int64_t> counts;   // rows counted (all kinds)
    StateArray<Int128> ints;      // SUM / AVG of integers; MIN / MAX of integer-like types
    // A SUM / AVG of HUGEINTs or DECIMALs (16-byte values) left the 128-bit range in some group:
    // the query fails when finishing, as DuckDB's does ("Overflow in HUGEINT addition").
    OverflowFlag overflowed;
    // Grouped SUM / AVG of integers of 1 or 2 bytes: 64 bits hold any sum of theirs (2^47
    // rows of 2^16), and a group's states take 16 bytes less (GROUP BY WatchID, ClientIP's
    // SUM(IsRefresh), AVG(ResolutionWidth): 56 -> 40 bytes a group, for 10 M groups).
    bool narrow_sum = false;
    StateArray<int64_t> sums;     // in place of ints when narrow_sum
    StateArray<double> reals;     // SUM / AVG / MIN / MAX of floats
    std::vector<std::string> strings;  // MIN / MAX of strings
    // COUNT(DISTINCT): (group, value) pairs seen.
    std::unique_ptr<FixedKeyHashTable> distinct_fixed;
    std::unique_ptr<WideKeyHashTable> distinct_wide;
    std::unique_ptr<StringKeyHashTable> distinct_strings;
    std::unique_ptr<DistinctPartitions> distinct_partitions;  // in place of the two above
    bool partitioned = false;  // PartitionDistinct (the partitions may have been taken since)
    // distinct_strings' keys are the values' bytes alone (ungrouped), else 4 bytes of group id
    // and then the value's.
    bool bare_values = false;
    // AggKind::kFunction: the library aggregate's states (its counts stay unused).
    std::unique_ptr<AggregateFunctionState> function;
  };
  // Resize's work; `zero`: new groups start empty (else left for CopyGroups to write).
  bool Grow(size_t groups, bool zero, std::string* error);
  // Whether an aggregate of `kind` keeps values (ints, reals or strings) beside its counts.
  static bool KeepsValues(plan::AggKind kind) {
    return kind == plan::AggKind::kSum || kind == plan::AggKind::kAvg ||
           kind == plan::AggKind::kMin || kind == plan::AggKind::kMax;
  }
  // Charges the query's memory limit for a state's arrays grown from `bytes_before` (capacity).
  static bool ChargeGrowth(const State& s, size_t bytes_before, std::string* error);
  bool UpdateDistinct(State& s, const Vec& arg, const uint32_t* group_ids, size_t count,
                      std::string* error);
  template <class T>
  static void KernelUpdate(State* state, const T* values, size_t n, const uint64_t* select,
                           const uint64_t* validity);
  bool MergeDistinct(State& s, const State& o, const std::vector<uint32_t>& mapping,
                     std::string* error);
  static void MergeOne(State& s, const State& o, size_t g, size_t t);
  // After a FindOrInsert of n (group, value) pairs into a set that held `before` pairs: new
  // pairs got ids before, before + 1, ... in order of first appearance; each counts once for
  // its group.
  static void CountNewPairs(const uint32_t* ids, const uint32_t* groups, size_t n, size_t before,
                            StateArray<int64_t>* counts);
  // Inserts o's pairs pairs[0..n) (all of them when pairs is null), group g becoming
  // targets[g], into `wide` or `strings`, counting each new pair into s.counts.
  static bool InsertPairs(State& s, WideKeyHashTable* wide, StringKeyHashTable* strings,
                          const State& o, const uint32_t* pairs, size_t n, const uint32_t* targets,
                          std::string* error);
  // distinct_strings' keys of rows [0, count) into ser_offsets_ / ser_data_ (NULL rows: the
  // group id alone, or nothing).
  bool SerializeDistinctRows(bool bare_values, const Vec& arg, const uint32_t* group_ids,
                             size_t count, std::string* error);
  // selection_ = the rows [0, count) that take part: in a group (not kNoGroup) and not NULL.
  void SelectDistinctRows(const Vec& arg, const uint32_t* group_ids, size_t count);
  std::vector<State> state_;
  bool ungrouped_;
  HashOwnership ownership_;  // SetDistinctOwnership
  bool pairs_disjoint_ = false;  // SetDistinctPairsDisjoint
  std::vector<uint64_t> words_, hashes_, selection_;
  std::vector<double> fused_sums_;   // UpdateFloatSums: per aggregate, per group (+1)
  std::vector<int64_t> fused_rows_;  // and the rows per group
  std::vector<uint32_t> pair_ids_;
  AlignedBuffer ser_offsets_, ser_data_;
};

// The states an aggregation's output reads (output_stage.h): one side's, or an owned scan's
// (group_owned.h), whose threads hold disjoint groups, side by side as they are: part p's
// groups follow those of the parts before it. Copying them into one set of arrays first was
// a pass over every group's states at the memory's pace, on the threads together: 15 ms of
// GROUP BY WatchID, ClientIP's 230 on 2 threads, a step one thread does not have.
class StateParts {
 public:
  StateParts() = default;  // parts Added next
  // `groups` of `states` (groups past its arrays count as empty).
  StateParts(const AggregateStates& states, size_t groups) { Add(states, groups); }
  // The next part's groups follow the groups so far.
  void Add(const AggregateStates& states, size_t groups) {
    parts_.push_back(&states);
    offsets_.push_back(offsets_.back() + groups);
  }
  size_t groups() const { return offsets_.back(); }
  size_t num_parts() const { return parts_.size(); }
  size_t part_begin(size_t p) const { return offsets_[p]; }
  // Part p's counts of aggregate a, where they are its results as they stand (COUNT, COUNT(*)
  // or COUNT(DISTINCT) of a 64-bit result): *stored of them at *data, the part's groups after
  // those counting 0. False for any other aggregate.
  bool PartCounts(size_t a, size_t p, const int64_t** data, size_t* stored) const;
  // Whether within each part the group ids follow the groups' first rows: an owned scan's
  // workers each number their groups as they first meet them, in row order.
  void SetPartsInFirstRowOrder() { parts_in_first_row_order_ = true; }
  bool parts_in_first_row_order() const { return parts_in_first_row_order_; }
  // As AggregateStates::Finish, over every part's groups in order (ids: of that numbering).
  bool Finish(size_t a, const std::vector<uint32_t>* ids, Column* out, std::string* error,
              const ExecContext* ctx = nullptr) const {
    return AggregateStates::FinishParts(parts_, offsets_, a, ids, out, error, ctx);
  }

 private:
  std::vector<const AggregateStates*> parts_;
  std::vector<size_t> offsets_{0};
  bool parts_in_first_row_order_ = false;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_AGGREGATE_STATES_H_
