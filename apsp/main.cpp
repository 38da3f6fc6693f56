// apsp: `./apsp <input_file>` prints the V x V shortest-path distance matrix of a directed graph,
// one line per source vertex, 1073741823 for unreachable pairs.
#include "graph_input.h"
#include "io/text_format.h"
#include "io/text_writer.h"
#include "program/contest_program.h"
#include "program/gpu_warmup.h"
#include "program/phase_timer.h"
#include "program/small_input.h"
#include "reference.h"
#include "small_input_limits.h"
#include "solve.h"

#include <unistd.h>

int main(int argc, char **argv) {
  return kit::io::run_contest_program(argc, argv, [](kit::io::MappedFile &file) {
    kit::io::PhaseTimer timer;
    const apsp::GraphHeader header = apsp::read_graph_header(file.data(), file.end());
    const bool on_cpu = kit::io::answer_small_input_on_cpu(
        static_cast<std::uint64_t>(header.vertices), kSmallInputLimits);
    timer.path(on_cpu || !kit::io::built_for_gpu() ? "cpu" : "gpu");
    kit::io::GpuWarmup warmup;
    if (!on_cpu)
      warmup.start(preload_gpu_code);
    timer.mark("header");
    kit::ThreadPool &pool = kit::default_pool();
    kit::io::TrailingTokens trailing;
    const Graph graph = apsp::read_graph_edges(file.data(), file.end(), header, pool, &trailing);
    kit::io::warn_trailing_tokens(file, trailing, 3 * graph.edges.size(), "edge number");
    file.release();
    timer.mark("parse");
    kit::io::OrderedWriter writer(STDOUT_FILENO, pool);
    const std::size_t v = static_cast<std::size_t>(graph.vertices);
    const RowBlockSink print_rows = [&](int first_row, int row_count, const int *rows) {
      (void)first_row; // rows arrive in order, so the output position is implied
      writer.write_items(static_cast<std::size_t>(row_count), v * (kit::io::kMaxInt32Chars + 1),
                         [&](std::size_t first, std::size_t last, char *out) {
                           for (std::size_t r = first; r < last; ++r) {
                             const int *row = rows + r * v;
                             for (std::size_t j = 0; j < v; ++j) {
                               out = kit::io::format_int32(out, row[j]);
                               *out++ = j + 1 < v ? ' ' : '\n';
                             }
                           }
                           return out;
                         });
    };
    // The rows are printed while they are computed: "solve" includes the output.
    if (on_cpu) {
      apsp_reference(graph, print_rows);
      timer.mark("CPU reference (small input) and output");
    } else {
      warmup.finish();
      if (kit::io::built_for_gpu()) {
        timer.add("GPU start-up (on its own thread)", warmup.startup_ms());
        timer.mark("GPU start-up wait");
      }
      apsp_solve(graph, print_rows);
      timer.mark("solve and output");
    }
  });
}
