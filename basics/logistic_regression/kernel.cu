// logistic_regression: the coefficients beta of an L2-regularised logistic regression of the 0/1
// targets y on the n_samples x n_features matrix X (row-major), found by the judge's Newton
// iteration (LeetGPU signature, device pointers). From beta = 0, at most 1000 steps of
//   p = sigmoid(X beta), w = max(p (1 - p), 1e-8),
//   g = X^T (p - y) + 1e-6 beta,  H = X^T diag(w) X + 1e-6 I,  beta <- beta - H^-1 g,
// stopping after the step whose length |H^-1 g| is below 1e-8.
//
// The judge iterates in float32; the kit in double (the products of the float inputs exact, every
// sum in a fixed order), which reaches the same optimum more closely: near it a float32 step is
// dominated by rounding, so the judge's run wanders around the optimum (and usually runs all 1000
// steps), while the double run converges and stops. For separable data the optimum is set by the
// 1e-6 regularisation alone; the judge's performance case is such a case (each feature's two
// samples share their label), whose coefficients are about +-12.
//
// One block runs the whole iteration: per step, each thread forms p - y and w for its samples,
// then each element of H and g is a thread's sum over the samples, then the symmetric positive
// definite system is solved (primitives/block_spd_solve.h, 2 n_features barriers) and beta moves.
// The work area (H, g, the step, beta, then p - y and w per sample) lives in shared memory when it
// fits in 48 KB (the judge's 16 x 8 case among them), otherwise in a device scratch buffer that
// only this block touches. One launch; nothing waits on the host.
#include "gpu/check.h"
#include "gpu/device_scratch.h"
#include "gpu/vendor.h"
#include "primitives/block_spd_solve.h"

#include <cstddef>

namespace {

constexpr int kThreads = 256;
constexpr int kSharedDoubles = 6112; // 48 KB less the static `converged` flag, rounded down
constexpr int kMaxSteps = 1000;
constexpr double kTolerance = 1e-8;
constexpr double kRidge = 1e-6;
constexpr double kMinWeight = 1e-8;

static_assert(kThreads % 64 == 0, "block sizes are multiples of 64 (AMD wave64)");

// Doubles of the work area: H (n x n), g, step, beta (n each), p - y and w (one per sample each).
__host__ __device__ inline std::size_t work_doubles(int samples, int n) {
  return static_cast<std::size_t>(n) * n + 3 * static_cast<std::size_t>(n) +
         2 * static_cast<std::size_t>(samples);
}

__global__ void __launch_bounds__(kThreads)
    newton_logistic(const float *__restrict__ X, const float *__restrict__ y,
                    float *__restrict__ beta_out, int samples, int n, double *global_work) {
  extern __shared__ double shared_work[];
  __shared__ int converged;
  double *const H = global_work ? global_work : shared_work;
  double *const g = H + static_cast<std::size_t>(n) * n;
  double *const step = g + n;
  double *const beta = step + n;
  double *const residual = beta + n; // p - y
  double *const weight = residual + samples;
  const int thread = static_cast<int>(threadIdx.x);
  for (int j = thread; j < n; j += kThreads)
    beta[j] = 0.0;
  __syncthreads();
  for (int iteration = 0; iteration < kMaxSteps; ++iteration) {
    for (int s = thread; s < samples; s += kThreads) {
      const float *row = X + static_cast<std::size_t>(s) * n;
      double z = 0.0;
      for (int a = 0; a < n; ++a)
        z += static_cast<double>(row[a]) * beta[a];
      const double p = 1.0 / (1.0 + exp(-z));
      residual[s] = p - static_cast<double>(y[s]);
      weight[s] = fmax(p * (1.0 - p), kMinWeight);
    }
    __syncthreads();
    // Element e of the system: H[a][c] for e = a * n + c < n * n, else g[e - n * n].
    for (int e = thread; e < n * n + n; e += kThreads) {
      const bool hessian = e < n * n;
      const int a = hessian ? e / n : e - n * n;
      const int c = hessian ? e - a * n : 0;
      double sum = 0.0;
      for (int s = 0; s < samples; ++s) {
        const std::size_t row = static_cast<std::size_t>(s) * n;
        sum += hessian ? static_cast<double>(X[row + a]) * weight[s] * X[row + c]
                       : static_cast<double>(X[row + a]) * residual[s];
      }
      if (hessian)
        H[e] = sum + (a == c ? kRidge : 0.0);
      else
        g[a] = sum + kRidge * beta[a];
    }
    kit::block_spd::solve<kThreads>(H, g, step, n); // barriers before and after
    if (thread == 0) {
      double length = 0.0;
      for (int j = 0; j < n; ++j)
        length += step[j] * step[j];
      converged = sqrt(length) < kTolerance;
    }
    for (int j = thread; j < n; j += kThreads)
      beta[j] -= step[j];
    __syncthreads();
    if (converged)
      break;
    __syncthreads(); // `converged` is rewritten by the next step only after everyone read it
  }
  for (int j = thread; j < n; j += kThreads)
    beta_out[j] = static_cast<float>(beta[j]);
}

} // namespace

extern "C" void solve(const float *X, const float *y, float *beta, int n_samples, int n_features) {
  if (n_samples <= 0 || n_features <= 0)
    return;
  const std::size_t doubles = work_doubles(n_samples, n_features);
  if (doubles <= kSharedDoubles) {
    newton_logistic<<<1, kThreads, doubles * sizeof(double)>>>(X, y, beta, n_samples, n_features,
                                                               nullptr);
  } else {
    static kit::gpu::DeviceScratch scratch;
    double *work = static_cast<double *>(scratch.reserve(doubles * sizeof(double)));
    newton_logistic<<<1, kThreads>>>(X, y, beta, n_samples, n_features, work);
  }
  GPU_CHECK_LAUNCH("newton_logistic");
}
