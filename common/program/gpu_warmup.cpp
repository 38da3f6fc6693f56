#include "program/gpu_warmup.h"

#include <chrono>
#include <system_error>

// The one place the contest programs' host code (as opposed to the kernels) touches the GPU
// runtime. One file for every backend, selected by the backend macro rather than by CMake, so that
// the submission exporter (which inlines library sources and pins the backend to HIP) gets the
// GPU version whatever backend the exporting build was configured with.
#if !defined(KIT_BACKEND_CPU)
#include "gpu/check.h"
#include "gpu/vendor.h"
#endif

namespace kit::io {

#if defined(KIT_BACKEND_CPU)

bool built_for_gpu() { return false; }
GpuWarmup::~GpuWarmup() = default;
void GpuWarmup::start(void (*)()) {}
void GpuWarmup::finish() {}

#else

namespace {

// cudaFree(nullptr) is the customary no-op that forces the primary context of the current device
// to be created (hipFree(nullptr) likewise initialises HIP). Returns the error code and stores
// the time it took.
int start_runtime(double *ms) {
  const auto start = std::chrono::steady_clock::now();
  const int status = static_cast<int>(cudaFree(nullptr));
  *ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return status;
}

} // namespace

bool built_for_gpu() { return true; }

GpuWarmup::~GpuWarmup() {
  if (thread_.joinable())
    thread_.join();
}

void GpuWarmup::start(void (*load_code)()) {
  if (started_)
    return;
  started_ = true;
  try {
    thread_ = std::thread([this, load_code] {
      status_ = start_runtime(&startup_ms_);
      if (status_ == 0 && load_code)
        load_code(); // a failing runtime call there reports itself and exits, as in solve()
    });
  } catch (const std::system_error &) {
    started_ = false; // no thread: finish() starts the runtime itself
  }
}

void GpuWarmup::finish() {
  if (finished_)
    return;
  finished_ = true;
  if (thread_.joinable())
    thread_.join();
  else
    status_ = start_runtime(&startup_ms_);
  // In CUDA spelling like every checked call; on HIP the message names hipFree (gpu/check.h).
  kit::gpu::check(static_cast<cudaError_t>(status_),
                  "cudaFree(nullptr) (GPU runtime start-up, overlapped with input parsing)",
                  __FILE__, __LINE__);
}

#endif

} // namespace kit::io
