#include "src/exec/gather_on_threads.h"

#include <algorithm>
#include <limits>

#include "src/exec/executor.h"
#include "src/exec/hash_join.h"
#include "src/exec/morsel.h"
#include "src/exec/parallel_project.h"

namespace laneql {
namespace exec {

namespace {

// Slices of a list of `rows` when `jobs` lists share `threads` threads: about two tasks per
// thread in all, so a list is cut only where the lists are fewer than that (each cut costs its
// slices' copy into one column), into slices of at least 4 batches (64 K rows).
size_t SliceRows(size_t rows, size_t jobs, int threads) {
  const size_t wanted_tasks = static_cast<size_t>(threads) * 2;
  if (threads <= 1 || jobs >= wanted_tasks) return std::max<size_t>(rows, 1);
  const size_t slices = (wanted_tasks + jobs - 1) / jobs;
  const size_t slice = (rows / slices + 63) / 64 * 64;
  return std::max<size_t>(slice, 4 * kBatchRows);
}

}  // namespace

bool GatherColumnsOnThreads(const ExecContext& ctx, const std::vector<GatherJob>& jobs, std::vector<Column>* outs,
                            std::string* error) {
  // Slices for the threads the tasks will run on (RunTasks takes no more than the processors).
  const int threads = TaskThreads(ctx.ThreadsAvailable(), std::numeric_limits<size_t>::max());
  // Tasks: (job, first row, rows) in job order.
  struct Task {
    size_t job, begin, count;
  };
  std::vector<Task> tasks;
  std::vector<size_t> first_task(jobs.size() + 1, 0);
  for (size_t j = 0; j < jobs.size(); ++j) {
    first_task[j] = tasks.size();
    const size_t n = jobs[j].rows->size();
    const size_t slice = SliceRows(n, jobs.size(), threads);
    if (n < 2 * slice) {
      tasks.push_back(Task{j, 0, n});
      continue;
    }
    for (size_t begin = 0; begin < n; begin += slice) tasks.push_back(Task{j, begin, std::min(slice, n - begin)});
  }
  first_task[jobs.size()] = tasks.size();
  std::vector<Column> pieces(tasks.size());
  auto gather = [&](size_t t, int, std::string* task_error) {
    const Task& task = tasks[t];
    return GatherRows(*jobs[task.job].source, jobs[task.job].rows->data() + task.begin, task.count, &pieces[t],
                      task_error);
  };
  const int task_threads = tasks.size() > 1 ? threads : 1;
  if (!RunTasks(ctx, task_threads, tasks.size(), gather, error)) return false;
  outs->clear();
  outs->resize(jobs.size());
  for (size_t j = 0; j < jobs.size(); ++j) {
    const size_t begin = first_task[j], end = first_task[j + 1];
    if (end - begin == 1) {
      (*outs)[j] = std::move(pieces[begin]);
      continue;
    }
    std::vector<Column> slices;
    size_t bytes = 0;
    bool short_strings = true;
    for (size_t t = begin; t < end; ++t) {
      bytes += IsString(pieces[t].type()) ? pieces[t].values_buffer().size() : 0;
      short_strings = short_strings && pieces[t].type() != TypeId::kLargeString;
      slices.push_back(std::move(pieces[t]));
    }
    if (!short_strings || bytes > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
      // Past int32 offsets: the one-pass gather makes the large_string column.
      slices.clear();
      if (!GatherRows(*jobs[j].source, *jobs[j].rows, &(*outs)[j], error)) return false;
      continue;
    }
    if (!ConcatColumns(slices, ctx, threads, &(*outs)[j], error)) return false;
  }
  return true;
}

}  // namespace exec
}  // namespace laneql
