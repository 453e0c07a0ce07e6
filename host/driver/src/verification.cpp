#include "revwave/driver/verification.hpp"

#include <cmath>
#include <random>

#include "revwave/core/errors.hpp"
#include "revwave/driver/forward_modelling.hpp"
#include "revwave/numerics/cpu_propagator.hpp"

namespace revwave {
namespace {

// Least-squares slope of log e against log h, over the points with e > 0.
double slope(const std::vector<double>& h, const std::vector<double>& e) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int n = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (!(e[i] > 0)) continue;
    const double x = std::log(h[i]), y = std::log(e[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    ++n;
  }
  if (n < 2) return 0;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

}  // namespace

template <class T>
std::vector<T> randomize_dot_test(Problem<T>& p, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  const index_t N = p.time.steps, nt = p.time.nt();
  for (index_t n = 0; n < nt; ++n) p.wavelet[n] = n < N ? static_cast<T>(normal(rng)) : T(0);
  std::vector<T> d(static_cast<std::size_t>(nt * p.rec.count));
  for (auto& v : d) v = static_cast<T>(normal(rng));
  return d;
}

template <class T>
DotProductResult dot_product_test(const Grid& grid, const VelocityModel& model, const Acquisition& acq,
                                  const TimeAxis& time, unsigned seed) {
  Problem<T> p = make_problem<T>(grid, model, acq, time);
  const index_t N = time.steps, nrec = p.rec.count, nsrc = p.src.count;
  const std::vector<T> d = randomize_dot_test(p, seed);

  CpuPropagator<T> prop(p);
  const ShotData<T> fw = run_forward(prop);
  DotProductResult r;
  for (std::size_t i = 0; i < d.size(); ++i) r.forward_product += double(fw.traces[i]) * double(d[i]);

  // F^T d: lam[j] for j = N..1 with r[j] = S^T d[j]; (F^T d)[n] = sum_s P_s^T lam[n+1].
  prop.reset_adjoint();
  std::vector<T> src(static_cast<std::size_t>(nsrc));
  for (index_t j = N; j >= 1; --j) {
    prop.adjoint_data_step(d.data() + j * nrec, src.data());
    double w_adj = 0;
    for (T v : src) w_adj += double(v);
    r.adjoint_product += double(p.wavelet[j - 1]) * w_adj;
  }
  r.relative_error = std::abs(r.forward_product - r.adjoint_product) /
                     std::max(std::abs(r.forward_product), std::abs(r.adjoint_product));
  return r;
}

template <class T>
double forward_misfit(const Problem<T>& problem, const T* observed) {
  CpuPropagator<T> prop(problem);
  const index_t nrec = problem.rec.count;
  std::vector<T> sample(static_cast<std::size_t>(nrec));
  std::vector<double> misfit(static_cast<std::size_t>(problem.time.nt()), 0.0);
  prop.reset_forward();
  for (index_t n = 0; n < problem.time.steps; ++n) {
    prop.forward_step(n);
    prop.sample(sample.data());
    double s = 0;
    for (index_t r = 0; r < nrec; ++r) {
      const T res = sample[r] - observed[(n + 1) * nrec + r];
      s += 0.5 * static_cast<double>(res) * static_cast<double>(res);
    }
    misfit[n + 1] = s;
  }
  return detail::objective(misfit, observed, nrec);
}

VelocityModel perturbed_model(const VelocityModel& model, const std::vector<double>& dm, double h) {
  VelocityModel out = model;
  for (std::size_t i = 0; i < out.velocity.size(); ++i) {
    const double m = 1.0 / (model.velocity[i] * model.velocity[i]) + h * dm[i];
    if (!(m > 0)) throw InputError("the Taylor test perturbation makes m = 1/c^2 non-positive: use a smaller one");
    out.velocity[i] = 1.0 / std::sqrt(m);
  }
  return out;
}

template <class T>
TaylorResult taylor_test(const Grid& grid, const VelocityModel& model, const std::vector<double>& dm,
                         const Acquisition& acq, const TimeAxis& time, const std::vector<T>& observed,
                         const StrategyOptions& strategy, int halvings) {
  TaylorResult t;
  {
    const Problem<T> p = make_problem<T>(grid, model, acq, time);
    CpuPropagator<T> prop(p);
    const StrategyPlan plan = plan_strategy(strategy, time.steps, field_layout<T>(p.grid));
    const GradientOutput g = run_gradient(prop, observed.data(), strategy, plan);
    t.objective = g.stats.objective;
    for (std::size_t i = 0; i < dm.size(); ++i) t.directional += g.gradient[i] * dm[i];
  }
  double h = 1.0;
  for (int k = 0; k <= halvings; ++k, h *= 0.5) {
    const Problem<T> p = make_problem<T>(grid, perturbed_model(model, dm, h), acq, time);
    const double j = forward_misfit(p, observed.data());
    t.h.push_back(h);
    t.first.push_back(std::abs(j - t.objective));
    t.second.push_back(std::abs(j - t.objective - h * t.directional));
  }
  t.rate_first = slope(t.h, t.first);
  t.rate_second = slope(t.h, t.second);
  return t;
}

template std::vector<float> randomize_dot_test<float>(Problem<float>&, unsigned);
template std::vector<double> randomize_dot_test<double>(Problem<double>&, unsigned);
template DotProductResult dot_product_test<float>(const Grid&, const VelocityModel&, const Acquisition&, const TimeAxis&, unsigned);
template DotProductResult dot_product_test<double>(const Grid&, const VelocityModel&, const Acquisition&, const TimeAxis&, unsigned);
template double forward_misfit<float>(const Problem<float>&, const float*);
template double forward_misfit<double>(const Problem<double>&, const double*);
template TaylorResult taylor_test<float>(const Grid&, const VelocityModel&, const std::vector<double>&, const Acquisition&,
                                         const TimeAxis&, const std::vector<float>&, const StrategyOptions&, int);
template TaylorResult taylor_test<double>(const Grid&, const VelocityModel&, const std::vector<double>&, const Acquisition&,
                                          const TimeAxis&, const std::vector<double>&, const StrategyOptions&, int);

}  // namespace revwave
