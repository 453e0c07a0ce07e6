#include "revwave/numerics/density/density_gradient.hpp"

#include "revwave/numerics/density/density_model.hpp"

namespace revwave {

template <class T>
std::vector<double> density_gradient(const Grid& grid, const std::vector<T>& weights, const T* s, const T* t,
                                     const T* g, const T* q) {
  const index_t points = grid.alloc_points();
  const index_t strides[3] = {1, grid.stride_y(), grid.stride_x()};
  const int r = static_cast<int>(grid.radius());
  std::vector<double> out(static_cast<std::size_t>(points));
  const index_t row = grid.alloc(2);
  const bool surface = grid.free_surface;
  // Q is zero off the padded grid (the sweeps write padded points only), so the neighbours that
  // C reaches outside the allocation contribute nothing and are skipped. With a free surface the
  // rows below it read the z pairs above it from their mirror image, not from the row gap: C
  // reaches across z = 0 into the mirror (t and Q even; depth 0 is its own mirror, counted once),
  // and the next row's top points no longer read this row's gap (though where the padded depth is
  // under R, this row's own top points read it as their mirror: that reach stays).
#pragma omp parallel for schedule(static)
  for (index_t j = 0; j < points; ++j) {
    const index_t k = j % row;  // the depth within j's row (the gap past the padded points)
    double z = 0;
    for (int d = 1; d <= r; ++d)
      for (index_t stride : strides) {
        if (stride == 0) continue;  // a plane's y: the point itself, no neighbour of C
        for (index_t i : {j + d * stride, j - d * stride}) {
          if (surface && stride == 1) {
            if (i > j && k + d >= row) continue;  // the next row's top: it reads its mirror
            if (i < j && k - d < 0) {
              if (k == 0) continue;  // depth 0 is its own mirror: its readers below are counted once
              i = j - 2 * k + d;     // the reader at depth d - k reads depth k as its mirror image
            }
          }
          if (i >= 0 && i < points) z += double(weights[static_cast<std::size_t>(d)]) * double(t[i]) * double(q[i]);
        }
      }
    const double sj = double(s[j]);
    out[static_cast<std::size_t>(j)] = 0.5 * sj * sj * (double(g[j]) + sj * z);
  }
  return fold_allocated_to_interior(grid, out.data());
}

template std::vector<double> density_gradient<float>(const Grid&, const std::vector<float>&, const float*, const float*,
                                                     const float*, const float*);
template std::vector<double> density_gradient<double>(const Grid&, const std::vector<double>&, const double*,
                                                      const double*, const double*, const double*);

}  // namespace revwave
