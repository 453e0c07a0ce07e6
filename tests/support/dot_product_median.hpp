// The dot-product test as the physics' adjoint tests run it: the median relative error of three
// draws. With random w and d both products are sums of terms of both signs, and a draw whose sum
// nearly cancels inflates the relative error (test_adjoint_gradient.cpp gives the figures), so a
// bound holds for the median; a transpose that is not the operator's fails every draw by orders of
// magnitude.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "revwave/driver/verification.hpp"
#include "test_helpers.hpp"

namespace revwave::testing {

// The bound on that median: 1e-12 in double, 1e-5 in float.
template <class T>
constexpr double dot_product_tolerance() {
  return std::is_same_v<T, double> ? 1e-12 : 1e-5;
}

// The median over the seeds' draws on c's true model; each draw's forward product must be nonzero.
template <class T>
double median_dot_product_error(const SmallCase& c, const std::vector<unsigned>& seeds = {99u, 100u, 101u}) {
  std::vector<double> errors;
  for (unsigned seed : seeds) {
    const DotProductResult r = dot_product_test<T>(c.grid, c.true_model, c.acq, c.time, seed);
    EXPECT_GT(std::abs(r.forward_product), 0.0) << "seed " << seed;
    errors.push_back(r.relative_error);
  }
  std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
  return errors[errors.size() / 2];
}

}  // namespace revwave::testing
