// Whole-file writes that leave either the old file or the complete new one, never a partial file;
// groups of outputs that appear together or not at all; no temporary left behind by a signal.
#pragma once
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace revwave {

// Calls `writer` on a binary stream opened on `path + ".tmp.<pid>.<n>"` (same directory,
// so the rename cannot cross file systems), flushes and fsyncs it, then renames it
// over `path` and syncs the directory. If the writer throws, or any step fails, the temporary is removed and
// `path` is left untouched: a writer exception propagates unchanged, an I/O failure
// throws IoError naming the file and the system's reason. Inside an OutputTransaction
// the rename waits for the transaction's commit.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& writer);
// The same for a writer that opens the file itself (a library such as segyio): `writer` gets the
// temporary's path, creates and closes it; the rest (fsync, rename or staging, removal on failure
// or signal) is as above.
void write_file_atomically_at(const std::string& path, const std::function<void(const std::string& tmp)>& writer);

// Outputs that appear together or not at all. While one is alive on this thread,
// write_file_atomically leaves each complete file under its temporary name; commit()
// renames them all into place in the order written, syncing each directory before the next
// one's renames, with SIGINT, SIGTERM, SIGHUP and SIGQUIT held off meanwhile.
// Destroyed without commit() (an exception, an early return), it removes the temporaries:
// every output path keeps what it held before the run, a file that existed included.
// A transaction opened while another is alive joins it (only the outermost commits).
class OutputTransaction {
 public:
  OutputTransaction();
  ~OutputTransaction();
  OutputTransaction(const OutputTransaction&) = delete;
  OutputTransaction& operator=(const OutputTransaction&) = delete;
  // IoError naming the file if an output path is a directory (checked before any rename), or if
  // a rename fails nonetheless (then the outputs renamed before it stay).
  void commit();

 private:
  bool outermost_;
};

// Whether two paths name the same file: the same device and inode when both exist, else the same
// absolute, normalised path (for an output not written yet). For refusing outputs that would
// overwrite an input of the run.
bool same_file(const std::string& a, const std::string& b);

// Installs handlers for SIGINT, SIGTERM, SIGHUP and SIGQUIT that remove every temporary
// file an atomic write or a transaction holds at that moment, then end the process by the
// same signal (its exit status says so). Meant for programs (the command line); a library
// host with handlers of its own can call remove_temporaries_now() from them instead.
void remove_temporaries_on_signal();
// Removes the temporaries now; async-signal-safe.
void remove_temporaries_now() noexcept;

}  // namespace revwave
