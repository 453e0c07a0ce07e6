// --free-surface on the CUDA backend (and cudasim): the CPU's forward traces (bit for bit on the
// emulation) and gradient, the dot-product test, and every checkpointed gradient == full.
#include <gtest/gtest.h>

#include "cuda_engine_windows.hpp"
#include "cuda_gradient_test.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

// The awkward case with a free surface: sources 13 m deep, receivers on the surface and in the
// mirror's rows.
Case surface_case(int order, index_t steps) {
  Case c = awkward_case(order, steps);
  c.grid.free_surface = true;
  c.acq.receivers.push_back({0.3 * c.grid.extent(0), 0.5 * c.grid.extent(1), 0.0});
  c.acq.receivers.push_back({0.6 * c.grid.extent(0), 0.5 * c.grid.extent(1), 4.0});
  return c;
}

class CudaFreeSurface : public CudaTest {};

TEST_F(CudaFreeSurface, ForwardTracesAndGradientAreTheCpus) {
  const Case c = surface_case(8, 50);
  const Problem<float> truth = make_problem<float>(c.grid, c.true_model, c.acq, c.time);
  CpuPropagator<float> cpu_truth(truth);
  const std::vector<float> observed = run_forward(cpu_truth).traces;
  const std::vector<float> gpu_observed = cuda_forward(truth, DeviceBudgets{}).traces;
  expect_same(gpu_observed, observed, 1e-5, "forward traces");
  const std::size_t surface = observed.size() / truth.rec.count;  // every sample of the surface receiver is 0
  for (std::size_t n = 0; n < surface; ++n)
    ASSERT_EQ(gpu_observed[n * truth.rec.count + truth.rec.count - 2], 0.0f) << "sample " << n;

  const Problem<float> p = make_problem<float>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<float> cpu(p);
  const StrategyOptions full = strategy("full");
  const StrategyPlan plan = plan_strategy(full, p.time.steps, p.grid.field_bytes<float>());
  const GradientOutput g_cpu = run_gradient(cpu, observed.data(), full, plan);
  const GradientOutput g_gpu = cuda_gradient(p, observed.data(), full, plan, DeviceBudgets{});
  // Not bit for bit even without the surface: the CPU's sweeps flush subnormals, the kernels do not
  // (measured on cudasim: 3e-27 of the largest value, 1e-32 without the surface).
  EXPECT_LE(relative_to_max(g_gpu.gradient, g_cpu.gradient), 64 * eps<float>()) << "gradient";
}

TEST_F(CudaFreeSurface, DotProductTestDouble) {
  const Case c = surface_case(8, 50);
  const DotProductResult r =
      dot_product_test<double>(c.grid, c.true_model, c.acq, c.time, 7, Backend::cuda, DeviceBudgets{});
  EXPECT_LT(r.relative_error, 1e-12) << r.forward_product << " vs " << r.adjoint_product;
}

class CudaFreeSurfaceCheckpointing : public CudaPhysicsCheckpointing {
 protected:
  CudaFreeSurfaceCheckpointing() : CudaPhysicsCheckpointing(surface_case(4, 60)) {}
};

TEST_F(CudaFreeSurfaceCheckpointing, RevolveOnlineAndPinnedSlotsEqualFull) { expect_every_placement_equals_full(); }

// The device's shot engine with --aperture windows, two reaching z = 0 (the surface kept: no layer
// on top, nbl_top 0) and one below it (a layer on top): the per-shot device path's bits.
TEST_F(CudaFreeSurface, ShotEngineWindowsCarryTheSurface) {
  using T = float;
  Case c = awkward_case(4, 30, {29, 23, 30});
  c.grid.free_surface = true;
  expect_engine_windows_are_the_per_shot_bits<T>(c, "free surface");
}

}  // namespace
}  // namespace revwave
