#include "revwave/core/system_memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
  std::size_t bytes = static_cast<std::size_t>(avail);
  if (const char* env = std::getenv("REVWAVE_MEMORY_LIMIT")) {
    std::size_t cap = 0;
    try {
      cap = parse_bytes(env);
    } catch (const InputError& e) {
      throw InputError(std::string("environment variable REVWAVE_MEMORY_LIMIT: ") + e.what());
    }
    bytes = std::min(bytes, cap);
  }
  return bytes;
}

void require_memory(std::size_t bytes, const std::string& what, const std::string& advice) {
  const std::size_t have = available_memory_bytes();
  if (bytes <= have) return;
  const bool capped = std::getenv("REVWAVE_MEMORY_LIMIT") != nullptr;
  throw OutOfMemoryError(what + " needs " + format_bytes(double(bytes)) + ", but only " + format_bytes(double(have)) +
                         " is available" + (capped ? " (REVWAVE_MEMORY_LIMIT)" : "") +
                         (advice.empty() ? "" : "; " + advice));
}

// VmHWM is the high-water mark of this process's own memory map. getrusage's ru_maxrss is not: it
// keeps the largest map the process ever had, and exec does not reset it, so a run started by a
// large process (a notebook holding gigabytes) reported its parent's peak.
std::size_t peak_rss_bytes() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmHWM:", 0) != 0) continue;
    std::istringstream fields(line.substr(6));
    double kib = 0;
    if (fields >> kib) return static_cast<std::size_t>(kib) * 1024;
  }
  rusage ru{};  // no /proc (not Linux): the best there is
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<std::size_t>(ru.ru_maxrss) * 1024;
}

const char* peak_rss_counts() {
  return "VmHWM of /proc/self/status: the peak resident memory of this process's own address space since it "
         "started (not its parent's: getrusage's ru_maxrss survives exec)";
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 6) {
    bytes /= 1024.0;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", bytes, units[u]);
  return buf;
}

std::size_t parse_bytes(const std::string& text) {
  const auto invalid = [&text]() {
    return InputError("memory size '" + text +
                      "' is invalid: use a positive decimal number with an optional unit (512M, 8GiB, 80GB)");
  };
  // The number: decimal digits with an optional fraction and exponent (std::stod alone would take
  // hexadecimal, "inf" and "nan" too).
  std::size_t pos = 0, digits = 0;
  const auto digit = [&](std::size_t i) {
    return i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
  };
  while (digit(pos)) ++pos, ++digits;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    while (digit(pos)) ++pos, ++digits;
  }
  if (digits == 0) throw invalid();
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    std::size_t e = pos + 1;
    if (e < text.size() && (text[e] == '+' || text[e] == '-')) ++e;
    if (digit(e)) {
      while (digit(e)) ++e;
      pos = e;
    }
  }
  const double value = std::strtod(text.substr(0, pos).c_str(), nullptr);
  std::string suffix = text.substr(pos);
  suffix.erase(std::remove_if(suffix.begin(), suffix.end(), [](unsigned char c) { return std::isspace(c); }),
               suffix.end());
  for (auto& ch : suffix) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  // K, M, G, T, P and KiB ... PiB are binary (1024^k); kB, MB, GB, TB, PB are decimal (1000^k).
  double scale = -1;
  const std::string prefixes = "KMGTP";
  if (suffix.empty() || suffix == "B") {
    scale = 1;
  } else if (const std::size_t k = prefixes.find(suffix[0]); k != std::string::npos) {
    const std::string unit = suffix.substr(1);
    if (unit.empty() || unit == "IB")
      scale = std::pow(1024.0, double(k + 1));
    else if (unit == "B")
      scale = std::pow(1000.0, double(k + 1));
  }
  if (scale < 0 || !std::isfinite(value) || value <= 0) throw invalid();
  const double bytes = value * scale;
  if (bytes < 1) throw InputError("memory size '" + text + "' is invalid: it is less than one byte");
  // A size in bytes is a whole number; a fraction of a unit (1.5GiB) is read to the byte below it.
  if (scale == 1 && bytes != std::floor(bytes)) {
    throw InputError("memory size '" + text +
                     "' is invalid: a size in bytes is a whole number (give a unit for a fraction: 1.5GiB)");
  }
  // 2^64 is exact as a double; anything at or above it does not fit a byte count.
  if (!(bytes < 18446744073709551616.0)) {
    throw InputError("memory size '" + text + "' is invalid: it exceeds the largest size, 2^64 - 1 bytes (16 EiB)");
  }
  return static_cast<std::size_t>(bytes);
}

}  // namespace revwave
