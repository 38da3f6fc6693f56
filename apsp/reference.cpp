// Exact APSP on the CPU, chosen by density:
//  * sparse graphs: one Dijkstra per source with a bucket queue (Dial's algorithm; integer weights
//    in [0, kApspMaxWeight] make the queue O(1) per operation), sources split over threads in row
//    blocks that are handed to the sink in order while later blocks are still being computed;
//  * dense graphs: blocked Floyd-Warshall on 64x64 tiles, whose inner loop vectorises.
// The switch point is measured (README, "CPU reference"). A dense graph whose matrix does not fit
// in the usable host memory takes the Dijkstra path, which holds a few blocks of rows at a time.
#include "reference.h"

#include "io/host_memory.h"
#include "io/threads.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

// Rows per sink call on the sparse path: large enough to amortise the hand-over, small enough to
// start the output early and keep the in-flight blocks (2 per thread) small.
constexpr int kDijkstraRowsPerBlock = 16;
constexpr int kTile = 64;
// Floyd-Warshall wins once E >= V^2 / kDenseDivisor (measured, see README).
constexpr long long kDenseDivisor = 16;

struct Adjacency {
  std::vector<int> first_edge; // CSR offsets, V + 1 entries
  std::vector<int> target;
  std::vector<int> weight;
};

Adjacency build_adjacency(const Graph &graph) {
  Adjacency adj;
  const int v = graph.vertices;
  adj.first_edge.assign(static_cast<std::size_t>(v) + 1, 0);
  for (const Edge &e : graph.edges)
    ++adj.first_edge[static_cast<std::size_t>(e.src) + 1];
  for (int i = 0; i < v; ++i)
    adj.first_edge[i + 1] += adj.first_edge[i];
  adj.target.resize(graph.edges.size());
  adj.weight.resize(graph.edges.size());
  std::vector<int> fill(adj.first_edge.begin(), adj.first_edge.end() - 1);
  for (const Edge &e : graph.edges) {
    int slot = fill[e.src]++;
    adj.target[slot] = e.dst;
    adj.weight[slot] = e.weight;
  }
  return adj;
}

// Dial's queue: bucket d % (W + 1) holds the vertices queued at distance d. Every queued distance
// lies in [current, current + W], so the circular index is unambiguous; a bitmap of non-empty
// buckets lets the search skip long runs of empty ones (chains of heavy edges).
class BucketQueue {
public:
  explicit BucketQueue(int max_weight)
      : span_(max_weight + 1), buckets_(span_), nonempty_((span_ + 63) / 64, 0) {}

  void push(int vertex, int distance) {
    int b = distance % span_;
    if (buckets_[b].empty())
      nonempty_[b >> 6] |= std::uint64_t{1} << (b & 63);
    buckets_[b].push_back(vertex);
    ++size_;
  }
  bool empty() const { return size_ == 0; }
  // The smallest queued distance >= current (requires !empty()).
  int next_distance(int current) const {
    int start = current % span_;
    int b = find_from(start);
    if (b < 0)
      b = find_from(0);
    return current + (b >= start ? b - start : b + span_ - start);
  }
  // Pops one vertex of the bucket of `distance`; -1 once that bucket is empty.
  int pop(int distance) {
    int b = distance % span_;
    auto &bucket = buckets_[b];
    if (bucket.empty())
      return -1;
    int vertex = bucket.back();
    bucket.pop_back();
    --size_;
    if (bucket.empty())
      nonempty_[b >> 6] &= ~(std::uint64_t{1} << (b & 63));
    return vertex;
  }

private:
  int find_from(int start) const {
    int word = start >> 6;
    std::uint64_t bits = nonempty_[word] & (~std::uint64_t{0} << (start & 63));
    for (;;) {
      if (bits) {
        int b = (word << 6) + __builtin_ctzll(bits);
        return b < span_ ? b : -1;
      }
      if (++word == static_cast<int>(nonempty_.size()))
        return -1;
      bits = nonempty_[word];
    }
  }

  int span_;
  std::vector<std::vector<int>> buckets_;
  std::vector<std::uint64_t> nonempty_;
  std::size_t size_ = 0;
};

