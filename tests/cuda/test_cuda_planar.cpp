// 2D (ny = 1) on the CUDA backend (and cudasim): the CPU's forward traces and gradient (bit for bit
// on the emulation), the dot-product test, every checkpointed gradient == full, and the device's
// shot engine with --aperture windows on the plane, with and without the free surface.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "cuda_engine_windows.hpp"
#include "cuda_gradient_test.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/store/compression.hpp"
#include "revwave/survey/survey_gradient.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

// The awkward case on a plane: two sources 13 m deep, eleven receivers, everything at y = 0.
Case planar_case(int order, index_t steps, bool surface = false) {
  Case c = testing::case_on({37, 1, 23}, 5, order, steps);
  c.grid.free_surface = surface;
  c.acq.sources = {{0.45 * c.grid.extent(0), 0.0, 13.0}, {0.45 * c.grid.extent(0) + 3.0, 0.0, 13.0}};
  for (int i = 0; i < 11; ++i) c.acq.receivers.push_back({c.grid.extent(0) * (i + 0.5) / 11.0, 0.0, 21.0});
  if (surface) c.acq.receivers.push_back({0.3 * c.grid.extent(0), 0.0, 0.0});
  return c;
}

class CudaPlanar : public CudaTest {};

TEST_F(CudaPlanar, ForwardTracesAndGradientAreTheCpus) {
  for (bool surface : {false, true}) {
    SCOPED_TRACE(surface ? "with the free surface" : "without the free surface");
    const Case c = planar_case(8, 50, surface);
    const Problem<double> truth = make_problem<double>(c.grid, c.true_model, c.acq, c.time);
    CpuPropagator<double> cpu_truth(truth);
    const std::vector<double> observed = run_forward(cpu_truth).traces;
    expect_same(cuda_forward(truth, DeviceBudgets{}).traces, observed, 1e-12, "forward traces");

    const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
    CpuPropagator<double> cpu(p);
    const StrategyOptions full = strategy("full");
    const StrategyPlan plan = plan_strategy(full, p.time.steps, p.grid.field_bytes<double>());
    const GradientOutput g_cpu = run_gradient(cpu, observed.data(), full, plan);
    const GradientOutput g_gpu = cuda_gradient(p, observed.data(), full, plan, DeviceBudgets{});
    double norm = 0;
    for (double v : g_cpu.gradient) norm += v * v;
    ASSERT_GT(norm, 0.0);
    // Double: nothing is subnormal here, so the emulation's gradient is the CPU's bits.
    expect_same(g_gpu.gradient, g_cpu.gradient, 1e-12, "gradient");
  }
}

// Every sweep kernel (columns, the shuffle and tiled variants) on the plane, whose y neighbours are
// the point itself (a y stride of 0, in shared-memory tiles too): revolve == full, and on the
// emulation each kernel's gradient is the CPU's bits.
TEST_F(CudaPlanar, EverySweepKernelGivesTheCpusGradient) {
  using T = double;
  const Case c = planar_case(8, 40, true);
  const std::vector<T> observed = testing::observed_in<T>(c, c.true_model);
  const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<T> cpu(p);
  const StrategyOptions full = strategy("full");
  const GradientOutput ref =
      run_gradient(cpu, observed.data(), full, plan_strategy(full, p.time.steps, cpu.field_bytes()));
  for (SweepKernel kernel : sweep_kernels) {
    const auto gradient = [&](const StrategyOptions& o) {
      CudaPropagator<T> prop(p);
      prop.set_sweep_kernel(kernel);
      return run_gradient(prop, observed.data(), o, plan_strategy(o, p.time.steps, prop.field_bytes()));
    };
    const GradientOutput g = gradient(full), r = gradient(strategy("revolve", 5));
    EXPECT_EQ(0, std::memcmp(g.gradient.data(), r.gradient.data(), g.gradient.size() * sizeof(double)))
        << "revolve against full, " << to_string(kernel);
    expect_same(g.gradient, ref.gradient, 1e-12, std::string("full against the CPU, ") + to_string(kernel));
  }
}

TEST_F(CudaPlanar, DotProductTestDouble) {
  for (bool surface : {false, true}) {
    const Case c = planar_case(8, 50, surface);
    const DotProductResult r =
        dot_product_test<double>(c.grid, c.true_model, c.acq, c.time, 7, Backend::cuda, DeviceBudgets{});
    EXPECT_LT(r.relative_error, 1e-12) << r.forward_product << " vs " << r.adjoint_product;
  }
}

