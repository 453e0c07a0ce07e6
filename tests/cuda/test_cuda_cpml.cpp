// --boundary cpml on the CUDA backend (and cudasim): the CPU backend's forward traces, J and dJ/dm
// (bit for bit on the emulation), in 3D, with --free-surface, with a density (and dJ/drho), on a
// plane (ny = 1), and all together (a plane with a density under a free surface);
// every checkpointed gradient equal to full's on the device, bit for bit (psi and zeta ride in the
// fields' tails); the dot-product test; the shot engine's --aperture windows; --compress fp16|bf16 with the
// tails encoded, as on the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <string>

#include "cpml_case.hpp"
#include "cpu_rounding.hpp"
#include "cuda_engine_windows.hpp"
#include "cuda_gradient_test.hpp"
#include "density_case.hpp"
#include "precisions.hpp"
#include "revwave/core/dispatch_radius.hpp"
#include "revwave/cuda/kernels/boundary/cpml_kernels.hpp"
#include "revwave/cuda/kernels/tuning/acoustic_sweep_policy.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/acoustic_state.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/boundary/cpml_layout.hpp"
#include "revwave/store/compression.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

using Variant = testing::CpmlVariant;

// Planned on the state's bytes with the auxiliary values (as the CLI plans a C-PML run).
template <class T>
StrategyPlan plan_for(const StrategyOptions& s, const Case& c) {
  return plan_strategy(s, c.time.steps, physics_state(c.grid, c.start_model.physics()), field_layout<T>(c.grid));
}

REVWAVE_PRECISION_SUITE(CudaCpml, CudaTest);

TYPED_TEST(CudaCpml, ForwardTracesAndGradientAreTheCpus) {
  using T = TypeParam;
  for (Variant v : {Variant::open, Variant::surface, Variant::density, Variant::planar, Variant::together}) {
    const Case c = cpml_case(v, 30);
    const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    ASSERT_TRUE(truth.cpml.has_value());
    const CpuReference<T> ref = cpu_reference(truth, p);
    const RunTolerances& tol = ref.tol;
    const std::vector<T>& observed = ref.run.traces;
    expect_within_rounding(cuda_forward(truth, DeviceBudgets{}).traces, observed, tol.traces,
                           std::string("traces, ") + name(v));

    const StrategyOptions full = strategy("full");
    const GradientOutput& g_cpu = ref.run.gradient;
    const GradientOutput g_gpu = cuda_gradient(p, observed.data(), full, plan_for<T>(full, c), DeviceBudgets{});
    expect_within_rounding(std::vector<double>{g_gpu.stats.objective}, std::vector<double>{g_cpu.stats.objective},
                           tol.objective, std::string("J, ") + name(v));
    expect_gradient_is_the_cpus<T>(g_gpu.gradient, g_cpu.gradient, tol.gradient, std::string("dJ/dm, ") + name(v));
  }
}

