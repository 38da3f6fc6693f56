// fp16_batched_matmul: the CPU reference and the harness description (arguments, tolerance,
// cases). A is BATCH x M x K, B is BATCH x K x N, C[b] = A[b] B[b] is BATCH x M x N, all row-major
// fp16 (K is the inner size).
//
// The judge's reference converts A and B to float32, multiplies in float32 (torch.bmm on float32
// tensors: cuBLAS's strided batched SGEMM) and rounds the result to fp16. This reference sums the
// exact products of the halves in double and rounds once to fp16; the two differ by the float32
// rounding of the sums (about 1e-6 relative at the judge's sizes), far below the 0.05 tolerance.
#include "harness/half.h"
#include "harness/spec.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kit::basics {
namespace {

void fp16_batched_matmul_reference(const std::uint16_t *A, const std::uint16_t *B, std::uint16_t *C,
                                   int BATCH, int M, int N, int K) {
  std::vector<double> b_values(static_cast<std::size_t>(K) * N);
  std::vector<double> row(N);
  for (int z = 0; z < BATCH; ++z) {
    const std::uint16_t *a = A + static_cast<std::size_t>(z) * M * K;
    const std::uint16_t *b = B + static_cast<std::size_t>(z) * K * N;
    std::uint16_t *c = C + static_cast<std::size_t>(z) * M * N;
    for (std::size_t i = 0; i < b_values.size(); ++i)
      b_values[i] = half_to_float(b[i]);
    for (int i = 0; i < M; ++i) {
      for (int j = 0; j < N; ++j)
        row[j] = 0.0;
      for (int k = 0; k < K; ++k) {
        const double x = half_to_float(a[static_cast<std::size_t>(i) * K + k]);
        const double *y = &b_values[static_cast<std::size_t>(k) * N];
        for (int j = 0; j < N; ++j)
          row[j] += x * y[j];
      }
      for (int j = 0; j < N; ++j)
        c[static_cast<std::size_t>(i) * N + j] = half_from_double(row[j]);
    }
  }
}

CountFn count_of_three(const char *x, const char *y, const char *z) {
  return [x, y, z](const Case &c) {
    return static_cast<std::size_t>(c[x]) * static_cast<std::size_t>(c[y]) *
           static_cast<std::size_t>(c[z]);
  };
}

} // namespace

const Problem &fp16_batched_matmul_problem() {
  static const Problem problem = [] {
    Problem p;
    p.name = "fp16_batched_matmul";
    p.params = {input("A", Elem::f16, count_of_three("BATCH", "M", "K")),
                input("B", Elem::f16, count_of_three("BATCH", "K", "N")),
                output("C", Elem::f16, count_of_three("BATCH", "M", "N")),
                scalar("BATCH", 1, 100000),
                scalar("M", 1, 4096),
                scalar("N", 1, 4096),
                scalar("K", 1, 4096)};
    p.tolerance = {0.05, 0.05};
    set_reference(p, fp16_batched_matmul_reference);
    p.fill = fill_with(p, {uniform(-5, 5), uniform(-5, 5)});
    // BATCH, M, N, K: degenerate shapes; 31..33, 63..65, 127..129 around the 64 x 64, 128 x 64 and
    // 128 x 128 block tiles and the 32-deep stages; N or K not a multiple of 8 (element-by-element
    // loads); the judge's size; more batches than one grid's 65535.
    add_tests(p, {{1, 1, 1, 1},
                  {3, 1, 7, 1},
                  {2, 7, 1, 3},
                  {5, 1, 1, 33},
                  {2, 31, 32, 33},
                  {3, 33, 31, 32},
                  {2, 63, 64, 65},
                  {2, 65, 63, 64},
                  {4, 64, 65, 63},
                  {3, 64, 64, 64},
                  {2, 127, 129, 31},
                  {2, 129, 128, 129},
                  {7, 33, 33, 17},
                  {2, 257, 129, 100},
                  {1, 255, 256, 257},
                  {32, 256, 256, 256},
                  {70000, 1, 2, 3},
                  {3, 300, 1000, 64}});
    // The official challenge, from the facts of its challenge.py: the tolerance it states, its
    // example, its functional cases in order and the case it times.
    JudgeCases &j = p.judge;
    j.challenge = "challenges/medium/57_fp16_batched_matmul";
    j.tolerance = {0.05, 0.05};
    const std::vector<double> example_a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    const std::vector<double> example_b = {1, 2, 3, 4, 5, 6, 6, 5, 4, 3, 2, 1};
    j.example = judge_case(p, "example", {2, 2, 2, 3}, {given(example_a), given(example_b)});
    add_judge_functional(p, {2, 2, 2, 3}, {given(example_a), given(example_b)});
    add_judge_functional(p, {1, 3, 3, 3},
                         {given({1, 0, 2, 0, 1, 2, 2, 1, 0}), given({2, 1, 0, 1, 2, 0, 0, 1, 2})});
    add_judge_functional(p, {4, 2, 2, 2}, {uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {8, 4, 3, 2}, {uniform(-5, 5), uniform(-5, 5)});
    add_judge_functional(p, {16, 16, 16, 16}, {uniform(-1, 1), uniform(-1, 1)});
    add_judge_functional(p, {2, 8, 6, 4}, {uniform(-5, 5), uniform(-5, 5)});
    j.performance =
        judge_case(p, "performance", {32, 256, 256, 256}, {uniform(-5, 5), uniform(-5, 5)});
    // BATCH M N K multiply-adds on the tensor cores, measured against the FP32 FMA rate (the
    // harness's compute limit; the dense fp16 tensor-core rate is about 15 times higher,
    // README.md). Bytes: A and B read once, C written.
    p.model.limit = Limit::fp32_fma;
    p.model.bytes = [](const Case &c) {
      return 2.0 * c["BATCH"] * (c["M"] * c["K"] + c["K"] * c["N"] + c["M"] * c["N"]);
    };
    p.model.ops = [](const Case &c) { return c["BATCH"] * c["M"] * c["N"] * c["K"]; };
    return p;
  }();
  return problem;
}

} // namespace kit::basics
