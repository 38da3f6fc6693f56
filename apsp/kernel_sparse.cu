// Sparse path: a frontier Bellman-Ford per source, one source per thread block at a time.
//
// A block keeps the tentative distances of its source and two vertex queues. Each round, the
// threads take the vertices of the current queue, relax all their out-arcs with atomicMin, and
// push every vertex whose distance dropped into the next queue, at most once per round thanks to
// a per-vertex mark (the round's number, unique within the block, set with atomicExch). Work is
// proportional to the arcs of improved vertices, rounds to the number of arcs on shortest paths,
// and a round costs one barrier: the path for graphs with E far below V^2 (kernel_path.h).
//
// Distances and marks live in shared memory when 2 * V ints fit (shared atomics), otherwise the
// distances are the output row itself and the marks a per-block global array.
#include "kernel_sparse.h"

#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/launch.h"
#include "gpu/scoped_atomics.h"
#include "gpu/tuning_dispatch.h"
#include "kernel_rows.h"
#include "tuning.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace apsp {

namespace {

// The kernel's static shared variables (queue lengths, the block's source slot) take 16 bytes;
// this bound leaves room for their alignment next to the dynamic shared state.
constexpr std::size_t kStaticSharedBound = 64;

struct DeviceCsr {
  int vertices;
  const int *first_arc; // vertices + 1 offsets into arcs
  const int2 *arcs;     // {destination, weight}
};

// Co-residency: no inter-block waiting. Blocks take sources from an atomic counter (a work queue
// that never waits: a block that finds it exhausted returns), and each block reads and writes
// only its own distances, queues and marks; the grid is at most the resident blocks only so that
// no block idles.
//
// Memory idiom and why it is exact. In a round, a thread reads distances that other threads of
// its block may be lowering at that moment (there is no barrier between a relaxation and a read
// in the same round), so those reads are atomic loads, kit::gpu_load_relaxed, and the writes are
// atomicMin. Device scope is more than the block needs and compiles to what the volatile loads it
// replaces did (LDS reads for the shared state; L1-bypassing loads for the global state).
// Relaxed order suffices because the relaxation is monotone: every value d[v] ever holds is the
// length of a real path or INF, and d[v] only decreases, so any load returns an upper bound of
// the current value, and a stale one only delays convergence. A stale d[v] in the filter
// `candidate < d[v]` lets a useless atomicMin through. A stale d[u] relaxes u's arcs with too
// large a value, but the thread that lowered d[u] also queued u for the next round, and that
// round reads d[u] after the barrier, which orders the atomicMin before the read (block-scope
// happens-before plus per-location coherence), so u's arcs are relaxed again with at least that
// value. Hence when a round ends with an empty queue, every arc (u, v) was last relaxed with the
// final d[u], d[v] <= d[u] + w for all arcs, and the distances are exact. Only coherence per
// location and the barrier's ordering are used: both hold for relaxed agent-scope atomics and
// __syncthreads in HIP's memory model (LLVM AMDGPU, GFX9: agent-scope loads and atomics are
// performed at L2, and the barrier waits for the block's outstanding accesses) as in CUDA's.
template <bool kSharedState, int kThreads>
__global__ void __launch_bounds__(kThreads)
    sssp_rows_kernel(DeviceCsr graph, int first_source, int source_count, int *out, int *queues,
                     int *global_marks, int *next_slot) {
  extern __shared__ int shared_state[];
  __shared__ int queue_length[3];
  __shared__ int block_slot;
  const int vertices = graph.vertices;
  int *queue_even = queues + static_cast<std::size_t>(blockIdx.x) * 2 * vertices;
  int *queue_odd = queue_even + vertices;
  int *mark_of = kSharedState ? shared_state + vertices
                              : global_marks + static_cast<std::size_t>(blockIdx.x) * vertices;
  for (int v = threadIdx.x; v < vertices; v += kThreads)
    mark_of[v] = -1;
  int mark = 0; // the current round's mark; strictly increasing over the block's lifetime

  for (;;) {
    if (threadIdx.x == 0) {
      block_slot = atomicAdd(next_slot, 1);
      // Round r reads length slot r % 3, pushes into (r + 1) % 3 and clears (r + 2) % 3, the
      // slot read in round r - 1: one barrier per round is enough.
      queue_length[0] = 1;
      queue_length[1] = 0;
      queue_length[2] = 0;
    }
    __syncthreads();
    const int slot = block_slot;
    if (slot >= source_count)
      return;
    const int source = first_source + slot;
    int *row = out + static_cast<std::size_t>(slot) * vertices;
    int *dist = kSharedState ? shared_state : row;
    for (int v = threadIdx.x; v < vertices; v += kThreads)
      dist[v] = v == source ? 0 : kApspInf;
    if (threadIdx.x == 0)
      queue_even[0] = source;
    __syncthreads();

    for (int round = 0;; ++round, ++mark) {
      const int length = queue_length[round % 3];
      if (length == 0)
        break;
      const int *current = (round & 1) ? queue_odd : queue_even;
      int *next = (round & 1) ? queue_even : queue_odd;
      int *next_length = &queue_length[(round + 1) % 3];
      for (int i = threadIdx.x; i < length; i += kThreads) {
        const int u = current[i];
        const int du = kit::gpu_load_relaxed(dist + u);
        const int end = graph.first_arc[u + 1];
        for (int e = graph.first_arc[u]; e < end; ++e) {
          const int2 arc = graph.arcs[e];
          const int candidate = du + arc.y;
          if (candidate < kit::gpu_load_relaxed(dist + arc.x)) {
            const int previous = atomicMin(dist + arc.x, candidate);
            if (candidate < previous && atomicExch(mark_of + arc.x, mark) != mark)
              next[atomicAdd(next_length, 1)] = arc.x;
          }
        }
      }
      if (threadIdx.x == 0)
        queue_length[(round + 2) % 3] = 0;
      __syncthreads();
    }
    if (kSharedState)
      for (int v = threadIdx.x; v < vertices; v += kThreads)
        row[v] = dist[v];
    __syncthreads(); // the next source reuses the shared distances and queue lengths
  }
}

template <bool kSharedState, class Tuning> constexpr auto sssp_kernel(Tuning) {
  return sssp_rows_kernel<kSharedState, Tuning::kSparseThreads>;
}

std::size_t shared_state_bytes(int vertices) {
  return 2 * static_cast<std::size_t>(vertices) * sizeof(int);
}

// Blocks of the shared-state kernel the device holds at once, after raising the kernel's
// shared-memory limit to what it will use (the occupancy query honours that opt-in).
int shared_state_resident_blocks(int vertices) {
  const std::size_t bytes = shared_state_bytes(vertices);
  return kit::gpu::with_tuning<ApspTuning>([&](auto tuning) {
    const auto kernel = sssp_kernel<true>(tuning);
    GPU_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void *>(kernel),
                                   cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   static_cast<int>(bytes)));
    return kit::gpu::resident_blocks(kernel, decltype(tuning)::kSparseThreads, bytes);
  });
}

