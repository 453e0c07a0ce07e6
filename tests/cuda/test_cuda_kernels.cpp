// Every CUDA kernel against the CPU reference backend on awkward sizes, space orders 2, 8, 16.
// Single steps from random states: agreement to 64 eps(T) of the field's maximum
// (the two differ only in FMA contraction and summation order). Every sweep kernel (columns,
// shuffle, tiled), which on the emulation must also agree with the columns kernel to the bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <initializer_list>

#include "cpu_rounding.hpp"
#include "cuda_test_support.hpp"
#include "device_state_io.hpp"
#include "precisions.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/numerics/acoustic/cpu_sweep.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

REVWAVE_PRECISION_SUITE(CudaKernels, CudaTest);

constexpr int orders[] = {2, 8, 16};

// relative_to_max passes over NaN (std::max drops it): a point never written, or read from an
// unwritten shared cell in the emulation, would go unseen without this.
template <class T>
bool all_finite(const std::vector<T>& v) {
  return std::all_of(v.begin(), v.end(), [](T x) { return std::isfinite(x); });
}

// Padded 74 x 7 x 10: longer than one x chunk of the tiled sweep, thinner than its tile in y and z.
Case thin_case(int order) {
  Case c = awkward_case(order, 40, {70, 3, 6});
  c.grid.nbl = 2;
  return c;
}

// Both backends on the case's problem, the device one sweeping with `kernel`, at the same random
// forward state (seeds for u and u_prev) of `points` values per field.
template <class T>
struct BothBackends {
  BothBackends(const Case& c, SweepKernel kernel, unsigned seed_u, unsigned seed_up)
      : p(make_problem<T>(c.grid, c.start_model, c.acq, c.time)), cpu(p), gpu(p) {
    gpu.set_sweep_kernel(kernel);
    const Grid& g = cpu.problem().grid;
    const std::vector<T> u = random_field<T>(g, seed_u), up = random_field<T>(g, seed_up);
    std::memcpy(cpu.state().u.data(), u.data(), cpu.field_bytes());
    std::memcpy(cpu.state().u_prev.data(), up.data(), cpu.field_bytes());
    upload_state(gpu, u, up);
    points = u.size();
  }
  const Problem<T> p;
  CpuPropagator<T> cpu;
  CudaPropagator<T> gpu;
  std::size_t points = 0;
};

// Three forward steps from random states: both fields and the samples.
template <class T>
void forward_steps_match_the_cpu(const Case& c, SweepKernel kernel) {
  BothBackends<T> b(c, kernel, 1, 2);
  for (index_t n = 0; n < 3; ++n) {
    b.cpu.forward_step(n);
    b.gpu.forward_step(n);
  }
  const std::vector<T> gu = download_u(b.gpu, b.points), gup = download_u_prev(b.gpu, b.points);
  EXPECT_TRUE(all_finite(gu) && all_finite(gup));
  const T* cu = b.cpu.state().u.template as<T>();
  const T* cup = b.cpu.state().u_prev.template as<T>();
  EXPECT_LE(relative_to_max(gu, std::vector<T>(cu, cu + b.points)), 64 * eps<T>());
  EXPECT_LE(relative_to_max(gup, std::vector<T>(cup, cup + b.points)), 64 * eps<T>());
  b.cpu.record_trace(0);
  b.gpu.record_trace(0);
  EXPECT_LE(relative_to_max(b.gpu.traces(1), b.cpu.traces(1)), 64 * eps<T>());
}

template <class T>
std::vector<T> random_observed(const Problem<T>& p) {
  std::vector<T> observed(static_cast<std::size_t>(p.time.nt() * p.rec.count));
  std::mt19937 rng(5);
  std::normal_distribution<double> normal(0, 1);
  for (auto& v : observed) v = static_cast<T>(normal(rng));
  return observed;
}