void dijkstra(const Adjacency &adj, int source, int *dist, BucketQueue &queue) {
  const int v = static_cast<int>(adj.first_edge.size()) - 1;
  std::fill(dist, dist + v, kApspInf);
  dist[source] = 0;
  queue.push(source, 0);
  int current = 0;
  while (!queue.empty()) {
    current = queue.next_distance(current);
    // Zero-weight edges push into the bucket being drained; the loop picks them up.
    for (int u = queue.pop(current); u >= 0; u = queue.pop(current)) {
      if (dist[u] != current)
        continue; // stale entry: u was reached more cheaply after it was queued
      for (int e = adj.first_edge[u]; e < adj.first_edge[u + 1]; ++e) {
        int candidate = current + adj.weight[e];
        int w = adj.target[e];
        if (candidate < dist[w]) {
          dist[w] = candidate;
          queue.push(w, candidate);
        }
      }
    }
  }
}

int max_weight_of(const Graph &graph) {
  int max_weight = 0;
  for (const Edge &e : graph.edges) {
    if (e.weight < 0 || e.weight > kApspMaxWeight)
      throw std::invalid_argument("apsp_reference: edge weight " + std::to_string(e.weight) +
                                  " outside [0, " + std::to_string(kApspMaxWeight) + "]");
    max_weight = std::max(max_weight, e.weight);
  }
  return max_weight;
}

int dijkstra_threads(int vertices) {
  const int blocks = (vertices + kDijkstraRowsPerBlock - 1) / kDijkstraRowsPerBlock;
  return std::max(1, std::min(kit::available_threads(), blocks));
}

// Host memory of apsp_dijkstra beyond the graph: the adjacency lists (offsets, targets, weights
// and the fill cursors) and two blocks of rows per thread.
std::uint64_t dijkstra_bytes(int vertices, std::size_t edges) {
  const std::uint64_t v = static_cast<std::uint64_t>(vertices);
  const std::uint64_t slots = 2 * static_cast<std::uint64_t>(dijkstra_threads(vertices));
  return sizeof(int) *
         ((2 * v + 1) + 2 * static_cast<std::uint64_t>(edges) + slots * kDijkstraRowsPerBlock * v);
}

// Host memory of apsp_floyd_warshall beyond the graph: the matrix, padded to whole tiles.
std::uint64_t floyd_warshall_bytes(int vertices) {
  const std::uint64_t n = (static_cast<std::uint64_t>(vertices) + kTile - 1) / kTile * kTile;
  return sizeof(int) * n * n;
}

// Sources in blocks of rows; worker threads compute blocks in increasing order into a ring of
// slots, and the calling thread hands finished blocks to the sink in order. A worker reuses a
// slot only after the sink has consumed the block that held it.
void apsp_dijkstra(const Graph &graph, const RowBlockSink &sink) {
  const int v = graph.vertices;
  const Adjacency adj = build_adjacency(graph);
  const int max_weight = max_weight_of(graph);
  const int blocks = (v + kDijkstraRowsPerBlock - 1) / kDijkstraRowsPerBlock;
  const int threads = dijkstra_threads(v);
  const int slots = 2 * threads;
  std::vector<std::vector<int>> slot_rows(slots);

  std::mutex mutex;
  std::condition_variable changed;
  int next_block = 0;
  int delivered = 0; // blocks consumed by the sink
  std::vector<char> ready(blocks, 0);

  auto worker = [&] {
    BucketQueue queue(max_weight);
    for (;;) {
      int block;
      {
        std::unique_lock<std::mutex> lock(mutex);
        if (next_block == blocks)
          return;
        block = next_block++;
        changed.wait(lock, [&] { return block - delivered < slots; });
      }
      int first = block * kDijkstraRowsPerBlock;
      int count = std::min(kDijkstraRowsPerBlock, v - first);
      auto &rows = slot_rows[block % slots];
      rows.resize(static_cast<std::size_t>(count) * v);
      for (int r = 0; r < count; ++r)
        dijkstra(adj, first + r, rows.data() + static_cast<std::size_t>(r) * v, queue);
      {
        std::lock_guard<std::mutex> lock(mutex);
        ready[block] = 1;
      }
      changed.notify_all();
    }
  };
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t)
    workers.emplace_back(worker);
  for (int block = 0; block < blocks; ++block) {
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return ready[block] != 0; });
    }
    int first = block * kDijkstraRowsPerBlock;
    sink(first, std::min(kDijkstraRowsPerBlock, v - first), slot_rows[block % slots].data());
    {
      std::lock_guard<std::mutex> lock(mutex);
      delivered = block + 1;
    }
    changed.notify_all();
  }
  for (auto &w : workers)
    w.join();
}

