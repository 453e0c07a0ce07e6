// Long records on the CUDA backend (and cudasim): the energy checks of the CPU's DensityStability
// (support/energy_stability.hpp) on the device's own steps, every field downloaded after each step.
// A plane, every physics, boundary and space order 2-16, 3D at orders 2 and 8 (float), and the
// cases of #44 that grew, in float and double. On a GPU, nvcc's fused multiply-adds round otherwise
// than the CPU: the energy bounds are the rounding allowances of the CPU's test, which a growing
// mode (-1e68 and beyond, or +inf) passes by tens of orders of magnitude.
#include <gtest/gtest.h>

#include <vector>

#include "device_state_io.hpp"
#include "energy_stability.hpp"
#include "revwave/core/cuda_info.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"

namespace revwave {
namespace {

using namespace energy_testing;
using cuda_testing::download_u;
using cuda_testing::download_u_prev;

// The CUDA propagator's forward steps: after step n, u[n+1] and u[n] downloaded.
template <class T>
struct CudaSteps {
  const char* name = "cuda";
  template <class Each>
  void operator()(const Problem<T>& p, Each&& each) const {
    CudaPropagator<T> prop(p);
    prop.reset_forward();
    const std::size_t values = p.grid.template field_bytes<T>() / sizeof(T);  // the C-PML's tail too
    for (index_t n = 0; n < p.time.steps; ++n) {
      prop.forward_step(n);
      const std::vector<T> u = download_u(prop, values), u_prev = download_u_prev(prop, values);
      each(n, u.data(), u_prev.data());  // u[n+1], u[n]
    }
  }
};

template <class T>
void expect_no_growth_on_a_plane() {
  for (bool density : {false, true})
    for (Layer b : {Layer::none, Layer::sponge, Layer::cpml, Layer::surface})
      for (int order : {2, 4, 8, 16}) expect_stable<T>({{28, 1, 24}, order, b, density}, CudaSteps<T>{});
}

TEST(CudaDensityStability, NoEnergyGrowsOnAPlaneAfterTheSource) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  expect_no_growth_on_a_plane<float>();
  expect_no_growth_on_a_plane<double>();
}

// 3D as the CPU's (a small cube, fewer crossings): every boundary, orders 2 and 8, with a density.
TEST(CudaDensityStability, NoEnergyGrowsIn3DAfterTheSource) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  for (Layer b : {Layer::none, Layer::sponge, Layer::cpml, Layer::surface})
    for (int order : {2, 8}) expect_stable<float>({{12, 11, 12}, order, b, true, 1e3, 2, 8}, CudaSteps<float>{});
}

TEST(CudaDensityStability, TheCasesThatGrewStayBounded) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  expect_the_cases_that_grew_stay_bounded<float>(CudaSteps<float>{});
  expect_the_cases_that_grew_stay_bounded<double>(CudaSteps<double>{});
}

}  // namespace
}  // namespace revwave
