#include "src/exec/thread_pool.h"

#include <algorithm>

#include "src/common/query_budget.h"

namespace laneql {
namespace exec {

ThreadPool::ThreadPool(int threads) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  threads = 1;  // no pthreads in this wasm flavour: std::thread cannot start
#endif
  // Reserved first: a reallocation failing after some workers started would let the exception
  // leave the constructor with joinable threads in workers_ (std::terminate) running on a
  // destroyed pool.
  if (threads > 1) workers_.reserve(threads - 1);
  for (int i = 1; i < threads; ++i) {
    try {
      workers_.emplace_back([this, i] { WorkerLoop(i); });
    } catch (...) {
      // The system refused another thread (std::system_error), or std::thread could not
      // allocate its state (std::bad_alloc): run with those started.
      break;
    }
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::Run(int n, const std::function<void(int)>& task) {
  n = std::clamp(n, 1, threads());
  if (n == 1) {
    task(0);
    return;
  }
  // The workers run as part of the caller's query: its budget (memory limit, stop) and what
  // it is doing go with the task (query_budget.h).
  // (One reference captured: the std::function stores it in place, no allocation per run.)
  struct Query {
    const std::function<void(int)>& task;
    QueryBudget* budget;
    const char* activity;
  } query{task, CurrentQueryBudget(), CurrentMemoryActivity()};
  const std::function<void(int)> in_query = [&query](int t) {
    const ScopedQueryBudget scope(query.budget, query.activity);
    query.task(t);
  };
  std::lock_guard<std::mutex> run_lock(run_mutex_);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &in_query;
    active_ = n - 1;
    pending_ = n - 1;
    failure_ = nullptr;
    ++generation_;
  }
  wake_.notify_all();
  std::exception_ptr own_failure;
  try {
    task(0);
  } catch (...) {
    own_failure = std::current_exception();
  }
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return pending_ == 0; });
  task_ = nullptr;
  if (own_failure) std::rethrow_exception(own_failure);
  if (failure_) std::rethrow_exception(failure_);
}

void ThreadPool::WorkerLoop(int index) {
  unsigned seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    if (index > active_) continue;  // this run needs fewer threads
    const std::function<void(int)>* task = task_;
    lock.unlock();
    std::exception_ptr failure;
    try {
      (*task)(index);
    } catch (...) {
      failure = std::current_exception();
    }
    lock.lock();
    if (failure && !failure_) failure_ = failure;
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace exec
}  // namespace laneql
