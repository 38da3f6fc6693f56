#include "io/mapped_file.h"

#include "io/input_error.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace kit::io {
namespace {

[[noreturn]] void fail(const std::string &path, const char *what, int err) {
  throw FileError(path + ": " + what + ": " + std::strerror(err));
}

// Closes the descriptor on every path out of the constructor.
struct FileDescriptor {
  int fd;
  ~FileDescriptor() {
    if (fd >= 0)
      ::close(fd);
  }
};

} // namespace

MappedFile::MappedFile(const std::string &path) : path_(path) {
  FileDescriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (file.fd < 0)
    fail(path, "cannot open", errno);
  struct stat info;
  if (::fstat(file.fd, &info) != 0)
    fail(path, "cannot stat", errno);
  if (S_ISDIR(info.st_mode))
    fail(path, "cannot read", EISDIR);
  if (S_ISREG(info.st_mode)) {
    size_ = static_cast<std::size_t>(info.st_size);
    if (size_ == 0)
      throw FileError(path + ": the file is empty");
    void *mapping = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.fd, 0);
    if (mapping != MAP_FAILED) {
      mapping_ = mapping;
      data_ = static_cast<const char *>(mapping);
      return;
    }
  }
  // Not mappable (pipe, character device, special file system): read it in large blocks.
  constexpr std::size_t kReadBlock = std::size_t{1} << 22;
  std::size_t used = 0;
  for (;;) {
    copy_.resize(used + kReadBlock);
    ssize_t got = ::read(file.fd, copy_.data() + used, kReadBlock);
    if (got < 0) {
      if (errno == EINTR)
        continue;
      fail(path, "cannot read", errno);
    }
    if (got == 0)
      break;
    used += static_cast<std::size_t>(got);
  }
  copy_.resize(used);
  if (used == 0)
    throw FileError(path + ": the file is empty");
  data_ = copy_.data();
  size_ = used;
}

void MappedFile::release() {
  if (mapping_)
    ::munmap(mapping_, size_);
  mapping_ = nullptr;
  std::vector<char>().swap(copy_);
  data_ = nullptr;
  size_ = 0;
}

MappedFile::~MappedFile() { release(); }

} // namespace kit::io
