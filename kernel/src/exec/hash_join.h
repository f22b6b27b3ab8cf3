// The core of an equi-join: which (probe row, build row) pairs have equal keys
// (HashJoinPairs), what each kind of join returns from the pairs that survive a residual
// condition (CompleteJoin), and the column gathers that build the joined relation (GatherRows).
// The planner decides which side is built (usually the smaller) and evaluates residuals; this
// part knows only key columns and row numbers.
//
// Memory: the hash table and the threads' pair lists are charged to the query's budget
// (ctx.budget, or the one installed on the thread) while they live. The vectors handed back
// (MatchPairs, JoinOutput, RowsWithNullKey's) are charged when made and stay charged until the
// query ends, as FilterRows's row lists do: the budget counts them as held by the query.
#ifndef LANEQL_EXEC_HASH_JOIN_H_
#define LANEQL_EXEC_HASH_JOIN_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "laneql/column.h"
#include "src/exec/exec_context.h"

namespace laneql {
namespace exec {

// Row number of the other side for a row without a match in an outer join.
inline constexpr uint32_t kNoRow = 0xFFFFFFFFu;
// The most rows one side of a join may have: row numbers are uint32 and kNoRow is taken.
inline constexpr size_t kMaxJoinRows = size_t{0xFFFFFFFEu};

// All pairs (probe row, build row) whose keys are equal, every key non-NULL. Keys: the same
// number of columns (at least one) on both sides, pairwise of the SAME TypeId (the caller casts
// to a common type first; string and large_string count as different types); any TypeId
// laneql has (int8..int64, uint8..uint64, int128, float32/64 — where -0.0 equals +0.0 and NaN
// equals NaN, as DuckDB compares them —, date32, timestamps, string, large_string, bool).
// Strings compare byte for byte. A row with a NULL in any key never matches. Sorted by probe
// row, then build row, so the output never depends on the thread count. Tables up to
// kMaxJoinRows (2^32 - 2) rows per side; all key columns of one side have the same length.
// Returns false with *error set on a bad argument, on the budget's out-of-memory error or
// when the query was stopped (ctx.StopMessage()); *out is then cleared.
struct MatchPairs {
  std::vector<uint32_t> probe_rows;
  std::vector<uint32_t> build_rows;
  size_t size() const { return probe_rows.size(); }
};
bool HashJoinPairs(const std::vector<const Column*>& build_keys,
                   const std::vector<const Column*>& probe_keys,
                   const ExecContext& ctx, MatchPairs* out, std::string* error);

// What probing did, for the profile: probe rows with a non-NULL key that the key filter
// (join_key_filter.h) dropped before they read the table, and rows that read the table's buckets.
// A probe adds to it once per call, from its own locals, so asking costs nothing per row.
struct JoinProbeCounts {
  uint64_t filtered = 0;
  uint64_t looked_up = 0;
};

// A hash table over a join's build keys, built once (hashing on the query's threads) and then
// probed by any number of threads at once: the probe pipeline's morsels (query_join_chain.cc).
// Probe gives the pairs of probe rows [0, n) of `probe_keys` (as many columns as the build
// keys, pairwise of the same type, as HashJoinPairs requires) sorted by probe row, then build
// row; its vectors are the caller's (not charged to the budget: a morsel's pairs are short-
// lived). The build key columns must outlive the table. False with *error set on a bad
// argument or when memory runs out.
class JoinBuildTable {
 public:
  JoinBuildTable();
  ~JoinBuildTable();
  JoinBuildTable(JoinBuildTable&&) noexcept;
  JoinBuildTable& operator=(JoinBuildTable&&) noexcept;
  bool Build(const std::vector<const Column*>& build_keys, const ExecContext& ctx, std::string* error);
  bool Probe(const std::vector<const Column*>& probe_keys, MatchPairs* out, std::string* error) const;
  // The same for probe rows [begin, end) of the key columns (begin a multiple of 64, as a
  // validity word starts), the pairs' probe rows counted from begin: a morsel of a column
  // probed where it lies.
  bool Probe(const std::vector<const Column*>& probe_keys, size_t begin, size_t end, MatchPairs* out,
             std::string* error, JoinProbeCounts* counts = nullptr) const;
  // Which rows match, without the pairs (semi, anti and mark joins): probe_matched[i] = 1 when
  // probe row begin + i has a match (untouched otherwise; null: not asked), and
  // build_matched[b] = 1 for every build row b some probe row in [begin, end) matches (null:
  // not asked, and each probe row stops at its first match). Threads may mark one array at once.
  bool MarkMatches(const std::vector<const Column*>& probe_keys, size_t begin, size_t end,
                   std::atomic<uint8_t>* build_matched, uint8_t* probe_matched, std::string* error,
                   JoinProbeCounts* counts = nullptr) const;
  // The build side's rows (NULL keys included), and the partitions its table was placed in
  // (1 unless it was large enough for the parallel radix placement).
  size_t rows() const;
  size_t partitions() const;
  // Whether the table is direct: one integer key (Column::IntegerRange's types) whose values span at
  // most 4 times the build rows gets a bucket per value, found from key - min without hashing,
  // and a hit needs no key comparison.
  bool direct() const;

