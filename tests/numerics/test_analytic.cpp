// A homogeneous medium against the 3D Green's function: u(t) = w(t - r/c) / (4 pi r).
#include <gtest/gtest.h>

#include <cmath>

#include "analytic_run.hpp"

namespace revwave {
namespace {

// Relative L2 error of two receivers' traces (100 m and 102 m from the source) at spacing h. The
// window ends before anything reflected from the absorbing layer can arrive.
std::vector<double> trace_errors(double h) {
  const testing::AnalyticRun run(400, h, false, false, {{200, 200, 200}}, {{300, 200, 200}, {200, 280, 260}}, 0.32);
  std::vector<double> errors;
  for (index_t r = 0; r < 2; ++r) {
    double dist = 0;
    for (int a = 0; a < 3; ++a) dist += std::pow(run.acq.receivers[r][a] - run.acq.sources[0][a], 2);
    dist = std::sqrt(dist);
    errors.push_back(
        run.error(r, [&](double t) { return ricker_value(t - dist / run.c, run.f0, run.acq.t0) / (4 * M_PI * dist); }));
  }
  return errors;
}

TEST(Analytic, HomogeneousTraceMatchesTheGreensFunctionAndConvergesUnderRefinement) {
  const std::vector<double> coarse = trace_errors(20.0), fine = trace_errors(10.0);
  for (std::size_t r = 0; r < fine.size(); ++r) {
    // Measured: about 4% at h = 20 m (3 points per shortest wavelength) and 1.2% at 10 m.
    EXPECT_LT(fine[r], 0.02) << "receiver " << r;
    // Leapfrog is second order in time and dt follows h: expect a rate near 2.
    const double rate = std::log2(coarse[r] / fine[r]);
    EXPECT_GT(rate, 1.6) << "receiver " << r << ": errors " << coarse[r] << " -> " << fine[r];
  }
}

}  // namespace
}  // namespace revwave
