// The dot-product test of the modelling operator F (source signature -> receiver data) on any
// propagator: <F w, d> against <w, F^T d>.
#pragma once
#include <algorithm>
#include <cmath>
#include <vector>

#include "revwave/driver/forward_modelling.hpp"
#include "revwave/driver/propagator.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

struct DotProductResult {
  double forward_product = 0;  // <F w, d>
  double adjoint_product = 0;  // <w, F^T d>
  double relative_error = 0;
};

// The dot-product test's inputs, the same on every backend: replaces the problem's wavelet
// by a random signature w (q[N] stays 0: it would act after the last step) and returns
// random data d (nt x nrec), both drawn from `seed` in a fixed order.
template <class T>
std::vector<T> randomize_dot_test(Problem<T>& problem, unsigned seed);

// F: source signature w(t) (all sources fire it) -> receiver data; <F w, d> against <w, F^T d>
// on one propagator of the randomized problem: F by forward modelling, F^T with d as the
// adjoint source, (F^T d)[n] = sum_s P_s^T lam[n+1] read back once.
template <class P, class T = typename P::value_type>
DotProductResult dot_product(P& prop, const std::vector<T>& d) {
  static_assert(is_propagator_v<P>, "dot_product needs a backend's propagator (revwave/driver/propagator.hpp)");
  const auto& p = prop.problem();
  const index_t N = p.time.steps, nt = p.time.nt(), nsrc = p.src.count;
  const ShotData<T> fw = run_forward(prop);
  DotProductResult r;
  for (std::size_t i = 0; i < d.size(); ++i) r.forward_product += double(fw.traces[i]) * double(d[i]);
  prop.reset_adjoint();
  prop.set_adjoint_source(d);
  for (index_t j = N; j >= 1; --j) prop.adjoint_data_step(j);
  const std::vector<T> src = prop.source_traces(nt);
  for (index_t j = N; j >= 1; --j) {
    double w_adj = 0;
    for (index_t s = 0; s < nsrc; ++s) w_adj += double(src[static_cast<std::size_t>(j * nsrc + s)]);
    r.adjoint_product += double(p.wavelet[static_cast<std::size_t>(j - 1)]) * w_adj;
  }
  r.relative_error = std::abs(r.forward_product - r.adjoint_product) /
                     std::max(std::abs(r.forward_product), std::abs(r.adjoint_product));
  return r;
}

}  // namespace revwave
