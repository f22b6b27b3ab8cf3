// Radix-partitioned hash GROUP BY (see group_partitions.h).
#include "src/exec/group_partitions.h"

#include <algorithm>
#include <cstring>

#include "src/exec/morsel.h"

namespace laneql {
namespace exec {

using plan::AggKind;

namespace {

constexpr size_t kMaxArgs = 32;  // the null bits of a record's last word

// The bits of n values of U, zero-extended: out[i * stride].
template <class U>
void WidenBits(const uint8_t* values, size_t n, uint64_t* out, size_t stride) {
  const U* typed = reinterpret_cast<const U*>(values);
  for (size_t i = 0; i < n; ++i) out[i * stride] = typed[i];
}
// And back: the low bits of words[i * stride] as values of U.
template <class U>
void NarrowBits(const uint64_t* words, size_t stride, size_t n, uint8_t* values) {
  U* typed = reinterpret_cast<U*>(values);
  for (size_t i = 0; i < n; ++i) typed[i] = static_cast<U>(words[i * stride]);
}

template <class Fn>
void ByWidth(size_t width, const Fn& fn) {
  switch (width) {
    case 1: fn(uint8_t{}); break;
    case 2: fn(uint16_t{}); break;
    case 4: fn(uint32_t{}); break;
    default: fn(uint64_t{}); break;
  }
}

}  // namespace

bool MakeGroupRecordLayout(const plan::Plan& plan, const GroupStage& grouper, GroupRecordLayout* layout) {
  if (!grouper.CanMergeByPartition() || plan.table->num_rows() > UINT32_MAX) return false;
  const Grouper& keys = grouper.grouper();
  GroupRecordLayout made;
  // One string key stays with its own table: GROUP BY SearchPhrase (582,000 groups of 1.3 M
  // rows) took 105 ms split by rows and 139 ms partitioned on one thread, 63-69 against 76-78
  // on two; strings among other keys gain (UserID, SearchPhrase: 833-858 against 736-763 ms,
  // 454-486 against 393-395).
  const bool serialized = keys.strategy() == Grouper::Strategy::kSerialized;
  made.key = serialized ? GroupRecordLayout::Key::kSerialized : GroupRecordLayout::Key::kWords;
  made.key_words = serialized ? 2 : keys.KeyWords();
  if (made.key_words == 0) return false;
  for (const plan::Aggregate& aggregate : plan.aggregates) {
    if (aggregate.kind == AggKind::kCountStar) {
      made.arg_of.push_back(-1);
      continue;
    }
    if (aggregate.kind == AggKind::kFunction) return false;  // library aggregates: not as records
    const TypeId type = aggregate.arg->type;
    // Float SUM / AVG come too: a partition's records are folded in row order (below), so each
    // group adds its values in the order one thread scanning the table would.
    if (!IsFixedWidth(type) || TypeByteWidth(type) > 8 || made.arg_types.size() == kMaxArgs) return false;
    made.arg_of.push_back(static_cast<int>(made.arg_types.size()));
    made.arg_types.push_back(type);
  }
  made.stride = made.key_words + made.arg_types.size() + 1;
  *layout = std::move(made);
  return true;
}

uint8_t* GroupPartitions::Chunks::Take(size_t bytes, std::string* error) {
  bytes = (bytes + 7) / 8 * 8;  // records stay 8-byte aligned
  if (chunks.empty() || used + bytes > size) {
    size_t next = chunks.empty() ? kFirstChunkBytes : std::min(2 * size, kMaxChunkBytes);
    next = std::max(next, bytes);
    AlignedBuffer chunk;
    if (!chunk.ResizeForOverwrite(std::max<size_t>(next, 8), error)) return nullptr;
    chunks.push_back(std::move(chunk));
    size = next;
    used = 0;
  }
  uint8_t* at = chunks.back().data() + used;
  used += bytes;
  return at;
}

std::string_view GroupPartitions::SerializedKey(const PreparedBatch& batch, size_t i) {
  const int32_t* offsets = batch.prepared.ser_offsets.As<int32_t>();
  return std::string_view(reinterpret_cast<const char*>(batch.prepared.ser_data.data()) + offsets[i],
                          static_cast<size_t>(offsets[i + 1] - offsets[i]));
}

bool GroupPartitions::AppendBatch(const PreparedBatch& batch, const std::vector<Vec>& args,
                                  std::string* error) {
  const size_t n = batch.rows.count;
  if (n == 0) return true;
  const size_t stride = layout_.stride, key_words = layout_.key_words, num_args = args.size();
  // The arguments' words and the last words first, column by column.
  arg_words_.resize(num_args * n);
  tails_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    tails_[i] = batch.rows.ids != nullptr ? batch.rows.ids[i] : batch.rows.begin + i;
  }
  for (size_t k = 0; k < num_args; ++k) {
    const Vec& arg = args[k];
    ByWidth(TypeByteWidth(arg.type), [&](auto tag) {
      WidenBits<decltype(tag)>(arg.values, n, arg_words_.data() + k * n, 1);
    });
    if (arg.validity == nullptr) continue;
    for (size_t i = 0; i < n; ++i) {
      tails_[i] |= static_cast<uint64_t>(!BitmaskGet(arg.validity, i)) << (32 + k);
    }
  }
  // Then the records, each written whole into its partition's place in the run (and serialised
  // keys' bytes into the partition's place in the run's bytes).
  const uint64_t* hashes = batch.prepared.hashes.data();
  const bool key_bytes = layout_.key == GroupRecordLayout::Key::kSerialized;
  uint32_t sizes[kPartitions] = {};
  uint64_t byte_sizes[kPartitions] = {};
  for (size_t i = 0; i < n; ++i) ++sizes[PartitionOf(hashes[i])];
  if (key_bytes) {
    for (size_t i = 0; i < n; ++i) byte_sizes[PartitionOf(hashes[i])] += SerializedKey(batch, i).size();
  }
  Run run;
  uint64_t* out = reinterpret_cast<uint64_t*>(record_chunks_.Take(n * stride * sizeof(uint64_t), error));
  if (out == nullptr) return false;
  run.records = out;
  uint32_t next[kPartitions], next_byte[kPartitions];
  run.begin[0] = 0;
  run.byte_begin[0] = 0;
  for (size_t p = 0; p < kPartitions; ++p) {
    next[p] = run.begin[p];
    run.begin[p + 1] = run.begin[p] + sizes[p];
    next_byte[p] = run.byte_begin[p];
    // A batch's keys are under 2 GiB (Grouper::Prepare refuses more), so its bytes fit.
    run.byte_begin[p + 1] = run.byte_begin[p] + static_cast<uint32_t>(byte_sizes[p]);
  }
  run.bytes = nullptr;
  uint8_t* bytes_out = nullptr;
  if (key_bytes) {
    bytes_out = byte_chunks_.Take(run.byte_begin[kPartitions], error);
    if (bytes_out == nullptr) return false;
    run.bytes = bytes_out;
  }
  const uint64_t* words = batch.prepared.words;
  for (size_t i = 0; i < n; ++i) {
    const size_t p = PartitionOf(hashes[i]);
    uint64_t* record = out + size_t{next[p]++} * stride;
    if (key_bytes) {
      const std::string_view key = SerializedKey(batch, i);
      if (!key.empty()) std::memcpy(bytes_out + next_byte[p], key.data(), key.size());
      next_byte[p] += static_cast<uint32_t>(key.size());
      record[0] = key.size();
      record[1] = hashes[i];  // a string's hash costs more to make again than to carry
    } else {
      for (size_t j = 0; j < key_words; ++j) record[j] = words[i * key_words + j];
    }
    for (size_t k = 0; k < num_args; ++k) record[key_words + k] = arg_words_[k * n + i];
    record[stride - 1] = tails_[i];
  }
  records_ += n;
  runs_.push_back(run);
  return true;
}

size_t GroupPartitions::PartitionSize(size_t p) const {
  size_t n = 0;
  for (const Run& run : runs_) n += run.begin[p + 1] - run.begin[p];
  return n;
}

namespace {

constexpr size_t kMaxBlockBytes = size_t{1} << 30;

// One aggregation thread's scratch, reused partition after partition. alignas(64): each
// thread grows its own vectors.
struct alignas(64) PartitionThread {
  PreparedKeys keys;  // a block's key words and hashes
  std::vector<uint32_t> ids;
  // The records of one partition's segments gathered into blocks of up to kBlockRecords: a run
  // holds about 64 records of each partition (a batch's 16,384 rows over 256 partitions), and
  // folding each segment alone paid the grouper's and the aggregates' per-call costs every 64
  // records (GROUP BY UserID on one thread: 196 ms of partitions' aggregation, 147 ms in blocks).
  static constexpr size_t kBlockRecords = 4096;
  std::vector<uint64_t> block;
  size_t block_records = 0;
  // Serialised keys: the block's key bytes (the first block_bytes_used of block_bytes, which
  // only grows: resized per record, its zeroing and size checks were 4 % of the instructions of
  // SearchPhrase, COUNT(DISTINCT UserID) on 16 threads) and their offsets.
  std::vector<uint8_t> block_bytes;
  size_t block_bytes_used = 0;
  std::vector<int32_t> offsets;
  std::vector<Vec> args;
  size_t last_groups = 0;  // of the partition it aggregated before
  std::vector<size_t> last_pairs;  // its COUNT(DISTINCT)s' (group, value) pairs, per aggregate
  // The partition's segments of every side, put in row order.
  struct Segment {
    uint32_t first_row;
    uint32_t n;
    const uint64_t* records;
    const uint8_t* bytes;
  };
  std::vector<Segment> segments;
};
static_assert(alignof(PartitionThread) == 64, "each aggregation thread writes its own cache lines");

// Folds n records into partition `grouper` and `states` (and first rows).
bool FoldBlock(const GroupRecordLayout& layout, const plan::Plan& plan, const uint64_t* records,
                 size_t n, Grouper* grouper, AggregateStates* states, FirstRows* first_rows,
                 PartitionThread* scratch, std::string* error) {
  const size_t stride = layout.stride, key_words = layout.key_words;
  scratch->ids.resize(n);
  uint32_t* ids = scratch->ids.data();
  PreparedKeys& keys = scratch->keys;
  if (layout.key == GroupRecordLayout::Key::kWords) {
    keys.count = n;
    keys.words_buf.resize(n * key_words);
    keys.hashes.resize(n);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < key_words; ++j) keys.words_buf[i * key_words + j] = records[i * stride + j];
    }
    keys.words = keys.words_buf.data();
    grouper->HashWords(keys.words, n, keys.hashes.data());
    static const std::vector<Vec> kNoKeys;  // packed and wide words need no key vectors
    if (!grouper->Insert(kNoKeys, keys, ids, error)) return false;
  } else {
    std::vector<int32_t>& offsets = scratch->offsets;
    offsets.resize(n + 1);
    offsets[0] = 0;
    keys.hashes.resize(n);
    for (size_t i = 0; i < n; ++i) {
      offsets[i + 1] = offsets[i] + static_cast<int32_t>(records[i * stride]);
      keys.hashes[i] = records[i * stride + 1];
    }
    if (!grouper->InsertSerialized(offsets.data(), scratch->block_bytes.data(), keys.hashes.data(), n, ids,
                                   error)) {
      return false;
    }
  }
  if (!states->Resize(grouper->size(), error)) return false;
  first_rows->resize(grouper->size(), kNoRow);
  const uint64_t* tails = records + stride - 1;
  for (size_t i = 0; i < n; ++i) {
    uint64_t& first = (*first_rows)[ids[i]];
    first = std::min(first, tails[i * stride] & UINT32_MAX);
  }
  scratch->args.resize(layout.arg_types.size());
  for (size_t a = 0; a < plan.aggregates.size(); ++a) {
    const int k = layout.arg_of[a];
    if (k < 0) {
      if (!states->Update(a, nullptr, ids, n, error)) return false;
      continue;
    }
    Vec& arg = scratch->args[static_cast<size_t>(k)];
    const TypeId type = layout.arg_types[static_cast<size_t>(k)];
    bool made = false;
    ByWidth(TypeByteWidth(type), [&](auto tag) {
      using U = decltype(tag);
      U* values = arg.InitFixed<U>(type, n, false, error);
      if (values == nullptr) return;
      NarrowBits<U>(records + key_words + static_cast<size_t>(k), stride, n, reinterpret_cast<uint8_t*>(values));
      made = true;
    });
    if (!made) return false;
    const uint64_t null_bit = uint64_t{1} << (32 + k);
    bool any_null = false;
    for (size_t i = 0; i < n; ++i) any_null |= (tails[i * stride] & null_bit) != 0;
    if (any_null) {
      uint64_t* validity = arg.InitValidity(error);
      if (validity == nullptr) return false;
      for (size_t i = 0; i < n; ++i) {
        if (tails[i * stride] & null_bit) validity[i / 64] &= ~(uint64_t{1} << (i % 64));
      }
    }
    if (!states->Update(a, &arg, ids, n, error)) return false;
  }
  return true;
}

}  // namespace

