// The CUDA backend has no variable-density kernels yet (docs/physics/density.md): a problem or a
// survey model with a density is refused with one line, never propagated with a constant density.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "cuda_test_support.hpp"
#include "density_case.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/driver/shot_engine.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

class CudaDensity : public CudaTest {};

void expect_density_refused(const std::function<void()>& run) {
  try {
    run();
    ADD_FAILURE() << "a density ran on the CUDA backend";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--density"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("--backend cpu"), std::string::npos) << e.what();
  }
}

TEST_F(CudaDensity, APropagatorWithADensityIsRefused) {
  const testing::SmallCase c = testing::density_case(13, 11, 12, 10, 4);
  const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
  ASSERT_TRUE(p.density.has_value());
  expect_density_refused([&] { CudaPropagator<double> prop(p, CudaBudgets{}); });
}

TEST_F(CudaDensity, AnEngineGivenAModelWithADensityRefusesIt) {
  const testing::SmallCase c = testing::density_case(13, 11, 12, 10, 4);
  EngineOptions eo;
  eo.grid = c.grid;
  eo.window_shapes = {c.grid.shape};
  eo.strategy = testing::strategy("full");
  const auto engine = make_shot_engine<float>(Backend::cuda, eo);
  expect_density_refused([&] { engine->set_model(c.start_model); });
}

}  // namespace
}  // namespace revwave
