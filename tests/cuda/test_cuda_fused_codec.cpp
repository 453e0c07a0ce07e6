// The fused codec (--compress fp16|bf16 in device slots): the forward sweep that writes the
// state's encoding in passing gives the cast kernels' bytes, the first step after a restore that
// reads the encoded fields gives a decode-then-sweep's fields, and a whole compressed gradient is
// the same bits fused or not, whichever sweep kernel runs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "cuda_test_support.hpp"
#include "precisions.hpp"
#include "revwave/cuda/backend/cuda_propagator.hpp"
#include "revwave/cuda/backend/device_problem.hpp"
#include "revwave/cuda/kernels/acoustic/sweep_restore.hpp"
#include "revwave/cuda/runtime/stream_event.hpp"
#include "revwave/cuda/store/device_codec.hpp"
#include "revwave/store/compression.hpp"

namespace revwave {
namespace {

using namespace cuda_testing;

REVWAVE_PRECISION_SUITE(CudaFusedCodec, CudaTest);

template <class V>
std::vector<V> download(const DeviceBuffer& b, std::size_t n) {
  std::vector<V> v(n);
  REVWAVE_CUDA_CHECK(cudaMemcpy(v.data(), b.data(), n * sizeof(V), cudaMemcpyDeviceToHost));
  return v;
}

// Bitwise on the emulation; on a GPU each kernel's arithmetic may contract into FMAs its own way.
template <class T>
void expect_same(const std::vector<T>& got, const std::vector<T>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  if (rounds_as_written()) {
    std::size_t i = 0;
    while (i < got.size() && std::memcmp(&got[i], &want[i], sizeof(T)) == 0) ++i;
    EXPECT_EQ(i, got.size()) << what << " first differs at allocated index " << i;
  } else {
    EXPECT_LE(relative_to_max(got, want), 64 * eps<T>()) << what;
  }
}

// A random state at wavefield-like magnitudes (fp16 must scale), on the device.
template <class T>
struct RandomState {
  RandomState(const Grid& g, unsigned seed) : bytes(g.field_bytes<T>()), u(bytes), u_prev(bytes) {
    for (DeviceBuffer* b : {&u, &u_prev}) {
      std::vector<T> f = random_field<T>(g, seed++);
      for (T& v : f) v *= T(3e-7);
      b->upload(f.data(), bytes);
    }
  }
  std::size_t bytes;
  DeviceBuffer u, u_prev;
};

TYPED_TEST(CudaFusedCodec, AForwardSweepEncodesTheStateItReadsAsTheCastKernelsDo) {
  using T = TypeParam;
  for (const char* mode : {"fp16", "bf16"}) {
    for (SweepKernel kernel : {SweepKernel::columns, SweepKernel::shuffle}) {
      for (int order : {2, 8}) {
        SCOPED_TRACE(std::string(mode) + ", " + to_string(kernel) + ", space order " + std::to_string(order));
        const Case c = awkward_case(order, 4, {13, 11, 9});
        const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
        const DeviceProblem<T> dev(p);
        RandomState<T> s(p.grid, 3);
        CastCodec<T> codec(parse_compression(mode), p.grid);
        DeviceBuffer want(codec.slot_bytes()), got(codec.slot_bytes()), plain(s.bytes), fused(s.bytes);
        Stream stream;
        codec.encode(s.u.data(), want.data(), stream);
        codec.encode(s.u_prev.data(), want.as<unsigned char>() + codec.stride(), stream);
        SweepArgs<T> a = dev.sweep_base();
        a.u = s.u.template as<T>();
        a.u_prev = s.u_prev.template as<T>();
        a.out = plain.template as<T>();
        const int radius = static_cast<int>(p.grid.radius());
        launch_sweep(a, radius, stream, kernel);
        codec.measure_peak(s.u.data(), 2, stream);
        codec.measure_peak(s.u_prev.data(), 3, stream);
        a.out = fused.template as<T>();
        a.encode = SweepEncode{got.as<unsigned char>(), got.as<unsigned char>() + codec.stride(), codec.peak(2),
                               codec.peak(3), codec.bf16()};
        launch_sweep(a, radius, stream, kernel);
        stream.synchronize();
        const std::vector<unsigned char> w = download<unsigned char>(want, codec.slot_bytes());
        const std::vector<unsigned char> g = download<unsigned char>(got, codec.slot_bytes());
        for (std::size_t field : {std::size_t(0), codec.stride()}) {
          EXPECT_EQ(std::memcmp(g.data() + field, w.data() + field, codec.encoded_bytes()), 0)
              << (field == 0 ? "u" : "u_prev") << ": the sweep's encoding differs from the cast kernel's";
        }
        const std::size_t n = s.bytes / sizeof(T);
        expect_same(download<T>(fused, n), download<T>(plain, n), "u[n+1] with the encoding and without");
      }
    }
  }
}

TYPED_TEST(CudaFusedCodec, TheStepAfterARestoreIsADecodeFollowedByASweep) {
  using T = TypeParam;
  for (const char* mode : {"fp16", "bf16"}) {
    for (int order : {2, 8, 16}) {
      SCOPED_TRACE(std::string(mode) + ", space order " + std::to_string(order));
      const Case c = awkward_case(order, 4, {13, 11, 9});
      const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
      const DeviceProblem<T> dev(p);
      RandomState<T> s(p.grid, 5);
      CastCodec<T> codec(parse_compression(mode), p.grid);
      DeviceBuffer code(codec.slot_bytes());
      DeviceBuffer du(s.bytes), dup(s.bytes), out_a(s.bytes), decoded(s.bytes), out_b(s.bytes);
      Stream stream;
      for (DeviceBuffer* b : {&du, &dup, &out_a, &decoded, &out_b}) b->zero_async(stream);  // pool fields: zero halos
      codec.encode(s.u.data(), code.data(), stream);
      codec.encode(s.u_prev.data(), code.as<unsigned char>() + codec.stride(), stream);
      // The unfused way: decode both fields, then the sweep.
      codec.decode(code.data(), du.data(), stream);
      codec.decode(code.as<unsigned char>() + codec.stride(), dup.data(), stream);
      SweepArgs<T> a = dev.sweep_base();
      a.u = du.template as<T>();
      a.u_prev = dup.template as<T>();
      a.out = out_a.template as<T>();
      const int radius = static_cast<int>(p.grid.radius());
      launch_sweep(a, radius, stream, SweepKernel::columns);
      // The fused way.
      RestoreStep<T> r;
      r.sweep = dev.sweep_base();
      r.sweep.out = out_b.template as<T>();
      r.u_code = code.as<unsigned char>();
      r.u_prev_code = code.as<unsigned char>() + codec.stride();
      r.bf16 = codec.bf16();
      r.u_decoded = decoded.template as<T>();
      launch_restore_step(r, radius, stream);
      stream.synchronize();
      const std::size_t n = s.bytes / sizeof(T);
      EXPECT_EQ(std::memcmp(download<T>(decoded, n).data(), download<T>(du, n).data(), s.bytes), 0)
          << "u[n] decoded in passing differs from the decode kernel's";
      expect_same(download<T>(out_b, n), download<T>(out_a, n), "u[n+1] from the encoded fields");
    }
  }
}

// Whole compressed gradients: fused against the cast kernels, for every sweep kernel (the tiled one
// cannot encode in passing: its steps leave the casts to the kernels, and must still agree).
class CudaFusedGradient : public CudaTest {};

TEST_F(CudaFusedGradient, ACompressedGradientIsTheSameBitsFusedOrNot) {
  using T = float;
  const Case c = awkward_case(4, 40, {21, 17, 15});
  const std::vector<T> observed = testing::observed_in<T>(c, c.true_model);
  const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
  for (const char* mode : {"fp16", "bf16"}) {
    // Online: every slot encoded, whatever the costs (revolve splits its budget by them, and the
    // two would not split it alike: compressed_plan.hpp).
    StrategyOptions o = strategy("online", 6);
    o.backend = Backend::cuda;
    o.compression = parse_compression(mode);
    const StrategyPlan plan = plan_strategy(o, p.time.steps, field_layout<T>(p.grid));
    for (SweepKernel kernel : sweep_kernels) {
      SCOPED_TRACE(std::string(mode) + ", " + to_string(kernel));
      CudaPropagator<T> fused(p), cast(p);
      fused.set_sweep_kernel(kernel);
      cast.set_sweep_kernel(kernel);
      cast.set_fused_codec(false);
      const GradientOutput a = run_gradient(fused, observed.data(), o, plan);
      const GradientOutput b = run_gradient(cast, observed.data(), o, plan);
      ASSERT_EQ(a.gradient.size(), b.gradient.size());
      // The same bits on a GPU (they were on the H200) and where the kernels round as written. Not
      // on cudasim built to contract: there the host compiler contracts the fused sweep and the
      // cast kernels each its own way (nvcc's choices are not its), and under the shuffle sweep a
      // few values encode one step of the codec apart (docs/gpu.md, "Tolerances on a GPU").
      if (rounds_as_written() || !on_emulated_runtime()) {
        EXPECT_EQ(std::memcmp(&a.stats.objective, &b.stats.objective, sizeof(double)), 0);
        EXPECT_EQ(std::memcmp(a.gradient.data(), b.gradient.data(), a.gradient.size() * sizeof(double)), 0);
      }
      EXPECT_EQ(a.stats.compression.fields_compressed, b.stats.compression.fields_compressed);
      EXPECT_EQ(a.stats.compression.fields_decompressed, b.stats.compression.fields_decompressed);
      EXPECT_GT(a.stats.compression.fields_decompressed, 0u);
    }
  }
}

// Revolve under --compress splits its slots' bytes between raw and encoded slots by the codec's
// costs: the run says how, holds that many slots, and stays within the codec's bound of full.
TEST_F(CudaFusedGradient, RevolveUnderCompressionSplitsItsBudgetByTheCodecsCosts) {
  using T = float;
  const Case c = awkward_case(4, 40, {21, 17, 15});
  const std::vector<T> observed = testing::observed_in<T>(c, c.true_model);
  const Problem<T> p = make_problem<T>(c.grid, c.start_model, c.acq, c.time);
  CudaPropagator<T> prop(p);
  const GradientOutput full = run_gradient(prop, observed.data(), strategy("full"),
                                           plan_strategy(strategy("full"), p.time.steps, prop.field_bytes()));
  StrategyOptions o = strategy("revolve", 12);
  o.backend = Backend::cuda;
  o.compression = parse_compression("bf16");
  const StrategyPlan plan = plan_strategy(o, p.time.steps, field_layout<T>(p.grid));
  StrategyReport report;
  const GradientOutput g = run_gradient(prop, observed.data(), o, plan, {}, &report);
  const TierReport& where = report.placement;
  EXPECT_NE(where.tier_choice.find("raw and"), std::string::npos) << where.tier_choice;
  EXPECT_NE(where.tier_choice.find("bf16 slots in device memory"), std::string::npos) << where.tier_choice;
  EXPECT_GT(where.device_slots, 0);
  EXPECT_EQ(g.stats.forward_steps, report.predicted_forward_steps);
  double e2 = 0, r2 = 0;
  for (std::size_t i = 0; i < g.gradient.size(); ++i) {
    e2 += (g.gradient[i] - full.gradient[i]) * (g.gradient[i] - full.gradient[i]);
    r2 += full.gradient[i] * full.gradient[i];
  }
  EXPECT_LT(std::sqrt(e2 / r2), 0.15) << "bf16's bound (test_cuda_compression.cpp)";
}

}  // namespace
}  // namespace revwave