bool AggregateGroupPartitions(const std::vector<const GroupPartitions*>& sides,
                              const GroupRecordLayout& layout, AggregateWorker* result,
                              const ExecContext& ctx, int threads, std::string* error) {
  constexpr size_t kParts = GroupPartitions::kPartitions;
  const plan::Plan& plan = result->plan();
  std::vector<std::unique_ptr<Grouper>> parts(kParts);
  std::vector<AggregateStates> states;
  states.reserve(kParts);
  for (size_t p = 0; p < kParts; ++p) states.emplace_back(plan.aggregates, false);
  std::vector<FirstRows> firsts(kParts);
  std::vector<PartitionThread> per_thread(static_cast<size_t>(std::max(threads, 1)));
  // 1. Each partition's groups and states, in a table of its own.
  if (!RunTasks(ctx, threads, kParts, [&](size_t p, int t, std::string* task_error) {
        ScopedSpan span(ctx.profiler, t, "aggregate partition", "aggregate");
        PartitionThread& mine = per_thread[static_cast<size_t>(t)];
        size_t records = 0;
        for (const GroupPartitions* side : sides) records += side->PartitionSize(p);
        // The partitions are alike (the hash spreads the keys evenly): sized as the last one
        // ended, the table rarely grows, and is not made larger than the records it may hold.
        if (!result->grouper().NewGrouper(&parts[p], task_error) ||
            !parts[p]->Reserve(std::min(records, mine.last_groups + mine.last_groups / 4), 0, task_error)) {
          return false;
        }
        // Its COUNT(DISTINCT)s' pair sets too (SearchPhrase, COUNT(DISTINCT UserID) on 16
        // threads: growing them was 6 % of the query's time).
        mine.last_pairs.resize(plan.aggregates.size(), 0);
        for (size_t a = 0; a < plan.aggregates.size(); ++a) {
          const size_t last = mine.last_pairs[a];
          if (!states[p].ReserveDistinctPairs(a, std::min(records, last + last / 4), task_error)) return false;
        }
        bool ok = true;
        const auto fold_block = [&]() {
          ok = ok && FoldBlock(layout, plan, mine.block.data(), mine.block_records, parts[p].get(), &states[p],
                                 &firsts[p], &mine, task_error);
          mine.block_records = 0;
          mine.block_bytes_used = 0;
        };
        mine.block.resize(PartitionThread::kBlockRecords * layout.stride);
        mine.block_bytes_used = 0;
        if (mine.block_bytes.empty()) mine.block_bytes.resize(1);  // data() not null even when every key is empty
        const size_t stride = layout.stride;
        // A segment holds one batch's rows of the partition in row order, and batches are
        // disjoint ranges of rows: segments sorted by their first row put the whole partition
        // in row order, whichever thread scanned each batch. Each group then folds its rows in
        // the order of a one-thread scan, so float sums have the same bits at every thread
        // count, and first rows come out alike too.
        mine.segments.clear();
        for (const GroupPartitions* side : sides) {
          side->ForEachSegment(p, [&](const uint64_t* segment, const uint8_t* bytes, size_t n) {
            mine.segments.push_back({static_cast<uint32_t>(segment[stride - 1]), static_cast<uint32_t>(n),
                                     segment, bytes});
          });
        }
        std::sort(mine.segments.begin(), mine.segments.end(),
                  [](const PartitionThread::Segment& a, const PartitionThread::Segment& b) {
                    return a.first_row < b.first_row;
                  });
        for (const PartitionThread::Segment& in_order : mine.segments) {
          const uint64_t* segment = in_order.records;
          size_t n = in_order.n;
          if (const uint8_t* bytes = in_order.bytes) {  // serialised keys: record by record, with their bytes
            for (size_t i = 0; i < n && ok; ++i) {
              const uint64_t* record = segment + i * stride;
              const size_t length = static_cast<size_t>(record[0]);
              // The block's offsets are int32: it is folded before its bytes would pass 1 GiB.
              if (mine.block_records > 0 && mine.block_bytes_used + length > kMaxBlockBytes) fold_block();
              std::copy_n(record, stride, mine.block.data() + mine.block_records * stride);
              const size_t used = mine.block_bytes_used;
              if (used + length > mine.block_bytes.size()) {
                mine.block_bytes.resize(std::max(2 * mine.block_bytes.size(), used + length));
              }
              if (length != 0) std::memcpy(mine.block_bytes.data() + used, bytes, length);
              mine.block_bytes_used = used + length;
              bytes += length;
              if (++mine.block_records == PartitionThread::kBlockRecords) fold_block();
            }
            continue;
          }
          while (n > 0 && ok) {
            const size_t take = std::min(n, PartitionThread::kBlockRecords - mine.block_records);
            std::copy_n(segment, take * stride, mine.block.data() + mine.block_records * stride);
            mine.block_records += take;
            segment += take * stride;
            n -= take;
            if (mine.block_records == PartitionThread::kBlockRecords) fold_block();
          }
        }
        if (mine.block_records > 0) fold_block();
        mine.last_groups = parts[p]->size();
        for (size_t a = 0; a < plan.aggregates.size(); ++a) mine.last_pairs[a] = states[p].DistinctPairs(a);
        span.counters().rows = records;
        span.counters().probes = records;
        return ok;
      }, error)) {
    return false;
  }
  // 2. The partitions' groups side by side: states and first rows copied in parallel, each
  // task first-touching the pages it writes.
  std::vector<size_t> offsets(kParts + 1, 0);
  for (size_t p = 0; p < kParts; ++p) offsets[p + 1] = offsets[p] + parts[p]->size();
  const size_t groups = offsets.back();
  AggregateStates merged(plan.aggregates, false);
  if (!merged.ResizeForCopy(groups, error)) return false;
  FirstRows first_rows;
  first_rows.resize(groups);  // not zeroed (large_blocks.h): the tasks write every one
  if (!RunTasks(ctx, threads, kParts, [&](size_t p, int t, std::string*) {
        ScopedSpan span(ctx.profiler, t, "merge states", "merge");
        const size_t n = offsets[p + 1] - offsets[p];
        merged.CopyGroups(states[p], 0, n, offsets[p]);
        std::copy_n(firsts[p].begin(), n, first_rows.begin() + static_cast<std::ptrdiff_t>(offsets[p]));
        states[p] = AggregateStates(plan.aggregates, false);  // given back as soon as copied
        FirstRows().swap(firsts[p]);
        span.counters().rows = n;
        return true;
      }, error)) {
    return false;
  }
  result->AdoptMerged(std::move(parts), std::move(merged), std::move(first_rows));
  return true;
}

}  // namespace exec
}  // namespace laneql
