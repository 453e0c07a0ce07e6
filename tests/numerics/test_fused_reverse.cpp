// The fused reverse step (u[n+1] recomputed in registers, never stored) gives bit for bit what
// the two-pass step gives: u[n+1] swept into a field, the source injected, the receivers sampled,
// then the adjoint sweep imaging with that field and the adjoint source (the L2 residual)
// injected. The fused step's residual comes from the trace S u[n+1] sampled at the probes
// (record_next_trace), which must equal the two-pass sampling bit for bit. Sources that share
// corners with receivers and with each other exercise the probes' source terms.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <utility>
#include <vector>

#include "precisions.hpp"
#include "revwave/misfit/l2_misfit.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/acoustic/cpu_sweep.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

REVWAVE_PRECISION_SUITE(FusedReverse, ::testing::Test);

template <class T>
void randomize(const Grid& g, T* f, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (index_t i = 0; i < g.padded(0); ++i)
    for (index_t j = 0; j < g.padded(1); ++j)
      for (index_t k = 0; k < g.padded(2); ++k) f[g.index(i, j, k)] = static_cast<T>(u(rng));
}

// The reverse step as it was before the fusion, from the public sweeps and sparse operations.
template <class T>
struct TwoPassReverse {
  const Problem<T>& p;
  std::vector<T> lam, lam_prev, grad, u_next, src_scale, rec_scale;

  explicit TwoPassReverse(const Problem<T>& problem) : p(problem) {
    const auto points = static_cast<std::size_t>(p.grid.alloc_points());
    lam.assign(points, T(0));
    lam_prev = grad = u_next = lam;
    const double h3 = p.grid.spacing * p.grid.spacing * p.grid.spacing;
    for (index_t idx : p.src.index) src_scale.push_back(static_cast<T>(1.0 / (h3 * double(leapfrog_a_at(p, idx)))));
    for (index_t idx : p.rec.index) rec_scale.push_back(T(1) / leapfrog_a_at(p, idx));
  }

  std::vector<T> sample;  // S u[n+1] of the last step

  double step(index_t n, const T* u, const T* u_prev, const T* observed) {
    cpu_leapfrog_sweep<T>(p, {u, u_prev, u_next.data()});
    const std::vector<T> q(static_cast<std::size_t>(p.src.count), p.wavelet[static_cast<std::size_t>(n)]);
    inject_points(p.src, q.data(), src_scale.data(), u_next.data());
    std::vector<T> res(static_cast<std::size_t>(p.rec.count));
    sample_points(p.rec, u_next.data(), res.data());
    sample = res;
    double misfit = 0;
    for (std::size_t r = 0; r < res.size(); ++r) {
      res[r] -= observed[r];
      misfit += 0.5 * static_cast<double>(res[r]) * static_cast<double>(res[r]);
    }
    cpu_leapfrog_sweep<T>(p, {lam.data(), lam_prev.data(), lam_prev.data(), u_next.data(), u, u_prev, grad.data()});
    for (std::size_t k = 0; k < p.rec.index.size(); ++k) {
      const index_t idx = p.rec.index[k];
      const T delta = static_cast<T>(p.rec.weight[k]) * res[k / 8] * rec_scale[k];
      lam_prev[idx] += delta;
      grad[idx] += imaging_term(p.coeffs, delta, u_next[idx], u[idx], u_prev[idx]);
    }
    std::swap(lam, lam_prev);
    return misfit;
  }
};

template <class T>
bool same_bits(const T* a, const std::vector<T>& b) {
  return std::memcmp(a, b.data(), b.size() * sizeof(T)) == 0;
}

TYPED_TEST(FusedReverse, EqualsTheTwoPassStepBitForBit) {
  using T = TypeParam;
  for (int order : {2, 8}) {
    SCOPED_TRACE("space order " + std::to_string(order));
    testing::SmallCase c = testing::small_case(17, 13, 11, 12, order);
    const double h = c.grid.spacing;
    // One source on a receiver (the same eight corners), one half a cell off it (shared corners),
    // one on a grid point of its own.
    c.acq.sources = {c.acq.receivers[3],
                     {c.acq.receivers[3][0] + 0.5 * h, c.acq.receivers[3][1], c.acq.receivers[3][2]},
                     {0.25 * c.grid.extent(0), 0.5 * c.grid.extent(1), 2 * h}};
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    CpuPropagator<T> prop(p);
    TwoPassReverse<T> ref(p);
    std::vector<T> observed(static_cast<std::size_t>(p.time.nt() * p.rec.count));
    std::mt19937 rng(3);
    std::normal_distribution<double> normal(0, 1);
    for (T& v : observed) v = static_cast<T>(normal(rng));
    prop.reset_forward();
    prop.reset_adjoint();
    const index_t nrec = p.rec.count;
    for (index_t n = 10; n >= 6; --n) {  // a new random state for every step: lam and grad fill up
      T* u = prop.state().u.template as<T>();
      T* up = prop.state().u_prev.template as<T>();
      randomize(p.grid, u, 10 + unsigned(n));
      randomize(p.grid, up, 30 + unsigned(n));
      const T* obs = observed.data() + (n + 1) * nrec;
      const double j_ref = ref.step(n, u, up, obs);
      // The fused step's adjoint source: the L2 residual of the trace sampled at the probes.
      prop.record_next_trace(n + 1);
      const std::vector<T> traces = prop.traces(n + 2);
      const std::vector<T> syn(traces.begin() + (n + 1) * nrec, traces.end());
      EXPECT_TRUE(same_bits(syn.data(), ref.sample)) << "S u[n+1] of step " << n;
      std::vector<T> r(traces.size(), T(0));
      const double j = L2Misfit<T>().evaluate(Traces<T>{1, nrec, p.time.dt, syn.data()},
                                              Traces<T>{1, nrec, p.time.dt, obs}, r.data() + (n + 1) * nrec);
      EXPECT_EQ(std::memcmp(&j, &j_ref, sizeof j), 0) << "misfit of step " << n << ": " << j << " vs " << j_ref;
      prop.set_adjoint_source(r);
      prop.reverse_step(n);
      EXPECT_TRUE(same_bits(prop.adjoint_field(), ref.lam)) << "lam after step " << n;
      EXPECT_TRUE(same_bits(prop.gradient_field(), ref.grad)) << "gradient after step " << n;
    }
  }
}

}  // namespace
}  // namespace revwave
