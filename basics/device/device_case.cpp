#include "device_case.h"

#include "gpu/check.h"
#include "gpu/vendor.h"

#include <cstring>

namespace kit::basics {

namespace {
constexpr std::size_t kGuardBytes = 256;
constexpr unsigned char kGuardByte = 0xC3;
} // namespace

DeviceCase::DeviceCase(const Problem &problem, const Case &host, std::size_t misalign)
    : problem_(problem), host_(host), buffers_(problem.params.size()) {
  for (std::size_t i = 0; i < problem.params.size(); ++i) {
    const Param &p = problem.params[i];
    if (p.role == Role::scalar)
      continue;
    Buffer &b = buffers_[i];
    b.bytes = p.count(host) * elem_size(p.elem);
    b.offset = kGuardBytes + misalign * elem_size(p.elem);
    b.allocation = kit::gpu::DeviceArray<unsigned char>(b.offset + b.bytes + kGuardBytes);
    GPU_CHECK(cudaMemset(b.allocation.get(), kGuardByte, b.allocation.bytes()));
  }
}

std::vector<Slot> DeviceCase::slots() const {
  std::vector<Slot> slots(problem_.params.size());
  for (std::size_t i = 0; i < slots.size(); ++i) {
    if (problem_.params[i].role == Role::scalar)
      slots[i].value = host_.scalars[i];
    else
      slots[i].pointer = buffers_[i].array();
  }
  return slots;
}

void DeviceCase::upload_inputs() {
  for (std::size_t i = 0; i < buffers_.size(); ++i) {
    const Role role = problem_.params[i].role;
    if (role == Role::in || role == Role::inout)
      GPU_CHECK(cudaMemcpy(buffers_[i].array(), host_.arrays[i].data(), buffers_[i].bytes,
                           cudaMemcpyHostToDevice));
  }
}

void DeviceCase::fill_outputs(unsigned char byte) {
  for (std::size_t i = 0; i < buffers_.size(); ++i)
    if (problem_.params[i].role == Role::out)
      GPU_CHECK(cudaMemset(buffers_[i].array(), byte, buffers_[i].bytes));
}

void DeviceCase::zero_outputs_the_judge_zeroes() {
  for (std::size_t i = 0; i < buffers_.size(); ++i)
    if (problem_.params[i].starts_zeroed)
      GPU_CHECK(cudaMemset(buffers_[i].array(), 0, buffers_[i].bytes));
}

Case DeviceCase::download() const {
  Case result = host_;
  for (std::size_t i = 0; i < buffers_.size(); ++i) {
    const Role role = problem_.params[i].role;
    if (role != Role::out && role != Role::inout)
      continue;
    result.arrays[i].resize(buffers_[i].bytes);
    GPU_CHECK(cudaMemcpy(result.arrays[i].data(), buffers_[i].array(), buffers_[i].bytes,
                         cudaMemcpyDeviceToHost));
  }
  return result;
}

std::string DeviceCase::check_untouched() const {
  std::vector<unsigned char> bytes;
  for (std::size_t i = 0; i < buffers_.size(); ++i) {
    const Buffer &b = buffers_[i];
    if (!b.allocation)
      continue;
    const std::string &name = problem_.params[i].name;
    const std::size_t total = b.allocation.bytes();
    bytes.resize(total);
    GPU_CHECK(cudaMemcpy(bytes.data(), b.allocation.get(), total, cudaMemcpyDeviceToHost));
    for (std::size_t k = 0; k < b.offset; ++k)
      if (bytes[k] != kGuardByte)
        return "write before the start of '" + name + "' (byte " +
               std::to_string(static_cast<long long>(k) - static_cast<long long>(b.offset)) + ")";
    for (std::size_t k = b.offset + b.bytes; k < total; ++k)
      if (bytes[k] != kGuardByte)
        return "write past the end of '" + name + "' (byte " +
               std::to_string(k - b.offset - b.bytes) + " after it)";
    if (problem_.params[i].role == Role::in &&
        std::memcmp(bytes.data() + b.offset, host_.arrays[i].data(), b.bytes) != 0)
      return "input '" + name + "' was modified";
  }
  return "";
}

} // namespace kit::basics