// Three fused reverse steps from random states, a random adjoint source injected: the traces of
// u[n+1] sampled from the probes (as the last trace of every gradient is) and the gradient.
template <class T>
void reverse_steps_match_the_cpu(const Case& c, SweepKernel kernel) {
  BothBackends<T> b(c, kernel, 3, 4);
  const std::vector<T> source = random_observed(b.p);
  b.cpu.set_adjoint_source(source);
  b.gpu.set_adjoint_source(source);
  b.cpu.reset_adjoint();
  b.gpu.reset_adjoint();
  for (index_t n = 5; n >= 3; --n) {
    b.cpu.record_next_trace(n + 1);
    b.gpu.record_next_trace(n + 1);
    b.cpu.reverse_step(n);
    b.gpu.reverse_step(n);
  }
  const std::vector<T> tc = b.cpu.traces(b.p.time.nt()), tg = b.gpu.traces(b.p.time.nt());
  const index_t nrec = b.p.rec.count;
  const auto row = [nrec](const std::vector<T>& t, index_t n) {
    return std::vector<T>(t.begin() + n * nrec, t.begin() + (n + 1) * nrec);
  };
  for (index_t n = 4; n <= 6; ++n)
    EXPECT_LE(relative_to_max(row(tg, n), row(tc, n)), 64 * eps<T>()) << "trace of u[" << n << "]";
  const std::vector<T> lam = download_lam(b.gpu, b.points), grad = download_grad(b.gpu, b.points);
  EXPECT_TRUE(all_finite(lam) && all_finite(grad));
  // The CPU's adjoint fields are private: the folded gradient carries them; lam must at least have moved.
  const std::vector<double> gc = b.cpu.interior_gradient(), gg = b.gpu.interior_gradient();
  EXPECT_LE(relative_to_max(gg, gc), 64 * eps<T>());
  EXPECT_GT(max_abs(lam), 0.0);
}

// On the emulation the kernels run the same point formulas in the same order on the CPU, so
// they must agree to the bit; on a GPU nvcc may contract each one's arithmetic into FMAs differently.
template <class T>
void expect_same_field(const std::vector<T>& tiled, const std::vector<T>& columns, const std::string& what) {
  ASSERT_EQ(tiled.size(), columns.size());
  if (rounds_as_written()) {
    std::size_t i = 0;
    while (i < tiled.size() && std::memcmp(&tiled[i], &columns[i], sizeof(T)) == 0) ++i;
    EXPECT_EQ(i, tiled.size()) << what << " first differs at allocated index " << i;
  } else {
    EXPECT_LE(relative_to_max(tiled, columns), 64 * eps<T>()) << what;
  }
}

// One sweep's fields as host copies: u, u_prev, out, then the reverse sweep's lam, lam_prev, grad.
template <class T>
using SweepFieldSet = std::array<std::vector<T>, 6>;
constexpr const char* field_names[] = {"u", "u_prev", "out", "lam", "lam_prev", "grad"};

// Forward in place (out aliases u_prev), or the fused reverse sweep into a separate out.
template <class T, class Args>
void bind_fields(Args& a, const std::array<T*, 6>& f, bool reverse) {
  a.u = f[0];
  a.u_prev = f[1];
  a.out = reverse ? f[2] : f[1];
  if (!reverse) return;
  a.lam = f[3];
  a.lam_prev = f[4];
  a.grad = f[5];
}

template <class T>
void cpu_sweep(const Problem<T>& p, SweepFieldSet<T>& s, bool reverse) {
  if (reverse) {
    cpu_reverse_sweep(
        p, ReverseSweepFields<T>{s[0].data(), s[1].data(), s[3].data(), s[4].data(), s[2].data(), s[5].data()});
  } else {
    cpu_leapfrog_sweep(p, SweepFields<T>{s[0].data(), s[1].data(), s[1].data()});
  }
}

template <class T>
void device_sweep(const Problem<T>& p, SweepFieldSet<T>& s, bool reverse, SweepKernel kernel) {
  const DeviceProblem<T> dev(p);
  const std::size_t bytes = p.grid.template field_bytes<T>();
  std::vector<DeviceBuffer> d;
  std::array<T*, 6> f{};
  for (std::size_t i = 0; i < s.size(); ++i) {
    d.emplace_back(bytes);
    d.back().upload(s[i].data(), bytes);
    f[i] = d.back().template as<T>();
  }
  SweepArgs<T> a = dev.sweep_base();
  bind_fields<T>(a, f, reverse);
  launch_sweep(a, static_cast<int>(p.grid.radius()), nullptr, kernel);
  for (std::size_t i = 0; i < s.size(); ++i)
    REVWAVE_CUDA_CHECK(cudaMemcpy(s[i].data(), d[i].data(), bytes, cudaMemcpyDeviceToHost));
}

