// How OpenMP's threads wait at a barrier, chosen by the program unless the user chose (docs/
// performance.md, "On a shared machine"). libgomp spins at a barrier before it sleeps (about
// 300,000 turns by default), which pays on free cores: a quiet 2-core machine ran the default
// gradient 11% faster spinning than sleeping. Where another process holds a core, a spinning
// thread waits for a partner the scheduler has parked, and every barrier lasts a time slice: the
// same gradient beside one busy process took 12.5 s spinning and 8.8 s sleeping (73 s and 13 s at a
// load of 4.7, #47). libgomp reads its policy from the environment when it loads, before main, so
// `revwave` decides at its start and, to sleep, runs itself again with OMP_WAIT_POLICY=passive.
#pragma once
#include <string>

namespace revwave {

// Whether a team of `threads` should sleep at barriers on `cpus` cores where `others` other tasks
// are running: when they would share a core.
inline bool wait_passively(int threads, int cpus, int others) { return threads > 1 && others + threads > cpus; }

// Tasks running or runnable on the machine now, besides the caller (/proc/stat's procs_running
// less one); -1 where unknown.
int other_running_tasks();

// The cores this process may run on.
int usable_cpus();

// Called first in main: where neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT is set and the team
// (`threads`, or the usable cores when 0) would share a core with the tasks running (the fewest of
// four looks 5 ms apart, where the first sees too many), sets
// OMP_WAIT_POLICY=passive and REVWAVE_OPENMP_WAIT (what was seen) and runs the program again with
// `argv`; returns where it does not (or where that fails, when the run goes on as it is).
void choose_openmp_waiting(char** argv, int threads);

// What the run's OpenMP threads do at a barrier and why: "sleep (OMP_WAIT_POLICY=passive, chosen:
// 3 other tasks running on 2 cores)", "spin, then sleep (libgomp's default: the cores were free at
// the start)", or the user's setting.
std::string openmp_wait_note();

}  // namespace revwave
