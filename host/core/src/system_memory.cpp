#include "revwave/core/system_memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "revwave/core/errors.hpp"

namespace revwave {
namespace {

bool read_number(const std::string& path, double& out) {
  std::ifstream in(path);
  std::string s;
  if (!(in >> s) || s == "max") return false;
  try {
    out = std::stod(s);
  } catch (...) {
    return false;
  }
  return true;
}

}  // namespace

std::size_t available_memory_bytes() {
  double avail = 0;
  std::ifstream in("/proc/meminfo");
  std::string key;
  double value = 0;
  std::string unit;
  while (in >> key >> value >> unit) {
    if (key == "MemAvailable:") {
      avail = value * 1024.0;
      break;
    }
  }
  double limit = 0, current = 0;
  if (read_number("/sys/fs/cgroup/memory.max", limit) && read_number("/sys/fs/cgroup/memory.current", current)) {
    avail = std::min(avail, std::max(0.0, limit - current));
  }
  return static_cast<std::size_t>(avail);
}

std::size_t peak_rss_bytes() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<std::size_t>(ru.ru_maxrss) * 1024;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", bytes, units[u]);
  return buf;
}

std::size_t parse_bytes(const std::string& text) {
  std::size_t pos = 0;
  double value = 0;
  try {
    value = std::stod(text, &pos);
  } catch (...) {
    pos = 0;
  }
  std::string suffix = text.substr(pos);
  suffix.erase(std::remove_if(suffix.begin(), suffix.end(), [](unsigned char c) { return std::isspace(c); }),
               suffix.end());
  for (auto& ch : suffix) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  double scale = -1;
  if (suffix.empty() || suffix == "B") scale = 1;
  else if (suffix == "K" || suffix == "KB" || suffix == "KIB") scale = 1024.0;
  else if (suffix == "M" || suffix == "MB" || suffix == "MIB") scale = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "GB" || suffix == "GIB") scale = 1024.0 * 1024 * 1024;
  else if (suffix == "T" || suffix == "TB" || suffix == "TIB") scale = 1024.0 * 1024 * 1024 * 1024;
  if (pos == 0 || scale < 0 || !std::isfinite(value) || value <= 0) {
    throw InputError("memory size '" + text + "' is invalid: use a positive number with an optional unit (512M, 8GiB)");
  }
  return static_cast<std::size_t>(value * scale);
}

}  // namespace revwave