// d[i][j] = min(d[i][j], d[i][k] + d[k][j]) over the tile's k, k outermost: correct even when the
// tile is its own row or column operand (phases 1 and 2), because row and column k do not change
// during step k (d[k][k] = 0).
void relax_tile_k_outer(int *c, const int *a, const int *b, std::size_t stride) {
  for (int k = 0; k < kTile; ++k) {
    const int *bk = b + k * stride;
    for (int i = 0; i < kTile; ++i) {
      int aik = a[i * stride + k];
      int *ci = c + i * stride;
      for (int j = 0; j < kTile; ++j)
        ci[j] = std::min(ci[j], aik + bk[j]);
    }
  }
}

// Same update for a tile that is neither operand (phase 3): rows of c stay hot in L1.
void relax_tile_independent(int *c, const int *a, const int *b, std::size_t stride) {
  for (int i = 0; i < kTile; ++i) {
    int *ci = c + i * stride;
    const int *ai = a + i * stride;
    for (int k = 0; k < kTile; ++k) {
      int aik = ai[k];
      const int *bk = b + k * stride;
      for (int j = 0; j < kTile; ++j)
        ci[j] = std::min(ci[j], aik + bk[j]);
    }
  }
}

void apsp_floyd_warshall(const Graph &graph, const RowBlockSink &sink) {
  const int v = graph.vertices;
  max_weight_of(graph); // validates the weights
  const int tiles = (v + kTile - 1) / kTile;
  const std::size_t n = static_cast<std::size_t>(tiles) * kTile; // padded vertices are isolated
  std::vector<int> d(n * n, kApspInf);
  for (std::size_t i = 0; i < n; ++i)
    d[i * n + i] = 0;
  for (const Edge &e : graph.edges) {
    int &cell = d[static_cast<std::size_t>(e.src) * n + e.dst];
    cell = std::min(cell, e.weight);
  }
  auto tile = [&](int ti, int tj) { return d.data() + (ti * n + tj) * kTile; };

  kit::ThreadPool &pool = kit::default_pool();
  for (int kb = 0; kb < tiles; ++kb) {
    int *diagonal = tile(kb, kb);
    relax_tile_k_outer(diagonal, diagonal, diagonal, n);
    pool.run(2 * static_cast<std::size_t>(tiles), [&](std::size_t task) {
      int t = static_cast<int>(task % tiles);
      if (t == kb)
        return;
      if (task < static_cast<std::size_t>(tiles))
        relax_tile_k_outer(tile(kb, t), diagonal, tile(kb, t), n); // row kb
      else
        relax_tile_k_outer(tile(t, kb), tile(t, kb), diagonal, n); // column kb
    });
    pool.run(static_cast<std::size_t>(tiles), [&](std::size_t task) {
      int ti = static_cast<int>(task);
      if (ti == kb)
        return;
      for (int tj = 0; tj < tiles; ++tj)
        if (tj != kb)
          relax_tile_independent(tile(ti, tj), tile(ti, kb), tile(kb, tj), n);
    });
  }
  // Compact the rows to stride v in place (row i moves to a lower address), then deliver.
  for (int i = 0; i < v; ++i)
    std::copy(d.begin() + i * n, d.begin() + i * n + v,
              d.begin() + static_cast<std::size_t>(i) * v);
  constexpr int kRowsPerSinkCall = 64;
  for (int first = 0; first < v; first += kRowsPerSinkCall)
    sink(first, std::min(kRowsPerSinkCall, v - first),
         d.data() + static_cast<std::size_t>(first) * v);
}

} // namespace

ApspReferenceAlgorithm choose_reference_algorithm(int vertices, std::size_t edges,
                                                  std::uint64_t usable_bytes) {
  const std::uint64_t v = static_cast<std::uint64_t>(vertices);
  const bool dense = static_cast<std::uint64_t>(edges) * kDenseDivisor >= v * v;
  return dense && floyd_warshall_bytes(vertices) <= usable_bytes
             ? ApspReferenceAlgorithm::floyd_warshall
             : ApspReferenceAlgorithm::dijkstra;
}

void apsp_reference(const Graph &graph, const RowBlockSink &sink) {
  const int v = graph.vertices;
  if (v <= 0)
    return;
  const std::size_t e = graph.edges.size();
  const std::uint64_t usable = kit::usable_host_memory();
  if (choose_reference_algorithm(v, e, usable) == ApspReferenceAlgorithm::floyd_warshall) {
    apsp_floyd_warshall(graph, sink);
    return;
  }
  kit::require_host_memory(dijkstra_bytes(v, e),
                           "the shortest-path search (V = " + std::to_string(v) +
                               ", E = " + std::to_string(e) + ": adjacency lists and " +
                               std::to_string(2 * dijkstra_threads(v)) + " blocks of " +
                               std::to_string(kDijkstraRowsPerBlock) + " distance rows)");
  apsp_dijkstra(graph, sink);
}
