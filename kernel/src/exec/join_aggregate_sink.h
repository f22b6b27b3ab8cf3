// The hash aggregate as the sink of a join chain's probe pipeline (query_join_chain.cc): each
// part of the pipeline (a source morsel or a tail, through every join and the WHERE's
// columns) is gathered by the thread that joined it into that thread's own table and folded
// into that thread's AggregateWorker at once, while its columns are in the cache; after the
// last part the threads' groups are merged (MergeWorkers: two-level for many groups) and the
// output made as for a table. Nothing of the chain's output is made whole: without the sink
// every output column was gathered for every joined row first, the row lists of all parts
// concatenated, and the aggregation then read it all again.
//
// The workers split the parts by rows (whichever thread takes a part folds it), so the sink
// takes only aggregations whose answer does not depend on which thread folds which part:
// Takes(). Groups are numbered by their first row, part p's row r being (p << 32) + r, so
// ties and unordered output follow the rows in part order, as the chain's output has them.
// A float SUM / AVG is added per batch of each part, and the partial sums added in (part,
// batch) order after the last part: the same additions on every thread count. Grouped, through
// GroupBatchPartials (each group's partial sums per fold unit of a part, units numbered from
// p << 32), which also keeps the library aggregates that fold by batches (the moments) per unit.
#ifndef LANEQL_EXEC_JOIN_AGGREGATE_SINK_H_
#define LANEQL_EXEC_JOIN_AGGREGATE_SINK_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "laneql/result.h"
#include "laneql/table.h"
#include "src/exec/exec_context.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

class AggregateWorker;  // aggregate_worker.h

class JoinAggregateSink {
 public:
  // Whether `plan` can take a pipeline's parts in any order on any thread: an aggregation with
  // no library aggregate that folds in row order, but grouped ones that fold by batches
  // (FoldsByBatches).
  static bool Takes(const plan::Plan& plan);

  // `plan`: bound over the chain's output columns (its table: those columns, of any rows),
  // alive until Finish returns. Parts come from threads [0, threads).
  JoinAggregateSink(const plan::Plan& plan, const ExecContext& ctx, int threads);
  ~JoinAggregateSink();

  // Part `part`'s rows, its columns in the plan's table's order, folded in by thread `thread`
  // (each thread calls with its own number only).
  bool Consume(int thread, size_t part, std::vector<Column> columns, std::string* error);

  // After the last part: the threads' groups merged, then HAVING, ORDER BY, LIMIT and the
  // SELECT list over them.
  Result Finish();

 private:
  struct Slot {
    std::unique_ptr<Table> table;  // refilled by each part (Table::ReplaceRows)
    std::unique_ptr<AggregateWorker> worker;
    // Ungrouped float sums: each part's per-batch partial sums ([aggregate][batch]), by part.
    std::vector<std::pair<size_t, std::vector<std::vector<double>>>> partials;
  };
  bool MakeWorker(const Table& table, int thread, std::unique_ptr<AggregateWorker>* out, std::string* error);

  const plan::Plan& plan_;
  const ExecContext& ctx_;
  const bool track_first_rows_;
  bool float_sums_ = false;      // ungrouped float SUM / AVG among the aggregates
  bool group_partials_ = false;  // grouped ones, or grouped aggregates that fold by batches
  std::vector<Slot> slots_;  // per thread
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_JOIN_AGGREGATE_SINK_H_
