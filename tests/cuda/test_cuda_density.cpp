// --density on the CUDA backend (and cudasim): the CPU backend's forward traces, J, dJ/dm and
// dJ/drho (bit for bit on the emulation), open and with --free-surface, in 3D and on a plane;
// every checkpointed gradient equal to full's on the device, bit for bit; the dot-product test;
// and the shot engine's --aperture windows carrying their density.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include "cpu_rounding.hpp"
#include "cuda_engine_windows.hpp"
#include "cuda_gradient_test.hpp"
#include "density_case.hpp"
#include "precisions.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/density/density_model.hpp"
#include "revwave/store/compression.hpp"
#include "temp_dir.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

// The layered density case (density_case.hpp), open or with a free surface (a receiver in the
// rows that read the mirror), in 3D or on a plane (ny = 1); dt from the density as make_time takes it.
Case density_on(index_t ny, bool surface, index_t steps = 24) {
  Case c = testing::density_case(13, ny, 12, steps, 4);
  c.grid.free_surface = surface;
  c.acq.receivers.push_back({0.6 * c.grid.extent(0), 0.5 * c.grid.extent(1), 3.0});
  const double vmax = std::max(max_velocity(c.true_model), max_velocity(c.start_model));
  c.time.dt = default_dt(c.grid, vmax) * density_dt_factor(c.grid, c.true_model);
  return c;
}

std::string name_of(index_t ny, bool surface) {
  return std::string(ny == 1 ? "plane" : "3D") + (surface ? ", free surface" : ", open");
}

template <class T>
Problem<T> imaging_problem(const Case& c) {
  Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
  p.density->image = true;
  return p;
}

template <class T>
GradientOutput gradient_on_device(const Problem<T>& p, const std::vector<T>& observed, const StrategyOptions& s,
                                  const DeviceBudgets& b = {}) {
  return cuda_gradient(p, observed.data(), s, plan_strategy(s, p.time.steps, p.grid.template field_bytes<T>()), b);
}

REVWAVE_PRECISION_SUITE(CudaDensity, CudaTest);

TYPED_TEST(CudaDensity, ForwardTracesAndBothGradientsAreTheCpus) {
  using T = TypeParam;
  for (index_t ny : {index_t(11), index_t(1)})
    for (bool surface : {false, true}) {
      const std::string what = name_of(ny, surface);
      const Case c = density_on(ny, surface);
      const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
      ASSERT_TRUE(truth.density.has_value());
      const Problem<T> p = imaging_problem<T>(c);
      const CpuReference<T> ref = cpu_reference(truth, p);
      const RunTolerances& tol = ref.tol;
      const std::vector<T>& observed = ref.run.traces;
      expect_within_rounding(cuda_forward(truth, DeviceBudgets{}).traces, observed, tol.traces, "traces, " + what);

      const StrategyOptions full = strategy("full");
      const GradientOutput& g_cpu = ref.run.gradient;
      const GradientOutput g_gpu = gradient_on_device(p, observed, full);
      ASSERT_FALSE(g_cpu.density_gradient.empty()) << what;
      expect_within_rounding(std::vector<double>{g_gpu.stats.objective}, std::vector<double>{g_cpu.stats.objective},
                             tol.objective, "J, " + what);
      expect_gradient_is_the_cpus<T>(g_gpu.gradient, g_cpu.gradient, tol.gradient, "dJ/dm, " + what);
      expect_gradient_is_the_cpus<T>(g_gpu.density_gradient, g_cpu.density_gradient, tol.density_gradient,
                                     "dJ/drho, " + what);
    }
}

