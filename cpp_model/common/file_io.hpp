// Reading and writing whole files with every bound checked first (DESIGN.md
// "A run's folder"): only regular files are read (a device, a FIFO or a
// folder is bad input, found with fstat before a byte is read, so /dev/zero
// cannot grow a buffer and a FIFO cannot block), each read has a byte cap
// checked against the file's size, and a file is written under a temporary
// name in its folder and renamed when complete, so a reader sees the old
// content or the new one, never a part. A failed write (a full disk, EFBIG
// under `ulimit -f`, EIO) is an IoError naming the file and the errno; the
// CLI maps it to exit 5.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace cosim {

// Out of space or another I/O error while reading or writing a file that is
// there: not the user's input, not a bug. The CLI maps it to exit 5.
class IoError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "No space left on device (ENOSPC)": the message and the errno's name.
inline std::string errno_text(int e) {
  const char* name = nullptr;
  switch (e) {
    case ENOSPC: name = "ENOSPC"; break;
    case EFBIG: name = "EFBIG"; break;
    case EDQUOT: name = "EDQUOT"; break;
    case EIO: name = "EIO"; break;
    case EROFS: name = "EROFS"; break;
    case EACCES: name = "EACCES"; break;
    case EPERM: name = "EPERM"; break;
    case ENOENT: name = "ENOENT"; break;
    case ENOTDIR: name = "ENOTDIR"; break;
    case EISDIR: name = "EISDIR"; break;
    case ENOMEM: name = "ENOMEM"; break;
    default: break;
  }
  std::string s = std::strerror(e);
  if (name != nullptr) s += std::string(" (") + name + ")";
  return s;
}

// A failure of the machine's storage (out of space, over a quota or
// `ulimit -f`, a disk error, a read-only file system), not of the user's path.
inline bool is_storage_errno(int e) { return e == ENOSPC || e == EFBIG || e == EDQUOT || e == EIO || e == EROFS; }

// IoError for a storage failure, InputError otherwise (a file where a folder
// is expected, no permission, ...): `what` + ": " + the errno's text.
[[noreturn]] inline void throw_for_errno(const std::string& what, int e) {
  if (is_storage_errno(e)) throw IoError(what + ": " + errno_text(e));
  throw InputError(what + ": " + std::strerror(e));
}

namespace detail {

// Throws InputError for what the user named wrongly (missing, not a regular
// file, over the cap), IoError for a read that failed on a file that is there.
inline std::size_t open_regular_file(const std::string& path, uint64_t max_bytes, const std::string& what, int* fd_out) {
  const std::string label = what.empty() ? path : path + " (" + what + ")";
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    if (e == EIO) throw IoError(label + ": cannot read: " + errno_text(e));
    throw InputError(label + ": cannot open file: " + std::strerror(e));
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    throw IoError(label + ": cannot read: " + errno_text(e));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    const char* kind = S_ISDIR(st.st_mode)    ? "a folder"
                       : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISCHR(st.st_mode)  ? "a character device"
                       : S_ISBLK(st.st_mode)  ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket"
                                              : "not a regular file";
    throw InputError(label + ": is " + std::string(kind) + ", expected a regular file");
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  if (size > max_bytes) {
    ::close(fd);
    throw InputError(label + ": " + std::to_string(size) + " bytes, more than the limit of " +
                     std::to_string(max_bytes) + " bytes");
  }
  *fd_out = fd;
  return static_cast<std::size_t>(size);
}

template <typename Buffer>
Buffer read_regular_file_as(const std::string& path, uint64_t max_bytes, const std::string& what) {
  int fd = -1;
  const std::size_t size = open_regular_file(path, max_bytes, what, &fd);
  Buffer out;
  out.resize(size);
  std::size_t got = 0;
  while (got < size) {
    const ssize_t n = ::read(fd, reinterpret_cast<char*>(&out[0]) + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      throw IoError((what.empty() ? path : path + " (" + what + ")") + ": cannot read: " + errno_text(e));
    }
    if (n == 0) break;  // shrank while read: what is there
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  out.resize(got);
  return out;
}

}  // namespace detail

// The whole of a regular file of at most `max_bytes` bytes. `what` (e.g.
// "the scenario file") is named in the messages when given.
inline std::vector<uint8_t> read_regular_file_bytes(const std::string& path, uint64_t max_bytes,
                                                    const std::string& what = "") {
  return detail::read_regular_file_as<std::vector<uint8_t>>(path, max_bytes, what);
}
inline std::string read_regular_file_text(const std::string& path, uint64_t max_bytes, const std::string& what = "") {
  return detail::read_regular_file_as<std::string>(path, max_bytes, what);
}

// InputError unless `path` is a regular file (following links) of at most
// `max_bytes`; its size. For readers that take a path (a library's own reader).
inline uint64_t check_regular_file(const std::string& path, uint64_t max_bytes, const std::string& what = "") {
  int fd = -1;
  const std::size_t size = detail::open_regular_file(path, max_bytes, what, &fd);
  ::close(fd);
  return size;
}

// Writes `size` bytes to `path` through a temporary file in the same folder
// and a rename; IoError naming `path` and the errno when any step fails (the
// temporary is removed, `path` keeps its old content or stays absent).
inline void write_file_atomic(const std::string& path, const void* data, std::size_t size) {
  const std::size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::string tmp = folder + "." + base + "." + std::to_string(::getpid()) + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int e = errno;
    throw IoError(path + ": cannot write: " + errno_text(e));
  }
  const char* p = static_cast<const char*>(data);
  std::size_t left = size;
  int e = 0;
  while (left > 0) {
    const ssize_t w = ::write(fd, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      e = w < 0 ? errno : ENOSPC;
      break;
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
  if (::close(fd) != 0 && e == 0) e = errno;
  if (e == 0 && ::rename(tmp.c_str(), path.c_str()) != 0) e = errno;
  if (e != 0) {
    ::unlink(tmp.c_str());
    throw IoError(path + ": cannot write: " + errno_text(e));
  }
}
inline void write_file_atomic(const std::string& path, const std::string& text) {
  write_file_atomic(path, text.data(), text.size());
}

}  // namespace cosim
