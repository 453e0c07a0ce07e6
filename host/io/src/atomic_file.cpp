// Atomic whole-file writes: temporary name in the same directory, fsync, rename; output
// transactions; the registry of temporaries that a signal handler removes.
#include "revwave/io/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "revwave/core/errors.hpp"

namespace revwave {

namespace {

std::string errno_text(int err) { return std::strerror(err); }

// Temporaries that exist right now, as C strings a signal handler can unlink. A slot holds
// a strdup'ed name or null; it is claimed and released with atomic exchanges only.
constexpr int kMaxTemporaries = 4096;
std::atomic<char*> g_temporaries[kMaxTemporaries];

class RegisteredTemporary {
 public:
  explicit RegisteredTemporary(const std::string& tmp) {
    char* name = ::strdup(tmp.c_str());
    if (name == nullptr) throw std::bad_alloc();
    for (int i = 0; i < kMaxTemporaries; ++i) {
      char* expected = nullptr;
      if (g_temporaries[i].compare_exchange_strong(expected, name)) {
        slot_ = i;
        return;
      }
    }
    std::free(name);
    throw IoError(tmp + ": more than " + std::to_string(kMaxTemporaries) + " temporary files pending");
  }
  RegisteredTemporary(RegisteredTemporary&& o) noexcept : slot_(std::exchange(o.slot_, -1)) {}
  RegisteredTemporary& operator=(RegisteredTemporary&&) = delete;
  ~RegisteredTemporary() {
    if (slot_ >= 0) std::free(g_temporaries[slot_].exchange(nullptr));
  }

 private:
  int slot_ = -1;
};

struct Staged {
  std::string tmp, path;
  RegisteredTemporary registration;
};

// The outermost transaction's staged files, per thread.
thread_local std::vector<Staged>* t_staged = nullptr;

std::atomic<unsigned long> g_counter{0};

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

void rename_into_place(const std::string& tmp, const std::string& path) {
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    throw IoError(path + ": cannot rename temporary file into place: " + errno_text(errno));
  }
}

std::string directory_of(const std::string& path) { return std::filesystem::path(path).parent_path().string(); }

// Makes the renames into the directory holding `path` durable: after it, a power cut cannot undo
// them, nor let a later rename elsewhere (state.bin naming the vector files renamed here) reach the
// disk first. Best effort: a file system that cannot sync a directory (EINVAL) keeps its own order.
void sync_directory_of(const std::string& path) {
  std::string dir = directory_of(path);
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

extern "C" void remove_and_reraise(int sig) {
  remove_temporaries_now();
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {
  }, sb{};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  // Absolute first: weakly_canonical leaves a relative path none of whose parts exists as it is, so
  // that "g.npy" and "./g.npy" (neither written yet) would differ.
  std::error_code ea, eb;
  const auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ea), ea);
  const auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, eb), eb);
  return !ea && !eb && ca == cb;
}

void remove_temporaries_now() noexcept {
  for (auto& slot : g_temporaries) {
    const char* name = slot.load();
    if (name != nullptr) ::unlink(name);
  }
}

void remove_temporaries_on_signal() {
  struct sigaction sa {};
  sa.sa_handler = remove_and_reraise;
  sigemptyset(&sa.sa_mask);
  for (int sig : kSignals) sigaddset(&sa.sa_mask, sig);
  for (int sig : kSignals) ::sigaction(sig, &sa, nullptr);
}

void write_file_atomically_at(const std::string& path, const std::function<void(const std::string& tmp)>& writer) {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(g_counter++);
  RegisteredTemporary registration(tmp);
  try {
    writer(tmp);
    fsync_path(tmp, path);
    if (t_staged != nullptr) {
      t_staged->push_back(Staged{tmp, path, std::move(registration)});
      return;
    }
    rename_into_place(tmp, path);
    sync_directory_of(path);
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& writer) {
  write_file_atomically_at(path, [&](const std::string& tmp) {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw IoError(path + ": cannot create file: " + errno_text(errno));
    writer(out);
    out.flush();
    if (!out) throw IoError(path + ": write failed: " + errno_text(errno));
    out.close();
    if (out.fail()) throw IoError(path + ": write failed on close: " + errno_text(errno));
  });
}

OutputTransaction::OutputTransaction() : outermost_(t_staged == nullptr) {
  if (outermost_) t_staged = new std::vector<Staged>();
}

OutputTransaction::~OutputTransaction() {
  if (!outermost_) return;
  for (const Staged& s : *t_staged) std::remove(s.tmp.c_str());
  delete t_staged;
  t_staged = nullptr;
}

void OutputTransaction::commit() {
  if (!outermost_) return;
  // A rename into place fails, in practice, only onto a directory (the temporary was created in
  // the same directory): check them all before the first rename, so that none happens.
  for (const Staged& s : *t_staged) {
    struct stat st {};
    if (::stat(s.path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      throw IoError(s.path + ": cannot write the file: a directory of that name exists");
    }
  }
  // Held off, a signal cannot split the outputs into a renamed half and a removed half.
  sigset_t block, old;
  sigemptyset(&block);
  for (int sig : kSignals) sigaddset(&block, sig);
  ::pthread_sigmask(SIG_BLOCK, &block, &old);
  std::vector<Staged> staged = std::move(*t_staged);
  t_staged->clear();
  // Every target that exists is kept, as a hard link beside it, until all the renames are done: a
  // rename that fails puts back those done before it, so a failed commit leaves every output as
  // it was. A target that cannot be linked (an immutable file) cannot be replaced either: it is
  // refused before the first rename.
  std::vector<std::string> kept(staged.size());
  std::size_t done = 0;
  try {
    for (std::size_t i = 0; i < staged.size(); ++i) {
      struct stat st {};
      if (::lstat(staged[i].path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
      const std::string keep =
          staged[i].path + ".kept." + std::to_string(::getpid()) + "." + std::to_string(g_counter++);
      if (::link(staged[i].path.c_str(), keep.c_str()) != 0)
        throw IoError(staged[i].path + ": cannot replace the file: " + errno_text(errno));
      kept[i] = keep;
    }
    // In the order staged, each directory synced once its renames are done and before the next
    // directory's: a file renamed after another (state.bin after the vector files it names) is
    // never on the disk without it.
    for (; done < staged.size(); ++done) {
      rename_into_place(staged[done].tmp, staged[done].path);
      if (done + 1 == staged.size() || directory_of(staged[done + 1].path) != directory_of(staged[done].path))
        sync_directory_of(staged[done].path);
    }
  } catch (...) {
    // Those renamed put back (the kept file where there was one, else none: a kept file that
    // cannot be put back stays, beside the new one, rather than be lost); the rest removed.
    for (std::size_t i = done; i-- > 0;) {
      if (kept[i].empty())
        ::unlink(staged[i].path.c_str());
      else if (::rename(kept[i].c_str(), staged[i].path.c_str()) == 0)
        kept[i].clear();
    }
    for (std::size_t i = done; i < staged.size(); ++i) {
      std::remove(staged[i].tmp.c_str());
      if (!kept[i].empty()) ::unlink(kept[i].c_str());
    }
    for (std::size_t i = 0; i < done; ++i)
      if (i + 1 == done || directory_of(staged[i + 1].path) != directory_of(staged[i].path))
        sync_directory_of(staged[i].path);
    ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
    throw;
  }
  for (const std::string& k : kept)
    if (!k.empty()) ::unlink(k.c_str());
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

}  // namespace revwave
