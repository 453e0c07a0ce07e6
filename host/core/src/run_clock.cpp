#include "revwave/core/run_clock.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace revwave {
namespace {

// Seconds since the process started, from the kernel's start time (clock ticks since boot) and the
// boot-time clock it counts on; negative when unknown.
double seconds_since_process_start() {
  std::ifstream stat("/proc/self/stat");
  std::string text;
  if (!std::getline(stat, text)) return -1;
  // The command's name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(text.substr(close + 2));
  std::string field;
  // Fields 3 .. 22: state, ..., starttime.
  for (int k = 3; k <= 22; ++k)
    if (!(rest >> field)) return -1;
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  timespec now{};
  if (ticks_per_second <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0) return -1;
  const double started = std::stod(field) / double(ticks_per_second);
  const double elapsed = double(now.tv_sec) + 1e-9 * double(now.tv_nsec) - started;
  return elapsed >= 0 && elapsed < 86400.0 ? elapsed : -1;
}

// When this program's static objects were made: after its image was loaded, before main.
const RunClock::clock::time_point loaded_at = RunClock::clock::now();

}  // namespace

RunClock RunClock::since_process_start() {
  const auto now = clock::now();
  const double elapsed = seconds_since_process_start();
  if (elapsed < 0) return RunClock(now);
  const auto started = now - std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(elapsed));
  // The kernel dates a process from its fork: a shell or a program that ran a while before it
  // exec'ed this one would put that time in start-up. Loading takes far less than a second; where
  // the start lies further back than that, the clock starts at the load.
  if (loaded_at - started > std::chrono::seconds(1)) return RunClock(loaded_at);
  return RunClock(started);
}

void RunClock::add(const std::string& phase, double seconds) {
  const auto at = std::find_if(phases_.begin(), phases_.end(), [&](const auto& p) { return p.first == phase; });
  if (at == phases_.end())
    phases_.emplace_back(phase, seconds);
  else
    at->second += seconds;
}

void RunClock::mark(const std::string& phase) {
  const auto now = clock::now();
  add(phase, std::chrono::duration<double>(now - last_).count());
  last_ = now;
}

void RunClock::mark_parts(const std::vector<std::pair<std::string, double>>& parts, const std::string& rest) {
  const auto now = clock::now();
  double left = std::chrono::duration<double>(now - last_).count();
  for (const auto& [phase, seconds] : parts) {
    const double part = std::clamp(seconds, 0.0, left);
    add(phase, part);
    left -= part;
  }
  add(rest, left);
  last_ = now;
}

double RunClock::seconds(const std::string& phase) const {
  for (const auto& [name, s] : phases_)
    if (name == phase) return s;
  return 0;
}

std::string RunClock::sentence() const {
  const auto fixed = [](double s) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g", s);
    return std::string(text);
  };
  std::string out = fixed(wall()) + " s:";
  for (std::size_t k = 0; k < phases_.size(); ++k) {
    std::string name = phases_[k].first;
    std::replace(name.begin(), name.end(), '_', ' ');
    out += (k == 0 ? " " : ", ") + fixed(phases_[k].second) + " s " + name;
  }
  return out;
}

}  // namespace revwave
