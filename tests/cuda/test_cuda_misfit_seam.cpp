// The misfit seam on the CUDA backend, through the drivers the CPU runs: the misfit is called once,
// between the sweeps, with the traces the device recorded (forward modelling's, the last sampled
// from the probes), and the gradient follows the adjoint source it returns.
#include <gtest/gtest.h>

#include <cstring>

#include "cuda_test_support.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/misfit/l2_misfit.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

template <class T>
class RecordingMisfit final : public Misfit<T> {
 public:
  explicit RecordingMisfit(T scale = T(1)) : scale_(scale) {}
  MisfitKind kind() const override { return MisfitKind::l2; }
  double evaluate(const Traces<T>& syn, const Traces<T>& obs, T* r) const override {
    synthetic.assign(syn.values, syn.values + syn.size());
    ++calls;
    const double j = l2_misfit<T>().evaluate(syn, obs, r);
    for (index_t i = 0; i < syn.size(); ++i) r[i] *= scale_;
    return scale_ * j;
  }
  mutable std::vector<T> synthetic;
  mutable int calls = 0;

 private:
  T scale_;
};

class CudaMisfitSeam : public CudaTest {};

TEST_F(CudaMisfitSeam, TheMisfitGetsTheDeviceTracesOnceAndDrivesTheGradient) {
  using T = float;
  const Case c = awkward_case(4, 40);
  const Problem<T> truth = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
  const std::vector<T> observed = cuda_forward(truth, DeviceBudgets{}).traces;
  const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
  const std::vector<T> forward = cuda_forward(p, DeviceBudgets{}).traces;
  StrategyOptions s = strategy("revolve", 5);
  s.backend = Backend::cuda;
  const StrategyPlan plan = plan_strategy(s, p.time.steps, p.grid.field_bytes<T>());
  auto run = [&](const Misfit<T>& misfit) {
    return run_on_backend(Backend::cuda, p, DeviceBudgets{},
                          GradientCall<T>{&misfit, observed.data(), &s, &plan, {}, nullptr});
  };
  RecordingMisfit<T> once;
  const GradientOutput g = run(once);
  EXPECT_EQ(once.calls, 1);
  ASSERT_EQ(once.synthetic.size(), forward.size());
  if (rounds_as_written()) {  // the same point formulas in the same order: the same bits
    EXPECT_EQ(std::memcmp(once.synthetic.data(), forward.data(), forward.size() * sizeof(T)), 0);
  } else {  // the last sample comes from the probe kernel, which nvcc may contract otherwise
    EXPECT_LE(relative_to_max(once.synthetic, forward), 64 * eps<T>());
  }
  // J is the misfit's, on the host, of what it was given.
  EXPECT_EQ(g.stats.objective,
            l2_misfit<T>().evaluate({p.time.nt(), p.rec.count, p.time.dt, once.synthetic.data()},
                                    {p.time.nt(), p.rec.count, p.time.dt, observed.data()}, nullptr));
  // Twice the misfit, twice its adjoint source: twice the gradient, with no propagator the wiser.
  RecordingMisfit<T> twice(T(2));
  const GradientOutput h = run(twice);
  EXPECT_EQ(h.stats.objective, 2 * g.stats.objective);
  std::vector<double> doubled(g.gradient);
  for (double& v : doubled) v *= 2;
  EXPECT_LE(relative_to_max(h.gradient, doubled), 64 * eps<T>());
  EXPECT_GT(max_abs(g.gradient), 0.0);
}

}  // namespace
}  // namespace revwave
