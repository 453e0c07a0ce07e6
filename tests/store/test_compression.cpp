// Compressed checkpoints (--compress): conversions against the compiler's own fp16, codec round
// trips within each mode's stated bound, the budget buying slots at the encoded size, and the
// checkpointed gradient's error against the exact one, per mode, on two problems.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>

#include "precisions.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/driver/gradient_strategy.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/numerics/acoustic/cpu_propagator.hpp"
#include "revwave/store/compressed_store.hpp"
#include "revwave/store/compression.hpp"
#include "revwave/store/half_precision.hpp"
#include "temp_dir.hpp"
#include "test_helpers.hpp"

namespace revwave {
namespace {

std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

TEST(Compression, HalfConversionMatchesTheCompilersRoundToNearestEven) {
#if !defined(__FLT16_MANT_DIG__)
  GTEST_SKIP() << "this compiler has no _Float16 here (clang before 15 on x86, the ASan build's): "
                  "the Release build's gcc runs this test";
#else
  std::mt19937 rng(7);
  std::uniform_int_distribution<std::uint32_t> any;
  std::vector<float> xs = {0.0f,
                           -0.0f,
                           1.0f,
                           65504.0f,
                           65519.99f,
                           65520.0f,
                           1e30f,
                           6.1035156e-05f,
                           5.9604645e-08f,
                           2.9802322e-08f,
                           2.9802326e-08f,
                           8.940697e-08f,
                           1e-10f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           1.0009765625f,
                           1.00048828125f,
                           1.00146484375f};
  for (int i = 0; i < 2000000; ++i) {
    std::uint32_t b = any(rng);
    float x;
    std::memcpy(&x, &b, 4);
    xs.push_back(x);
  }
  for (float x : xs) {
    const _Float16 ref = static_cast<_Float16>(x);  // the compiler's conversion: round to nearest even
    std::uint16_t want;
    std::memcpy(&want, &ref, 2);
    const std::uint16_t got = float_to_half(x);
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(half_to_float(got)));
      continue;
    }
    ASSERT_EQ(got, want) << "x = " << x << " (bits " << std::hex << bits(x) << ")";
    ASSERT_EQ(bits(half_to_float(got)), bits(static_cast<float>(ref))) << "x = " << x;
  }
#endif
}

