// Every gpu.h device primitive against a CPU model: warp size, lane ids, the four shuffles,
// ballot and lane-mask helpers, gpu_add_min / gpu_min3 (including the APSP infinity), the spin
// back-off hint, acquire/release message passing between two blocks, the 64-bit atomic max, and
// the memory-movement hints (L2 prefetch, asynchronous global-to-shared copies), the device- and
// block-scope atomics and the cooperative launch.
#include "gpu/backoff.h"
#include "gpu/bulk_copy.h"
#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/launch.h"
#include "gpu/math.h"
#include "gpu/scoped_atomics.h"
#include "gpu/vendor.h"
#include "testing/test_support.h"

#include <algorithm>
#include <random>

namespace {

constexpr int kUpDelta = 3, kDownDelta = 5, kXorMask = 6;
constexpr int kInf = (1 << 30) - 1;

enum Field {
  kLane,
  kWarp,
  kUp,
  kDown,
  kXor,
  kIdx,
  kBallotLo,
  kBallotHi,
  kPopcount,
  kHighest,
  kRank,
  kAddMin,
  kMin3,
  kFields
};
const char *const kFieldNames[kFields] = {
    "lane_id",           "warp_id",           "warp_shfl_up",
    "warp_shfl_down",    "warp_shfl_xor",     "warp_shfl",
    "ballot low word",   "ballot high word",  "lane_mask_popcount",
    "lane_mask_highest", "lane_mask_lt rank", "gpu_add_min",
    "gpu_min3"};

__global__ void warp_size_kernel(int *out) { *out = KIT_WARP_SIZE; }

__global__ void primitives_kernel(const int *in, const int *a, const int *b, const int *c, int *out,
                                  size_t total) {
  const size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const int v = in[i];
  const int lane = kit::lane_id();
  out[kLane * total + i] = lane;
  out[kWarp * total + i] = kit::warp_id();
  out[kUp * total + i] = kit::warp_shfl_up(v, kUpDelta);
  out[kDown * total + i] = kit::warp_shfl_down(v, kDownDelta);
  out[kXor * total + i] = kit::warp_shfl_xor(v, kXorMask);
  out[kIdx * total + i] = kit::warp_shfl(v, (lane * 7 + 3) % KIT_WARP_SIZE);
  const kit::lane_mask_t mask = kit::warp_ballot(v & 1);
  out[kBallotLo * total + i] = static_cast<int>(mask & 0xffffffffu);
  out[kBallotHi * total + i] = static_cast<int>(mask >> 32);
  out[kPopcount * total + i] = kit::lane_mask_popcount(mask);
  out[kHighest * total + i] = kit::lane_mask_highest(mask);
  out[kRank * total + i] = kit::lane_mask_popcount(mask & kit::lane_mask_lt());
  out[kAddMin * total + i] = kit::gpu_add_min(a[i], b[i], c[i]);
  out[kMin3 * total + i] = kit::gpu_min3(a[i], b[i], c[i]);
}

// Block 1 waits for block 0's flag with acquire loads and the spin back-off, then reads the
// payload block 0 wrote before its release store. Any stale read shows up as a wrong payload. The
// flag is 64-bit or 32-bit (the helpers' two sizes); the grid is launched cooperatively, as any
// kernel whose blocks wait for each other must be.
template <class Flag>
__global__ void message_passing_kernel(Flag *flag, int *payload, int *seen, int n, Flag ready) {
  if (blockIdx.x == 0) {
    for (int j = threadIdx.x; j < n; j += blockDim.x)
      payload[j] = 3 * j + 1;
    __syncthreads();
    if (threadIdx.x == 0)
      kit::gpu_store_release(flag, ready);
  } else {
    if (threadIdx.x == 0) {
      kit::SpinBackoff backoff;
      while (kit::gpu_load_acquire(flag) != ready)
        backoff.wait();
    }
    __syncthreads();
    for (int j = threadIdx.x; j < n; j += blockDim.x)
      seen[j] = payload[j];
    if (threadIdx.x == 0)
      seen[n] = static_cast<int>(kit::gpu_load_relaxed(flag) & 0xffff);
  }
}

// Relaxed device-scope stores and loads of every supported type round-trip their bit patterns;
// block-scope ones through shared memory too.
__global__ void relaxed_round_trip_kernel(const float *f_in, const double *d_in, float *f_out,
                                          double *d_out, float *f_block_out) {
  __shared__ float staged[256];
  const int i = threadIdx.x;
  kit::gpu_store_relaxed(f_out + i, kit::gpu_load_relaxed(f_in + i));
  kit::gpu_store_relaxed(d_out + i, kit::gpu_load_relaxed(d_in + i));
  kit::block_store_relaxed(staged + (255 - i), f_in[i]);
  __syncthreads();
  f_block_out[i] = kit::block_load_relaxed(staged + i);
}

// Every thread folds its value into one of `words` counters with the relaxed 64-bit atomic max.
__global__ void atomic_max_kernel(const std::uint64_t *values, std::uint64_t *words, int count,
                                  int word_count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    kit::gpu_atomic_max_relaxed(words + i % word_count, values[i]);
}

// Thread 0 prefetches the block's slice into L2 (a hint: it must change nothing); every thread
// copies one 16-byte vector into shared memory asynchronously; after the wait and a barrier each
// thread writes out a vector another thread copied (reversed), so shared memory really is used.
__global__ void async_copy_kernel(const int4 *in, int4 *out) {
  __shared__ int4 staged[256];
  const int4 *slice = in + static_cast<size_t>(blockIdx.x) * blockDim.x;
  if (threadIdx.x == 0)
    kit::gpu_prefetch_l2(slice, blockDim.x * sizeof(int4));
  kit::gpu_async_copy_16(&staged[threadIdx.x], slice + threadIdx.x);
  kit::gpu_async_copy_wait_all();
  __syncthreads();
  out[static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x] =
      staged[blockDim.x - 1 - threadIdx.x];
}

void model(const std::vector<int> &in, const std::vector<int> &a, const std::vector<int> &b,
           const std::vector<int> &c, int warp, std::vector<int> &want) {
  const size_t total = in.size();
  for (size_t base = 0; base < total; base += warp) {
    std::uint64_t mask = 0;
    for (int l = 0; l < warp; ++l)
      if (in[base + l] & 1)
        mask |= std::uint64_t{1} << l;
    for (int l = 0; l < warp; ++l) {
      const size_t i = base + l;
      want[kLane * total + i] = l;
      want[kUp * total + i] = l >= kUpDelta ? in[i - kUpDelta] : in[i];
      want[kDown * total + i] = l + kDownDelta < warp ? in[i + kDownDelta] : in[i];
      want[kXor * total + i] = in[base + (l ^ kXorMask)];
      want[kIdx * total + i] = in[base + (l * 7 + 3) % warp];
      want[kBallotLo * total + i] = static_cast<int>(mask & 0xffffffffu);
      want[kBallotHi * total + i] = static_cast<int>(mask >> 32);
      want[kPopcount * total + i] = __builtin_popcountll(mask);
      want[kHighest * total + i] = mask ? 63 - __builtin_clzll(mask) : -1;
      want[kRank * total + i] = __builtin_popcountll(mask & ((std::uint64_t{1} << l) - 1));
      want[kAddMin * total + i] = std::min(a[i] + b[i], c[i]);
      want[kMin3 * total + i] = std::min({a[i], b[i], c[i]});
    }
  }
}

} // namespace

