// The launch layer's accounting on cudasim (cudasim::take_kernel_tally, which
// profiling/launch_tally.cpp reports per step): every launch through launch::enqueue counted once
// under its kernel's name, in the order first launched, with the bytes its declared accesses cover
// (an access to the end of its allocation resolved against the allocation); an empty grid launches
// nothing and counts nothing; taking the tally clears it.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "../cuda/cuda_test_support.hpp"
#include "cudasim.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/kernels/boundary/cpml_kernels.hpp"
#include "revwave/cuda/kernels/launch/kernel_launch.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"

namespace revwave {
namespace {

template <const char* Name>
struct Copy {
  static constexpr const char* name = Name;
  static constexpr launch::Sync sync = launch::Sync::none;
  static constexpr unsigned max_threads = 64;
  static constexpr int min_blocks = 1;
  using Shared = launch::NoShared;
  const float* in;
  float* out;
  unsigned n;
  LaunchShape shape() const { return {{(n + 63) / 64, 1, 1}, {64, 1, 1}}; }
  // Reads n values, writes to the end of out's allocation.
  void accesses(launch::MemoryAccesses& acc) const {
    acc = {launch::reads(in, n * sizeof(float)), launch::writes(out)};
  }
  template <class Thread>
  void operator()(Thread& t) const {
    const unsigned i = t.place().block.x * 64 + t.place().thread.x;
    if (i < n) out[i] = in[i];
  }
};

constexpr char first_name[] = "the first copy";
constexpr char second_name[] = "the second copy";

TEST(KernelTally, CountsEachLaunchAndTheBytesItDeclares) {
  cudasim::take_kernel_tally();
  const unsigned n = 100;
  DeviceBuffer in(n * sizeof(float)), out(3 * n * sizeof(float));
  const Copy<first_name> a{in.as<float>(), out.as<float>(), n};
  const Copy<second_name> b{in.as<float>(), out.as<float>() + n, n};  // to the end: 2 n values
  launch::enqueue(b, nullptr);
  launch::enqueue(a, nullptr);
  launch::enqueue(b, nullptr);
  launch::enqueue(Copy<first_name>{in.as<float>(), out.as<float>(), 0}, nullptr);  // no blocks: not launched
  REVWAVE_CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<cudasim::KernelTally> t = cudasim::take_kernel_tally();
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].name, second_name);
  EXPECT_EQ(t[0].launches, 2u);
  EXPECT_EQ(t[0].bytes_read, 2u * n * sizeof(float));
  EXPECT_EQ(t[0].bytes_written, 2u * 2 * n * sizeof(float));
  EXPECT_EQ(t[1].name, first_name);
  EXPECT_EQ(t[1].launches, 1u);
  EXPECT_EQ(t[1].bytes_read, n * sizeof(float));
  EXPECT_EQ(t[1].bytes_written, 3u * n * sizeof(float));
  EXPECT_TRUE(cudasim::take_kernel_tally().empty());
  EXPECT_TRUE(cudasim::take_reports().empty());
}

std::set<std::string> kernels_of(const std::vector<cudasim::KernelTally>& t) {
  std::set<std::string> names;
  for (const cudasim::KernelTally& k : t) names.insert(k.name);
  return names;
}

// The kernels one forward step and one reverse step launch, after a step to fill the history.
struct StepKernels {
  std::set<std::string> forward, reverse;
};
StepKernels step_kernels(const Problem<double>& p, SweepKernel sweep) {
  CudaPropagator<double> prop(p);
  prop.set_sweep_kernel(sweep);
  prop.reset_forward();
  prop.forward_step(0);
  prop.synchronize();
  cudasim::take_kernel_tally();
  prop.forward_step(1);
  prop.synchronize();
  StepKernels k;
  k.forward = kernels_of(cudasim::take_kernel_tally());
  prop.set_adjoint_source(std::vector<double>(static_cast<std::size_t>(p.time.nt() * p.rec.count), 1e-3));
  prop.reset_adjoint();
  prop.synchronize();
  cudasim::take_kernel_tally();
  prop.reverse_step(1);
  prop.synchronize();
  k.reverse = kernels_of(cudasim::take_kernel_tally());
  return k;
}

