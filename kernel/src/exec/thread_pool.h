// The thread pool a Database makes once and every query reuses: threads - 1 workers that sleep
// between queries, plus the calling thread, which always takes part as thread 0 (so a
// one-thread run never touches another thread, and a query's thread 0 state is the caller's).
#ifndef LANEQL_EXEC_THREAD_POOL_H_
#define LANEQL_EXEC_THREAD_POOL_H_

#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace laneql {
namespace exec {

class ThreadPool {
 public:
  // `threads` >= 1, the caller included. Builds without threads (wasm without pthreads) and a
  // failure to start a worker leave fewer threads: see threads().
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }
  // Runs task(t) for t in [0, n) (n clamped to [1, threads()]) with t = 0 on the calling thread,
  // and returns when every call has returned. An exception thrown by a task is rethrown here
  // after all have finished. Concurrent callers take turns.
  void Run(int n, const std::function<void(int)>& task);

 private:
  void WorkerLoop(int index);

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one Run at a time
  std::mutex mutex_;      // guards everything below
  std::condition_variable wake_, done_;
  const std::function<void(int)>* task_ = nullptr;
  int active_ = 0;           // workers taking part in the current run
  int pending_ = 0;          // of those, not yet finished
  unsigned generation_ = 0;  // bumped per run; a worker runs once per generation
  bool stop_ = false;
  std::exception_ptr failure_;
};

}  // namespace exec
}  // namespace laneql

#endif  // LANEQL_EXEC_THREAD_POOL_H_
