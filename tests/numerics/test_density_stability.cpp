// Long records on the CPU backend: the discrete energy of the leapfrog never rises after the source has ended, for
// every physics (constant and variable density), boundary (none, sponge, C-PML, a free surface
// over a C-PML), space order (2, 4, 8, 16), precision, on a plane and in 3D, with random smooth
// densities of contrast up to 1e3 and random velocities; and the cases that grew without bound
// before the density operator was made semi-definite (docs/physics/density.md, "Stability").
// (support/energy_stability.hpp has the energy and the checks).
#include <gtest/gtest.h>

#include <vector>

#include "energy_stability.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"

namespace revwave {
namespace {

using namespace energy_testing;

// The CPU propagator's forward steps.
template <class T>
struct CpuSteps {
  const char* name = "cpu";
  template <class Each>
  void operator()(const Problem<T>& p, Each&& each) const {
    CpuPropagator<T> prop(p);
    prop.reset_forward();
    const auto points = static_cast<std::size_t>(p.grid.alloc_points());
    std::vector<T> current(points);
    for (index_t n = 0; n < p.time.steps; ++n) {
      const T* before = prop.state().u.template as<T>();  // u[n]
      current.assign(before, before + points);
      prop.forward_step(n);
      each(n, prop.state().u.template as<T>(), current.data());  // u[n+1], u[n]
    }
  }
};

template <class T>
class DensityStability : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(DensityStability, Precisions);

// A plane: every physics, boundary and order, random smooth models (contrast 1e3).
TYPED_TEST(DensityStability, NoEnergyGrowsOnAPlaneAfterTheSource) {
  for (bool density : {false, true})
    for (Layer b : {Layer::none, Layer::sponge, Layer::cpml, Layer::surface})
      for (int order : {2, 4, 8, 16}) expect_stable<TypeParam>({{28, 1, 24}, order, b, density}, CpuSteps<TypeParam>{});
}

// 3D, fewer crossings (the cube is small): every boundary, orders 2 and 8, with a density.
TYPED_TEST(DensityStability, NoEnergyGrowsIn3DAfterTheSource) {
  for (Layer b : {Layer::none, Layer::sponge, Layer::cpml, Layer::surface})
    for (int order : {2, 8}) expect_stable<TypeParam>({{12, 11, 12}, order, b, true, 1e3, 2, 8}, CpuSteps<TypeParam>{});
}

TYPED_TEST(DensityStability, TheCasesThatGrewStayBounded) {
  expect_the_cases_that_grew_stay_bounded<TypeParam>(CpuSteps<TypeParam>{});
}

}  // namespace
}  // namespace revwave
