// Suites typed over the precision: one test body compiled for float and for double.
#pragma once
#include <gtest/gtest.h>

namespace revwave::testing {

using Precisions = ::testing::Types<float, double>;

}  // namespace revwave::testing

// Declares the fixture template `Suite` (a `Base`, ::testing::Test or a suite's own) and its typed
// suite over Precisions: tests Suite/0.Name run in float, Suite/1.Name in double.
#define REVWAVE_PRECISION_SUITE(Suite, Base) \
  template <class T>                         \
  class Suite : public Base {};              \
  TYPED_TEST_SUITE(Suite, ::revwave::testing::Precisions)
