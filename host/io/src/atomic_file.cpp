// Atomic whole-file writes: temporary name in the same directory, fsync, rename.
#include "revwave/io/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "revwave/core/errors.hpp"

namespace revwave {

namespace {

std::string errno_text(int err) { return std::strerror(err); }

// Flushes the file's data to the device so a crash after rename cannot expose an
// empty file under the final name. Failure here is an I/O error like any other.
void fsync_path(const std::string& tmp, const std::string& path) {
  const int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw IoError(path + ": cannot reopen temporary file to sync: " + errno_text(errno));
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) throw IoError(path + ": cannot sync file: " + errno_text(err));
}

}  // namespace

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& writer) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  try {
    {
      std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
      if (!out) throw IoError(path + ": cannot create file: " + errno_text(errno));
      writer(out);
      out.flush();
      if (!out) throw IoError(path + ": write failed: " + errno_text(errno));
      out.close();
      if (out.fail()) throw IoError(path + ": write failed on close: " + errno_text(errno));
    }
    fsync_path(tmp, path);
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
      throw IoError(path + ": cannot rename temporary file into place: " + errno_text(errno));
    }
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
}

}  // namespace revwave