// Under the C-PML a reverse step without a stored history makes u[n+1] with the forward step's own
// kernels (CpmlDevicePhysics::next_field): every kernel a forward step launches, the sources'
// injection included, so that on a GPU its bits are those full's history stored, whatever FMAs nvcc
// contracts in each kernel. Under the sponge no forward kernel runs in the reverse step (the
// reverse sweep recomputes u[n+1] in registers, as for every strategy).
TEST(KernelTally, ACpmlReverseStepMakesUNextWithTheForwardStepsKernels) {
  for (bool cpml : {false, true}) {
    cuda_testing::Case c = cuda_testing::awkward_case(4, 12, {13, 11, 9});
    c.grid.cpml = cpml;
    const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
    const StepKernels k = step_kernels(p, SweepKernel::columns);
    ASSERT_FALSE(k.forward.empty());
    for (const std::string& name : k.forward) {
      const bool in_reverse = k.reverse.count(name) > 0;
      if (cpml) {
        EXPECT_TRUE(in_reverse) << "the C-PML's reverse step does not launch the forward step's " << name;
      } else if (name != "injection") {
        EXPECT_FALSE(in_reverse) << "the sponge's reverse step launches the forward step's " << name;
      }
    }
    EXPECT_TRUE(cudasim::take_reports().empty());
  }
}

// #46 item 3 on the device: around the constant density, with the column sweep and no free surface,
// the C-PML's share at the region's points runs inside the sweep (boundary/cpml_sweep.hpp), forward
// and in the fused reverse step, so no kernel of its own reads and writes the region again; only the
// slab passes (psi; nu and mu) stay before the sweep. A free surface (whose rows complete after the
// sweep), another sweep kernel or an order above 8 keeps the passes after it. The values are the passes' bits
// (CudaCpml's tests against the CPU).
TEST(KernelTally, TheCpmlShareRunsInsideTheColumnSweep) {
  const std::set<std::string> passes = {"the C-PML's forward share", "the C-PML region's gradient",
                                        "the C-PML's reverse completion", "the sweep", "the reverse sweep"};
  for (int order : {4, 10})
    for (bool free_surface : {false, true}) {
      for (SweepKernel sweep : {SweepKernel::columns, SweepKernel::tiled}) {
        cuda_testing::Case c = cuda_testing::awkward_case(order, 12, {13, 11, 9});
        c.grid.cpml = true;
        c.grid.free_surface = free_surface;
        const Problem<double> p = make_problem<double>(c.grid, c.start_model, c.acq, c.time);
        const StepKernels k = step_kernels(p, sweep);
        // Up to order 8 (cpml_sweep_max_radius): beyond it, the passes.
        const bool inside = !free_surface && sweep == SweepKernel::columns && order <= 2 * cpml_sweep_max_radius;
        SCOPED_TRACE(std::string(free_surface ? "free surface, " : "") + to_string(sweep) + ", order " +
                     std::to_string(order));
        EXPECT_EQ(k.forward.count("the sweep with the C-PML") > 0, inside);
        EXPECT_EQ(k.reverse.count("the reverse sweep with the C-PML") > 0, inside);
        EXPECT_EQ(k.forward.count("the C-PML's psi") + k.reverse.count("the C-PML's nu"), 2u);
        for (const std::string& name : passes) {
          const bool launched = k.forward.count(name) + k.reverse.count(name) > 0;
          EXPECT_EQ(launched, !inside) << name;
        }
        if (inside) {
          EXPECT_EQ(k.forward.size(), 3u);  // psi, the sweep with the C-PML, the sources
        }
        EXPECT_TRUE(cudasim::take_reports().empty());
      }
    }
}

}  // namespace
}  // namespace revwave
