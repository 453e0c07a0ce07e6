// A run makes a CUDA context on the device it uses and on no other (issue #23): choosing the
// backend and spreading ranks over devices only count them. cudasim reports four devices here and
// records where a context was made (cudaSetDevice, an allocation, a stream, a free-memory query).
#include <gtest/gtest.h>

#include <vector>

#include "../cuda/cuda_test_support.hpp"
#include "cudasim.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/setup/problem_setup.hpp"
#include "revwave/setup/survey_gradient_run.hpp"
#include "revwave/survey/survey_gradient.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

class DeviceContexts : public CudaTest {
 protected:
  void SetUp() override {
    cudasim::set_device_count(4);
    CudaTest::SetUp();
    cudasim::forget_contexts();
  }
  void TearDown() override {
    cudaSetDevice(0);
    cudasim::set_device_count(1);
    cudasim::forget_contexts();
    CudaTest::TearDown();
  }
  // J of a revolve survey gradient of `shots` shots of case `c` on CUDA device `device`.
  static double survey_on_device(const Case& c, int shots, int device) {
    Survey survey;
    for (int k = 0; k < shots; ++k) {
      Shot shot;
      shot.name = "shot " + std::to_string(k);
      shot.acquisition = c.acq;
      shot.time = c.time;
      shot.data.assign(static_cast<std::size_t>(c.time.nt()) * c.acq.receivers.size(), 1e-3);
      survey.shots.push_back(shot);
    }
    SurveyRunOptions o;
    o.backend = Backend::cuda;
    o.strategy = strategy("revolve", 4);
    o.strategy.backend = Backend::cuda;
    o.budgets.device = device;
    SerialShotRunner runner;
    return survey_gradient<double>(c.grid, c.start_model, survey, o, runner).objective;
  }
};

TEST_F(DeviceContexts, ChoosingTheBackendAndTheRanksDeviceMakesNone) {
  EXPECT_EQ(cuda_device_count(), 4);
  EXPECT_EQ(resolve_backend(Backend::automatic).kind, Backend::cuda);
  EXPECT_EQ(resolve_backend(Backend::cuda).kind, Backend::cuda);
  GradientJobOptions o;
  EXPECT_EQ(survey_run_options(o, -1.0, Backend::cuda, 6).budgets.device, 2);  // rank 6 of a node: 6 mod 4
  EXPECT_EQ(cudasim::devices_with_context(), std::vector<int>{});
}

TEST_F(DeviceContexts, ASurveyGradientMakesOneOnItsDeviceOnly) {
  const Case c = awkward_case(4, 20, {21, 17, 15});
  EXPECT_GT(survey_on_device(c, 2, 2), 0.0);
  EXPECT_EQ(cudasim::devices_with_context(), std::vector<int>{2});
}

// A library call gives the calling thread its device back (#48): the caller that works on device 1
// finds device 1 current after a survey gradient on device 2, and after a propagator on device 3.
// Where the caller had no context on its current device (0, before any call), none is made there.
TEST_F(DeviceContexts, ARunGivesTheCallersDeviceBack) {
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  const Case c = awkward_case(4, 20, {21, 17, 15});
  EXPECT_GT(survey_on_device(c, 1, 2), 0.0);
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, 1);
  {
    DeviceBudgets b;
    b.device = 3;
    const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
    CudaPropagator<double> prop(p, b);
    ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
    EXPECT_EQ(current, 3);  // its own while it lives
  }
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, 1);
  EXPECT_EQ(cudasim::devices_with_context(), (std::vector<int>{1, 2, 3}));
}

TEST_F(DeviceContexts, ListingTheDevicesForInfoLeavesTheCurrentOneAsItWas) {
  ASSERT_EQ(cudaSetDevice(1), cudaSuccess);
  EXPECT_EQ(cuda_devices().size(), 4u);
  int current = -1;
  ASSERT_EQ(cudaGetDevice(&current), cudaSuccess);
  EXPECT_EQ(current, 1);
}

}  // namespace
}  // namespace revwave