// Forward or reverse steps in every space order on the awkward case, and on the thin one too for
// the tiled kernel (whose tiles it does not fill) and the shuffle kernel (most of whose lanes lie
// past nz there, and still take part in the shuffles).
template <class T>
void steps_match_the_cpu(bool reverse, SweepKernel kernel) {
  const auto check = reverse ? reverse_steps_match_the_cpu<T> : forward_steps_match_the_cpu<T>;
  for (int order : orders) {
    SCOPED_TRACE("space order " + std::to_string(order));
    check(awkward_case(order), kernel);
    if (kernel == SweepKernel::columns) continue;
    SCOPED_TRACE("thin case");
    check(thin_case(order), kernel);
  }
}

TYPED_TEST(CudaKernels, ForwardStepsAndSamplingMatchTheCpu) {
  steps_match_the_cpu<TypeParam>(false, SweepKernel::columns);
}
TYPED_TEST(CudaKernels, ReverseStepsMatchTheCpu) { steps_match_the_cpu<TypeParam>(true, SweepKernel::columns); }
TYPED_TEST(CudaKernels, TiledForwardStepsMatchTheCpu) { steps_match_the_cpu<TypeParam>(false, SweepKernel::tiled); }
TYPED_TEST(CudaKernels, TiledReverseStepsMatchTheCpu) { steps_match_the_cpu<TypeParam>(true, SweepKernel::tiled); }
TYPED_TEST(CudaKernels, ShuffleForwardStepsMatchTheCpu) { steps_match_the_cpu<TypeParam>(false, SweepKernel::shuffle); }
TYPED_TEST(CudaKernels, ShuffleReverseStepsMatchTheCpu) { steps_match_the_cpu<TypeParam>(true, SweepKernel::shuffle); }
// The pair sweep runs in float up to radius 4 (the columns sweep elsewhere): every radius it runs,
// odd and even, whose z windows load their pairs differently, on the awkward and the thin case.
TYPED_TEST(CudaKernels, PairForwardStepsMatchTheCpu) {
  for (int order : {2, 4, 6, 8}) {
    SCOPED_TRACE("space order " + std::to_string(order));
    forward_steps_match_the_cpu<TypeParam>(awkward_case(order), SweepKernel::vector);
    forward_steps_match_the_cpu<TypeParam>(thin_case(order), SweepKernel::vector);
  }
}

// Straight through launch_sweep on random fields: the reverse sweep sees a lam that fills the
// grid (the propagator's starts at zero), and every point of every field, halo and row gaps
// included, is compared, so a point written twice, never, or outside the padded grid shows.
TYPED_TEST(CudaKernels, BothSweepsMatchTheCpuSweepOnRandomFields) {
  using T = TypeParam;
  for (int order : orders) {
    for (const Case& c : {awkward_case(order), thin_case(order)}) {
      for (bool reverse : {false, true}) {
        SCOPED_TRACE("space order " + std::to_string(order) + ", padded x " + std::to_string(c.grid.padded(0)) +
                     (reverse ? ", reverse" : ", forward"));
        const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
        SweepFieldSet<T> ref;
        for (std::size_t i = 0; i < ref.size(); ++i) ref[i] = random_field<T>(p.grid, 10 + unsigned(i));
        SweepFieldSet<T> columns = ref;
        cpu_sweep(p, ref, reverse);
        device_sweep(p, columns, reverse, SweepKernel::columns);
        for (SweepKernel kernel : sweep_kernels) {
          SweepFieldSet<T> got = ref;
          if (kernel == SweepKernel::columns)
            got = columns;
          else {
            for (std::size_t i = 0; i < got.size(); ++i) got[i] = random_field<T>(p.grid, 10 + unsigned(i));
            device_sweep(p, got, reverse, kernel);
          }
          for (std::size_t i = 0; i < ref.size(); ++i) {
            const std::string what = std::string(field_names[i]) + " (" + to_string(kernel) + ")";
            EXPECT_TRUE(all_finite(got[i])) << what;
            EXPECT_LE(relative_to_max(got[i], ref[i]), 64 * eps<T>()) << what;
            expect_same_field(got[i], columns[i], what);
          }
        }
      }
    }
  }
}

