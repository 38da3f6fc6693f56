// Times one whole process the way the grader does: `run_timed OUT PROGRAM ARGS...` runs PROGRAM
// with stdout redirected to the regular file OUT (stderr passes through) and prints
// "<wall seconds> <peak RSS KiB> <exit status>" on its own stdout: wall time from fork to exit,
// peak resident memory from the child's rusage (ru_maxrss).
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "Usage: %s <stdout_file> <program> [args...]\n", argv[0]);
    return 2;
  }
  const int out = ::open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out < 0) {
    std::fprintf(stderr, "%s: cannot open: %s\n", argv[1], std::strerror(errno));
    return 2;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = ::fork();
  if (child < 0) {
    std::fprintf(stderr, "fork failed: %s\n", std::strerror(errno));
    return 2;
  }
  if (child == 0) {
    ::dup2(out, STDOUT_FILENO);
    ::execvp(argv[2], argv + 2);
    std::fprintf(stderr, "%s: cannot run: %s\n", argv[2], std::strerror(errno));
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  while (::wait4(child, &status, 0, &usage) < 0) {
    if (errno != EINTR) {
      std::fprintf(stderr, "wait4 failed: %s\n", std::strerror(errno));
      return 2;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::printf("%.3f %ld %d\n", seconds, usage.ru_maxrss, exit_status);
  return 0;
}
