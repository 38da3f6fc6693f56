#include "host_memory.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

namespace kit {
namespace {

constexpr std::uint64_t kUnlimited = UINT64_MAX;

std::uint64_t page_bytes() {
  const long page = ::sysconf(_SC_PAGESIZE);
  return page > 0 ? static_cast<std::uint64_t>(page) : 4096;
}

// A decimal integer that is the whole of `text`, or false.
bool parse_unsigned(const std::string &text, std::uint64_t &value) {
  if (text.empty() || text[0] < '0' || text[0] > '9')
    return false;
  char *end = nullptr;
  errno = 0;
  const unsigned long long parsed = std::strtoull(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0')
    return false;
  value = parsed;
  return true;
}

// The first word of a file such as memory.max ("max" or a byte count); kUnlimited when the file
// is missing or holds anything else.
std::uint64_t read_limit_file(const std::string &path) {
  std::ifstream file(path);
  std::string word;
  std::uint64_t value = 0;
  if (file >> word && parse_unsigned(word, value))
    return value;
  return kUnlimited;
}

// MemAvailable from /proc/meminfo, else the physical memory.
std::uint64_t available_memory() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:")
      return kib * 1024;
    meminfo.ignore(256, '\n'); // the unit
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  return pages > 0 ? static_cast<std::uint64_t>(pages) * page_bytes() : kUnlimited;
}

std::uint64_t room_under(std::uint64_t limit, std::uint64_t used) {
  if (limit == kUnlimited)
    return kUnlimited;
  return limit > used ? limit - used : 0;
}

// The room under the memory limits of `cgroup` (a path below `root`) and of its ancestors up to
// `root`. Walking up also covers a cgroup namespace, where /proc/self/cgroup shows a path that
// does not exist below the mounted root but the root is the process's own cgroup.
std::uint64_t cgroup_tree_room(const std::string &root, std::string cgroup, const char *limit_file,
                               const char *usage_file) {
  std::uint64_t room = kUnlimited;
  for (;;) {
    const std::string dir = root + cgroup;
    const std::uint64_t limit = read_limit_file(dir + "/" + limit_file);
    if (limit != kUnlimited) {
      const std::uint64_t usage = read_limit_file(dir + "/" + usage_file);
      room = std::min(room, room_under(limit, usage == kUnlimited ? 0 : usage));
    }
    if (cgroup.empty() || cgroup == "/")
      return room;
    const std::size_t slash = cgroup.find_last_of('/');
    cgroup = slash == std::string::npos ? "" : cgroup.substr(0, slash);
  }
}

// Lines of /proc/self/cgroup are "<id>:<controllers>:<path>": cgroup v2 has one line with id 0
// and no controllers; v1 has a line whose controllers include "memory".
std::uint64_t cgroup_room() {
  std::ifstream self("/proc/self/cgroup");
  std::string line;
  std::uint64_t room = kUnlimited;
  while (std::getline(self, line)) {
    const std::size_t first = line.find(':');
    const std::size_t second = line.find(':', first + 1);
    if (first == std::string::npos || second == std::string::npos)
      continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (controllers.empty()) {
      room =
          std::min(room, cgroup_tree_room("/sys/fs/cgroup", path, "memory.max", "memory.current"));
    } else if (("," + controllers + ",").find(",memory,") != std::string::npos) {
      room = std::min(room, cgroup_tree_room("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes",
                                             "memory.usage_in_bytes"));
    }
  }
  return room;
}

// The room under a resource limit, given how much of it the process uses already.
std::uint64_t rlimit_room(int resource, std::uint64_t used) {
  struct rlimit limit {};
  if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return kUnlimited;
  return room_under(static_cast<std::uint64_t>(limit.rlim_cur), used);
}

// The room under ulimit -v (counted against the whole address space) and ulimit -d (counted
// against the writable private mappings), from /proc/self/statm: size ... data, in pages.
std::uint64_t process_limit_room() {
  std::ifstream statm("/proc/self/statm");
  std::uint64_t size = 0, resident = 0, shared = 0, text = 0, library = 0, data = 0;
  statm >> size >> resident >> shared >> text >> library >> data;
  const std::uint64_t page = page_bytes();
  return std::min(rlimit_room(RLIMIT_AS, size * page), rlimit_room(RLIMIT_DATA, data * page));
}

std::uint64_t user_cap() {
  const char *text = std::getenv("KIT_HOST_MEMORY_MAX");
  std::uint64_t value = 0;
  return text && parse_unsigned(text, value) ? value : kUnlimited;
}

} // namespace

std::uint64_t usable_host_memory() {
  return std::min({available_memory(), cgroup_room(), process_limit_room(), user_cap()});
}

void require_host_memory(std::uint64_t bytes, const std::string &purpose) {
  const std::uint64_t usable = usable_host_memory();
  if (bytes <= usable)
    return;
  throw HostMemoryError("needs " + std::to_string(bytes) + " bytes of host memory for " + purpose +
                        ", but only " + std::to_string(usable) +
                        " bytes are usable (available memory, cgroup and ulimit limits, "
                        "KIT_HOST_MEMORY_MAX)");
}

} // namespace kit