 private:
  // Checks a probe's keys and range; *any false when no pair can come of it.
  bool CheckProbe(const std::vector<const Column*>& probe_keys, size_t begin, size_t end, bool* any,
                  std::string* error) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

enum class JoinKind : uint8_t { kInner, kLeft, kRight, kFull, kSemi, kAnti, kMark };

// What a join returns, from the pairs that survived (the equi-matches, after the caller dropped
// those failing a residual condition; `matched` is sorted as HashJoinPairs sorts):
// - kInner: the pairs.
// - kLeft (the probe side preserved): the pairs, plus every probe row without a pair with
//   build row kNoRow, in probe-row order (each unmatched probe row placed where its row number
//   sorts among the pairs).
// - kRight (the build side preserved): the pairs, then every build row without a pair, with
//   probe row kNoRow, in build-row order.
// - kFull: kLeft's output, then kRight's unmatched build rows.
// - kSemi / kAnti: probe rows with at least one / no pair, in order (build_rows empty).
// - kMark (for IN / EXISTS): one entry per probe row in order, mark[i] = 1 (has a pair),
//   0 (none), or 2 (NULL: no pair, and the IN semantics make it unknown: the probe row had a
//   NULL key, or the build side has a row with a NULL key — pass that fact in
//   build_has_null_key — and the build side is not empty). probe_rows = 0..n-1.
// `probe_row_has_null_key` is RowsWithNullKey of the probe keys (read by kMark only; empty
// means no probe row has a NULL key). `mark` is empty for every kind but kMark.
struct JoinOutput {
  std::vector<uint32_t> probe_rows;
  std::vector<uint32_t> build_rows;
  std::vector<uint8_t> mark;  // kMark only
};
inline constexpr uint8_t kMarkFalse = 0;
inline constexpr uint8_t kMarkTrue = 1;
inline constexpr uint8_t kMarkNull = 2;
// Throws QueryAbort (query_budget.h, caught by exec::Execute) over the memory limit.
void CompleteJoin(JoinKind kind, const MatchPairs& matched, size_t probe_row_count,
                  size_t build_row_count, const std::vector<uint8_t>& probe_row_has_null_key,
                  bool build_has_null_key, JoinOutput* out);
// The same, returning false with the budget's error in *error instead of throwing.
bool CompleteJoin(JoinKind kind, const MatchPairs& matched, size_t probe_row_count,
                  size_t build_row_count, const std::vector<uint8_t>& probe_row_has_null_key,
                  bool build_has_null_key, JoinOutput* out, std::string* error);

// Per row, 1 when any key column is NULL at that row (`rows` entries; every key column has at
// least that many rows). Throws QueryAbort over the memory limit.
std::vector<uint8_t> RowsWithNullKey(const std::vector<const Column*>& keys, size_t rows);
// Whether any of the first `rows` rows has a NULL in some key column (build_has_null_key).
bool AnyRowWithNullKey(const std::vector<const Column*>& keys, size_t rows);

// Builds an output column: `source` gathered at `rows` (kNoRow gives NULL; every other entry
// must be a row of `source`). The result has source's type, except that a string column whose
// gathered bytes pass 2^31 - 1 becomes large_string (both are VARCHAR). A validity bitmap is
// present exactly when the result has a NULL. Returns false with *error set when memory runs
// out (the budget's error). Single-threaded.
bool GatherRows(const Column& source, const std::vector<uint32_t>& rows, Column* out,
                std::string* error);
// The same for the n row numbers from `rows`.
bool GatherRows(const Column& source, const uint32_t* rows, size_t n, Column* out, std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_HASH_JOIN_H_
