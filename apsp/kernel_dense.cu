// Dense path: the matrix build, the tuned Floyd-Warshall and the copy-back. INF = 2^30 - 1 and
// every stored value is <= INF, so a + b <= 2^31 - 2 never overflows in the tile kernels.
//
// Co-residency: no kernel here waits on another block. The rounds of Floyd-Warshall are ordered
// by the stream; the scatter's atomicMin and error counter only combine, never wait.
#include "kernel_dense.h"

#include "kernel_rows.h"
#include "primitives/floyd_warshall_tiles.h"
#include "tuning.h"

#include "gpu/check.h"
#include "gpu/device.h"
#include "gpu/launch.h"
#include "gpu/resources.h"
#include "gpu/tuning_dispatch.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace apsp {

using kit::min_plus::floyd_warshall_tiles;
using kit::min_plus::floyd_warshall_tiles_fit_device;
using kit::min_plus::TileShape;

namespace {

// Every distance INF except the diagonal; one block per row, vector stores (n a multiple of 4).
__global__ void fill_matrix_kernel(int *d, int n) {
  const int row = blockIdx.x;
  int4 *line = reinterpret_cast<int4 *>(d + static_cast<std::size_t>(row) * n);
  for (int v = threadIdx.x; v < n / 4; v += blockDim.x) {
    int4 value = make_int4(kApspInf, kApspInf, kApspInf, kApspInf);
    if (row / 4 == v) {
      const int lane = row % 4;
      value.x = lane == 0 ? 0 : kApspInf;
      value.y = lane == 1 ? 0 : kApspInf;
      value.z = lane == 2 ? 0 : kApspInf;
      value.w = lane == 3 ? 0 : kApspInf;
    }
    line[v] = value;
  }
}

// Keeps the smallest weight per (src, dst); counts edges that break the input contract.
__global__ void scatter_edges_kernel(const Edge *edges, int count, int *d, int n, int vertices,
                                     int *invalid) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const Edge e = edges[i];
    if (static_cast<unsigned>(e.src) >= static_cast<unsigned>(vertices) ||
        static_cast<unsigned>(e.dst) >= static_cast<unsigned>(vertices) ||
        static_cast<unsigned>(e.weight) > static_cast<unsigned>(kApspMaxWeight)) {
      atomicAdd(invalid, 1);
      continue;
    }
    atomicMin(d + static_cast<std::size_t>(e.src) * n + e.dst, e.weight);
  }
}

} // namespace

int dense_tile() {
  return kit::gpu::with_tuning<ApspTuning>(
      [](auto tuning) { return TileShape<int, decltype(tuning)::kDenseRegisterBlock>::kTile; });
}

bool dense_fits_device() {
  return kit::gpu::with_tuning<ApspTuning>([](auto tuning) {
    return floyd_warshall_tiles_fit_device<int, decltype(tuning)::kDenseRegisterBlock>();
  });
}

void preload_dense_code() {
  kit::gpu::load_kernel_code(fill_matrix_kernel);
  kit::gpu::load_kernel_code(scatter_edges_kernel);
  kit::gpu::with_tuning<ApspTuning>([](auto tuning) {
    using Tuning = decltype(tuning);
    if (floyd_warshall_tiles_fit_device<int, Tuning::kDenseRegisterBlock>())
      kit::min_plus::prepare_floyd_warshall_tiles<int, Tuning::kDenseRegisterBlock,
                                                  Tuning::kDenseForm>();
  });
}

int dense_padded_size(int vertices, int tile) { return (vertices + tile - 1) / tile * tile; }

std::size_t dense_device_bytes(int vertices, std::size_t edges) {
  const std::size_t n = static_cast<std::size_t>(dense_padded_size(vertices, dense_tile()));
  const std::size_t chunk =
      kit::gpu::with_tuning<ApspTuning>([](auto tuning) { return decltype(tuning)::kEdgeChunk; });
  return n * n * sizeof(int) + std::min(edges, chunk) * sizeof(Edge) + sizeof(int);
}

