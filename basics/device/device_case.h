// A case's arrays on the device, laid out to catch the mistakes a judge would punish: every array
// sits between guard bands whose bytes are checked after the call (out-of-bounds writes), output
// arrays are filled with a chosen byte before the call (poison, or garbage that an accumulating
// solve must clear), and inputs are compared with their host copy afterwards (writes to const
// arguments).
#pragma once

#include "gpu/resources.h"
#include "harness/problem.h"

#include <cstddef>
#include <string>
#include <vector>

namespace kit::basics {

class DeviceCase {
public:
  // `misalign` elements are added to every array's address (0 keeps cudaMalloc's alignment, like
  // the judge's tensors; 1 exercises the kernels' unaligned paths).
  DeviceCase(const Problem &problem, const Case &host, std::size_t misalign = 0);

  // Device pointers and scalar values, one per solve parameter.
  std::vector<Slot> slots() const;
  // Input and in-place arrays from the host case.
  void upload_inputs();
  // Output arrays, every byte set to `byte` (0xFF: NaN floats and halves, -1 ints).
  void fill_outputs(unsigned char byte);
  // Output arrays declared with output_from_zeros set to zeros, as the judge hands them over.
  void zero_outputs_the_judge_zeroes();
  // The host case with output and in-place arrays replaced by the device contents.
  Case download() const;
  // "" or a description of the first overwritten guard band or modified input array.
  std::string check_untouched() const;

private:
  struct Buffer {
    kit::gpu::DeviceArray<unsigned char> allocation; // guard band, array, guard band
    std::size_t offset = 0;                          // array start within the allocation
    std::size_t bytes = 0;
    unsigned char *array() const { return allocation.get() + offset; }
  };
  const Problem &problem_;
  const Case &host_;
  std::vector<Buffer> buffers_; // one per parameter (empty for scalars)
};

} // namespace kit::basics
