// Statistics of a table's columns for the optimizer's estimates: rows, NULL fraction, the range
// of values, and distinct values estimated from a stratified sample (Haas and Stokes' Duj1 estimator:
// exact for a column whose sample repeats nothing, scaled by how often sampled values repeat
// otherwise). Made per column on first use (only the columns the optimizer asks about: those
// the query reads anyway) and kept while the table lives.
#ifndef LANEQL_STORAGE_TABLE_STATISTICS_H_
#define LANEQL_STORAGE_TABLE_STATISTICS_H_

#include <cstddef>
#include <memory>

#include "laneql/table.h"

namespace laneql {

struct ColumnStatistics {
  double distinct = 0;       // estimated distinct non-NULL values (at least 1 when any)
  double null_fraction = 0;  // of the sample
  // The smallest and largest sampled value of a number, date or timestamp column, in the
  // column's own units (days, seconds or microseconds for the temporal types); has_range
  // false for other types, an empty sample, or one of NaNs.
  bool has_range = false;
  double min = 0;
  double max = 0;
};

// Rows sampled per column.
inline constexpr size_t kStatisticsSample = 4096;

// The statistics of column `column` of `table`, made on the first call for that column and
// kept for later ones while the table lives. Thread-safe.
ColumnStatistics TableColumnStatistics(const std::shared_ptr<const Table>& table, size_t column);

// One column's statistics from its sample (exposed for tests).
ColumnStatistics ComputeColumnStatistics(const Column& column);

}  // namespace laneql

#endif  // LANEQL_STORAGE_TABLE_STATISTICS_H_
