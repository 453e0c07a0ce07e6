// Shared by the GPU suites: the skip when no device is usable, small awkward problems, comparisons.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "revwave/core/cuda_info.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/misfit/l2_misfit.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"
#include "test_helpers.hpp"

namespace revwave::cuda_testing {

// The suites are compiled once and linked twice, against the CUDA runtime and against cudasim
// (its CPU emulation); each link provides these (tests/cuda/hooks, tests/cudasim/runtime_hooks.cpp).
// Whether the device's kernels round every operation as written, as the CPU's code does (then
// the same point formulas in the same order give the CPU's bits, and two sweep variants each
// other's): cudasim built as by default (its kernel bodies compiled as C++ without contraction).
// Not on a GPU, where nvcc fuses a * b + c into one rounding where it chooses, nor on cudasim
// built with REVWAVE_CUDASIM_FP_CONTRACT=ON, which lets the host compiler do the same to the
// kernels (docs/gpu.md, "Tolerances on a GPU").
bool rounds_as_written();
bool on_emulated_runtime();                       // cudasim: its "device" memory is host memory, its copies memcpy
std::vector<std::string> take_runtime_reports();  // what cudasim's checker found since the last call

// Every GPU test derives from this: without a device it is reported as skipped, with the reason.
// Against cudasim it runs everywhere, and fails on anything the stream-order checker reports.
class CudaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << cuda_unavailable_reason();
    take_runtime_reports();
  }
  void TearDown() override {
    for (const std::string& r : take_runtime_reports()) ADD_FAILURE() << "cudasim: " << r;
  }
};

using Case = testing::SmallCase;

// Interior sizes that are no multiple of any block size; receivers close enough to share corners.
inline Case awkward_case(int order, index_t steps = 40, std::array<index_t, 3> shape = {37, 29, 23}) {
  Case c = testing::case_on(shape, 5, order, steps);
  c.acq.sources = {{0.45 * c.grid.extent(0), 0.5 * c.grid.extent(1), 13.0},
                   {0.45 * c.grid.extent(0) + 3.0, 0.5 * c.grid.extent(1), 13.0}};
  for (int i = 0; i < 11; ++i)
    c.acq.receivers.push_back({c.grid.extent(0) * (i + 0.5) / 11.0, 0.41 * c.grid.extent(1), 21.0});
  c.acq.receivers.push_back({c.grid.extent(0) * 0.5 / 11.0 + 4.0, 0.41 * c.grid.extent(1) + 2.0, 23.0});
  return c;
}

// snaps 0: not given (full refuses a slot count).
inline StrategyOptions strategy(const std::string& name, index_t snaps = 0) {
  StrategyOptions s;
  s.strategy = parse_strategy(name);
  if (snaps > 0) s.snaps = snaps;
  return s;
}

// Random values on the padded points of an allocated-grid field, zero on the halo.
template <class T>
std::vector<T> random_field(const Grid& g, unsigned seed) {
  std::vector<T> f(static_cast<std::size_t>(g.alloc_points()), T(0));
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (index_t i = 0; i < g.padded(0); ++i)
    for (index_t j = 0; j < g.padded(1); ++j)
      for (index_t k = 0; k < g.padded(2); ++k) f[static_cast<std::size_t>(g.index(i, j, k))] = static_cast<T>(u(rng));
  return f;
}

// Infinite where either side is NaN (a point never written, say): std::max would drop it.
template <class A, class B>
double max_abs_diff(const A& a, const B& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double e = std::abs(double(a[i]) - double(b[i]));
    if (std::isnan(e)) return std::numeric_limits<double>::infinity();
    d = std::max(d, e);
  }
  return d;
}

template <class A>
double max_abs(const A& a) {
  double m = 0;
  for (const auto& v : a) m = std::max(m, std::abs(double(v)));
  return m;
}

