// Min/max runtime filters for join pipelines. Once a join's build side is hashed, its key's
// smallest and largest value are known; a probe row whose key lies outside them cannot find a
// pair, and where the join drops such rows (inner joins, and a RIGHT join's probe side) the
// probe source's blocks whose zone maps (storage/zone_map.h) lie wholly outside the range are
// never read. Pays where the probe key is clustered (a fact table kept in key or date order,
// TPC-H's lineitem by l_orderkey) and the build side's keys are a narrow range of it.
//
// A morsel is narrowed from both ends, block by block: sorted data puts the rows that can match
// in one run, so its edges are what there is to cut. As with the filters' zone tests, a probe
// column whose first kZoneTrialBlocks judged blocks were never ruled out stops being judged.
#ifndef LANEQL_EXEC_JOIN_RANGE_SKIP_H_
#define LANEQL_EXEC_JOIN_RANGE_SKIP_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "laneql/column.h"
#include "src/exec/chain_input.h"
#include "src/exec/filter_zones.h"

namespace laneql {
namespace exec {

class JoinRangeSkip {
 public:
  // Probe rows whose value in `column` (a column of the probe source's relation, of a type with
  // zone maps) lies outside [min, max] find no pair. False (nothing added) when the column has
  // no zone map.
  bool Add(const Column& column, int64_t min, int64_t max);
  bool empty() const { return skips_.empty(); }
  // Narrows the pipeline rows [*begin, *end) of `in` (its source) by the blocks at either end
  // that no row of which can find a pair; returns how many rows it cut. *begin only moves to
  // the first row of a block of a whole source (so a multiple of 64 stays one); when nothing is
  // left, *end comes back to *begin. Thread-safe.
  size_t Trim(const ChainInput& in, size_t* begin, size_t* end);

 private:
  struct Skip {
    const Column* column = nullptr;
    ZoneTest test;  // BETWEEN min AND max
    std::atomic<uint64_t> judged{0}, ruled_out{0};
  };
  // Whether no row of physical block `block` can find a pair.
  bool RuledOut(size_t block);
  std::vector<std::unique_ptr<Skip>> skips_;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_JOIN_RANGE_SKIP_H_