// Steps of the propagator with `kernel` against the same steps with the columns kernel.
template <class T>
void same_fields_as_columns(SweepKernel kernel, std::initializer_list<int> space_orders = {2, 8, 16}) {
  for (int order : space_orders) {
    for (const Case& c : {awkward_case(order), thin_case(order)}) {
      SCOPED_TRACE("space order " + std::to_string(order) + ", padded x " + std::to_string(c.grid.padded(0)));
      const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
      CudaPropagator<T> columns(p), tiled(p);
      tiled.set_sweep_kernel(kernel);
      const std::vector<T> u = random_field<T>(p.grid, 6), up = random_field<T>(p.grid, 7);
      const std::vector<T> observed = random_observed(p);
      for (CudaPropagator<T>* g : {&columns, &tiled}) {
        upload_state(*g, u, up);
        g->set_adjoint_source(observed);
        g->reset_adjoint();
      }
      for (index_t n = 0; n < 3; ++n) {
        columns.forward_step(n);
        tiled.forward_step(n);
      }
      expect_same_field(download_u(tiled, u.size()), download_u(columns, u.size()), "u");
      expect_same_field(download_u_prev(tiled, u.size()), download_u_prev(columns, u.size()), "u_prev");
      for (index_t n = 5; n >= 3; --n) {
        columns.record_next_trace(n + 1);
        tiled.record_next_trace(n + 1);
        columns.reverse_step(n);
        tiled.reverse_step(n);
      }
      expect_same_field(tiled.traces(p.time.nt()), columns.traces(p.time.nt()), "the probes' traces");
      expect_same_field(download_lam(tiled, u.size()), download_lam(columns, u.size()), "lam");
      expect_same_field(download_grad(tiled, u.size()), download_grad(columns, u.size()), "grad");
    }
  }
}

TYPED_TEST(CudaKernels, TiledAndColumnsGiveTheSameFields) { same_fields_as_columns<TypeParam>(SweepKernel::tiled); }
TYPED_TEST(CudaKernels, ShuffleAndColumnsGiveTheSameFields) { same_fields_as_columns<TypeParam>(SweepKernel::shuffle); }
TYPED_TEST(CudaKernels, PairAndColumnsGiveTheSameFields) {
  same_fields_as_columns<TypeParam>(SweepKernel::vector, {2, 4, 6, 8});
}

TYPED_TEST(CudaKernels, ShotRecordMatchesTheCpu) {
  using T = TypeParam;
  for (int order : orders) {
    SCOPED_TRACE("space order " + std::to_string(order));
    const Case c = awkward_case(order);
    const Problem<T> p = make_problem<T>(c.grid, c.true_model, c.acq, c.time);
    // Bitwise where the kernels round as written; else within the derived tolerance (cpu_rounding.hpp).
    const CpuReference<T> ref = cpu_reference(p, make_problem<T>(c.grid, c.start_model, c.acq, c.time));
    const ShotData<T> got = cuda_forward(p, DeviceBudgets{});
    ASSERT_EQ(got.traces.size(), ref.run.traces.size());
    expect_within_rounding(got.traces, ref.run.traces, ref.tol.traces, "traces");
  }
}

TYPED_TEST(CudaKernels, FullGradientMatchesTheCpu) {
  using T = TypeParam;
  for (int order : orders) {
    SCOPED_TRACE("space order " + std::to_string(order));
    const Case c = awkward_case(order);
    const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
    const CpuReference<T> cpu = cpu_reference(make_problem<T>(c.grid, c.true_model, c.acq, c.time), p);
    const std::vector<T>& observed = cpu.run.traces;
    const GradientOutput& ref = cpu.run.gradient;
    const StrategyOptions full = strategy("full");
    const StrategyPlan plan = plan_strategy(full, p.time.steps, p.grid.template field_bytes<T>());
    const GradientOutput got = cuda_gradient(p, observed.data(), full, plan, DeviceBudgets{});
    expect_within_rounding(std::vector<double>{got.stats.objective}, std::vector<double>{ref.stats.objective},
                           cpu.tol.objective, "J");
    expect_gradient_is_the_cpus<T>(got.gradient, ref.gradient, cpu.tol.gradient, "dJ/dm");
  }
}

}  // namespace
}  // namespace revwave
