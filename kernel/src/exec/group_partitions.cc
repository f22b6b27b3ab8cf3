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

// The bytes a record's key length word stands for (a NULL string has none).
size_t KeyLength(uint64_t length_word) {
  return length_word == GroupRecordLayout::kNullKeyLength ? 0 : static_cast<size_t>(length_word);
}

// Scratch sized for at least n elements, never shrunk: a batch's rows vary, and a resize that
// grew it again after a smaller batch zeroed what is then written over (3 % of the
// instructions of GROUP BY SearchPhrase, COUNT(DISTINCT UserID) on 16 threads).
template <class V>
void AtLeast(V* scratch, size_t n) {
  if (scratch->size() < n) scratch->resize(n);
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
  switch (keys.strategy()) {
    case Grouper::Strategy::kString: made.key = GroupRecordLayout::Key::kString; break;
    case Grouper::Strategy::kSerialized: made.key = GroupRecordLayout::Key::kSerialized; break;
    default: made.key = GroupRecordLayout::Key::kWords; break;
  }
  made.key_words = made.key == GroupRecordLayout::Key::kWords ? keys.KeyWords() : 2;
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

const uint8_t* GroupPartitions::KeyLengths(const PreparedBatch& batch, const int32_t** starts) {
  const size_t n = batch.rows.count;
  const int32_t* offsets;
  const uint8_t* data;
  const uint64_t* validity = nullptr;
  if (layout_.key == GroupRecordLayout::Key::kString) {
    // The string key's own bytes, as the grouper hashed them (Grouper::Prepare): serialising
    // them first was a copy per row (GROUP BY SearchPhrase on 16 threads: 5 % of the time).
    const Vec& key = batch.keys[0];
    offsets = key.offsets;
    data = key.values;
    validity = key.validity;
  } else {
    offsets = batch.prepared.ser_offsets.As<int32_t>();
    data = batch.prepared.ser_data.data();
  }
  AtLeast(&key_lengths_, n);
  for (size_t i = 0; i < n; ++i) key_lengths_[i] = static_cast<uint64_t>(offsets[i + 1] - offsets[i]);
  if (validity != nullptr) {
    // A NULL string's bytes are not carried (whatever its offsets say).
    for (size_t i = 0; i < n; ++i) {
      if (!BitmaskGet(validity, i)) key_lengths_[i] = GroupRecordLayout::kNullKeyLength;
    }
  }
  *starts = offsets;
  return data;
}

bool GroupPartitions::AppendBatch(const PreparedBatch& batch, const std::vector<Vec>& args,
                                  std::string* error) {
  const size_t n = batch.rows.count;
  if (n == 0) return true;
  const size_t stride = layout_.stride, key_words = layout_.key_words, num_args = args.size();
  // The arguments' words and the last words first, column by column.
  AtLeast(&arg_words_, num_args * n);
  AtLeast(&tails_, n);
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
  // Then the records, each written whole into its partition's place in the run (and key bytes
  // into the partition's place in the run's bytes).
  const uint64_t* hashes = batch.prepared.hashes.data();
  const bool key_bytes = layout_.key != GroupRecordLayout::Key::kWords;
  const int32_t* key_starts = nullptr;
  const uint8_t* key_data = key_bytes ? KeyLengths(batch, &key_starts) : nullptr;
  uint32_t sizes[kPartitions] = {};
  uint64_t byte_sizes[kPartitions] = {};
  for (size_t i = 0; i < n; ++i) ++sizes[PartitionOf(hashes[i])];
  if (key_bytes) {
    for (size_t i = 0; i < n; ++i) byte_sizes[PartitionOf(hashes[i])] += KeyLength(key_lengths_[i]);
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
  if (key_bytes) {
    uint8_t* bytes_out = byte_chunks_.Take(run.byte_begin[kPartitions], error);
    if (bytes_out == nullptr) return false;
    run.bytes = bytes_out;
    for (size_t i = 0; i < n; ++i) {
      const size_t p = PartitionOf(hashes[i]);
      uint64_t* record = out + size_t{next[p]++} * stride;
      const size_t length = KeyLength(key_lengths_[i]);
      AlignedBuffer::CopyShort(bytes_out + next_byte[p], key_data + key_starts[i], length);
      next_byte[p] += static_cast<uint32_t>(length);
      record[0] = key_lengths_[i];
      record[1] = hashes[i];  // a string's hash costs more to make again than to carry
      for (size_t k = 0; k < num_args; ++k) record[2 + k] = arg_words_[k * n + i];
      record[stride - 1] = tails_[i];
    }
  } else {
    const uint64_t* words = batch.prepared.words;
    for (size_t i = 0; i < n; ++i) {
      const size_t p = PartitionOf(hashes[i]);
      uint64_t* record = out + size_t{next[p]++} * stride;
      for (size_t j = 0; j < key_words; ++j) record[j] = words[i * key_words + j];
      for (size_t k = 0; k < num_args; ++k) record[key_words + k] = arg_words_[k * n + i];
      record[stride - 1] = tails_[i];
    }
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
  std::vector<uint64_t> key_validity;  // one string key's NULLs, when the block has any
  std::vector<Vec> args;
  size_t last_groups = 0, last_key_bytes = 0;  // of the partition it aggregated before
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
  AtLeast(&scratch->ids, n);
  uint32_t* ids = scratch->ids.data();
  PreparedKeys& keys = scratch->keys;
  if (layout.key == GroupRecordLayout::Key::kWords) {
    keys.count = n;
    AtLeast(&keys.words_buf, n * key_words);
    AtLeast(&keys.hashes, n);
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < key_words; ++j) keys.words_buf[i * key_words + j] = records[i * stride + j];
    }
    keys.words = keys.words_buf.data();
    grouper->HashWords(keys.words, n, keys.hashes.data());
    static const std::vector<Vec> kNoKeys;  // packed and wide words need no key vectors
    if (!grouper->Insert(kNoKeys, keys, ids, error)) return false;
  } else {
    std::vector<int32_t>& offsets = scratch->offsets;
    AtLeast(&offsets, n + 1);
    offsets[0] = 0;
    AtLeast(&keys.hashes, n);
    bool any_null = false;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t length = records[i * stride];
      any_null |= length == GroupRecordLayout::kNullKeyLength;
      offsets[i + 1] = offsets[i] + static_cast<int32_t>(KeyLength(length));
      keys.hashes[i] = records[i * stride + 1];
    }
    const uint64_t* validity = nullptr;
    if (any_null) {  // a NULL string key
      scratch->key_validity.assign((n + 63) / 64, ~uint64_t{0});
      for (size_t i = 0; i < n; ++i) {
        if (records[i * stride] == GroupRecordLayout::kNullKeyLength) {
          scratch->key_validity[i / 64] &= ~(uint64_t{1} << (i % 64));
        }
      }
      validity = scratch->key_validity.data();
    }
    if (!grouper->InsertKeyBytes(offsets.data(), scratch->block_bytes.data(), validity, keys.hashes.data(), n,
                                 ids, error)) {
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
                              const ExecContext& ctx, int threads, std::vector<AggregateStates>* out_states,
                              std::vector<size_t>* groups, std::string* error) {
  constexpr size_t kParts = GroupPartitions::kPartitions;
  const plan::Plan& plan = result->plan();
  std::vector<std::unique_ptr<Grouper>> parts(kParts);
  std::vector<AggregateStates>& states = *out_states;
  states.clear();
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
        // Key bytes likewise (GROUP BY SearchPhrase: its arenas doubled from 4 KiB, 4 % of the
        // instructions in copies).
        const size_t expected_groups = std::min(records, mine.last_groups + mine.last_groups / 4);
        if (!result->grouper().NewGrouper(&parts[p], task_error) ||
            !parts[p]->Reserve(expected_groups, mine.last_key_bytes + mine.last_key_bytes / 4, task_error)) {
          return false;
        }
        // Its aggregates' states and first rows likewise, which grew by doubling, block by
        // block (GROUP BY WatchID, ClientIP, a group per row, on 16 threads: 4 % of its
        // instructions).
        if (!states[p].Reserve(expected_groups, task_error)) return false;
        firsts[p].reserve(expected_groups);
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
          const uint8_t* bytes = in_order.bytes;
          size_t n = in_order.n;
          // Whole segments (or as much as the block takes) in two copies, the records' and
          // their key bytes': record by record, copying each key was 11 % of GROUP BY
          // SearchPhrase's instructions.
          while (n > 0 && ok) {
            size_t take = std::min(n, PartitionThread::kBlockRecords - mine.block_records);
            if (bytes != nullptr) {
              // The block's offsets are int32: it is folded before its bytes would pass 1 GiB
              // (a key alone in a block may be longer).
              size_t take_bytes = 0, i = 0;
              for (; i < take; ++i) {
                const size_t length = KeyLength(segment[i * stride]);
                if (mine.block_records + i > 0 && mine.block_bytes_used + take_bytes + length > kMaxBlockBytes) break;
                take_bytes += length;
              }
              if (i == 0) {
                fold_block();
                continue;
              }
              take = i;
              const size_t used = mine.block_bytes_used;
              if (used + take_bytes > mine.block_bytes.size()) {
                mine.block_bytes.resize(std::max(2 * mine.block_bytes.size(), used + take_bytes));
              }
              if (take_bytes != 0) std::memcpy(mine.block_bytes.data() + used, bytes, take_bytes);
              mine.block_bytes_used = used + take_bytes;
              bytes += take_bytes;
            }
            std::copy_n(segment, take * stride, mine.block.data() + mine.block_records * stride);
            mine.block_records += take;
            segment += take * stride;
            n -= take;
            if (mine.block_records == PartitionThread::kBlockRecords) fold_block();
          }
        }
        if (mine.block_records > 0) fold_block();
        mine.last_groups = parts[p]->size();
        mine.last_key_bytes = parts[p]->KeyBytes();
        for (size_t a = 0; a < plan.aggregates.size(); ++a) mine.last_pairs[a] = states[p].DistinctPairs(a);
        span.counters().rows = records;
        span.counters().probes = records;
        return ok;
      }, error)) {
    return false;
  }
  // 2. The partitions' groups side by side, their first rows copied in parallel, each task
  // first-touching the pages it writes. The states stay where they are: copied into one set of
  // arrays, they were a pass over every group's states after the aggregation (GROUP BY
  // WatchID, ClientIP on 16 threads: 55 of 900 ms CPU).
  std::vector<size_t> offsets(kParts + 1, 0);
  groups->resize(kParts);
  for (size_t p = 0; p < kParts; ++p) {
    (*groups)[p] = parts[p]->size();
    offsets[p + 1] = offsets[p] + parts[p]->size();
  }
  FirstRows first_rows;
  first_rows.resize(offsets.back());  // not zeroed (large_blocks.h): the tasks write every one
  if (!RunTasks(ctx, threads, kParts, [&](size_t p, int t, std::string*) {
        ScopedSpan span(ctx.profiler, t, "merge first rows", "merge");
        const size_t n = offsets[p + 1] - offsets[p];
        std::copy_n(firsts[p].begin(), n, first_rows.begin() + static_cast<std::ptrdiff_t>(offsets[p]));
        FirstRows().swap(firsts[p]);
        span.counters().rows = n;
        return true;
      }, error)) {
    return false;
  }
  result->AdoptMergedGroups(std::move(parts), std::move(first_rows));
  return true;
}

}  // namespace exec
}  // namespace laneql