class CudaPlanarCheckpointing : public CudaPhysicsCheckpointing {
 protected:
  CudaPlanarCheckpointing() : CudaPhysicsCheckpointing(planar_case(4, 60)) {}
};

TEST_F(CudaPlanarCheckpointing, RevolveOnlineAndPinnedSlotsEqualFull) { expect_every_placement_equals_full(); }

// fp16 checkpoints on the plane, encoded on the device (device slots, and every slot spilled to
// pinned memory): the first step after a restore decodes in the sweep (sweep_restore.hpp), whose y
// neighbours on a plane are the point itself. The CPU codec's gradient, bit for bit on the emulation.
TEST_F(CudaPlanarCheckpointing, Fp16SlotsGiveTheCpuCodecsGradient) {
  StrategyOptions o = strategy("online", 6);
  o.compression = parse_compression("fp16");
  o.backend = Backend::cuda;
  const StrategyPlan plan = plan_strategy(o, p_->time.steps, field_layout<T>(p_->grid));
  CudaRunInfo spilled;
  const GradientOutput d = cuda_gradient(*p_, observed_.data(), o, plan, DeviceBudgets{});
  const GradientOutput h = cuda_gradient(*p_, observed_.data(), o, plan, pinned_only_budgets(), &spilled);
  EXPECT_EQ(spilled.device_slots, 0);
  ASSERT_EQ(d.gradient.size(), h.gradient.size());
  EXPECT_EQ(0, std::memcmp(d.gradient.data(), h.gradient.data(), d.gradient.size() * sizeof(double)))
      << "the same encoded bytes wherever the slot lives";
  StrategyOptions cpu_o = o;
  cpu_o.backend = Backend::cpu;
  CpuPropagator<T> cpu(*p_);
  const GradientOutput c =
      run_gradient(cpu, observed_.data(), cpu_o, plan_strategy(cpu_o, p_->time.steps, field_layout<T>(p_->grid)));
  const auto relative_l2 = [](const std::vector<double>& a, const std::vector<double>& ref) {
    double e2 = 0, r2 = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      e2 += (a[i] - ref[i]) * (a[i] - ref[i]);
      r2 += ref[i] * ref[i];
    }
    return std::sqrt(e2 / r2);
  };
  // float: the CPU flushes subnormals and the kernels do not, and fp16 rounding can carry that
  // apart; a restore that read zeros for the plane's y neighbours was 0.78 away.
  const double to_cpu = relative_l2(d.gradient, c.gradient), to_full = relative_l2(d.gradient, full_.gradient);
  std::printf("  fp16 on the plane: %.3e from the CPU codec's gradient, %.3e from full's\n", to_cpu, to_full);
  EXPECT_LT(to_cpu, 1e-4);
  EXPECT_GT(to_full, 0.0) << "fp16 is lossy";
  EXPECT_LT(to_full, 1.5e-2) << "fp16's bound on the 3D case (test_cuda_compression.cpp)";
}

// The device's shot engine with --aperture windows on the plane (the y axis is the plane's one row
// in every window; with the surface two windows reach z = 0 and one is below it): the bits of the
// per-shot path.
TEST_F(CudaPlanar, ShotEngineWindowsOnThePlane) {
  using T = float;
  for (bool surface : {false, true}) {
    SCOPED_TRACE(surface ? "with the free surface" : "without the free surface");
    Case c = testing::case_on({41, 1, 30}, 5, 4, 30);
    c.grid.free_surface = surface;
    SurveySum sum;
    expect_engine_windows_are_the_per_shot_bits<T>(c, surface ? "free surface" : "open", &sum);
    ASSERT_EQ(sum.shots.size(), 3u);
    for (const auto& s : sum.shots) {  // window: first point, then shape
      EXPECT_EQ(s.window[1], 0) << "a window on the plane holds its one row";
      EXPECT_EQ(s.window[4], 1) << "a window on the plane holds its one row";
      EXPECT_LT(s.window[3], c.grid.shape[0]) << "a window, not the whole model";
    }
    double norm = 0;
    for (double v : sum.gradient) norm += v * v;
    EXPECT_GT(norm, 0.0);
  }
}

}  // namespace
}  // namespace revwave
