// The state of one window call's evaluation, shared by the files that evaluate its partitions:
// window_functions.cc (partitions, peers, frames, ranking), window_value_functions.cc (lag,
// lead, first_value, last_value, nth_value), window_framed_aggregates.cc (the built-in
// aggregates) and window_distinct.cc (their DISTINCT forms). Internal to those files.
#ifndef LANEQL_EXEC_WINDOW_EVALUATION_H_
#define LANEQL_EXEC_WINDOW_EVALUATION_H_

#include <string>
#include <vector>

#include "laneql/int128.h"
#include "src/exec/aggregate_slots.h"
#include "src/exec/vector.h"
#include "src/exec/window_frames.h"
#include "src/exec/window_functions.h"
#include "src/exec/window_partitions.h"

namespace laneql {
namespace exec {

// What a function writes per row.
enum class OutKind { kInt64, kDouble, kInt128, kBool, kSource, kSlots };

// The inputs of one evaluation, shared by its tasks; the outputs, one slot per relation row.
// Partitions write disjoint rows, so tasks need no locks.
struct Evaluation {
  const WindowCall* call = nullptr;
  const std::vector<uint32_t>* order = nullptr;  // relation rows, partitions one after another
  std::vector<Vec> args, order_keys;
  std::vector<Vec> arg_order_keys;  // WindowCall::arg_order
  std::vector<std::vector<uint64_t>> order_words;  // ColumnOrderWords of order_keys, or
  KeyRecordList records;                            // their records, in the order of `order`
  Vec start_offset, end_offset;
  OutKind out_kind = OutKind::kInt64;
  size_t rows = 0;
  std::vector<int64_t> ints;
  std::vector<double> reals;
  std::vector<Int128> wides;
  std::vector<uint8_t> bools;
  std::vector<uint8_t> valid;
  std::vector<uint32_t> sources;  // kSource: the row of args[0] (>= rows: the default's)
  std::vector<Slot> slots;        // kSlots: each row's value
};

// A fixed-width value of row r as an integer (integers, dates, DECIMAL's scaled integer) or a
// double (DECIMAL scaled).
Int128 IntAt(const Vec& v, size_t r);
double RealAt(const Vec& v, size_t r);

// lag, lead, first_value, last_value and nth_value over one partition (window_value_functions.cc).
void ValueFunctionPartition(Evaluation* ev, const PartitionFrames& frames);

// count, sum, avg, min, max, count_if, bool_and and bool_or over one partition's frames
// (window_framed_aggregates.cc).
bool AggregatePartition(Evaluation* ev, const PartitionFrames& frames, std::string* error);

// For DISTINCT: an id for each partition position i (< n) such that positions whose argument
// values (every one of `args`, NULLs equal) are equal get the same id (window_distinct.cc).
std::vector<uint32_t> DistinctValueIds(const std::vector<const Vec*>& args, const uint32_t* prow, size_t n);

// count(DISTINCT x), sum(DISTINCT x) and avg(DISTINCT x) over one partition's frames
// (window_distinct.cc).
bool DistinctAggregatePartition(Evaluation* ev, const PartitionFrames& frames, std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_WINDOW_EVALUATION_H_
