// Hash GROUP BY over many groups, by radix partitions.
//
// One hash table of every group costs a cache miss per row once it outgrows the caches: GROUP
// BY UserID over 10 M rows (1.8 M groups) spent most of its time in it, and two threads'
// tables (split by rows or by keys, group_owned.h) competed for the same L3 and memory. Here
// each thread instead appends its rows, batch by batch, to 256 partitions by key hash, as
// records: the key's words (a string key's bytes, or serialised keys with strings, beside the
// records), the aggregates' arguments and the row id (sequential writes).
// Afterwards the partitions are aggregated in parallel, each into a table and states of its own
// that stay in the core's cache (a 256th of the groups), and the partitions' groups and states
// are laid side by side: no key is in two partitions, so nothing is merged. No phase repeats work per
// thread, and every group's states are exact whichever thread saw its rows: a partition's
// records are folded in row order, so float SUM / AVG add as one thread scanning would. A
// COUNT(DISTINCT) of a fixed-width value is counted in its partition's own (group, value) set,
// as all of a group's rows are there. The executor chooses this from a sample (group_owned.h,
// PreferPartitionedGroups).
#ifndef LANEQL_EXEC_GROUP_PARTITIONS_H_
#define LANEQL_EXEC_GROUP_PARTITIONS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "laneql/aligned_buffer.h"
#include "src/exec/aggregate_worker.h"
#include "src/exec/exec_context.h"

namespace laneql {
namespace exec {

// What a row carries through the partitions, in `stride` words: its key words as the grouper
// prepares them (Grouper::KeyWords), then a word per aggregate argument (the value's bits,
// zero-extended), then a word holding the row id in its low 32 bits and, in its high 32, bit k
// set where argument k is NULL. Key bytes go beside the records instead, their two key words
// then the bytes' length and their hash: one string key's own bytes (kString: the length is
// kNullKeyLength for NULL), or keys serialised with strings among them (kSerialized).
struct GroupRecordLayout {
  enum class Key { kWords, kString, kSerialized };
  static constexpr uint64_t kNullKeyLength = ~uint64_t{0};
  Key key = Key::kWords;
  size_t key_words = 0;  // 2 for bytes
  std::vector<int> arg_of;        // per aggregate: its argument's index (-1: COUNT(*))
  std::vector<TypeId> arg_types;  // per argument
  size_t stride = 0;
};

// The layout for `plan`, whose GROUP BY keys `grouper` (one of the query's fresh groupers)
// takes; false where the partitions cannot carry the query: the direct table of 8/16-bit keys,
// a group cap, library aggregates, arguments that are strings or 128-bit, more than 32
// arguments, a table past 2^32 rows.
bool MakeGroupRecordLayout(const plan::Plan& plan, const GroupStage& grouper, GroupRecordLayout* layout);

// One thread's records, in runs (a batch each) whose records are grouped by partition.
// alignas(64): each thread appends to its own, whose fields change with every batch.
class alignas(64) GroupPartitions {
 public:
  static constexpr size_t kPartitions = 256;
  // Bits 32..39 of the key hash, as the two-level merge: a partition's table takes its slots
  // and tags from other bits, which stay spread within a partition.
  static size_t PartitionOf(uint64_t hash) { return (hash >> 32) & (kPartitions - 1); }

  explicit GroupPartitions(const GroupRecordLayout& layout) : layout_(layout) {}
  // Appends the rows of `batch` (prepared by AggregateWorker::PrepareBatch: its keys' words,
  // string or serialised bytes, and hashes) as one run; args[k] holds argument k for those rows
  // (not constant). False (with *error) when the memory limit refuses.
  bool AppendBatch(const PreparedBatch& batch, const std::vector<Vec>& args, std::string* error);
  size_t records() const { return records_; }
  size_t PartitionSize(size_t p) const;
  // fn(records, bytes, n) for each run's share of partition p: n records of layout.stride
  // words, and with key bytes those bytes one after another (else null).
  template <class Fn>
  void ForEachSegment(size_t p, const Fn& fn) const {
    for (const Run& run : runs_) {
      const uint32_t begin = run.begin[p], end = run.begin[p + 1];
      if (end == begin) continue;
      const uint8_t* bytes = run.bytes != nullptr ? run.bytes + run.byte_begin[p] : nullptr;
      fn(run.records + size_t{begin} * layout_.stride, bytes, end - begin);
    }
  }

 private:
  struct Run {
    const uint64_t* records;
    const uint8_t* bytes;
    uint32_t begin[kPartitions + 1];
    uint32_t byte_begin[kPartitions + 1];
  };
  // Records (and key bytes) live in chunks that are never moved (runs point into them), each
  // twice the size of the one before up to kMaxChunkBytes: small inputs take little, large ones
  // blocks of 8 MiB that the large block cache keeps for the next query.
  struct Chunks {
    std::vector<AlignedBuffer> chunks;
    size_t size = 0, used = 0;
    uint8_t* Take(size_t bytes, std::string* error);  // null when the memory limit refuses
  };
  static constexpr size_t kFirstChunkBytes = size_t{1} << 19;
  static constexpr size_t kMaxChunkBytes = size_t{1} << 23;
  // The key bytes of `batch`'s rows: their length words into key_lengths_ (kNullKeyLength for a
  // NULL string); returns the bytes, row i's starting at (*starts)[i].
  const uint8_t* KeyLengths(const PreparedBatch& batch, const int32_t** starts);

  const GroupRecordLayout& layout_;
  Chunks record_chunks_, byte_chunks_;
  std::vector<Run> runs_;
  size_t records_ = 0;
  // AppendBatch's scratch: the arguments' words ([argument][row]) and the last words.
  std::vector<uint64_t> arg_words_, tails_, key_lengths_;
};
static_assert(alignof(GroupPartitions) == 64, "each thread's partitions start on their own cache line");

// After the scan: the groups and aggregates of every side's records (a side per thread),
// partition by partition on `threads` threads. Partition p's groups follow those of the
// partitions before it in `result`'s groups (AggregateWorker::AdoptMergedGroups), each with its
// first row (the order of ORDER BY ties, output_stage.h); its states are (*states)[p], of
// (*groups)[p] groups, for the output to read side by side (StateParts), numbered in the order
// of their first rows.
bool AggregateGroupPartitions(const std::vector<const GroupPartitions*>& sides,
                              const GroupRecordLayout& layout, AggregateWorker* result,
                              const ExecContext& ctx, int threads, std::vector<AggregateStates>* states,
                              std::vector<size_t>* groups, std::string* error);

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_GROUP_PARTITIONS_H_
