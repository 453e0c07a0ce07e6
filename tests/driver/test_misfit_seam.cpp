// The misfit seam on the CPU: the first forward sweep records the traces, the misfit turns them
// into J and the adjoint source, the reverse sweep injects it. With L2 that is, bit for bit, the
// gradient as it was computed before the seam, the residual S u[n+1] - d[n+1] and its misfit
// inside every reverse step (rebuilt here from the public sweeps); and a misfit the drivers have
// never seen runs through them without a change to any propagator.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/misfit/l2_misfit.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/acoustic/cpu_sweep.hpp"
#include "revwave/numerics/fold_to_interior.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

template <class T>
class MisfitSeam : public ::testing::Test {};
using Precisions = ::testing::Types<float, double>;
TYPED_TEST_SUITE(MisfitSeam, Precisions);

// The gradient before the seam: the whole history u[-1..N] swept and kept, then every reverse step
// computing u[n+1] (sweep + source), the residual S u[n+1] - d[n+1] and its 1/2 |r|^2 inline,
// stepping the adjoint with imaging and injecting the residual; J = 1/2 |d[0]|^2 + the steps'
// misfits in ascending n.
template <class T>
GradientOutput inline_residual_gradient(const Problem<T>& p, const T* observed) {
  const index_t N = p.time.steps, nrec = p.rec.count;
  const auto points = static_cast<std::size_t>(p.grid.alloc_points());
  std::vector<T> src_scale, rec_scale;
  const double h3 = p.grid.spacing * p.grid.spacing * p.grid.spacing;
  for (index_t idx : p.src.index) src_scale.push_back(static_cast<T>(1.0 / (h3 * double(leapfrog_a_at(p, idx)))));
  for (index_t idx : p.rec.index) rec_scale.push_back(T(1) / leapfrog_a_at(p, idx));
  auto step = [&](index_t n, const T* u, const T* u_prev, T* out) {
    cpu_leapfrog_sweep<T>(p, {u, u_prev, out});
    const std::vector<T> q(static_cast<std::size_t>(p.src.count), p.wavelet[static_cast<std::size_t>(n)]);
    inject_points(p.src, q.data(), src_scale.data(), out);
  };
  std::vector<std::vector<T>> u(static_cast<std::size_t>(N + 2), std::vector<T>(points, T(0)));  // u[k] at k + 1
  for (index_t n = 0; n < N; ++n) step(n, u[n + 1].data(), u[n].data(), u[n + 2].data());

  std::vector<T> lam(points, T(0)), lam_prev(points, T(0)), grad(points, T(0)), next(points), res(nrec);
  std::vector<double> misfit(static_cast<std::size_t>(N + 1), 0.0);
  for (index_t n = N - 1; n >= 0; --n) {
    const T* un = u[n + 1].data();
    const T* up = u[n].data();
    step(n, un, up, next.data());
    sample_points(p.rec, next.data(), res.data());
    double m = 0;
    for (index_t r = 0; r < nrec; ++r) {
      res[r] -= observed[(n + 1) * nrec + r];
      m += 0.5 * static_cast<double>(res[r]) * static_cast<double>(res[r]);
    }
    misfit[static_cast<std::size_t>(n + 1)] = m;
    cpu_leapfrog_sweep<T>(p, {lam.data(), lam_prev.data(), lam_prev.data(), next.data(), un, up, grad.data()});
    for (std::size_t k = 0; k < p.rec.index.size(); ++k) {
      const index_t idx = p.rec.index[k];
      const T delta = static_cast<T>(p.rec.weight[k]) * res[k / 8] * rec_scale[k];
      lam_prev[idx] += delta;
      grad[idx] += imaging_term(p.coeffs, delta, next[idx], un[idx], up[idx]);
    }
    std::swap(lam, lam_prev);
  }
  GradientOutput out;
  double j = 0;
  for (index_t r = 0; r < nrec; ++r) j += 0.5 * static_cast<double>(observed[r]) * static_cast<double>(observed[r]);
  for (index_t n = 1; n <= N; ++n) j += misfit[static_cast<std::size_t>(n)];
  out.stats.objective = j;
  out.gradient = fold_to_interior<T>(p.grid, grad.data());
  return out;
}

