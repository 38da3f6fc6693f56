#include "io/threads.h"

#include <cstdlib>
#include <sched.h>

namespace kit {

int available_threads() {
  if (const char *forced = std::getenv("KIT_THREADS")) {
    char *end = nullptr;
    long n = std::strtol(forced, &end, 10);
    if (end != forced && *end == '\0' && n >= 1 && n <= 1024)
      return static_cast<int>(n);
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n >= 1)
      return n;
  }
  unsigned hw = std::thread::hardware_concurrency();
  return hw ? static_cast<int>(hw) : 1;
}

ThreadPool::ThreadPool(int thread_count) {
  for (int i = 1; i < thread_count; ++i)
    workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (auto &w : workers_)
    w.join();
}

// Claims and runs tasks of the current batch until none is left. Called with mutex_ unlocked.
void ThreadPool::claim_tasks() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (next_task_ < task_count_) {
    std::size_t index = next_task_++;
    const auto *task = task_;
    lock.unlock();
    (*task)(index);
    lock.lock();
    if (--unfinished_ == 0)
      work_done_.notify_all();
  }
}

void ThreadPool::worker_loop() {
  std::size_t seen_generation = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      work_ready_.wait(lock, [&] { return stopping_ || generation_ != seen_generation; });
      if (stopping_)
        return;
      seen_generation = generation_;
      ++busy_workers_;
    }
    claim_tasks();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--busy_workers_ == 0)
        work_done_.notify_all();
    }
  }
}

void ThreadPool::run(std::size_t task_count, const std::function<void(std::size_t)> &task) {
  if (task_count == 0)
    return;
  if (workers_.empty() || task_count == 1) {
    for (std::size_t i = 0; i < task_count; ++i)
      task(i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    task_count_ = task_count;
    next_task_ = 0;
    unfinished_ = task_count;
    ++generation_;
  }
  work_ready_.notify_all();
  claim_tasks();
  // Wait for the tasks and for every worker to leave claim_tasks(), so that none can observe the
  // next batch's counters while still holding this batch's task pointer.
  std::unique_lock<std::mutex> lock(mutex_);
  work_done_.wait(lock, [&] { return unfinished_ == 0 && busy_workers_ == 0; });
  task_ = nullptr;
  task_count_ = 0;
}

ThreadPool &default_pool() {
  // Never destroyed: at exit the workers are asleep on work_ready_ and simply end with the
  // process. Joining them would make every program's exit wait until each worker has been
  // scheduled once more, milliseconds on a busy machine, which small inputs notice.
  static ThreadPool *pool = new ThreadPool(available_threads());
  return *pool;
}

} // namespace kit
