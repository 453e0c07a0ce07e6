// The grid's memory layout: every row's first padded point on a 128-byte boundary (rows a
// multiple of 32 elements), at least R zeros between rows, and index/coordinates inverse.
#include <gtest/gtest.h>

#include <cstdint>

#include "precisions.hpp"
#include "revwave/core/field_pool.hpp"
#include "revwave/numerics/grid.hpp"
#include "small_grid.hpp"

namespace revwave {
namespace {

REVWAVE_PRECISION_SUITE(GridLayout, ::testing::Test);

TYPED_TEST(GridLayout, RowsStartOnA128ByteBoundaryWithAZeroGapOfTheRadius) {
  using T = TypeParam;
  for (int order : {2, 8, 16}) {
    for (index_t nz : {1, 23, 60, 61, 64, 100}) {
      const Grid g = testing::small_grid({5, 4, nz}, 3, order);
      const index_t r = g.radius();
      SCOPED_TRACE("order " + std::to_string(order) + ", nz " + std::to_string(nz));
      EXPECT_EQ(g.stride_y() % 32, 0);
      EXPECT_GE(g.stride_y() - g.padded(2), r);       // the z halo between rows
      EXPECT_LT(g.stride_y() - g.padded(2), r + 32);  // and no more padding than alignment needs
      HostBuffer field(g.template field_bytes<T>());
      const T* base = field.as<T>();
      for (index_t i = -r; i < g.padded(0) + r; ++i)
        for (index_t j = -r; j < g.padded(1) + r; ++j)
          ASSERT_EQ(reinterpret_cast<std::uintptr_t>(base + g.index(i, j, 0)) % 128, 0u) << i << "," << j;
      // The last halo plane ends inside the allocation.
      EXPECT_LE(g.index(g.padded(0) + r - 1, g.padded(1) + r - 1, g.padded(2) + r - 1), g.alloc_points() - 1);
      for (index_t i : {index_t(0), g.padded(0) - 1})
        for (index_t j : {index_t(0), g.padded(1) - 1})
          for (index_t k : {index_t(0), g.padded(2) - 1}) {
            const auto c = g.coordinates(g.index(i, j, k));
            EXPECT_EQ(c[0], i);
            EXPECT_EQ(c[1], j);
            EXPECT_EQ(c[2], k);
          }
    }
  }
}

}  // namespace
}  // namespace revwave