// |a - b|_max / |b|_max, the reference b from the CPU.
template <class A, class B>
double relative_to_max(const A& a, const B& b) {
  EXPECT_EQ(a.size(), b.size());
  const double scale = max_abs(b);
  return scale > 0 ? max_abs_diff(a, b) / scale : max_abs_diff(a, b);
}

// Bitwise where the device rounds as written (the same point formulas in the same order); within
// `tolerance` of the largest value where it does not (a GPU, whose nvcc contracts).
template <class V>
void expect_same(const V& gpu, const V& cpu, double tolerance, const std::string& what) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  if (rounds_as_written()) {
    EXPECT_TRUE(testing::same_bits(gpu, cpu)) << what;
  } else {
    const double d = relative_to_max(gpu, cpu);
    EXPECT_LE(d, tolerance) << what;
    // The margin, for the GPU check's log and docs/gpu.md's table.
    std::printf("[ rounding ] %s: %.3g of the largest value, tolerance %.3g\n", what.c_str(), d, tolerance);
  }
}

template <class T>
constexpr double eps() {
  return std::numeric_limits<T>::epsilon();
}

// Forward modelling and the L2 gradient on the CUDA backend, through the backend registry and the
// drivers every backend shares (what `revwave --backend cuda` runs). `info`: where the device put
// the slots; `report`: the strategy's (multilevel: the tiers with the costs used, the predicted time).
template <class T>
ShotData<T> cuda_forward(const Problem<T>& p, const DeviceBudgets& budgets) {
  return run_on_backend(Backend::cuda, p, budgets, ForwardCall<T>{});
}
template <class T>
GradientOutput cuda_gradient(const Problem<T>& p, const T* observed, const StrategyOptions& options,
                             const StrategyPlan& plan, const DeviceBudgets& budgets, CudaRunInfo* info = nullptr,
                             StrategyReport* report = nullptr) {
  StrategyReport local;
  StrategyReport& r = report != nullptr ? *report : local;
  GradientOutput g =
      run_on_backend(Backend::cuda, p, budgets, GradientCall<T>{&l2_misfit<T>(), observed, &options, &plan, {}, &r});
  if (info != nullptr) *info = r.placement;
  return g;
}

// Whole runs (tens of steps): float 1e-5 for traces, double 1e-12 (DESIGN's adjoint-test tolerances).
template <class T>
constexpr double run_tolerance() {
  return sizeof(T) == 4 ? 1e-5 : 1e-12;
}

// |a - b|_2 / |b|_2 over a whole field, the reference b from the CPU: an average over every point,
// where a maximum is one point's (and one point's rounding is a single draw).
// NaN where the sizes differ or either side holds a value that is not finite: no tolerance passes it.
template <class A, class B>
double relative_rms(const A& a, const B& b) {
  EXPECT_EQ(a.size(), b.size());
  if (a.size() != b.size()) return std::numeric_limits<double>::quiet_NaN();
  double d = 0, n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(double(a[i])) || !std::isfinite(double(b[i]))) return std::numeric_limits<double>::quiet_NaN();
    const double e = double(a[i]) - double(b[i]);
    d += e * e;
    n += double(b[i]) * double(b[i]);
  }
  return n > 0 ? std::sqrt(d / n) : std::sqrt(d);
}

// Bitwise where the device rounds as written; where it rounds apart, |gpu - cpu|_2 / |cpu|_2 at
// most `tolerance` (a derived one: cpu_rounding.hpp), the margin printed for the GPU check's log.
template <class V>
void expect_within_rounding(const V& gpu, const V& cpu, double tolerance, const std::string& what) {
  ASSERT_EQ(gpu.size(), cpu.size()) << what;
  if (rounds_as_written()) {
    EXPECT_TRUE(testing::same_bits(gpu, cpu)) << what;
    return;
  }
  const double d = relative_rms(gpu, cpu);
  EXPECT_LE(d, tolerance) << what;
  std::printf("[ rounding ] %s: %.3g (rms), tolerance %.3g, %.2f of it\n", what.c_str(), d, tolerance, d / tolerance);
}

}  // namespace revwave::cuda_testing
