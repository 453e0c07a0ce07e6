// Where a run's wall time goes: its phases in the order they ran, each the steady-clock time since
// the mark before it, so that they add up to the run's wall time by construction. A command's clock
// starts at the process's own start (the kernel's record of it), and its first phase, start-up,
// holds the loading of the program and the reading of its command line; a library call's starts at
// the call. The phases of one name add up (a run that models data twice has one phase for both).
#pragma once
#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace revwave {

class RunClock {
 public:
  using clock = std::chrono::steady_clock;

  // A clock from now.
  RunClock() : origin_(clock::now()), last_(origin_) {}
  // A clock from the process's start where the system says when that was (Linux: /proc/self/stat,
  // to the kernel's tick, 10 ms at most), else from now. The kernel dates a process from its fork:
  // where that lies more than a second before this program was loaded (a shell that ran a while,
  // then exec'ed it), the clock starts at the load instead.
  static RunClock since_process_start();

  // The time since the last mark (or the origin) goes to `phase`.
  void mark(const std::string& phase);
  // Parts of the time since the last mark that a callee timed itself go to their phases, in order,
  // and the rest of it to `rest`; parts longer than that time are cut to it.
  void mark_parts(const std::vector<std::pair<std::string, double>>& parts, const std::string& rest);
  void mark_part(const std::string& phase, double seconds, const std::string& rest) {
    mark_parts({{phase, seconds}}, rest);
  }

  const std::vector<std::pair<std::string, double>>& phases() const { return phases_; }
  // Seconds from the origin to the last mark: the phases' sum.
  double wall() const { return std::chrono::duration<double>(last_ - origin_).count(); }
  // Seconds of `phase`, 0 when it never ran.
  double seconds(const std::string& phase) const;
  // "1.23 s: 0.01 s start up, 0.2 s model, ..." (phases in the order they first ran, '_' as ' ').
  std::string sentence() const;

 private:
  explicit RunClock(clock::time_point origin) : origin_(origin), last_(origin) {}
  void add(const std::string& phase, double seconds);

  clock::time_point origin_, last_;
  std::vector<std::pair<std::string, double>> phases_;
};

}  // namespace revwave