void expect_bitwise(const GradientOutput& g, const GradientOutput& ref, const std::string& what) {
  EXPECT_EQ(std::memcmp(&g.stats.objective, &ref.stats.objective, sizeof(double)), 0)
      << what << ": J " << g.stats.objective << " vs " << ref.stats.objective;
  ASSERT_EQ(g.gradient.size(), ref.gradient.size()) << what;
  EXPECT_EQ(std::memcmp(g.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double)), 0) << what;
}

TYPED_TEST(MisfitSeam, L2ThroughTheSeamEqualsTheInlineResidualBitForBit) {
  using T = TypeParam;
  for (index_t steps : {1, 2, 29}) {
    testing::SmallCase c = testing::small_case(13, 11, 9, steps, 4);
    c.acq.sources.push_back(c.acq.receivers[2]);  // a source on a receiver: shared corners, re-imaged
    const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    const GradientOutput ref = inline_residual_gradient(p, d.data());
    CpuPropagator<T> prop(p);
    for (const StrategyOptions& s :
         {testing::strategy("full"), testing::strategy("revolve", 3), testing::strategy("online", 2)}) {
      const GradientOutput g =
          run_gradient(prop, l2_misfit<T>(), d.data(), s, plan_strategy(s, steps, prop.field_bytes()));
      expect_bitwise(g, ref, std::string(to_string(s.strategy)) + " N=" + std::to_string(steps));
    }
  }
}

// Records what the drivers hand over, and passes on L2's answer.
template <class T>
class RecordingMisfit final : public Misfit<T> {
 public:
  MisfitKind kind() const override { return MisfitKind::l2; }
  double evaluate(const Traces<T>& syn, const Traces<T>& obs, T* r) const override {
    synthetic.assign(syn.values, syn.values + syn.size());
    ++calls;
    return l2_misfit<T>().evaluate(syn, obs, r);
  }
  mutable std::vector<T> synthetic;
  mutable int calls = 0;
};

// The traces the misfit gets are forward modelling's, the last one (sampled from the state
// before it, at the probes) included, whatever the strategy recomputes.
TYPED_TEST(MisfitSeam, TheMisfitGetsTheForwardModellingTracesOnce) {
  using T = TypeParam;
  const testing::SmallCase c = testing::small_case(13, 11, 9, 33, 4);
  const std::vector<T> d = testing::observed_in<T>(c, c.true_model);
  const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<T> prop(p);
  const std::vector<T> forward = run_forward(prop).traces;
  for (const StrategyOptions& s : {testing::strategy("full"), testing::strategy("revolve", 2)}) {
    RecordingMisfit<T> misfit;
    run_gradient(prop, misfit, d.data(), s, plan_strategy(s, c.time.steps, prop.field_bytes()));
    EXPECT_EQ(misfit.calls, 1) << to_string(s.strategy);
    ASSERT_EQ(misfit.synthetic.size(), forward.size());
    EXPECT_EQ(std::memcmp(misfit.synthetic.data(), forward.data(), forward.size() * sizeof(T)), 0)
        << to_string(s.strategy);
  }
}

// A misfit of its own (twice L2, its adjoint source twice the residual): the gradient doubles,
// and no propagator knew.
class TwiceL2 final : public Misfit<double> {
 public:
  MisfitKind kind() const override { return MisfitKind::l2; }
  double evaluate(const Traces<double>& syn, const Traces<double>& obs, double* r) const override {
    const double j = l2_misfit<double>().evaluate(syn, obs, r);
    for (index_t i = 0; i < syn.size(); ++i) r[i] *= 2;
    return 2 * j;
  }
};

TEST(MisfitSeamOwn, AMisfitOfItsOwnNeedsNoPropagatorChange) {
  const testing::SmallCase c = testing::small_case(13, 11, 9, 31, 4);
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
  CpuPropagator<double> prop(p);
  const StrategyOptions s = testing::strategy("revolve", 4);
  const StrategyPlan plan = plan_strategy(s, c.time.steps, prop.field_bytes());
  const GradientOutput l2 = run_gradient(prop, d.data(), s, plan);
  const GradientOutput twice = run_gradient(prop, TwiceL2(), d.data(), s, plan);
  EXPECT_EQ(twice.stats.objective, 2 * l2.stats.objective);
  double scale = 0;
  for (double g : l2.gradient) scale = std::max(scale, std::abs(g));
  ASSERT_GT(scale, 0.0);
  for (std::size_t i = 0; i < l2.gradient.size(); ++i)
    EXPECT_NEAR(twice.gradient[i], 2 * l2.gradient[i], 1e-13 * scale) << i;
}

}  // namespace
}  // namespace revwave