// revolve and online in memory and on disk, multilevel (memory:2, disk:3), online on pinned slots
// and full with a pinned history: dJ/dm equal to full's on the device, bit for bit. Full's history
// (on the device and pinned) keeps u[n] alone a step, not the layer's values: it reads u[n+1]
// back where the checkpointed runs recompute it from them; under a density (together) u[n] and its
// layer values, which the layer's share of dJ/drho reads.
TYPED_TEST(CudaCpml, EveryStrategyEqualsFullBitForBit) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-cuda-cpml");
  for (Variant v : {Variant::open, Variant::surface, Variant::together}) {
    const Case c = cpml_case(v, 21);
    const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    const std::vector<T> observed = cuda_forward(truth, DeviceBudgets{}).traces;
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    const GradientOutput full =
        cuda_gradient(p, observed.data(), strategy("full"), plan_for<T>(strategy("full"), c), DeviceBudgets{});
    std::vector<std::pair<std::string, StrategyOptions>> runs = testing::checkpointed_strategies(dir.path().string());
    runs.emplace_back("online pinned", strategy("online", 4));
    runs.emplace_back("full, pinned history", strategy("full"));
    const std::size_t u_bytes = static_cast<std::size_t>(c.grid.alloc_points()) * sizeof(T);
    ASSERT_GT(c.grid.template field_bytes<T>(), u_bytes) << name(v) << ": the fields carry the layer's values";
    const std::size_t step = c.start_model.has_density() ? c.grid.template field_bytes<T>() : u_bytes;
    EXPECT_EQ(full.stats.wavefield_storage_bytes, std::size_t(c.time.steps) * step) << name(v);
    for (const auto& [what, s] : runs) {
      const bool pinned = what.find("pinned") != std::string::npos;
      const GradientOutput g =
          cuda_gradient(p, observed.data(), s, plan_for<T>(s, c), pinned ? pinned_only_budgets() : DeviceBudgets{});
      EXPECT_EQ(g.stats.objective, full.stats.objective) << name(v) << ", " << what;
      EXPECT_TRUE(testing::same_bits(g.gradient, full.gradient)) << name(v) << ", " << what;
      if (s.strategy == Strategy::full) {
        EXPECT_EQ(g.stats.wavefield_storage_bytes, std::size_t(c.time.steps) * step) << name(v) << ", " << what;
      }
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

// dJ/drho under the C-PML (imaged after the layer completed lam[n+1]): the CPU's in double bits
// and within 64 eps in float (a GPU: within the derived tolerances), open, under a free surface,
// and all together (on a plane under a free surface); every strategy equal to full's on the device,
// dJ/drho included, bit for bit.
TYPED_TEST(CudaCpml, DensityGradientIsTheCpusAndEveryStrategyEqualsFull) {
  using T = TypeParam;
  const testing::TempDir dir("revwave-cuda-cpml-density");
  for (testing::DensityCpml w : testing::density_cpml_cases) {
    const Case c = testing::density_cpml_case(w, 21);  // the CPU suite's cases
    const std::string where = name(w);
    const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    p.density->image = true;
    const CpuReference<T> ref = cpu_reference(truth, p);
    const RunTolerances& tol = ref.tol;
    const std::vector<T>& observed = ref.run.traces;
    const StrategyOptions full = strategy("full");
    const GradientOutput& g_cpu = ref.run.gradient;
    const GradientOutput g_gpu = cuda_gradient(p, observed.data(), full, plan_for<T>(full, c), DeviceBudgets{});
    ASSERT_FALSE(g_cpu.density_gradient.empty()) << where;
    expect_gradient_is_the_cpus<T>(g_gpu.density_gradient, g_cpu.density_gradient, tol.density_gradient,
                                   "dJ/drho, " + where);
    expect_gradient_is_the_cpus<T>(g_gpu.gradient, g_cpu.gradient, tol.gradient, "dJ/dm, " + where);
    for (const auto& [what, s] : testing::checkpointed_strategies(dir.path().string())) {
      const GradientOutput g = cuda_gradient(p, observed.data(), s, plan_for<T>(s, c), DeviceBudgets{});
      EXPECT_TRUE(testing::same_bits(g.density_gradient, g_gpu.density_gradient)) << where << ", " << what;
      EXPECT_TRUE(testing::same_bits(g.gradient, g_gpu.gradient)) << where << ", " << what;
    }
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "checkpoint files left behind";
}

// The device's C' is the transpose of its C: the linearised forward and adjoint in double.
TEST(CudaCpmlAdjoint, DotProductTestDouble) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  for (Variant v : {Variant::open, Variant::surface, Variant::planar, Variant::together}) {
    const Case c = cpml_case(v, 30);
    const DotProductResult r =
        dot_product_test<double>(c.grid, c.true_model, c.acq, c.time, 7, Backend::cuda, DeviceBudgets{});
    EXPECT_LT(r.relative_error, 1e-12) << name(v) << ": " << r.forward_product << " vs " << r.adjoint_product;
  }
}

// --compress fp16|bf16 under the C-PML: the cast kernels encode each field's tail after its grid
// (the fused codec is off), decoding to the CPU codec's values, so in double the device's compressed
// gradients are the CPU backend's, in 3D, with the free surface, on a plane, and all together.
TEST(CudaCpmlCompression, CompressedSlotsGiveTheCpusBits) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  using T = double;
  for (Variant v : {Variant::open, Variant::surface, Variant::planar, Variant::together}) {
    const Case c = cpml_case(v, 30);
    const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    CpuPropagator<T> cpu_truth(truth);
    const std::vector<T> observed = run_forward(cpu_truth).traces;
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    CpuPropagator<T> cpu(p);
    const StrategyOptions full = strategy("full");
    const GradientOutput exact = run_gradient(cpu, observed.data(), full, plan_for<T>(full, c));
    for (const char* mode : {"fp16", "bf16"}) {
      const std::string what = std::string(mode) + ", " + name(v);
      StrategyOptions o = strategy("online", 4);
      o.compression = parse_compression(mode);
      const StrategyPlan plan = plan_for<T>(o, c);
      const GradientOutput g_cpu = run_gradient(cpu, observed.data(), o, plan);
      o.backend = Backend::cuda;
      const GradientOutput g_gpu = cuda_gradient(p, observed.data(), o, plan, DeviceBudgets{});
      EXPECT_GT(g_gpu.stats.compression.fields_decompressed, 0u) << what;
      EXPECT_FALSE(testing::same_bits(g_cpu.gradient, exact.gradient)) << what << ": nothing was lost";
      expect_same(g_gpu.gradient, g_cpu.gradient, run_tolerance<T>(), "dJ/dm, " + what);
    }
  }
}

// The kernels place their threads by arithmetic (CpmlRegion, CpmlTables::slab_point) where tables of
// points stood: every padded point has a place exactly when the per-point form says it is in the
// region (CpmlPoint::in_region), the places are 0..count-1 once each and give the point back, and
// slab offset o of axis a is CpmlLayout::slab_point's. In 3D, under a free surface, on a plane, with
// a layer on some faces only, and with layers so thick that the two sides' regions meet.
TEST(CudaCpmlPlaces, RegionAndSlabPointsAreTheLayoutsWithoutTables) {
  struct Shape {
    std::array<index_t, 3> shape;
    index_t nbl;
    bool free_surface;
    const char* what;
  };
  for (const Shape& s : {Shape{{9, 7, 8}, 5, false, "3D"}, Shape{{9, 7, 8}, 5, true, "free surface"},
                         Shape{{12, 1, 10}, 4, false, "plane"}, Shape{{3, 2, 4}, 6, false, "sides meet"},
                         Shape{{6, 5, 4}, 4, true, "thin, free surface"}}) {
    Grid g;
    g.shape = s.shape;
    g.nbl = s.nbl;
    g.spacing = 10.0;
    g.space_order = 8;
    g.cpml = true;
    g.free_surface = s.free_surface;
    const CpmlProfile<double> profile = make_cpml_profile<double>(g, 1e-3);
    CpmlTables<double> t;
    static_cast<CpmlPointTables<double>&>(t) = cpml_point_tables(g, profile);
    t.origin = g.origin();
    const CpmlLayout& l = profile.layout;
    t.slab_count = l.slab_points(0) + l.slab_points(1) + l.slab_points(2);
    const int radius = static_cast<int>(g.radius());
    t.region = cpml_region(t, radius);
    dispatch_radius(radius, [&](auto r) {
      const CpmlPoint<double, decltype(r)::value> k{t};
      std::vector<int> seen(static_cast<std::size_t>(t.region.count), 0);
      index_t inside = 0;
      for (index_t i = 0; i < g.padded(0); ++i)
        for (index_t j = 0; j < g.padded(1); ++j)
          for (index_t z = 0; z < g.padded(2); ++z) {
            const index_t at[3] = {i, j, z};
            const index_t place = t.region.place(at);
            ASSERT_EQ(place >= 0, k.in_region(at)) << s.what << " at " << i << "," << j << "," << z;
            if (place < 0) continue;
            ++inside;
            ASSERT_LT(place, t.region.count) << s.what;
            ++seen[static_cast<std::size_t>(place)];
            index_t back[3];
            t.region.point(place, back);
            EXPECT_TRUE(back[0] == i && back[1] == j && back[2] == z) << s.what << " place " << place;
            EXPECT_EQ(t.index_of(at), g.index(i, j, z)) << s.what;
          }
      EXPECT_EQ(inside, t.region.count) << s.what;
      EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), static_cast<std::ptrdiff_t>(seen.size())) << s.what;
    });
    index_t s_index = 0;
    for (int a = 0; a < 3; ++a)
      for (index_t o = 0; o < l.slab_points(a); ++o, ++s_index) {
        int axis = -1;
        index_t off = -1, at[3];
        t.slab_point(s_index, axis, off, at);
        const std::array<index_t, 3> want = l.slab_point(a, o);
        ASSERT_EQ(axis, a) << s.what;
        ASSERT_EQ(off, o) << s.what;
        ASSERT_TRUE(at[0] == want[0] && at[1] == want[1] && at[2] == want[2]) << s.what << " slab " << a << " " << o;
      }
    EXPECT_EQ(s_index, t.slab_count) << s.what;
  }
}

