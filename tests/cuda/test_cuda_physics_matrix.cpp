// Every physics x boundary on the CUDA backend (cudasim here, the device where there is one),
// through the same body as the CPU's suite (support/physics_matrix.hpp): checkpointed == full bit
// for bit on the device, dot-product, Taylor and central differences of the device's own J.
#include "cuda_test_support.hpp"
#include "physics_matrix.hpp"
#include "precisions.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

REVWAVE_PRECISION_SUITE(CudaPhysicsMatrix, CudaTest);

TYPED_TEST(CudaPhysicsMatrix, EveryStrategyEqualsFullBitForBit) {
  testing::every_strategy_equals_full<TypeParam>(Backend::cuda);
}

TYPED_TEST(CudaPhysicsMatrix, DotProductTestHolds) { testing::dot_product_holds<TypeParam>(Backend::cuda); }

class CudaPhysicsMatrixGradient : public CudaTest {};

TEST_F(CudaPhysicsMatrixGradient, TaylorTestIsSecondOrder) { testing::taylor_is_second_order(Backend::cuda); }

TEST_F(CudaPhysicsMatrixGradient, ComponentsMatchCentralDifferences) {
  testing::components_match_central_differences(Backend::cuda);
}

}  // namespace
}  // namespace revwave
