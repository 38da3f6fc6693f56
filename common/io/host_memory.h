// How much host memory a program can count on, so that a valid input too large for the machine is
// reported with the bytes it needs before any work, instead of swapping or being killed part-way.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace kit {

// Bytes of host memory this process can still allocate and use: the smallest of
//  * what the kernel reports available (MemAvailable in /proc/meminfo: free memory plus
//    reclaimable caches), or the physical memory when that is unreadable;
//  * the room left under the memory limit of the process's cgroup and of each ancestor (what
//    SLURM's --mem and containers set: cgroup v2 memory.max, v1 memory.limit_in_bytes);
//  * the room left under the address-space and data-segment limits (ulimit -v, ulimit -d);
//  * KIT_HOST_MEMORY_MAX=<bytes> in the environment, when it is a decimal integer (a cap chosen by
//    the user; the tests use it).
// The limits are read rather than probed with an allocation: with overcommit, an allocation
// succeeds for sizes that cannot be backed once touched.
std::uint64_t usable_host_memory();

// A valid input whose answer needs more host memory than the machine can give. The contest
// programs exit with kExitSystemFailure (contest_program.h) and print what().
class HostMemoryError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Throws HostMemoryError "needs <bytes> bytes of host memory for <purpose>, but only <usable>
// bytes are usable (...)" when `bytes` > usable_host_memory().
void require_host_memory(std::uint64_t bytes, const std::string &purpose);

} // namespace kit