// revolve and online in memory and on disk, multilevel (memory:2, disk:3), online on pinned slots
// and full with a pinned history: dJ/dm and dJ/drho equal full's on the device, bit for bit.
TYPED_TEST(CudaDensity, EveryStrategyEqualsFullBitForBit) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-cuda-density");
  for (bool surface : {false, true}) {
    const Case c = density_on(11, surface, 21);
    const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    const std::vector<T> observed = cuda_forward(truth, DeviceBudgets{}).traces;
    const Problem<T> p = imaging_problem<T>(c);
    const GradientOutput full = gradient_on_device(p, observed, strategy("full"));
    ASSERT_FALSE(full.density_gradient.empty());
    std::vector<std::pair<std::string, StrategyOptions>> runs = testing::checkpointed_strategies(dir.path().string());
    runs.emplace_back("online pinned", strategy("online", 4));
    runs.emplace_back("full, pinned history", strategy("full"));
    for (const auto& [name, s] : runs) {
      const std::string what = name + (surface ? ", free surface" : ", open");
      const bool pinned = name.find("pinned") != std::string::npos;
      const GradientOutput g = gradient_on_device(p, observed, s, pinned ? pinned_only_budgets() : DeviceBudgets{});
      EXPECT_EQ(g.stats.objective, full.stats.objective) << what;
      EXPECT_TRUE(testing::same_bits(g.gradient, full.gradient)) << "dJ/dm, " << what;
      EXPECT_TRUE(testing::same_bits(g.density_gradient, full.density_gradient)) << "dJ/drho, " << what;
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

// --compress fp16|bf16 with a density: the fused codec is off (the density's sweep neither encodes
// nor decodes), the cast kernels encode the CPU codec's bytes, so in double the device's compressed
// gradients are the CPU backend's.
TEST(CudaDensityCompression, CompressedSlotsGiveTheCpusBits) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  using T = double;
  const Case c = density_on(11, true, 21);
  const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
  CpuPropagator<T> cpu_truth(truth);
  const std::vector<T> observed = run_forward(cpu_truth).traces;
  const Problem<T> p = imaging_problem<T>(c);
  for (const char* mode : {"fp16", "bf16"}) {
    StrategyOptions o = strategy("online", 4);
    o.compression = parse_compression(mode);
    const StrategyPlan plan = plan_strategy(o, p.time.steps, field_layout<T>(p.grid));
    CpuPropagator<T> cpu(p);
    const GradientOutput g_cpu = run_gradient(cpu, observed.data(), o, plan);
    o.backend = Backend::cuda;
    const GradientOutput g_gpu = cuda_gradient(p, observed.data(), o, plan, DeviceBudgets{});
    EXPECT_GT(g_gpu.stats.compression.fields_decompressed, 0u) << mode;
    expect_same(g_gpu.gradient, g_cpu.gradient, run_tolerance<T>(), std::string("dJ/dm, ") + mode);
    expect_same(g_gpu.density_gradient, g_cpu.density_gradient, run_tolerance<T>(), std::string("dJ/drho, ") + mode);
  }
}

// K^T on the device is the transpose of its K: the adjoint sweep (and the surface's rows) in double.
TEST(CudaDensityAdjoint, DotProductTestDouble) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  for (bool surface : {false, true}) {
    const Case c = density_on(11, surface);
    const DotProductResult r =
        dot_product_test<double>(c.grid, c.true_model, c.acq, c.time, 7, Backend::cuda, DeviceBudgets{});
    EXPECT_LT(r.relative_error, 1e-12) << name_of(11, surface) << ": " << r.forward_product << " vs "
                                       << r.adjoint_product;
  }
}

// Long records of the cases that grew without bound before the density operator was made
// semi-definite (DensityStability on the CPU checks the energy; here the device runs the same
// steps): a density rising with depth under the C-PML and 1000 over 1e5 kg/m^3 with the sponge, at
// order 8 on a plane, 12 crossing times: the device's traces are the CPU's, and what the receiver
// records in the record's second half stays below what it recorded in the first. With the operator
// before #44 the first case's record reached 1e23 in 1.2 s.
TEST(CudaDensity, LongRecordsAreTheCpusAndDecay) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  using T = double;
  for (bool cpml : {true, false}) {
    Grid g;
    g.shape = {24, 1, 30};
    g.spacing = 10;
    g.space_order = 8;
    g.nbl = 8;
    g.cpml = cpml;
    VelocityModel m = homogeneous_model(g.shape, 2000);
    m.density.resize(m.velocity.size());
    for (std::size_t i = 0; i < m.density.size(); ++i) {
      const double z = g.spacing * double(i % static_cast<std::size_t>(g.shape[2]));
      m.density[i] = cpml ? std::min(2500.0, 1000.0 + 10.0 * z) : (z < 120 ? 1000.0 : 1e5);
    }
    Acquisition acq;
    acq.f0 = 15;
    acq.t0 = 0.1;
    acq.sources = {{100, 0, 140}};
    acq.receivers = {{130, 0, 110}};
    const TimeAxis time = make_time_axis(0.2 + 12 * 290.0 / 2000.0, default_dt(g, m));
    const Problem<T> p = make_problem<T>(g, m, acq, time);
    CpuPropagator<T> cpu(p);
    const std::vector<T> expected = run_forward(cpu).traces;
    const std::vector<T> traces = cuda_forward(p, DeviceBudgets{}).traces;
    const std::string what = cpml ? "depth gradient, cpml" : "1000 over 1e5, sponge";
    expect_same(traces, expected, run_tolerance<T>(), what);
    double early = 0, late = 0;
    for (std::size_t n = 0; n < traces.size(); ++n) {
      double& half = 2 * n < traces.size() ? early : late;
      half = std::max(half, std::abs(double(traces[n])));
    }
    EXPECT_TRUE(std::isfinite(late)) << what;
    EXPECT_LT(late, 0.1 * early) << what << ": " << late << " late against " << early << " early";
  }
}

// The device's shot engine with --aperture windows (two reaching z = 0 under the surface, one
// below it): each window's density cut with its velocities, the bits of a propagator per shot on
// make_problem's window problem.
TEST(CudaDensityEngine, ShotEngineWindowsCarryTheirDensity) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  using T = float;
  for (bool surface : {false, true}) {
    Case c = awkward_case(4, 20, {29, 23, 30});
    c.grid.free_surface = surface;
    c.true_model.density = testing::layered_density(c.grid.shape);
    c.start_model.density = c.true_model.density;
    const double vmax = std::max(max_velocity(c.true_model), max_velocity(c.start_model));
    c.time.dt = default_dt(c.grid, vmax) * density_dt_factor(c.grid, c.true_model);
    expect_engine_windows_are_the_per_shot_bits<T>(c, surface ? "free surface" : "open");
  }
}

}  // namespace
}  // namespace revwave
