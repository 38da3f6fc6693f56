// Host threads for text I/O and CPU references: how many cores this process may use, and a small
// persistent pool that runs indexed tasks with the caller taking part.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kit {

// Cores this process may run on: the CPU affinity mask (what SLURM's --cpus-per-task and taskset
// grant), not the machine's core count. KIT_THREADS=<n> in the environment overrides it, which
// the tests use to check that results do not depend on the thread count.
int available_threads();

// Runs `task(i)` for i in [0, task_count) on `thread_count` threads (the caller is one of them)
// and returns when all have finished. Tasks are claimed in increasing index order, so a task may
// wait for a lower-numbered one without deadlock as long as it never waits for a higher one.
// Workers are started once and reused: the apsp output calls this once per row block.
class ThreadPool {
public:
  explicit ThreadPool(int thread_count);
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;
  ~ThreadPool();

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  void run(std::size_t task_count, const std::function<void(std::size_t)> &task);

private:
  void worker_loop();
  void claim_tasks();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable work_done_;
  const std::function<void(std::size_t)> *task_ = nullptr;
  std::size_t task_count_ = 0;
  std::size_t next_task_ = 0;
  std::size_t unfinished_ = 0;
  std::size_t generation_ = 0;
  int busy_workers_ = 0;
  bool stopping_ = false;
};

// The process-wide pool, sized by available_threads() on first use and never destroyed.
ThreadPool &default_pool();

} // namespace kit
