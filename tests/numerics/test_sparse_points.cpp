// Trilinear injection and sampling: adjoint to round-off, exact on linear fields, bounds checked.
#include <gtest/gtest.h>

#include <random>

#include "revwave/core/errors.hpp"
#include "revwave/numerics/sparse_points.hpp"

namespace revwave {
namespace {

Grid test_grid() {
  Grid g;
  g.shape = {13, 11, 9};
  g.nbl = 3;
  g.spacing = 7.5;
  g.space_order = 4;
  return g;
}

TEST(SparsePoints, InjectionIsTheAdjointOfSampling) {
  const Grid g = test_grid();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> ux(0, g.extent(0)), uy(0, g.extent(1)), uz(0, g.extent(2)), val(-1, 1);
  std::vector<Vec3> coords;
  for (int i = 0; i < 25; ++i) coords.push_back({ux(rng), uy(rng), uz(rng)});
  coords.push_back({0, 0, 0});
  coords.push_back({g.extent(0), g.extent(1), g.extent(2)});
  const SparsePoints pts = trilinear_points(g, coords, "receiver");
  std::vector<double> u(static_cast<std::size_t>(g.alloc_points()));
  for (auto& x : u) x = val(rng);
  std::vector<double> d(coords.size());
  for (auto& x : d) x = val(rng);
  std::vector<double> su(coords.size());
  sample_points(pts, u.data(), su.data());
  std::vector<double> std_(u.size(), 0.0);
  const std::vector<double> ones(pts.index.size(), 1.0);
  inject_points(pts, d.data(), ones.data(), std_.data());
  double lhs = 0, rhs = 0;
  for (std::size_t i = 0; i < d.size(); ++i) lhs += d[i] * su[i];
  for (std::size_t i = 0; i < u.size(); ++i) rhs += std_[i] * u[i];
  EXPECT_NEAR(lhs, rhs, 1e-13 * std::abs(lhs));
}

TEST(SparsePoints, SamplingIsExactForALinearField) {
  const Grid g = test_grid();
  std::vector<double> u(static_cast<std::size_t>(g.alloc_points()), 0.0);
  auto f = [](double x, double y, double z) { return 1.5 + 0.3 * x - 0.2 * y + 0.7 * z; };
  for (index_t i = 0; i < g.padded(0); ++i)
    for (index_t j = 0; j < g.padded(1); ++j)
      for (index_t k = 0; k < g.padded(2); ++k)
        u[g.index(i, j, k)] = f((i - g.nbl) * g.spacing, (j - g.nbl) * g.spacing, (k - g.nbl) * g.spacing);
  const std::vector<Vec3> coords = {{12.3, 45.6, 7.8}, {0, 0, 0}, {g.extent(0), 3.3, g.extent(2)}};
  const SparsePoints pts = trilinear_points(g, coords, "receiver");
  std::vector<double> s(coords.size());
  sample_points(pts, u.data(), s.data());
  for (std::size_t p = 0; p < coords.size(); ++p) {
    EXPECT_NEAR(s[p], f(coords[p][0], coords[p][1], coords[p][2]), 1e-12) << p;
    double wsum = 0;
    for (int c = 0; c < 8; ++c) wsum += pts.weight[8 * p + c];
    EXPECT_NEAR(wsum, 1.0, 1e-15);
  }
}

TEST(SparsePoints, PointsOutsideTheInteriorBoxAreRefusedByName) {
  const Grid g = test_grid();
  const std::vector<std::vector<Vec3>> bad = {
      {{-0.01, 1, 1}}, {{1, g.extent(1) + 1e-9, 1}}, {{1, 1, 1e9}}, {{std::nan(""), 1, 1}}};
  for (const auto& c : bad) {
    try {
      trilinear_points(g, c, "source");
      FAIL() << "accepted a point outside the grid";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("source 0"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("outside the grid"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace revwave
