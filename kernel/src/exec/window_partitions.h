// Window partitions found by hashing instead of sorting: every row's partition id from the
// GROUP BY hash tables (grouping.h), then the rows of each partition together and sorted by the
// window's ORDER BY alone, the partitions sorted in parallel (a task per group of partitions).
// Sorting 10 M rows by (PARTITION BY g, ORDER BY x) as one key and merging the threads' runs
// spent most of a window's time comparing partition keys that a hash table sorts out once.
#ifndef LANEQL_EXEC_WINDOW_PARTITIONS_H_
#define LANEQL_EXEC_WINDOW_PARTITIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "src/common/large_blocks.h"
#include "src/exec/exec_context.h"
#include "src/exec/sort_rows.h"
#include "src/exec/vector.h"

namespace laneql {
namespace exec {

// Dense partition ids (0 .. *partitions - 1) of `rows` rows by the `keys` (rows equal on every
// key, NULLs equal, -0 as 0, one NaN, share an id). Each thread groups its morsels with a
// Grouper of its own; the groupers are merged and the ids mapped. Which id a partition gets
// depends on the threads' timing; nothing computed from the ids does.
// Partition ids, one per row, from the large block cache and not zeroed first.
using PartitionIdList = std::vector<uint32_t, LargeBlockAllocator<uint32_t>>;

bool PartitionIds(const std::vector<Vec>& keys, size_t rows, const ExecContext& ctx, PartitionIdList* ids,
                  size_t* partitions, std::string* error);
// The same over whole columns (each read where it lies, no copy): set operations, DISTINCT ON
// and the bindings of correlated subqueries number rows by their values so.
bool ColumnPartitionIds(const std::vector<const Column*>& columns, const ExecContext& ctx, PartitionIdList* ids,
                        size_t* partitions, std::string* error);

using KeyRecordList = std::vector<KeyRecord, LargeBlockAllocator<KeyRecord>>;

// The positions of `rows` rows grouped by partition id (partition p is [starts[p], starts[p + 1])
// of *order, its rows in row order) and each partition then sorted by `order_by` (ties by
// row), on the context's threads. Empty `ids`: one partition. `words` are the keys'
// ColumnOrderWords, unless `records` is given and used: with several partitions and one key
// that KeyRecords hold (OneWordKey), the rows' records are sorted instead and left in
// *records, in the order of *order (the peers are then adjacent equal records); otherwise
// *records is left empty and `words` must be given.
bool SortWithinPartitions(const PartitionIdList& ids, size_t rows, size_t partitions,
                          const std::vector<SortColumn>& order_by, const std::vector<std::vector<uint64_t>>& words,
                          const ExecContext& ctx, std::vector<uint32_t>* order, std::vector<size_t>* starts,
                          KeyRecordList* records, std::string* error);

// row_number() where only the first `keep` rows of each partition matter (QUALIFY
// row_number() <= keep): numbers[r] = row r's place in its partition (ids[r]) by `order_by`
// (ties by row) when it is among the first `keep`, keep + 1 otherwise. Each thread keeps a
// bounded heap per partition over its morsels (threads x partitions x keep entries), the worst
// on top, so after the first rows nearly every row is rejected by one comparison; the heaps are
// merged.
bool TopRowsPerPartition(const uint32_t* ids, size_t rows, size_t partitions, size_t keep,
                         const std::vector<SortColumn>& order_by, const ExecContext& ctx, int64_t* numbers,
                         std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_WINDOW_PARTITIONS_H_
