// How OpenMP's threads wait at a barrier, chosen by the program unless the user chose (docs/
// commands.md). libgomp spins at a barrier before it sleeps (about 300,000 turns by default),
// which pays on free cores: a quiet 2-core machine ran the default gradient 11-19% faster spinning
// than sleeping. Where another process holds a core, a spinning thread waits for a partner the
// scheduler has parked, and every barrier lasts a time slice: the same gradient beside one busy
// process took 13.5 s spinning and 9.1 s sleeping (73 s and 13 s at a load of 4.7, #47). libgomp
// reads its policy from the environment when it loads, before main, so `revwave` decides at its
// start and, to sleep, runs itself again with OMP_WAIT_POLICY=passive.
#pragma once
#include <string>

namespace revwave {

// Whether a team of `threads` on `usable` cores (this process's affinity) of a machine of `online`
// cores where `others` other tasks run should sleep at barriers: when it would share a core.
inline bool wait_passively(int threads, int usable, int online, int others) {
  return threads > 1 && (threads > usable || others + threads > online);
}

// Tasks running or runnable on the machine now, besides the caller (/proc/stat's procs_running
// less one); -1 where unknown.
int other_running_tasks();

// The cores this process may run on, and the machine's.
int usable_cpus();
int online_cpus();

// Called first in main. Where neither OMP_WAIT_POLICY nor GOMP_SPINCOUNT is set, the program runs
// as itself (no loader, tool or injection in between: LD_PRELOAD, CUDA_INJECTION64_PATH unset,
// /proc/self/exe named as argv[0]), and its team (`threads`, else OMP_NUM_THREADS, else the usable
// cores; under mpirun the process's share of them, its node's other ranks not counted as load)
// would share a core with the tasks running (the fewest of four looks 5 ms apart), sets
// OMP_WAIT_POLICY=passive and REVWAVE_OPENMP_WAIT (this process's id and what was seen) and runs
// the program again with `argv`; returns where it does not (or where that fails).
void choose_openmp_waiting(char** argv, int threads);

// What the run's OpenMP threads do at a barrier and why: "sleep (OMP_WAIT_POLICY=passive, chosen:
// 3 other tasks running on 2 cores at the start)", "spin, then sleep (libgomp's default: ...)" with
// the reason no choice was made, or the user's setting.
std::string openmp_wait_note();

}  // namespace revwave
