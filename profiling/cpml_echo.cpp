// The absorbing layer's echo, sponge and C-PML, as tests/numerics/test_absorbing_layer.cpp measures
// it: a 200 m cube (21^3 points, h = 10 m, space order 8), a 12 Hz Ricker at its centre, receivers on
// the z = 0 face and 40 m inside it, recorded for 0.3 s; the echo is the largest difference from a
// reference grid 28 points larger on every side (whose own boundary returns nothing within the
// recording), over the direct wave's peak. dt is the default for 2000 m/s (the fastest velocity of
// the model), the medium 2000 or 1800 m/s. Prints a Markdown table.
//   build/revwave_cpml_echo [nbl ...]        (default: 5 10 20)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "revwave/driver/forward_modelling.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace {

using namespace revwave;

constexpr index_t n = 21, extra = 28;
constexpr double h = 10, tn = 0.3, vmax = 2000;

std::vector<double> record(double c, index_t pad, index_t nbl, bool cpml) {
  Grid g;
  g.shape = {n + 2 * pad, n + 2 * pad, n + 2 * pad};
  g.spacing = h;
  g.space_order = 8;
  g.nbl = nbl;
  g.cpml = cpml;
  Grid base = g;
  base.shape = {n, n, n};
  const TimeAxis time = make_time_axis(tn, default_dt(base, vmax));
  const double o = double(pad) * h;
  Acquisition acq;
  acq.f0 = 12;
  acq.t0 = default_wavelet_delay(acq.f0);
  acq.sources = {{o + 100, o + 100, o + 100}};
  acq.receivers = {{o + 100, o + 100, o + 0}, {o + 100, o + 100, o + 40}};
  const Problem<double> p = make_problem<double>(g, homogeneous_model(g.shape, c), acq, time);
  CpuPropagator<double> prop(p);
  return run_forward(prop).traces;
}

// The echo's peak over the direct wave's at each receiver (face, inside).
std::array<double, 2> echo(const std::vector<double>& ref, const std::vector<double>& small) {
  std::array<double, 2> out{};
  for (std::size_t r = 0; r < 2; ++r) {
    double peak = 0, e = 0;
    for (std::size_t k = r; k < ref.size(); k += 2) {
      peak = std::max(peak, std::abs(ref[k]));
      e = std::max(e, std::abs(small[k] - ref[k]));
    }
    out[r] = e / peak;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<index_t> nbls;
  for (int i = 1; i < argc; ++i) nbls.push_back(std::atol(argv[i]));
  if (nbls.empty()) nbls = {5, 10, 20};
  std::printf("| nbl | c (m/s) | sponge: face | sponge: 40 m inside | cpml: face | cpml: 40 m inside |\n");
  std::printf("| --- | --- | --- | --- | --- | --- |\n");
  for (double c : {2000.0, 1800.0}) {
    const std::vector<double> ref = record(c, extra, 10, false);
    for (index_t nbl : nbls) {
      const auto s = echo(ref, record(c, 0, nbl, false));
      const auto p = echo(ref, record(c, 0, nbl, true));
      std::printf("| %ld | %.0f | %.2f%% | %.2f%% | %.3f%% | %.3f%% |\n", long(nbl), c, 100 * s[0], 100 * s[1],
                  100 * p[0], 100 * p[1]);
      std::fflush(stdout);
    }
  }
  return 0;
}