int main() {
  kit::test::begin_gpu_test("gpu_primitives_test");
  kit::test::Checker check;
  const int warp = kit::gpu::device_warp_size();

  kit::test::DeviceBuffer<int> d_warp(1);
  warp_size_kernel<<<1, 1>>>(d_warp.get());
  GPU_CHECK_LAUNCH("warp_size_kernel");
  check.expect(d_warp.download()[0] == warp, "KIT_WARP_SIZE equals the device's warp size");
  std::printf("device warp size %d\n", warp);

  std::mt19937 rng(7);
  for (int block : {64, 256, kit::test::kLargestBlock}) {
    const size_t total = static_cast<size_t>(block) * 3;
    std::vector<int> in(total), a(total), b(total), c(total);
    std::uniform_int_distribution<int> any(-(1 << 20), 1 << 20), weight(0, 1000);
    for (size_t i = 0; i < total; ++i) {
      in[i] = any(rng);
      // Distances as APSP sees them: sometimes infinite, so INF + INF must not overflow.
      a[i] = i % 5 == 0 ? kInf : weight(rng) * 40;
      b[i] = i % 7 == 0 ? kInf : weight(rng) * 40;
      c[i] = i % 3 == 0 ? kInf : weight(rng) * 40;
    }
    // All-set and all-clear ballots in the first two warps.
    for (int l = 0; l < warp; ++l) {
      in[l] |= 1;
      in[warp + l] &= ~1;
    }
    kit::test::DeviceBuffer<int> d_in(total), d_a(total), d_b(total), d_c(total);
    kit::test::DeviceBuffer<int> d_out(kFields * total);
    d_in.upload(in);
    d_a.upload(a);
    d_b.upload(b);
    d_c.upload(c);
    primitives_kernel<<<3, block>>>(d_in.get(), d_a.get(), d_b.get(), d_c.get(), d_out.get(),
                                    total);
    GPU_CHECK_LAUNCH("primitives_kernel");
    std::vector<int> got = d_out.download(), want(kFields * total);
    model(in, a, b, c, warp, want);
    for (size_t i = 0; i < total; ++i)
      want[kWarp * total + i] = static_cast<int>(i % block) / warp;
    for (int f = 0; f < kFields; ++f) {
      char what[96];
      std::snprintf(what, sizeof what, "%s (block %d)", kFieldNames[f], block);
      check.expect_equal(std::vector<int>(got.begin() + f * total, got.begin() + (f + 1) * total),
                         std::vector<int>(want.begin() + f * total, want.begin() + (f + 1) * total),
                         what);
    }
  }

  const int payload_size = 4096;
  auto message_passing = [&](auto ready, const char *what) {
    using Flag = decltype(ready);
    for (int round = 0; round < 20; ++round) {
      kit::test::DeviceBuffer<Flag> d_flag(1);
      kit::test::DeviceBuffer<int> d_payload(payload_size), d_seen(payload_size + 1);
      GPU_CHECK(cudaMemset(d_flag.get(), 0, sizeof(Flag)));
      // Block 1 waits for block 0: without a cooperative launch the test cannot run safely.
      if (!kit::gpu::try_launch_cooperative("message_passing_kernel", message_passing_kernel<Flag>,
                                            2, 256, 0, nullptr, d_flag.get(), d_payload.get(),
                                            d_seen.get(), payload_size, ready)) {
        check.expect(false, "cooperative launch of message_passing_kernel");
        return;
      }
      std::vector<int> want(payload_size + 1);
      for (int j = 0; j < payload_size; ++j)
        want[j] = 3 * j + 1;
      want[payload_size] = static_cast<int>(ready & 0xffff);
      check.expect_equal(d_seen.download(), want, what);
    }
  };
  message_passing(std::uint64_t{0x1234567890ull}, "acquire/release message passing (64-bit)");
  message_passing(0x9abcdefu, "acquire/release message passing (32-bit)");
  {
    std::vector<float> f_in(256);
    std::vector<double> d_in(256);
    for (int i = 0; i < 256; ++i) {
      f_in[i] = i % 7 == 0 ? -0.0f : 1.5f * static_cast<float>(i) - 100.25f;
      d_in[i] = static_cast<double>(i) * 1e-300 - 3.0;
    }
    kit::test::DeviceBuffer<float> d_f_in(256), d_f_out(256), d_f_block(256);
    kit::test::DeviceBuffer<double> d_d_in(256), d_d_out(256);
    d_f_in.upload(f_in);
    d_d_in.upload(d_in);
    relaxed_round_trip_kernel<<<1, 256>>>(d_f_in.get(), d_d_in.get(), d_f_out.get(), d_d_out.get(),
                                          d_f_block.get());
    GPU_CHECK_LAUNCH("relaxed_round_trip_kernel");
    check.expect_equal(d_f_out.download(), f_in, "gpu_load/store_relaxed (float)");
    check.expect_equal(d_d_out.download(), d_in, "gpu_load/store_relaxed (double)");
    std::vector<float> reversed(f_in.rbegin(), f_in.rend());
    check.expect_equal(d_f_block.download(), reversed, "block_load/store_relaxed (float)");
  }
  {
    const int count = 8 * 256, word_count = 5;
    std::vector<std::uint64_t> values(count);
    std::mt19937_64 rng64(11);
    for (auto &v : values) // the full unsigned range: the high bit must compare as unsigned
      v = rng64();
    std::vector<std::uint64_t> want(word_count, 0);
    for (int i = 0; i < count; ++i)
      want[i % word_count] = std::max(want[i % word_count], values[i]);
    kit::test::DeviceBuffer<std::uint64_t> d_values(count), d_words(word_count);
    d_values.upload(values);
    GPU_CHECK(cudaMemset(d_words.get(), 0, word_count * sizeof(std::uint64_t)));
    atomic_max_kernel<<<8, 256>>>(d_values.get(), d_words.get(), count, word_count);
    GPU_CHECK_LAUNCH("atomic_max_kernel");
    check.expect_equal(d_words.download(), want, "gpu_atomic_max_relaxed (unsigned 64-bit)");
  }
  {
    const int blocks = 6, threads = 256, vectors = blocks * threads;
    std::vector<int> in(4 * vectors), want(4 * vectors);
    std::uniform_int_distribution<int> any(-(1 << 30), 1 << 30);
    for (int &x : in)
      x = any(rng);
    for (int v = 0; v < vectors; ++v) {
      const int source = v / threads * threads + (threads - 1 - v % threads);
      for (int k = 0; k < 4; ++k)
        want[4 * v + k] = in[4 * source + k];
    }
    kit::test::DeviceBuffer<int> d_in(in.size()), d_out(in.size());
    d_in.upload(in);
    async_copy_kernel<<<blocks, threads>>>(reinterpret_cast<const int4 *>(d_in.get()),
                                           reinterpret_cast<int4 *>(d_out.get()));
    GPU_CHECK_LAUNCH("async_copy_kernel");
    check.expect_equal(d_out.download(), want, "gpu_prefetch_l2 + gpu_async_copy_16");
  }
  return check.finish("gpu_primitives_test");
}