int global_state_resident_blocks() {
  return kit::gpu::with_tuning<ApspTuning>([](auto tuning) {
    return kit::gpu::resident_blocks(sssp_kernel<false>(tuning), decltype(tuning)::kSparseThreads);
  });
}

} // namespace

bool sparse_shared_state_fits(int vertices) {
  return shared_state_bytes(vertices) + kStaticSharedBound <=
         static_cast<std::size_t>(kit::gpu::max_shared_bytes_per_block());
}

int sparse_shared_state_blocks_per_sm(int vertices) {
  if (!sparse_shared_state_fits(vertices))
    return 0;
  return shared_state_resident_blocks(vertices) / kit::gpu::device_multiprocessors();
}

SparseSolver::SparseSolver(const Graph &graph, SparseState state) : vertices_(graph.vertices) {
  const int v = vertices_;
  // CSR on the host: a counting sort of the arcs by source (duplicates are harmless: the
  // relaxation keeps the smaller weight).
  std::vector<int> first_arc(static_cast<std::size_t>(v) + 1, 0);
  std::size_t invalid = 0;
  for (const Edge &e : graph.edges) {
    if (static_cast<unsigned>(e.src) >= static_cast<unsigned>(v) ||
        static_cast<unsigned>(e.dst) >= static_cast<unsigned>(v) ||
        static_cast<unsigned>(e.weight) > static_cast<unsigned>(kApspMaxWeight)) {
      ++invalid;
      continue;
    }
    ++first_arc[static_cast<std::size_t>(e.src) + 1];
  }
  if (invalid > 0) {
    std::fprintf(stderr,
                 "apsp: %zu edges have an endpoint outside [0, %d) or a weight outside [0, %d]\n",
                 invalid, v, kApspMaxWeight);
    std::exit(2);
  }
  for (int i = 0; i < v; ++i)
    first_arc[i + 1] += first_arc[i];
  std::vector<int2> arcs(graph.edges.size());
  {
    std::vector<int> fill(first_arc.begin(), first_arc.end() - 1);
    for (const Edge &e : graph.edges)
      arcs[fill[e.src]++] = make_int2(e.dst, e.weight);
  }

  if (state == SparseState::Shared && !sparse_shared_state_fits(v)) {
    std::fprintf(stderr,
                 "apsp: V=%d is too large for the shared-memory sparse search (%zu bytes "
                 "per block, the device allows %d)\n",
                 v, shared_state_bytes(v), kit::gpu::max_shared_bytes_per_block());
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  shared_state_ =
      state == SparseState::Shared || (state == SparseState::Auto && sparse_shared_state_fits(v));
  if (shared_state_) {
    shared_bytes_ = shared_state_bytes(v);
    resident_blocks_ = std::max(1, shared_state_resident_blocks(v));
  } else {
    resident_blocks_ = std::max(1, global_state_resident_blocks());
  }

  const std::size_t blocks = static_cast<std::size_t>(resident_blocks_);
  first_arc_ = kit::gpu::DeviceArray<int>(first_arc.size());
  arcs_ = kit::gpu::DeviceArray<int2>(arcs.size());
  queues_ = kit::gpu::DeviceArray<int>(blocks * 2 * v);
  if (!shared_state_)
    marks_ = kit::gpu::DeviceArray<int>(blocks * v);
  next_source_ = kit::gpu::DeviceArray<int>(1);
  GPU_CHECK(cudaMemcpy(first_arc_.get(), first_arc.data(), first_arc.size() * sizeof(int),
                       cudaMemcpyHostToDevice));
  if (!arcs.empty())
    GPU_CHECK(
        cudaMemcpy(arcs_.get(), arcs.data(), arcs.size() * sizeof(int2), cudaMemcpyHostToDevice));
  // A copy from pageable memory may return before its DMA has reached the device (the runtimes'
  // synchronisation rules for pageable transfers), and compute_rows launches on a non-blocking
  // stream, which is not ordered after the default stream: without this wait a search could read
  // arcs not yet copied.
  GPU_CHECK(cudaStreamSynchronize(nullptr));
}

void SparseSolver::compute_rows(int first, int count, int *out, cudaStream_t stream) {
  if (count <= 0)
    return;
  GPU_CHECK(cudaMemsetAsync(next_source_.get(), 0, sizeof(int), stream));
  const DeviceCsr graph{vertices_, first_arc_.get(), arcs_.get()};
  const int blocks = std::min(count, resident_blocks_);
  kit::gpu::with_tuning<ApspTuning>([&](auto tuning) {
    constexpr int kThreads = decltype(tuning)::kSparseThreads;
    if (shared_state_)
      sssp_rows_kernel<true, kThreads><<<blocks, kThreads, shared_bytes_, stream>>>(
          graph, first, count, out, queues_.get(), marks_.get(), next_source_.get());
    else
      sssp_rows_kernel<false, kThreads><<<blocks, kThreads, 0, stream>>>(
          graph, first, count, out, queues_.get(), marks_.get(), next_source_.get());
  });
  GPU_CHECK_LAUNCH("sssp_rows_kernel");
}

void solve_sparse(const Graph &graph, const RowBlockSink &sink) {
  const int vertices = graph.vertices;
  if (vertices <= 0)
    return;
  SparseSolver solver(graph);
  const std::size_t row_bytes = static_cast<std::size_t>(vertices) * sizeof(int);
  int batch_rows = kit::gpu::with_tuning<ApspTuning>([&](auto tuning) {
    using Tuning = decltype(tuning);
    return static_cast<int>(std::max<std::size_t>(
        Tuning::kSparseBatchBytes / row_bytes,
        static_cast<std::size_t>(Tuning::kSparseBatchRowsPerBlock) * solver.resident_blocks()));
  });
  batch_rows = std::min(batch_rows, vertices);
  // Two batches of rows in flight; shrink them when device memory is short.
  std::size_t free_bytes = 0, total_bytes = 0;
  GPU_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  while (batch_rows > 1 && 2 * row_bytes * batch_rows > free_bytes / 2)
    batch_rows /= 2;
  if (2 * row_bytes * batch_rows > free_bytes) {
    std::fprintf(stderr,
                 "apsp: V=%d needs %zu bytes of GPU memory for two rows of distances, but only "
                 "%zu of %zu bytes are free\n",
                 vertices, 2 * row_bytes, free_bytes, total_bytes);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  const int batches = (vertices + batch_rows - 1) / batch_rows;
  kit::gpu::Stream stream;
  kit::gpu::DeviceArray<int> slab[2];
  kit::gpu::Event computed[2];
  for (int b = 0; b < std::min(2, batches); ++b)
    slab[b] = kit::gpu::DeviceArray<int>(static_cast<std::size_t>(vertices) * batch_rows);
  auto launch = [&](int batch) {
    const int first = batch * batch_rows;
    solver.compute_rows(first, std::min(batch_rows, vertices - first), slab[batch % 2].get(),
                        stream.get());
    GPU_CHECK(cudaEventRecord(computed[batch % 2].get(), stream.get()));
  };
  launch(0);
  RowStreamer streamer(vertices, batch_rows);
  for (int batch = 0; batch < batches; ++batch) {
    // The other slab was delivered (copied out) in the previous iteration.
    if (batch + 1 < batches)
      launch(batch + 1);
    const int first = batch * batch_rows;
    streamer.deliver(slab[batch % 2].get(), vertices, first, std::min(batch_rows, vertices - first),
                     computed[batch % 2].get(), sink);
  }
}

void preload_sparse_code() {
  kit::gpu::with_tuning<ApspTuning>([](auto tuning) {
    kit::gpu::load_kernel_code(sssp_kernel<true>(tuning));
    kit::gpu::load_kernel_code(sssp_kernel<false>(tuning));
  });
}

} // namespace apsp
