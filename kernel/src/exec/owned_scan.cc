// PreparedBatchRing: the owned scan's batches prepared by whichever thread is free, taken by
// every owner in batch order.
#include "src/exec/owned_scan.h"

#include <algorithm>
#include <thread>

namespace laneql {
namespace exec {
namespace {

// Enough slots that an owner seldom waits for a slower one: when an owner's hash table grows
// (a rehash, new pages for its states) it stops for several milliseconds, and with 8 slots the
// other owner then ran out of ring and waited (GROUP BY WatchID, ClientIP behind a WHERE, 2
// threads: 5-40 ms of a 200 ms query yielding; none with 64). A batch's buffer holds its ids,
// keys and hashes: about 0.5 MB for 16,384 rows of a serialised 8-byte + short string key. The
// buffers are made as batches are in flight at once (usually a few; 64 at most, 32 MB).
constexpr size_t kRingSlots = 64;

uint64_t FreeFor(size_t batch) { return 2 * static_cast<uint64_t>(batch); }
uint64_t Ready(size_t batch) { return 2 * static_cast<uint64_t>(batch) + 1; }

// A thread's spans: one per run of consecutive steps of the same kind, not one per batch (a
// 10 M-row table has 611 batches, times two kinds, times the threads).
class StepSpans {
 public:
  StepSpans(Profiler* profiler, int thread, const AggregateWorker& worker)
      : profiler_(profiler), thread_(thread), worker_(worker) {}
  ~StepSpans() { Close(); }
  void Enter(bool scanning) {
    if (profiler_ == nullptr || (open_ && scanning == scanning_)) return;
    Close();
    open_ = true;
    scanning_ = scanning;
    start_ = profiler_->Now();
    before_ = worker_.counters();
    prepared_rows_ = 0;
  }
  // Rows of the batch just prepared (the table's rows: a "prepare keys" span's rows).
  void Prepared(size_t rows) { prepared_rows_ += rows; }

 private:
  void Close() {
    if (!open_) return;
    ProfileCounters counters;
    if (scanning_) {
      counters.rows = worker_.counters().rows - before_.rows;
      counters.bytes = worker_.counters().bytes - before_.bytes;
      counters.probes = worker_.counters().probes - before_.probes;
    } else {
      counters.rows = prepared_rows_;
    }
    profiler_->AddSpan(thread_, scanning_ ? "scan" : "prepare keys", "scan", start_, profiler_->Now(),
                       counters);
    open_ = false;
  }
  Profiler* profiler_;
  int thread_;
  const AggregateWorker& worker_;
  bool open_ = false, scanning_ = false;
  uint64_t start_ = 0;
  ProfileCounters before_;
  uint64_t prepared_rows_ = 0;
};

}  // namespace

PreparedBatchRing::PreparedBatchRing(size_t batches, int owners) : batches_(batches), owners_(owners) {
  const size_t slots = std::min(kRingSlots, std::max<size_t>(batches, 1));
  for (size_t s = 0; s < slots; ++s) {
    slots_.push_back(std::make_unique<Slot>());
    slots_.back()->state.store(FreeFor(s), std::memory_order_relaxed);
  }
}

PreparedBatch* PreparedBatchRing::TakeBuffer() {
  std::lock_guard<std::mutex> lock(buffers_mutex_);
  if (free_buffers_.empty()) {
    buffers_.push_back(std::make_unique<PreparedBatch>());
    return buffers_.back().get();
  }
  PreparedBatch* buffer = free_buffers_.back();
  free_buffers_.pop_back();
  return buffer;
}

void PreparedBatchRing::ReturnBuffer(PreparedBatch* buffer) {
  std::lock_guard<std::mutex> lock(buffers_mutex_);
  free_buffers_.push_back(buffer);
}

void PreparedBatchRing::Run(AggregateWorker* worker, int thread, const ExecContext& ctx,
                            std::atomic<bool>* failed, std::string* error) {
  const size_t ring = slots_.size();
  StepSpans spans(ctx.profiler, thread, *worker);
  const ScopedMemoryActivity activity("scanning the table");
  try {
    for (size_t next = 0; next < batches_;) {
      // Check before work: a failed thread (or an interrupt) stops the others here.
      if (failed->load(std::memory_order_relaxed) || ctx.Interrupted()) return;
      Slot& slot = *slots_[next % ring];
      if (slot.state.load(std::memory_order_acquire) == Ready(next)) {
        spans.Enter(true);
        if (!worker->ScanPreparedBatch(*slot.batch, error)) {
          failed->store(true, std::memory_order_relaxed);
          return;
        }
        // The last owner to finish gives the buffer back and frees the slot for the batch
        // `ring` further on.
        if (slot.owners_left.fetch_sub(1, std::memory_order_acq_rel) == 1) {
          ReturnBuffer(slot.batch);
          slot.batch = nullptr;
          slot.state.store(FreeFor(next + ring), std::memory_order_release);
        }
        ++next;
        continue;
      }
      // Not ready: prepare the first unclaimed batch if its slot is free. Its state stays
      // FreeFor(b) until the one thread whose exchange succeeds publishes it.
      size_t b = next_prepare_.load(std::memory_order_relaxed);
      if (b < batches_ && slots_[b % ring]->state.load(std::memory_order_acquire) == FreeFor(b) &&
          next_prepare_.compare_exchange_strong(b, b + 1, std::memory_order_acq_rel)) {
        Slot& target = *slots_[b % ring];
        spans.Enter(false);
        PreparedBatch* buffer = TakeBuffer();
        if (!worker->PrepareBatch(b, buffer, error)) {
          ReturnBuffer(buffer);
          failed->store(true, std::memory_order_relaxed);
          return;
        }
        spans.Prepared(buffer->table_rows);
        target.batch = buffer;
        target.owners_left.store(owners_, std::memory_order_relaxed);
        target.state.store(Ready(b), std::memory_order_release);
        continue;
      }
      // Another thread is preparing this batch, or the ring is full until a slower owner
      // catches up (more owners than cores): give the core away.
      std::this_thread::yield();
    }
  } catch (...) {
    failed->store(true, std::memory_order_relaxed);  // the others stop instead of waiting
    throw;
  }
}

}  // namespace exec
}  // namespace laneql
