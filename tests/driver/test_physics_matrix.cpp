// Every physics x boundary on the CPU backend, through the one body both backends run
// (support/physics_matrix.hpp): checkpointed == full bit for bit, dot-product, Taylor and central
// differences, constant or variable density under a sponge or a C-PML, with or without a free surface.
#include "physics_matrix.hpp"
#include "precisions.hpp"

namespace revwave {
namespace {

REVWAVE_PRECISION_SUITE(PhysicsMatrix, ::testing::Test);

TYPED_TEST(PhysicsMatrix, EveryStrategyEqualsFullBitForBit) {
  testing::every_strategy_equals_full<TypeParam>(Backend::cpu);
}

TYPED_TEST(PhysicsMatrix, DotProductTestHolds) { testing::dot_product_holds<TypeParam>(Backend::cpu); }

TEST(PhysicsMatrixGradient, TaylorTestIsSecondOrder) { testing::taylor_is_second_order(Backend::cpu); }

TEST(PhysicsMatrixGradient, ComponentsMatchCentralDifferences) {
  testing::components_match_central_differences(Backend::cpu);
}

}  // namespace
}  // namespace revwave