TEST(Compression, BfloatRoundsToNearestEven) {
  std::mt19937 rng(8);
  std::uniform_int_distribution<std::uint32_t> any(0, 0x7f7fffffu);
  for (int i = 0; i < 1000000; ++i) {
    const std::uint32_t b = any(rng);
    float x;
    std::memcpy(&x, &b, 4);
    const float q = bfloat_to_float(float_to_bfloat(x));
    // The two bfloats around x (truncated and one up), from the bits: independent of the rounding code.
    const float lo = bfloat_to_float(static_cast<std::uint16_t>(b >> 16));
    const float hi = bfloat_to_float(static_cast<std::uint16_t>((b >> 16) + 1));
    // Rounding treats infinity as 2^128 (the next bfloat after the largest, had the exponent room).
    const double hi_value = std::isinf(hi) ? std::ldexp(1.0, 128) : double(hi);
    const double dlo = double(x) - double(lo), dhi = hi_value - double(x);
    const float want = dlo < dhi ? lo : dhi < dlo ? hi : ((b >> 16) & 1u) ? hi : lo;
    ASSERT_EQ(bits(q), bits(want)) << "x = " << x;
    ASSERT_EQ(float_to_bfloat(-x), float_to_bfloat(x) | 0x8000u);
  }
  EXPECT_TRUE(std::isnan(bfloat_to_float(float_to_bfloat(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_TRUE(std::isinf(bfloat_to_float(float_to_bfloat(std::numeric_limits<float>::max()))));  // rounds up to inf
}

TEST(Compression, ParseRefusesBadValuesNamingTheValueAndTheRule) {
  EXPECT_EQ(parse_compression("none").mode, CompressionMode::none);
  EXPECT_EQ(parse_compression("fp16").mode, CompressionMode::fp16);
  EXPECT_EQ(parse_compression("bf16").mode, CompressionMode::bf16);
  EXPECT_EQ(parse_compression("zfp-rate:8").parameter, 8.0);
  EXPECT_EQ(parse_compression("zfp-accuracy:1e-6").parameter, 1e-6);
  EXPECT_EQ(parse_compression("zfp-rate:12.5").text(), "zfp-rate:12.5");
  for (const char* bad :
       {"zfp-rate:abc", "zfp-rate:-4", "zfp-rate:0", "zfp-rate:65", "zfp-rate:", "zfp-rate", "zfp-accuracy:0",
        "zfp-accuracy:-1e-3", "zfp-accuracy:nan", "zfp-accuracy:inf", "gzip", "FP16", "", "fp16:2"}) {
    try {
      parse_compression(bad);
      ADD_FAILURE() << "accepted --compress '" << bad << "'";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("--compress"), std::string::npos) << msg;
      EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
      // The value as given, or (a number) as it reads back.
      const std::string text = bad, value = text.substr(text.find(':') == std::string::npos ? 0 : text.find(':') + 1);
      char* end = nullptr;
      const double v = std::strtod(value.c_str(), &end);
      const bool number = !value.empty() && end != nullptr && *end == '\0';
      EXPECT_TRUE(msg.find(value) != std::string::npos || (number && msg.find(number_text(v)) != std::string::npos))
          << msg;
    }
  }
  // A rate beyond the value's bits is refused by the codec, which knows the type.
  FieldLayout l{4, {8, 8, 32}, {4, 4, 12}, 8 * 32 * 2 + 32 * 2 + 0};
  EXPECT_THROW(FieldCodec(parse_compression("zfp-rate:40"), l), InputError);
  l.value_bytes = 8;
  EXPECT_NO_THROW(FieldCodec(parse_compression("zfp-rate:40"), l));
}

// A smooth field with a wave-like pattern on awkward sizes, in a grid's allocation (halo zeros).
template <class T>
struct TestField {
  Grid grid;
  FieldLayout layout;
  std::vector<T> values;
  explicit TestField(double amplitude) {
    grid.shape = {13, 11, 9};
    grid.nbl = 3;
    grid.spacing = 10;
    grid.space_order = 8;
    layout = field_layout<T>(grid);
    values.assign(static_cast<std::size_t>(grid.alloc_points()), T(0));
    for (index_t i = 0; i < grid.padded(0); ++i)
      for (index_t j = 0; j < grid.padded(1); ++j)
        for (index_t k = 0; k < grid.padded(2); ++k) {
          const double r = std::sqrt(double((i - 8) * (i - 8) + (j - 7) * (j - 7) + (k - 5) * (k - 5)));
          values[static_cast<std::size_t>(grid.index(i, j, k))] =
              static_cast<T>(amplitude * std::cos(1.3 * r) * std::exp(-0.1 * r));
        }
  }
  bool in_box(std::size_t idx) const {
    const auto c = grid.coordinates(static_cast<index_t>(idx));
    for (int a = 0; a < 3; ++a)
      if (c[a] < 0 || c[a] >= grid.padded(a)) return false;
    return grid.index(c[0], c[1], c[2]) == static_cast<index_t>(idx);
  }
};

// Encodes and decodes; the points outside the padded box keep the destination's sentinel.
template <class T>
std::vector<T> round_trip(const TestField<T>& f, const Compression& c, std::size_t* bytes = nullptr) {
  const FieldCodec codec(c, f.layout);
  std::vector<std::byte> buf(codec.max_bytes());
  const std::size_t n = codec.encode(reinterpret_cast<const std::byte*>(f.values.data()), buf.data());
  EXPECT_LE(n, codec.max_bytes());
  if (bytes) *bytes = n;
  std::vector<T> out(f.values.size(), T(7));
  codec.decode(buf.data(), n, reinterpret_cast<std::byte*>(out.data()));
  std::size_t outside = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (!f.in_box(i)) {
      ++outside;
      EXPECT_EQ(out[i], T(7)) << "decode wrote outside the padded box at " << i;
      out[i] = 0;
    }
  }
  EXPECT_GT(outside, 0u);
  return out;
}

REVWAVE_PRECISION_SUITE(Codec, ::testing::Test);

TYPED_TEST(Codec, RoundTripsKeepEachModesStatedBound) {
  using T = TypeParam;
  for (double amplitude : {3e-9, 1.0, 7e6}) {  // wavefields' units vary: fp16 scales, so no amplitude is out of range
    const TestField<T> f(amplitude);
    double peak = 0;
    for (T v : f.values) peak = std::max(peak, std::abs(double(v)));
    const std::size_t points = static_cast<std::size_t>(f.layout.box_points());
    std::size_t bytes = 0;
    std::vector<T> q = round_trip(f, {CompressionMode::fp16, 0}, &bytes);
    EXPECT_EQ(bytes, 8 + 2 * points);
    for (std::size_t i = 0; i < q.size(); ++i) {
      const double x = double(f.values[i]);
      ASSERT_LE(std::abs(double(q[i]) - x), std::ldexp(std::abs(x), -11) * (1 + 1e-6) + std::ldexp(peak, -39))
          << "fp16 at " << i;
      if (x == 0) {
        ASSERT_EQ(q[i], T(0));
      }
    }
    q = round_trip(f, {CompressionMode::bf16, 0}, &bytes);
    EXPECT_EQ(bytes, 2 * points);
    for (std::size_t i = 0; i < q.size(); ++i) {
      const double x = double(f.values[i]);
      ASSERT_LE(std::abs(double(q[i]) - x), std::ldexp(std::abs(x), -8) * (1 + 1e-6)) << "bf16 at " << i;
    }
    const double tol = 1e-4 * peak;
    q = round_trip(f, {CompressionMode::zfp_accuracy, tol}, &bytes);
    EXPECT_LT(bytes, points * sizeof(T));  // a smooth field compresses
    for (std::size_t i = 0; i < q.size(); ++i)
      ASSERT_LE(std::abs(double(q[i]) - double(f.values[i])), tol) << "zfp-accuracy at " << i;
    for (double rate : {4.0, 8.0, 16.0}) {
      const FieldCodec codec({CompressionMode::zfp_rate, rate}, f.layout);
      // Fixed rate: R bits per value of every 4x4x4 block the box is covered by (and no more).
      std::size_t blocks = 1;
      for (int a = 0; a < 3; ++a) blocks *= static_cast<std::size_t>((f.layout.box[a] + 3) / 4);
      EXPECT_GE(codec.max_bytes(), blocks * 64 * static_cast<std::size_t>(rate) / 8);
      EXPECT_LE(codec.max_bytes(), blocks * 64 * static_cast<std::size_t>(rate) / 8 + 32);
      q = round_trip(f, {CompressionMode::zfp_rate, rate}, &bytes);
      EXPECT_GE(bytes + 32, codec.max_bytes());
      double e2 = 0, x2 = 0;
      for (std::size_t i = 0; i < q.size(); ++i) {
        e2 += (double(q[i]) - double(f.values[i])) * (double(q[i]) - double(f.values[i]));
        x2 += double(f.values[i]) * double(f.values[i]);
      }
      // Measured on this field: ~2e-2 at 4 bits, ~1e-3 at 8, ~1e-6 at 16 (each 4 bits ~ 16x).
      const double bound = rate == 4 ? 0.1 : rate == 8 ? 5e-3 : 2e-5;
      EXPECT_LT(std::sqrt(e2 / x2), bound) << "zfp-rate:" << rate << " amplitude " << amplitude;
    }
  }
}

// A C-PML's tail (its auxiliary values after the allocation) is encoded by the same mode after the
// grid's encoding: the grid's values decode to the bits they have without a tail, the tail's keep the
// mode's bound (fp16 scaled by the tail's own peak, which is far below the grid's here), and the
// slot's size is the grid's encoding rounded up to 8 bytes plus the tail's.
TYPED_TEST(Codec, TheCpmlTailIsEncodedAfterTheGrid) {
  using T = TypeParam;
  TestField<T> f(1.0);
  Grid g = f.grid;
  g.nbl = 4;  // a C-PML needs the stencil's radius
  g.cpml = true;
  f.grid = g;
  f.layout = field_layout<T>(g);
  ASSERT_EQ(f.layout.tail, g.cpml_values());
  ASSERT_GT(f.layout.tail, 0);
  ASSERT_EQ(f.layout.field_bytes(), g.field_bytes<T>());
  // The grid's values as in a field without a tail (the same padded box and allocation), then the tail.
  TestField<T> box_only(1.0);
  box_only.grid = g;
  box_only.grid.cpml = false;
  box_only.layout = field_layout<T>(box_only.grid);
  f.values.assign(static_cast<std::size_t>(g.alloc_points() + g.cpml_values()), T(0));
  for (index_t i = 0; i < g.padded(0); ++i)
    for (index_t j = 0; j < g.padded(1); ++j)
      for (index_t k = 0; k < g.padded(2); ++k) {
        const auto at = static_cast<std::size_t>(g.index(i, j, k));
        f.values[at] = static_cast<T>(std::cos(0.7 * double(i + 2 * j + 3 * k)) * std::exp(-0.05 * double(i + j)));
      }
  box_only.values.assign(f.values.begin(), f.values.begin() + g.alloc_points());
  const auto alloc = static_cast<std::size_t>(g.alloc_points());
  double tail_peak = 0;
  for (std::size_t t = 0; t < static_cast<std::size_t>(g.cpml_values()); ++t) {
    f.values[alloc + t] = static_cast<T>(3e-7 * std::sin(0.01 * double(t)) * (1 + 0.5 * std::cos(0.37 * double(t))));
    tail_peak = std::max(tail_peak, std::abs(double(f.values[alloc + t])));
  }
  const std::size_t points = static_cast<std::size_t>(f.layout.box_points()),
                    tail = static_cast<std::size_t>(f.layout.tail);
  struct Mode {
    Compression c;
    std::function<double(double)> bound;  // of one tail value's error, given the value
  };
  const std::vector<Mode> modes = {
      {{CompressionMode::fp16, 0},
       [&](double x) { return std::ldexp(std::abs(x), -11) * (1 + 1e-6) + std::ldexp(tail_peak, -39); }},
      {{CompressionMode::bf16, 0}, [](double x) { return std::ldexp(std::abs(x), -8) * (1 + 1e-6); }},
      {{CompressionMode::zfp_accuracy, 1e-1 * tail_peak},
       [&](double) { return 1e-1 * tail_peak * f.layout.tail_accuracy_scale; }},
      {{CompressionMode::zfp_rate, 16}, [&](double) { return 2e-3 * tail_peak; }},
  };
  for (const Mode& m : modes) {
    const std::string what = m.c.text();
    const FieldCodec with_tail(m.c, f.layout), without(m.c, box_only.layout);
    const std::size_t grid_max = without.max_bytes();
    EXPECT_EQ(with_tail.tail_offset(), (grid_max + 7) / 8 * 8) << what;
    if (m.c.mode != CompressionMode::zfp_accuracy) {  // its worst case depends on the tail's tolerance
      EXPECT_EQ(with_tail.max_bytes(), with_tail.tail_offset() + FieldCodec(m.c, f.layout.tail_layout()).max_bytes())
          << what;
    }
    if (m.c.mode == CompressionMode::fp16) {
      EXPECT_EQ(with_tail.max_bytes(), (8 + 2 * points + 7) / 8 * 8 + 8 + 2 * tail);
    }
    std::vector<std::byte> buf(with_tail.max_bytes()), plain_buf(without.max_bytes());
    const std::size_t n = with_tail.encode(reinterpret_cast<const std::byte*>(f.values.data()), buf.data());
    const std::size_t n_plain =
        without.encode(reinterpret_cast<const std::byte*>(box_only.values.data()), plain_buf.data());
    EXPECT_LE(n, with_tail.max_bytes()) << what;
    std::vector<T> out(f.values.size(), T(0)), out_plain(box_only.values.size(), T(0));
    with_tail.decode(buf.data(), n, reinterpret_cast<std::byte*>(out.data()));
    without.decode(plain_buf.data(), n_plain, reinterpret_cast<std::byte*>(out_plain.data()));
    EXPECT_EQ(std::memcmp(out.data(), out_plain.data(), alloc * sizeof(T)), 0) << what << ": the grid's values moved";
    double worst = 0;  // the tail's error over its bound
    for (std::size_t t = 0; t < tail; ++t) {
      const double x = double(f.values[alloc + t]), e = std::abs(double(out[alloc + t]) - x);
      worst = std::max(worst, e / m.bound(x));
    }
    EXPECT_LE(worst, 1.0) << what << ": the tail's error over its bound";
  }
}

TEST(Compression, NonFiniteValuesPassThroughFp16) {
  TestField<float> f(1.0);
  f.values[static_cast<std::size_t>(f.grid.index(2, 2, 2))] = std::numeric_limits<float>::infinity();
  f.values[static_cast<std::size_t>(f.grid.index(3, 2, 2))] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> q = round_trip(f, {CompressionMode::fp16, 0});
  EXPECT_TRUE(std::isinf(q[static_cast<std::size_t>(f.grid.index(2, 2, 2))]));
  EXPECT_TRUE(std::isnan(q[static_cast<std::size_t>(f.grid.index(3, 2, 2))]));
}

TEST(Compression, BudgetBuysSlotsAtTheEncodedSize) {
  testing::SmallCase c = testing::small_case(13, 11, 9, 200, 4);
  const FieldLayout layout = field_layout<float>(c.grid);
  StrategyOptions s = testing::strategy("revolve");
  s.checkpoint_memory = 20 * 2 * layout.field_bytes();  // 20 raw slots
  EXPECT_EQ(plan_strategy(s, 200, layout).snaps, 20);
  const double raw = double(2 * layout.field_bytes());
  for (const char* mode : {"fp16", "bf16", "zfp-rate:8", "zfp-rate:4", "zfp-accuracy:1e-9"}) {
    s.compression = parse_compression(mode);
    const StrategyPlan plan = plan_strategy(s, 200, layout);
    const FieldCodec codec(s.compression, layout);
    EXPECT_EQ(plan.slot_bytes, CompressedStore::slot_bytes_of(codec)) << mode;
    EXPECT_EQ(plan.snaps, std::min<index_t>(200, static_cast<index_t>(*s.checkpoint_memory / plan.slot_bytes))) << mode;
    EXPECT_NE(plan.choice.find(s.compression.text()), std::string::npos) << plan.choice;
    // The padded box is a fraction of the allocation (halo, row gaps): slots shrink beyond the codec's ratio.
    if (std::string(mode) == "fp16" || std::string(mode) == "bf16") {
      EXPECT_LT(double(plan.slot_bytes), 0.5 * raw + 512) << mode;
    }
    if (std::string(mode) == "zfp-rate:4") {
      EXPECT_LT(double(plan.slot_bytes), 0.15 * raw) << mode;
    }
  }
  // The worst case zfp-accuracy reserves is at least the raw padded box (it buys slots only where
  // the allocation's halo and row gaps, which no codec stores, are a large part of a field).
  s.compression = parse_compression("zfp-accuracy:1e-9");
  EXPECT_GE(plan_strategy(s, 200, layout).slot_bytes, 2 * std::size_t(layout.box_points()) * sizeof(float));
  // Refused where it cannot apply.
  StrategyOptions full = testing::strategy("full");
  full.compression = parse_compression("fp16");
  EXPECT_THROW(plan_strategy(full, 200, layout), InputError);
  StrategyOptions disk = testing::strategy("revolve", 3, "disk", "/tmp");
  disk.compression = parse_compression("fp16");
  EXPECT_THROW(plan_strategy(disk, 200, layout), InputError);
  StrategyOptions cuda = testing::strategy("revolve", 3);
  cuda.backend = Backend::cuda;
  cuda.compression = parse_compression("zfp-rate:8");
  // No ZFP on the device: the device slots stay raw (the pinned ones are encoded on the host), and
  // a budget buys them at the raw size. (It was refused before the pinned tier could encode.)
  const StrategyPlan zfp_cuda = plan_strategy(cuda, 200, layout);
  EXPECT_TRUE(zfp_cuda.compress_host_tier_only);
  EXPECT_EQ(zfp_cuda.slot_bytes, 2 * layout.field_bytes());
  EXPECT_NE(zfp_cuda.choice.find("raw in device memory"), std::string::npos) << zfp_cuda.choice;
  cuda.compression = parse_compression("bf16");
  EXPECT_EQ(plan_strategy(cuda, 200, layout).slot_bytes,
            2 * ((2 * std::size_t(layout.box_points()) + 127) / 128 * 128));
}

double relative_l2(const std::vector<double>& a, const std::vector<double>& ref) {
  double e2 = 0, r2 = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    e2 += (a[i] - ref[i]) * (a[i] - ref[i]);
    r2 += ref[i] * ref[i];
  }
  return std::sqrt(e2 / r2);
}

struct ModeBound {
  const char* mode;
  double bound;  // relative L2 error of the gradient: the measured one x 2 to 3 (README, "Compressed checkpoints")
};

// Runs revolve with `snaps` slots in each mode against full; returns nothing, asserts the bounds.
template <class T>
void check_gradient_errors(const testing::SmallCase& c, index_t snaps, const std::vector<ModeBound>& modes) {
  testing::CpuGradientCase<T> b(c);
  const GradientOutput& ref = b.ref;
  const GradientOutput exact = b.run(testing::strategy("revolve", snaps));
  ASSERT_EQ(0, std::memcmp(exact.gradient.data(), ref.gradient.data(), ref.gradient.size() * sizeof(double)));
  EXPECT_EQ(exact.stats.compression.fields_compressed, 0u);
  for (const ModeBound& m : modes) {
    StrategyOptions s = testing::strategy("revolve", snaps);
    s.compression = parse_compression(m.mode);
    const GradientOutput g = b.run(s);
    const double err = relative_l2(g.gradient, ref.gradient);
    std::printf("  %-20s %-6s relative L2 gradient error %.3e (bound %.1e), objective error %.2e, ratio %.2f\n", m.mode,
                sizeof(T) == 4 ? "float" : "double", err, m.bound,
                std::abs(g.stats.objective / ref.stats.objective - 1), g.stats.compression.ratio());
    EXPECT_LT(err, m.bound) << m.mode;
    EXPECT_GT(err, 0.0) << m.mode << ": a lossy mode that changes nothing is not compressing";
    EXPECT_EQ(g.stats.forward_steps, exact.stats.forward_steps) << m.mode;
    EXPECT_EQ(g.stats.compression.fields_compressed, 2u * static_cast<std::uint64_t>(g.stats.stores)) << m.mode;
    // Every restore but those of the initial state (recomputed from zero, not stored) decodes two.
    EXPECT_GT(g.stats.compression.fields_decompressed, 0u) << m.mode;
    EXPECT_EQ(g.stats.compression.fields_decompressed % 2, 0u) << m.mode;
    EXPECT_LE(g.stats.compression.fields_decompressed, 2u * static_cast<std::uint64_t>(g.stats.restores)) << m.mode;
    EXPECT_GT(g.stats.compression.ratio(), 1.0) << m.mode;
  }
}

TEST(CompressedGradient, ErrorPerModeOnTheSmallDefaultLikeProblem) {
  const testing::SmallCase c = testing::small_case(19, 17, 15, 60, 8);
  // Measured: fp16 2.3e-3, bf16 2.8e-2, zfp-rate:16 2.1e-4, zfp-rate:8 5.2e-2, zfp-accuracy:1e-7 1.0e-4.
  check_gradient_errors<float>(
      c, 4,
      {{"fp16", 4e-2}, {"bf16", 0.5}, {"zfp-rate:16", 1.5e-3}, {"zfp-rate:8", 0.15}, {"zfp-accuracy:1e-7", 5e-4}});
}

TEST(CompressedGradient, ErrorPerModeOnASecondProblemInDouble) {
  testing::SmallCase c = testing::small_case(15, 13, 17, 90, 4);
  c.acq.sources = {{0.7 * c.grid.extent(0), 0.3 * c.grid.extent(1), 30.0}};
  // Measured: fp16 2.1e-3, bf16 2.1e-2, zfp-rate:16 9.5e-5, zfp-rate:32 1.7e-9, zfp-accuracy:1e-8 3.3e-6.
  check_gradient_errors<double>(
      c, 6, {{"fp16", 5e-2}, {"bf16", 0.3}, {"zfp-rate:16", 1e-3}, {"zfp-rate:32", 5e-8}, {"zfp-accuracy:1e-8", 4e-5}});
}

// Under a C-PML each slot encodes the layer's auxiliary values after the grid (FieldCodec's tail):
// the same errors as the sponge's problem above, in every mode.
TEST(CompressedGradient, ErrorPerModeUnderTheCpml) {
  testing::SmallCase c = testing::small_case(15, 13, 17, 90, 4);
  c.acq.sources = {{0.7 * c.grid.extent(0), 0.3 * c.grid.extent(1), 30.0}};
  c.grid.cpml = true;
  // Measured: fp16 1.9e-3, bf16 1.7e-2, zfp-rate:16 1.0e-4, zfp-rate:32 1.5e-9, zfp-accuracy:1e-8 3.7e-6
  // (9.2e-5 when the tail was held to E rather than E / h^2: FieldLayout::tail_accuracy_scale).
  check_gradient_errors<double>(
      c, 6, {{"fp16", 5e-2}, {"bf16", 0.3}, {"zfp-rate:16", 1e-3}, {"zfp-rate:32", 5e-8}, {"zfp-accuracy:1e-8", 4e-5}});
}

// Multilevel: the memory tier holds encoded slots, the disk tier raw ones; the codec's time is the
// memory tier's store and restore cost, measured at start-up like any tier's.
TEST(CompressedGradient, MultilevelMeasuresTheCodecAsTheMemoryTiersCost) {
  const testing::TempDir dir("revwave-cml-test");
  testing::CpuGradientCase<float> b(testing::small_case(13, 11, 9, 50, 4));
  const GradientOutput& ref = b.ref;
  StrategyOptions s = testing::strategy("multilevel", 0, "memory", dir.path().string());
  s.tiers = {"memory:3", "disk:2"};
  s.compression = parse_compression("fp16");
  const StrategyPlan plan = b.plan(s);
  EXPECT_EQ(plan.storage_bytes, 3 * plan.slot_bytes + 2 * plan.raw_slot_bytes);
  StrategyReport report;
  const GradientOutput g = run_gradient(b.prop, b.d.data(), s, plan, {}, &report);
  ASSERT_EQ(report.tiers.size(), 2u);
  // The costs the schedule was built with are the compressed tier's own (measured on a probe store,
  // whose encodes are not the run's).
  EXPECT_GT(report.tiers[0].store_cost, 0.0);
  EXPECT_GT(report.tiers[0].restore_cost, 0.0);
  // The run's stores to the memory tier encode (two fields each); those to the disk tier write raw
  // fields. Which tier the schedule uses depends on the measured costs (on a machine whose page
  // cache makes the disk tier cheaper than fp16 encoding, the memory tier may go unused), so the
  // count is checked against the schedule those costs give.
  MultilevelSchedule again(plan.steps, report.tiers);
  const MultilevelCounts counts = count_multilevel(again, report.tiers);
  EXPECT_EQ(g.stats.compression.fields_compressed, 2u * static_cast<std::uint64_t>(counts.tiers[0].stores));
  EXPECT_LT(relative_l2(g.gradient, ref.gradient), 4e-2);
  // With given costs that make the memory tier the cheap one, its stores encode and the disk's don't.
  s.tiers = {"memory:3:0.1:0.1", "disk:2:1:1"};
  const StrategyPlan given = b.plan(s);
  StrategyReport given_report;
  const GradientOutput h = run_gradient(b.prop, b.d.data(), s, given, {}, &given_report);
  MultilevelSchedule given_schedule(given.steps, given_report.tiers);
  const MultilevelCounts given_counts = count_multilevel(given_schedule, given_report.tiers);
  ASSERT_GT(given_counts.tiers[0].stores, 0);
  ASSERT_GT(given_counts.tiers[1].stores, 0);
  EXPECT_EQ(h.stats.compression.fields_compressed, 2u * static_cast<std::uint64_t>(given_counts.tiers[0].stores));
  EXPECT_LT(h.stats.compression.fields_compressed, 2u * static_cast<std::uint64_t>(h.stats.stores));
  EXPECT_GT(h.stats.checkpoint_copy_bytes, h.stats.compression.compressed_bytes);
  EXPECT_LT(relative_l2(h.gradient, ref.gradient), 4e-2);
}

// The Taylor test with a compressed run: its g carries an error e (the reverse steps recompute u
// from decoded checkpoints), its J none (dJ = 0: the misfit takes the traces of the first forward
// sweep, before anything is decoded). With r(h) the exact remainder J(m + h dm) - J(m) - h <g, dm>,
// the compressed one is |r(h) - dJ - h <e, dm>|: it falls as h^2 while r dominates and then as h,
// along the floor |dJ + h <e, dm>| that compression sets; |J(m + h dm) - J_c(m)| falls as h.
TEST(CompressedGradient, TaylorTestConvergesDownToTheFloorCompressionSets) {
  const testing::SmallCase c = testing::small_case(13, 11, 9, 60, 4);
  const std::vector<double> d = testing::observed_in<double>(c, c.true_model);
  std::vector<double> dm(static_cast<std::size_t>(c.grid.interior_points()));
  double m_max = 0;
  for (std::size_t i = 0; i < dm.size(); ++i) {
    const double m0 = 1 / (c.start_model.velocity[i] * c.start_model.velocity[i]);
    dm[i] = 1 / (c.true_model.velocity[i] * c.true_model.velocity[i]) - m0;
    m_max = std::max(m_max, m0);
  }
  double dm_max = 0;
  for (double v : dm) dm_max = std::max(dm_max, std::abs(v));
  for (double& v : dm) v *= 0.05 * m_max / dm_max;
  const StrategyOptions exact = testing::strategy("revolve", 4);
  StrategyOptions comp = exact;
  comp.compression = parse_compression("fp16");
  const int halvings = 14;  // down to where h |<e, dm>| is well above the exact remainder, O(h^2)
  const TaylorResult te = taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, d, exact, halvings);
  const TaylorResult tc = taylor_test<double>(c.grid, c.start_model, dm, c.acq, c.time, d, comp, halvings);
  EXPECT_GE(te.rate_second, 1.9);
  const double dj = tc.objective - te.objective, de = tc.directional - te.directional;
  EXPECT_EQ(dj, 0.0) << "the misfit of a compressed run is the exact one";
  ASSERT_NE(de, 0.0);
  const double slack = 1e-13 * std::abs(te.objective);  // the J evaluations' own rounding
  for (std::size_t k = 0; k < tc.h.size(); ++k) {
    const double floor = std::abs(dj + tc.h[k] * de);
    EXPECT_LE(tc.second[k], floor + te.second[k] + slack) << "h = " << tc.h[k];
    EXPECT_GE(tc.second[k], std::abs(floor - te.second[k]) - slack) << "h = " << tc.h[k];
  }
  const std::size_t n = tc.h.size();
  const double second_large = std::log2(tc.second[0] / tc.second[1]);
  const double first_large = std::log2(tc.first[1] / tc.first[2]);
  std::printf(
      "  fp16 Taylor: |dJ|/J = %.2e, |<e,dm>|/|<g,dm>| = %.2e; remainder rate at large h %.2f, "
      "remainder at the smallest h %.2e (floor %.2e); first-order rate %.2f\n",
      std::abs(dj / te.objective), std::abs(de / te.directional), second_large, tc.second[n - 1],
      std::abs(dj + tc.h[n - 1] * de), first_large);
  EXPECT_GT(second_large, 1.8);  // second order while the exact remainder dominates
  EXPECT_NEAR(first_large, 1.0, 0.15);
  for (std::size_t k = 0; k < n; ++k) EXPECT_LE(std::abs(tc.first[k] - te.first[k]), std::abs(dj) + slack) << k;
  // At the smallest h the compressed remainder is the floor, no longer the exact remainder.
  EXPECT_GT(tc.second[n - 1], 4 * te.second[n - 1]);
}

}  // namespace
}  // namespace revwave
