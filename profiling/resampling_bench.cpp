// The records' resampling on the host (revwave/misfit/record_resampling.hpp): seconds for R (the
// run's traces to the records) and R^T (the adjoint source back), float, for NT_REC record samples of
// NREC receivers at K substeps, the best of REPS, on the OpenMP team the environment gives.
//   build-cpu/revwave_resampling_bench NT_REC NREC K REPS
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "revwave/misfit/record_resampling.hpp"

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s NT_REC NREC K REPS\n", argv[0]);
    return 2;
  }
  const long nt_rec = std::atol(argv[1]), nrec = std::atol(argv[2]), k = std::atol(argv[3]), reps = std::atol(argv[4]);
  if (nt_rec < 1 || nrec < 1 || k < 2 || reps < 1) {
    std::fprintf(stderr, "NT_REC, NREC, REPS >= 1 and K >= 2\n");
    return 2;
  }
  const long nt_sim = revwave::simulation_samples(nt_rec, k);
  std::vector<float> sim(static_cast<std::size_t>(nt_sim * nrec), 1.0f), rec(static_cast<std::size_t>(nt_rec * nrec));
  double best_r = 1e30, best_rt = 1e30;
  for (long r = 0; r < reps; ++r) {
    auto t0 = std::chrono::steady_clock::now();
    revwave::resample_to_records(sim.data(), nt_sim, nrec, k, rec.data());
    auto t1 = std::chrono::steady_clock::now();
    revwave::resample_to_simulation(rec.data(), nt_sim, nrec, k, sim.data());
    auto t2 = std::chrono::steady_clock::now();
    best_r = std::min(best_r, std::chrono::duration<double>(t1 - t0).count());
    best_rt = std::min(best_rt, std::chrono::duration<double>(t2 - t1).count());
  }
  const double taps = 2.0 * k * revwave::resampling_half_width - 1;
  std::printf(
      "{\"nt_rec\": %ld, \"nrec\": %ld, \"k\": %ld, \"threads\": %d, \"seconds_R\": %.4f, \"seconds_RT\": %.4f, "
      "\"gmacs_R\": %.3f}\n",
      nt_rec, nrec, k, omp_get_max_threads(), best_r, best_rt, double(nt_rec) * double(nrec) * taps / best_r / 1e9);
  return 0;
}