// The column sweep with the layer inside it (boundary/cpml_sweep.hpp) runs a block without the
// layer when none of its points is in the region. On a grid with such blocks (x chunks, y rows and z
// rows clear of every slab's R: 74 x 26 x 74 padded, nbl 5, order 4), the forward traces, J and
// dJ/dm are the CPU's (bits on the emulation), checkpointed equal to full; and for every block of
// both launches the block's test (CpmlPoint::box_near) agrees with the per-point form's region
// (CpmlPoint::in_region).
TEST(CudaCpmlInSweep, BlocksClearOfTheRegionRunWithoutItAndGiveTheCpusBits) {
  using T = double;
  Case c = awkward_case(4, 12, {64, 16, 64});
  c.grid.cpml = true;
  // The source beside the x = 0 face, its y and z in blocks clear of the y and z slabs: the wave
  // reaches the x slab's region in blocks the y and z slabs do not make layered.
  const double ys = 0.5 * c.grid.extent(1), zs = 0.5 * c.grid.extent(2);
  c.acq.sources = {{c.grid.spacing, ys, zs}};
  c.acq.receivers = {{0.0, ys, zs}, {2.0 * c.grid.spacing, ys + 1.5, zs - 2.5}, {0.5 * c.grid.extent(0), ys, zs}};
  // The smoothed start model is the true one where velocity grows linearly with depth, as it does
  // here: a slower one leaves a residual to image.
  for (auto& v : c.start_model.velocity) v *= 0.97;
  const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
  const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);

  CpmlTables<T> t;
  static_cast<CpmlPointTables<T>&>(t) = cpml_point_tables(p.grid, *p.cpml);
  const CpmlPoint<T, 2> k{t};  // order 4
  using P = tuning::ColumnsPolicy;
  index_t clear = 0;
  for (index_t chunk : {P::chunk_x<false>, P::chunk_x<true>})
    for (index_t i0 = 0; i0 < p.grid.padded(0); i0 += chunk)
      for (index_t j0 = 0; j0 < p.grid.padded(1); j0 += P::block_y)
        for (index_t k0 = 0; k0 < p.grid.padded(2); k0 += P::block_z) {
          const index_t i1 = std::min(i0 + chunk, p.grid.padded(0)),
                        j1 = std::min<index_t>(j0 + P::block_y, p.grid.padded(1));
          const index_t k1 = std::min<index_t>(k0 + P::block_z, p.grid.padded(2));
          bool any = false;
          for (index_t i = i0; i < i1; ++i)
            for (index_t j = j0; j < j1; ++j)
              for (index_t z = k0; z < k1; ++z) {
                const index_t at[3] = {i, j, z};
                any = any || k.in_region(at);
              }
          const index_t b[3] = {i0, j0, k0}, e[3] = {i0 + chunk, j0 + P::block_y, k0 + P::block_z};
          ASSERT_EQ(k.box_near(b, e), any) << "block at " << i0 << "," << j0 << "," << k0;
          clear += any ? 0 : 1;
        }
  ASSERT_GT(clear, 0) << "no block clear of the region: the case does not test the split";
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();

  const CpuReference<T> ref = cpu_reference(truth, p);
  const RunTolerances& tol = ref.tol;
  const std::vector<T>& observed = ref.run.traces;
  expect_within_rounding(cuda_forward(truth, DeviceBudgets{}).traces, observed, tol.traces, "traces");
  const StrategyOptions full = strategy("full"), revolve = strategy("revolve", 3);
  const GradientOutput& g_cpu = ref.run.gradient;
  const GradientOutput g_gpu = cuda_gradient(p, observed.data(), full, plan_for<T>(full, c), DeviceBudgets{});
  expect_within_rounding(std::vector<double>{g_gpu.stats.objective}, std::vector<double>{g_cpu.stats.objective},
                         tol.objective, "J");
  ASSERT_GT(g_cpu.stats.objective, 0.0) << "no residual: nothing imaged";
  expect_gradient_is_the_cpus<T>(g_gpu.gradient, g_cpu.gradient, tol.gradient, "dJ/dm");
  const GradientOutput g_rev = cuda_gradient(p, observed.data(), revolve, plan_for<T>(revolve, c), DeviceBudgets{});
  EXPECT_TRUE(testing::same_bits(g_rev.gradient, g_gpu.gradient)) << "revolve against full on the device";
}

// The device's shot engine with --aperture windows (two reaching z = 0 under the surface, one
// below it): each window's C-PML re-targeted to it, the bits of the per-shot path.
TEST(CudaCpmlEngine, ShotEngineWindowsCarryTheirLayer) {
  if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
  using T = float;
  for (bool surface : {false, true}) {
    Case c = awkward_case(4, 16, {29, 23, 30});
    c.grid.cpml = true;
    c.grid.free_surface = surface;
    expect_engine_windows_are_the_per_shot_bits<T>(c, surface ? "free surface" : "open");
  }
}

}  // namespace
}  // namespace revwave