void dense_build(const Graph &graph, int *d, int n, cudaStream_t stream) {
  kit::gpu::with_tuning<ApspTuning>([&](auto tuning) {
    using Tuning = decltype(tuning);
    fill_matrix_kernel<<<n, Tuning::kBuildThreads, 0, stream>>>(d, n);
    GPU_CHECK_LAUNCH("fill_matrix_kernel");
    const std::size_t edges = graph.edges.size();
    kit::gpu::DeviceArray<int> invalid(1);
    GPU_CHECK(cudaMemsetAsync(invalid.get(), 0, sizeof(int), stream));
    kit::gpu::DeviceArray<Edge> chunk(std::min(edges, Tuning::kEdgeChunk));
    const int max_blocks =
        kit::gpu::device_multiprocessors() * Tuning::kScatterBlocksPerMultiprocessor;
    for (std::size_t first = 0; first < edges; first += Tuning::kEdgeChunk) {
      const int count = static_cast<int>(std::min(Tuning::kEdgeChunk, edges - first));
      // Same stream: the copy of the next chunk waits for this chunk's scatter.
      GPU_CHECK(cudaMemcpyAsync(chunk.get(), graph.edges.data() + first, count * sizeof(Edge),
                                cudaMemcpyHostToDevice, stream));
      const int blocks =
          std::min((count + Tuning::kBuildThreads - 1) / Tuning::kBuildThreads, max_blocks);
      scatter_edges_kernel<<<blocks, Tuning::kBuildThreads, 0, stream>>>(
          chunk.get(), count, d, n, graph.vertices, invalid.get());
      GPU_CHECK_LAUNCH("scatter_edges_kernel");
    }
    int invalid_count = 0;
    GPU_CHECK(cudaMemcpyAsync(&invalid_count, invalid.get(), sizeof(int), cudaMemcpyDeviceToHost,
                              stream));
    GPU_CHECK(cudaStreamSynchronize(stream)); // before the chunk buffer is freed
    if (invalid_count > 0) {
      std::fprintf(stderr,
                   "apsp: %d edges have an endpoint outside [0, %d) or a weight outside [0, %d]\n",
                   invalid_count, graph.vertices, kApspMaxWeight);
      std::exit(2);
    }
  });
}

void dense_floyd_warshall(int *d, int n, cudaStream_t stream) {
  kit::gpu::with_tuning<ApspTuning>([&](auto tuning) {
    using Tuning = decltype(tuning);
    floyd_warshall_tiles<int, Tuning::kDenseRegisterBlock, Tuning::kDenseForm>(d, n, stream);
  });
}

void solve_dense(const Graph &graph, const RowBlockSink &sink) {
  const int vertices = graph.vertices;
  if (vertices <= 0)
    return;
  const int n = dense_padded_size(vertices, dense_tile());
  if (!dense_fits_device()) {
    std::fprintf(stderr,
                 "apsp: the dense path's %d x %d tiles need more shared memory per block than "
                 "this device's %d bytes\n",
                 dense_tile(), dense_tile(), kit::gpu::max_shared_bytes_per_block());
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  std::size_t free_bytes = 0, total_bytes = 0;
  GPU_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t needed = dense_device_bytes(vertices, graph.edges.size());
  if (needed > free_bytes) {
    std::fprintf(stderr,
                 "apsp: V=%d needs %zu bytes of GPU memory for the %d x %d distance matrix, but "
                 "only %zu of %zu bytes are free\n",
                 vertices, needed, n, n, free_bytes, total_bytes);
    std::exit(kit::gpu::kGpuFailureExitCode);
  }
  kit::gpu::Stream stream;
  kit::gpu::Event done;
  kit::gpu::DeviceArray<int> d(static_cast<std::size_t>(n) * n);
  dense_build(graph, d.get(), n, stream.get());
  dense_floyd_warshall(d.get(), n, stream.get());
  GPU_CHECK(cudaEventRecord(done.get(), stream.get()));
  // Pinning the copy-back buffers overlaps the Floyd-Warshall rounds already queued.
  RowStreamer streamer(vertices, vertices);
  streamer.deliver(d.get(), n, 0, vertices, done.get(), sink);
}

} // namespace apsp
