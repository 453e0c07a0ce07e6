// Disk checkpoint slots: one unlinked, pre-allocated scratch file; full pread/pwrite loops.
#include "revwave/store/disk_slot_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "revwave/core/errors.hpp"

namespace revwave {

namespace {

std::string errno_text(int err) { return std::strerror(err); }

// Owns the descriptor until the constructor has finished, so a throw closes it.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

DiskSlotFile::DiskSlotFile(std::int64_t slots, std::size_t field_bytes, const std::string& dir)
    : slots_(slots), field_bytes_(field_bytes), dir_(dir) {
  const std::string where = "disk checkpoint store in '" + dir + "'";
  if (slots < 1) throw InputError(where + ": slots = " + std::to_string(slots) + " must be >= 1");
  if (field_bytes < 1) throw InputError(where + ": field size must be >= 1 byte");
  constexpr auto kMaxOff = static_cast<std::uint64_t>(std::numeric_limits<off_t>::max());
  if (field_bytes > kMaxOff / 2 / static_cast<std::uint64_t>(slots)) {
    throw InputError(where + ": " + std::to_string(slots) + " slots of 2 x " + std::to_string(field_bytes) +
                     " bytes exceed the largest file size");
  }

  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0) {
    throw InputError("checkpoint directory '" + dir + "' must exist (" + errno_text(errno) + ")");
  }
  if (!S_ISDIR(st.st_mode)) throw InputError("checkpoint directory '" + dir + "' must be a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0) {
    throw InputError("checkpoint directory '" + dir + "' must be writable (" + errno_text(errno) + ")");
  }

  std::string name =
      dir + (dir.back() == '/' ? "" : "/") + "revwave-checkpoints-" + std::to_string(::getpid()) + "-XXXXXX";
  std::vector<char> tmpl(name.begin(), name.end());
  tmpl.push_back('\0');
  FdGuard guard{::mkostemp(tmpl.data(), O_CLOEXEC)};
  if (guard.fd < 0) {
    const int err = errno;
    // access() says yes to root everywhere; the create is the real test (read-only
    // mounts, /sys, /proc).
    if (err == EACCES || err == EPERM || err == EROFS || err == ENOENT) {
      throw InputError("checkpoint directory '" + dir +
                       "' must be writable (cannot create a file there: " + errno_text(err) + ")");
    }
    throw IoError(where + ": cannot create a scratch file: " + errno_text(err));
  }
  // Unlinked now: the space lives exactly as long as the descriptor, whatever happens.
  if (::unlink(tmpl.data()) != 0) {
    throw IoError(where + ": cannot unlink scratch file " + tmpl.data() + ": " + errno_text(errno));
  }

  const auto total = static_cast<off_t>(static_cast<std::uint64_t>(slots) * 2 * field_bytes);
  int rc = ::posix_fallocate(guard.fd, 0, total);
  if (rc == EOPNOTSUPP || rc == EINVAL) {
    // Some file systems cannot reserve space; size the file and find out on write.
    rc = ::ftruncate(guard.fd, total) == 0 ? 0 : errno;
  }
  if (rc != 0) {
    throw IoError(where + ": cannot reserve " + std::to_string(total) + " bytes for " + std::to_string(slots) +
                  " checkpoint slots: " + errno_text(rc));
  }
  fd_ = guard.fd;
  guard.fd = -1;
}

DiskSlotFile::~DiskSlotFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::int64_t DiskSlotFile::offset_of(std::int64_t slot) const {
  if (slot < 0 || slot >= slots_) {
    throw std::out_of_range("DiskStore: slot " + std::to_string(slot) + " outside [0, " + std::to_string(slots_) + ")");
  }
  return slot * static_cast<std::int64_t>(2 * field_bytes_);
}

void DiskSlotFile::write_at(const std::byte* src, std::size_t bytes, std::int64_t offset) {
  while (bytes > 0) {
    const ssize_t n = ::pwrite(fd_, src, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;  // a zero-byte write makes no progress: treat as full
      throw IoError("disk checkpoint store in '" + dir_ + "': write failed: " + errno_text(err));
    }
    src += n;
    bytes -= static_cast<std::size_t>(n);
    offset += n;
  }
}

void DiskSlotFile::read_at(std::byte* dst, std::size_t bytes, std::int64_t offset) const {
  while (bytes > 0) {
    const ssize_t n = ::pread(fd_, dst, bytes, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw IoError("disk checkpoint store in '" + dir_ + "': read failed: " + errno_text(errno));
    if (n == 0) throw IoError("disk checkpoint store in '" + dir_ + "': read failed: unexpected end of scratch file");
    dst += n;
    bytes -= static_cast<std::size_t>(n);
    offset += n;
  }
}

void DiskSlotFile::write(std::int64_t slot, const std::byte* u, const std::byte* u_prev) {
  const std::int64_t off = offset_of(slot);
  write_at(u, field_bytes_, off);
  write_at(u_prev, field_bytes_, off + static_cast<std::int64_t>(field_bytes_));
  copy_bytes_ += 2 * field_bytes_;
}

void DiskSlotFile::read(std::int64_t slot, std::byte* u, std::byte* u_prev) const {
  const std::int64_t off = offset_of(slot);
  read_at(u, field_bytes_, off);
  read_at(u_prev, field_bytes_, off + static_cast<std::int64_t>(field_bytes_));
  copy_bytes_ += 2 * field_bytes_;
}

}  // namespace revwave
