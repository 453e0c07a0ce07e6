// The adjoint (dot-product) test and the Taylor test of the CUDA backend.
#include <gtest/gtest.h>

#include "cuda_test_support.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/driver/verification.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

class CudaAdjoint : public CudaTest {};

TEST_F(CudaAdjoint, DotProductTestDouble) {
  const Case c = awkward_case(8, 50);
  const DotProductResult r = cuda_dot_product_test<double>(c.grid, c.true_model, c.acq, c.time, 7, CudaBudgets{});
  EXPECT_LT(r.relative_error, 1e-12) << r.forward_product << " vs " << r.adjoint_product;
}

TEST_F(CudaAdjoint, DotProductTestFloat) {
  const Case c = awkward_case(8, 50);
  const DotProductResult r = cuda_dot_product_test<float>(c.grid, c.true_model, c.acq, c.time, 7, CudaBudgets{});
  EXPECT_LT(r.relative_error, 1e-5) << r.forward_product << " vs " << r.adjoint_product;
}

// J by forward modelling on the GPU, summed as the gradient driver sums it.
double cuda_misfit(const Problem<double>& p, const std::vector<double>& observed) {
  const ShotData<double> s = cuda_forward(p, CudaBudgets{});
  const index_t nrec = p.rec.count;
  std::vector<double> misfit(static_cast<std::size_t>(p.time.nt()), 0.0);
  for (index_t n = 1; n < p.time.nt(); ++n) {
    double j = 0;
    for (index_t r = 0; r < nrec; ++r) {
      const double res = s.traces[n * nrec + r] - observed[n * nrec + r];
      j += 0.5 * res * res;
    }
    misfit[n] = j;
  }
  return detail::objective(misfit, observed.data(), nrec);
}

double slope(const std::vector<double>& h, const std::vector<double>& e) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const double n = static_cast<double>(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    const double x = std::log(h[i]), y = std::log(e[i]);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

TEST_F(CudaAdjoint, TaylorTestDoubleConvergesAtSecondOrder) {
  const Case c = awkward_case(8, 60);
  const Problem<double> truth = make_problem<double>(c.grid, c.true_model, c.acq, c.time);
  const std::vector<double> observed = cuda_forward(truth, CudaBudgets{}).traces;
  const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
  const StrategyOptions full = strategy("full");
  const StrategyPlan plan = plan_strategy(full, p.time.steps, p.grid.field_bytes<double>());
  const GradientOutput g = cuda_gradient(p, observed.data(), full, plan, CudaBudgets{});
  // dm: a smooth bump of 5% of m in the middle of the model.
  std::vector<double> dm(static_cast<std::size_t>(c.grid.interior_points()));
  const auto& s = c.grid.shape;
  for (index_t i = 0; i < s[0]; ++i)
    for (index_t j = 0; j < s[1]; ++j)
      for (index_t k = 0; k < s[2]; ++k) {
        const double x = (i - s[0] / 2.0) / 6.0, y = (j - s[1] / 2.0) / 6.0, z = (k - s[2] / 2.0) / 6.0;
        const double m = 1.0 / (c.start_model.at(i, j, k) * c.start_model.at(i, j, k));
        dm[static_cast<std::size_t>((i * s[1] + j) * s[2] + k)] = 0.05 * m * std::exp(-(x * x + y * y + z * z));
      }
  double directional = 0;
  for (std::size_t i = 0; i < dm.size(); ++i) directional += g.gradient[i] * dm[i];
  std::vector<double> hs, second;
  double h = 1.0;
  for (int k = 0; k < 5; ++k, h *= 0.5) {
    const Problem<double> ph = make_problem<double>(c.grid, perturbed_model(c.start_model, dm, h), c.acq, c.time);
    const double j = cuda_misfit(ph, observed);
    hs.push_back(h);
    second.push_back(std::abs(j - g.stats.objective - h * directional));
  }
  EXPECT_GE(slope(hs, second), 1.9);
}

}  // namespace
}  // namespace revwave
