// Whole-file writes that leave either the old file or the complete new one, never a partial file.
#pragma once
#include <functional>
#include <ostream>
#include <string>

namespace revwave {

// Calls `writer` on a binary stream opened on `path + ".tmp.<pid>"` (same directory,
// so the rename cannot cross file systems), flushes and fsyncs it, then renames it
// over `path`. If the writer throws, or any step fails, the temporary is removed and
// `path` is left untouched: a writer exception propagates unchanged, an I/O failure
// throws IoError naming the file and the system's reason.
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& writer);

}  // namespace revwave
