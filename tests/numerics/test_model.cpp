// The built-in model's fastest velocity without making it (`revwave plan`): the same bits as the
// maximum over the model made, on 3D and 2D shapes, odd and even sides, a body that reaches the
// bottom and one so small that it holds one point or none.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "revwave/numerics/model.hpp"

namespace revwave {
namespace {

TEST(DefaultModel, ItsFastestVelocityIsTheMadeModelsMaximum) {
  const std::vector<std::array<index_t, 3>> shapes{{48, 48, 32}, {47, 33, 29}, {80, 80, 80}, {101, 1, 51},
                                                   {5, 5, 5},    {1, 1, 1},    {3, 40, 2},   {64, 1, 8},
                                                   {30, 30, 7},  {9, 200, 120}};
  for (const auto& shape : shapes) {
    for (const double spacing : {10.0, 12.5, 3.0}) {
      const double made = max_velocity(default_true_model(shape, spacing));
      EXPECT_EQ(default_true_model_max_velocity(shape, spacing), made)
          << shape[0] << "," << shape[1] << "," << shape[2] << " at " << spacing << " m";
    }
  }
}

}  // namespace
}  // namespace revwave
