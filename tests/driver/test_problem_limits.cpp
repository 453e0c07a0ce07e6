// Problems at the edges of what is representable: points on the far face with no absorbing layer,
// step counts and grids that overflow, velocities whose m = 1/c^2 the precision cannot hold.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "error_message.hpp"
#include "precisions.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_driver.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/wavelet.hpp"
#include "small_grid.hpp"

namespace revwave {
namespace {

using testing::message_of;

Grid grid(index_t n, index_t nbl) { return testing::small_grid({n, n + 1, n + 2}, nbl, 8); }

TEST(FarFace, TrilinearCornersStayInsideTheBoxWhateverNbl) {
  for (index_t nbl : {0, 1, 4}) {
    const Grid g = grid(12, nbl);
    const std::vector<Vec3> coords = {{g.extent(0), g.extent(1), g.extent(2)},
                                      {g.extent(0), 0, 0},
                                      {0.5 * g.extent(0), g.extent(1), 17.3},
                                      {0, 0, 0}};
    const SparsePoints pts = trilinear_points(g, coords, "receiver");
    for (std::size_t c = 0; c < pts.index.size(); ++c) {
      const auto [i, j, k] = g.coordinates(pts.index[c]);
      // Every corner is an interior point, so nothing outside the box (halo or layer) is touched.
      EXPECT_TRUE(i >= nbl && i < nbl + g.shape[0] && j >= nbl && j < nbl + g.shape[1] && k >= nbl &&
                  k < nbl + g.shape[2])
          << "nbl " << nbl << " corner " << c << " at (" << i << ", " << j << ", " << k << ")";
      EXPECT_GE(pts.weight[c], 0.0);
    }
    // The far corner samples the last interior point with weight 1.
    const index_t last = g.interior_index(g.shape[0] - 1, g.shape[1] - 1, g.shape[2] - 1);
    double w = 0;
    for (int c = 0; c < 8; ++c) w += pts.index[c] == last ? pts.weight[c] : 0.0;
    EXPECT_EQ(w, 1.0);
  }
}

REVWAVE_PRECISION_SUITE(FarFaceRun, ::testing::Test);

// The case: no absorbing layer and a source and receivers on the far faces used to read
// kappa past its end and divide by m = 0 in the halo, turning the float gradient into NaN.
TYPED_TEST(FarFaceRun, NoLayerAndPointsOnTheFarFacesGiveFiniteResultsAndAnExactAdjoint) {
  using T = TypeParam;
  const Grid g = grid(10, 0);
  Acquisition acq;
  acq.f0 = 15;
  acq.t0 = default_wavelet_delay(acq.f0);
  acq.sources = {{g.extent(0), g.extent(1), g.extent(2)}};
  acq.receivers = {{g.extent(0), 0.5 * g.extent(1), 0}, {0, g.extent(1), g.extent(2)}, {45, 50, g.extent(2)}};
  const VelocityModel model = homogeneous_model(g.shape, 2000), start = homogeneous_model(g.shape, 2100);
  const TimeAxis time = make_time_axis(0.05, default_dt(g, 2100));
  const Problem<T> truth = make_problem<T>(g, model, acq, time);
  CpuPropagator<T> modelling(truth);
  const std::vector<T> observed = run_forward(modelling).traces;
  for (T v : observed) ASSERT_TRUE(std::isfinite(v));
  const Problem<T> p = make_problem<T>(g, start, acq, time);
  CpuPropagator<T> prop(p);
  const GradientOutput out = gradient_full(prop, observed.data());
  EXPECT_TRUE(std::isfinite(out.stats.objective));
  EXPECT_GT(out.stats.objective, 0.0);
  double norm = 0;
  for (double v : out.gradient) {
    ASSERT_TRUE(std::isfinite(v));
    norm += v * v;
  }
  EXPECT_GT(norm, 0.0);
  const DotProductResult r = dot_product_test<T>(g, model, acq, time, 7);
  EXPECT_LT(r.relative_error, (std::is_same_v<T, double> ? 1e-12 : 1e-4));
}

TEST(TimeAxis, AStepCountBeyondTheLimitIsRefusedWithTheLimit) {
  EXPECT_EQ(make_time_axis(1.0, 0.25).steps, 4);
  EXPECT_EQ(make_time_axis(1e-9, 0.25).steps, 1);
  // ceil(1e30 / 1e-3) used to wrap to a negative count and run one step.
  const std::string m = message_of([] { make_time_axis(1e30, 1e-3); });
  EXPECT_NE(m.find("needs 1e+33 time steps: the limit is 2^53"), std::string::npos) << m;
  EXPECT_THROW(make_time_axis(0.5, 1e-300), InputError);
  EXPECT_THROW(make_time_axis(0.5, 0.0), InputError);
  EXPECT_THROW(make_time_axis(std::nan(""), 1e-3), InputError);
}

TEST(GridLimits, AGridWhoseSizeOverflowsIsRefused) {
  Grid g = grid(12, 0);
  g.shape = {3000000000, 3000000000, 3000000000};
  EXPECT_NE(message_of([&] { validate(g); }).find("exceeds the limit of 2^63 - 1"), std::string::npos);
  g = grid(12, std::numeric_limits<index_t>::max() / 2);
  EXPECT_THROW(validate(g), InputError);
  g = grid(12, 10);
  EXPECT_NO_THROW(validate(g));
}

TEST(Representable, AVelocityWhoseSquaredSlownessOverflowsFloatIsRefused) {
  const Grid g = grid(8, 2);
  Acquisition acq;
  acq.sources = {{20, 20, 20}};
  acq.receivers = {{30, 30, 30}};
  for (double c : {1e-20, 1e25}) {
    const VelocityModel model = homogeneous_model(g.shape, c);
    TimeAxis time;
    time.dt = default_dt(g, c);
    time.steps = 2;
    const std::string m = message_of([&] { make_problem<float>(g, model, acq, time); });
    EXPECT_NE(m.find("out of range for float"), std::string::npos) << c << ": " << m;
  }
  // One slow point among normal ones: m = 1e40 overflows float, not double.
  VelocityModel model = homogeneous_model(g.shape, 2000);
  model.velocity[7] = 1e-20;
  const TimeAxis time = make_time_axis(0.01, default_dt(g, 2000));
  EXPECT_NE(message_of([&] {
              make_problem<float>(g, model, acq, time);
            }).find("velocity 1e-20 m/s is out of range for float"),
            std::string::npos);
  EXPECT_NO_THROW(make_problem<double>(g, model, acq, time));
}

}  // namespace
}  // namespace revwave
