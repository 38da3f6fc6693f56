// apsp in the official skeleton's style (the contest prescribes no apsp main; this is what its
// other mains do): "V E" and the edges read with `std::ifstream >>`, the kit's own apsp_solve(),
// every distance written with `std::cout << d << " "` and std::endl after each row. The
// whole-process benchmark (testcases/bench_whole_process.sh) times it against the kit's program.
#include "solve.h"

#include <fstream>
#include <iostream>

int main(int argc, char *argv[]) {
  if (argc != 2) {
    std::cerr << "Usage: " << argv[0] << " <input_file>" << std::endl;
    return 1;
  }
  std::ifstream input_file(argv[1]);
  Graph graph;
  std::size_t edges = 0;
  input_file >> graph.vertices >> edges;
  graph.edges.resize(edges);
  for (Edge &edge : graph.edges)
    input_file >> edge.src >> edge.dst >> edge.weight;
  const int v = graph.vertices;
  apsp_solve(graph, [v](int, int row_count, const int *rows) {
    for (int r = 0; r < row_count; ++r) {
      for (int j = 0; j < v; ++j)
        std::cout << rows[static_cast<std::size_t>(r) * v + j] << " ";
      std::cout << std::endl;
    }
  });
  return 0;
}
