// GPU runtime start-up on a background thread. Creating the driver context costs 0.1-0.5 s
// (about 0.45 s with HIP on the contest's MI100); started right after the input's header has been
// read, it overlaps the parsing of the values instead of delaying solve(). No GPU header here:
// gpu_warmup.cpp holds the runtime calls, and on the CPU backend (KIT_BACKEND_CPU) it compiles to
// nothing that touches a GPU.
#pragma once

#include <thread>

namespace kit::io {

// True when this program was built for a GPU backend (CUDA or HIP), so that solve() runs there.
bool built_for_gpu();

class GpuWarmup {
public:
  GpuWarmup() = default;
  GpuWarmup(const GpuWarmup &) = delete;
  GpuWarmup &operator=(const GpuWarmup &) = delete;
  // Waits for a start-up still in progress (an input error may end the program early); errors
  // are left to the runtime calls that follow, if any.
  ~GpuWarmup();

  // Creates the context of the current device (cudaFree(0) / hipFree(0)) on a new thread, then
  // calls `load_code` there (when given and the runtime started): the problem's
  // preload_gpu_code(), which loads the code of the kernels solve() launches, so that the
  // runtime's lazy code loading happens during parsing too. Does nothing on the CPU backend.
  // Starts at most once.
  void start(void (*load_code)() = nullptr);
  // Returns once the runtime is up. A failed start-up is reported like GPU_CHECK reports any
  // call ("CUDA error: cudaFree(nullptr) ... failed at ...: <cause>", on HIP "HIP error:
  // hipFree(nullptr) ...") and ends the program with kit::gpu::kGpuFailureExitCode (3). Starts
  // the runtime on this thread if start() was not called (or could not create its thread).
  void finish();

  // How long creating the runtime took, on whichever thread did it (0 before finish(), and on
  // the CPU backend).
  double startup_ms() const { return startup_ms_; }

private:
  std::thread thread_;
  int status_ = 0; // the runtime's error code of the start-up (0: success)
  double startup_ms_ = 0;
  bool started_ = false;
  bool finished_ = false;
};

} // namespace kit::io
