// softmax as the official skeleton's main.cpp does it (CONTEST.md "Official skeleton"): the
// values read with `std::ifstream >>` into a std::vector, the kit's own solve(), every result
// written with `std::cout << value << " "`, then std::endl. The whole-process benchmark
// (testcases/bench_whole_process.sh) times it against the kit's program on the same files.
#include "solve.h"

#include <fstream>
#include <iostream>
#include <vector>

int main(int argc, char *argv[]) {
  if (argc != 2) {
    std::cerr << "Usage: " << argv[0] << " <input_file>" << std::endl;
    return 1;
  }
  std::ifstream input_file(argv[1]);
  int n = 0;
  input_file >> n;
  std::vector<float> input(n), output(n);
  for (int i = 0; i < n; ++i)
    input_file >> input[i];
  solve(input.data(), output.data(), n);
  for (int i = 0; i < n; ++i)
    std::cout << output[i] << " ";
  std::cout << std::endl;
  return 0;
}
