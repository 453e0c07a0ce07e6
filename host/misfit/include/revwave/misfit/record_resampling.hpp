// Records at their own sample interval. A survey's records are sampled at dt (2-4 ms for field
// data), often coarser than the finite-difference step the model's velocities allow; the run then
// takes k steps of dt / k per record sample (k = the substeps, chosen from the stability limit) and
// compares its traces with the records through a band-limited resampling R: a low-pass at the
// records' Nyquist frequency followed by taking every k-th sample,
//   (R s)[n] = sum_m h[m] s[n k - m],   h[m] ~ sinc(0.85 m / k) w(m / (k L))  (|m| < k L),
// a windowed sinc (Kaiser window w, beta 8, over L = 16 record samples either side), each of its k
// phases scaled so that a constant passes unchanged: flat (within 1e-3) to 0.7 of the records'
// Nyquist frequency, half at 0.85, below 1e-3 from the Nyquist frequency on (nothing folds back). The adjoint source goes back through R^T, the exact transpose (the same
// taps), so J(R s(m), d) and its gradient are those of one linear operator; with k = 1 nothing is
// resampled. A sampled source signature goes the other way, interpolated by k R^T.
#pragma once
#include <vector>

#include "revwave/misfit/misfit.hpp"

namespace revwave {

// L: record samples either side that the taps reach.
inline constexpr index_t resampling_half_width = 16;

// h[m + k L - 1] for m = -(k L - 1) .. k L - 1 (2 k L - 1 taps); k >= 1 (k = 1: the single tap 1).
std::vector<double> resampling_taps(index_t substeps);

// A run with substeps > 1 goes on L record samples past the record's last, so that the low-pass sees
// the wave on both sides of every sample (a record cut at its last sample would lose half of its
// taps there); before the first sample it sees zeros, as a run started at rest does.
// The simulation's samples for nt_rec record samples: nt_rec with k = 1, else (nt_rec - 1 + L) k + 1.
index_t simulation_samples(index_t record_samples, index_t substeps);
// The record samples a run of nt_sim samples gives: simulation_samples' inverse, rounded down (a
// run that stops early, --stop-energy, may end between two; what lies past its end is zero), at least 1.
index_t record_samples(index_t simulation_samples, index_t substeps);

// out (nt_rec x nrec) = R in (nt_sim x nrec), both sample-major; nt_rec = record_samples(nt_sim, k).
template <class T>
void resample_to_records(const T* in, index_t nt_sim, index_t nrec, index_t substeps, T* out);
// out (nt_sim x nrec) = R^T in (nt_rec x nrec).
template <class T>
void resample_to_simulation(const T* in, index_t nt_sim, index_t nrec, index_t substeps, T* out);

// A signature sampled at the records' dt (nt_rec samples) on the simulation's steps: k R^T w
// (simulation_samples(nt_rec, k) samples), band-limited; w itself when k = 1.
std::vector<double> interpolate_signature(const std::vector<double>& w, index_t substeps);

// The misfit of the resampled traces: evaluate() is handed the run's synthetic traces (nt_sim
// samples at the simulation's dt) and the observed ones at the records' (their values: nt_rec x
// nrec; the view's nt and dt are the run's, as the driver knows no other); J = inner(R s, d) and
// the adjoint source R^T dJ/d(R s).
template <class T>
class ResampledMisfit final : public Misfit<T> {
 public:
  ResampledMisfit(const Misfit<T>& inner, index_t substeps);
  MisfitKind kind() const override { return inner_.kind(); }
  double evaluate(const Traces<T>& synthetic, const Traces<T>& observed, T* adjoint_source) const override;

 private:
  const Misfit<T>& inner_;
  index_t substeps_;
};

}  // namespace revwave
