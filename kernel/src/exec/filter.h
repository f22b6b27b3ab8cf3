// WHERE -> a row bitmask, a batch of rows at a time. Conjuncts of the form column <op> constant,
// column <op> column of one type, BETWEEN, IN, LIKE, = / <> '' run the SIMD kernels straight on
// the columns; anything else goes through the evaluator. AND chains run cheapest class first and,
// within a class, in the order of the selectivity observed so far (most selective first), and
// stop as soon as no row of the batch is left. Once the conjuncts so far have left most 64-row
// words of a batch empty, the next conjunct runs only over the runs of words that still hold a
// row: ClickBench's Q22 tests URL NOT LIKE on the 0.1 % of rows that passed SearchPhrase <> ''
// and Title LIKE instead of reading 1 GB of URLs. A string kernel conjunct after which few rows
// are live but most words still hold one (SearchPhrase <> '' keeps 1 row in 8) runs over those
// rows' strings copied together: Q22's Title LIKE reads 81 of Title's 624 MB. As with the early
// stop, a conjunct then skips rows that an earlier one rejected, and an error it would raise only
// there (a failing CAST) does not surface, as with DuckDB's selection vectors.
//
// Before any conjunct runs, the blocks of a batch are judged by the zone maps of the columns
// that comparisons with constants read (filter_zones.h): a block none of whose rows can pass is
// skipped whole, and a conjunct that every row of a block passes is not evaluated there.
#ifndef LANEQL_EXEC_FILTER_H_
#define LANEQL_EXEC_FILTER_H_

#include <string>
#include <vector>

#include "laneql/table.h"
#include "src/exec/expr_eval.h"
#include "src/exec/filter_zones.h"
#include "src/plan/bound_expr.h"

namespace laneql {
namespace exec {

class Filter {
 public:
  // `zone_maps` false: no conjunct is judged by the columns' zone maps, which a table refilled
  // part by part (Table::ReplaceRows) would free under the filter.
  Filter(const Table& table, const plan::BoundExpr& predicate, bool zone_maps = true);
  // mask (BitmaskWords(count) words) = rows [begin, begin + count) where the predicate is TRUE.
  // begin must be a multiple of 64.
  bool Eval(size_t begin, size_t count, uint64_t* mask, std::string* error);

 private:
  struct Conjunct {
    const plan::BoundExpr* expr;
    int cost_class;
    uint64_t rows_in = 0, rows_out = 0;
    int zone = -1;  // its test in zone_tests_, if zone maps can decide it
  };
  // What the zone maps say of one block: nothing passes, or the zone tests (bits) it passes whole.
  struct BlockVerdict {
    bool none = false;
    uint64_t all = 0;
    bool operator==(const BlockVerdict& o) const { return none == o.none && all == o.all; }
  };
  BlockVerdict JudgeBlock(size_t block);
  // The conjuncts over rows [begin, begin + count), but those whose zone test bit is set in
  // `passed` (every row passes them).
  bool EvalConjuncts(size_t begin, size_t count, uint64_t passed, uint64_t* mask, std::string* error);
  // A conjunct evaluates over the live words alone when at most one word in this many is live.
  static constexpr size_t kSkipAtMostOneLiveIn = 2;
  bool EvalOne(const plan::BoundExpr& expr, size_t begin, size_t count, uint64_t* mask,
               std::string* error);
  // target = expr over rows [begin, begin + count), on the words where `live` has a row (0
  // elsewhere); *tested = the rows it evaluated.
  bool EvalLiveWords(const plan::BoundExpr& expr, size_t begin, size_t count, const uint64_t* live,
                     uint64_t* target, size_t* tested, std::string* error);
  // A string kernel conjunct runs over the live rows' strings copied together when at most one
  // row in this many is live: it reads their bytes alone, not the batch's (the live words of a
  // batch where 1 row in 8 is live are nearly all of them).
  static constexpr size_t kCompactAtMostOneLiveRowIn = 4;
  // As EvalLiveWords, for the string kernels' conjuncts (a comparison, LIKE, IN constants): the
  // live rows' offsets, bytes and validity compacted, the kernel run over them, its answer
  // spread back to their rows.
  bool EvalCompacted(const plan::BoundExpr& expr, size_t begin, size_t count, const uint64_t* live,
                     uint64_t* target, size_t* tested, std::string* error);
  // A string or large_string column's offsets of rows [begin, begin + count) as int32 and in
  // *data the bytes they index: a string column's own; a large_string column's rebased to the
  // rows' first byte (into rebased_offsets_, valid until the next call). Null, with *error
  // set, when the rows hold over 2 GiB of text.
  const int32_t* BatchStringOffsets(const Column& column, size_t begin, size_t count, const uint8_t** data,
                                    std::string* error);
  const Table& table_;
  std::vector<Conjunct> conjuncts_;
  std::vector<ZoneTest> zone_tests_;   // at most 64
  std::vector<BlockVerdict> verdicts_;  // Eval's, per block of the batch
  std::vector<uint64_t> scratch_;
  std::vector<int32_t> compact_offsets_;           // EvalCompacted's live rows
  std::vector<int32_t> rebased_offsets_;           // BatchStringOffsets' for large_string
  AlignedBuffer compact_bytes_;
  std::vector<uint64_t> compact_validity_, compact_mask_;
  Evaluator evaluator_;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_FILTER_H_
