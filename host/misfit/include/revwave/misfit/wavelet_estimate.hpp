// The least-squares source signature from observed traces d and the modelled response G of the same
// traces to a unit impulse (the signature [1, 0, 0, ...]). The wave equation is linear and
// time-invariant in its source, so modelled data are G * s (a causal discrete convolution, trace by
// trace), and the frequency-domain matching filter
//
//   S(f) = sum over traces conj(G(f)) D(f) / (sum over traces |G(f)|^2 + eps)
//
// is the least-squares s, the water level eps keeping bins where G carries little energy from
// dividing by it. eps = water_level x the impulse response's power where the data have theirs:
// sum_f P(f) sum|G(f)|^2 / sum_f P(f), P = sum over traces |D|^2. Not relative to the peak of
// sum |G|^2: a finite-difference impulse response peaks near the grid's dispersion limit, far above
// the data's band, and a level relative to it is a different regularisation on every grid.
// Traces are zero-padded to 2 nt (a linear, not circular, convolution); the signature is the first
// nt samples of the inverse transform (it starts at t = 0). The sums are kept apart per shot so that
// a survey adds them on its fixed tree (the same bits on any number of processes) before dividing.
// docs/physics/misfits.md says where it is exact and where not.
#pragma once
#include <cstddef>
#include <vector>

#include "revwave/core/config.hpp"

namespace revwave {

inline constexpr double wavelet_water_level = 1e-3;

// One shot's spectral sums over its traces (nt x nrec each, sample-major): 4 (nt + 1) values, the
// real and imaginary parts of sum conj(G) D per bin, then sum |G|^2, then sum |D|^2 per bin.
std::vector<double> wavelet_spectral_sums(const double* impulse_response, const double* observed, index_t nt,
                                          index_t nrec);
// The signature (nt samples) from sums added over shots. InputError when G or the data are zero
// everywhere (no receiver sees the source within the record, or there are no data).
inline constexpr std::size_t wavelet_sum_blocks = 4;
std::vector<double> wavelet_from_sums(const std::vector<double>& sums, index_t nt,
                                      double water_level = wavelet_water_level);

// The frequency (Hz) at which traces' summed power spectrum peaks (nt x nrec, sample-major, sampled
// every dt s; zero-padded to 4 nt, so to 1 / (4 nt dt)), the zero bin left out: where a survey file
// carries no wavelet and the signature is estimated, what the checks that need a band take as f0
// (a Ricker wavelet's spectrum peaks at its f0). 0 where the traces are zero everywhere.
double data_peak_frequency(const double* traces, index_t nt, index_t nrec, double dt);

}  // namespace revwave
