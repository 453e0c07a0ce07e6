// The adjoint (dot-product) test and the Taylor test of the CUDA backend, through the functions
// the CPU runs them with (the shared drivers on a CudaPropagator).
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
  const DotProductResult r =
      dot_product_test<double>(c.grid, c.true_model, c.acq, c.time, 7, Backend::cuda, DeviceBudgets{});
  EXPECT_LT(r.relative_error, 1e-12) << r.forward_product << " vs " << r.adjoint_product;
}

TEST_F(CudaAdjoint, DotProductTestFloat) {
  const Case c = awkward_case(8, 50);
  const DotProductResult r =
      dot_product_test<float>(c.grid, c.true_model, c.acq, c.time, 7, Backend::cuda, DeviceBudgets{});
  EXPECT_LT(r.relative_error, 1e-5) << r.forward_product << " vs " << r.adjoint_product;
}

TEST_F(CudaAdjoint, TaylorTestDoubleConvergesAtSecondOrder) {
  const Case c = awkward_case(8, 60);
  const Problem<double> truth = make_problem<double>(c.grid, c.true_model, c.acq, c.time);
  const std::vector<double> observed = cuda_forward(truth, DeviceBudgets{}).traces;
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
  StrategyOptions full = strategy("full");
  full.backend = Backend::cuda;
  // h = 1, 1/2, ..., 1/16: the gradient and every J(m + h dm) on the device.
  const TaylorResult t =
      taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, observed, full, 4, Backend::cuda, DeviceBudgets{});
  ASSERT_EQ(t.second.size(), 5u);
  EXPECT_GE(t.rate_second, 1.9);
}

}  // namespace
}  // namespace revwave
