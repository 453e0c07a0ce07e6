#include "revwave/numerics/fold_to_interior.hpp"

namespace revwave {

template <class T>
std::vector<double> fold_to_interior(const Grid& g, const T* padded) {
  const index_t nx = g.shape[0], ny = g.shape[1], nz = g.shape[2];
  std::vector<double> out(static_cast<std::size_t>(nx * ny * nz));
  // Padded indices that copy interior index ix: the whole layer at the edges.
  // (A face without a layer, the free surface's, extends to its edge point alone.)
  auto lo = [&g](int a, index_t i) { return i == 0 ? index_t(0) : i + g.layer_lo(a); };
  auto hi = [&g](int a, index_t i) { return i == g.shape[a] - 1 ? g.padded(a) - 1 : i + g.layer_lo(a); };
#pragma omp parallel for schedule(static)
  for (index_t ix = 0; ix < nx; ++ix)
    for (index_t iy = 0; iy < ny; ++iy)
      for (index_t iz = 0; iz < nz; ++iz) {
        double s = 0;
        for (index_t i = lo(0, ix); i <= hi(0, ix); ++i)
          for (index_t j = lo(1, iy); j <= hi(1, iy); ++j)
            for (index_t k = lo(2, iz); k <= hi(2, iz); ++k) s += static_cast<double>(padded[g.index(i, j, k)]);
        out[static_cast<std::size_t>((ix * ny + iy) * nz + iz)] = s;
      }
  return out;
}

template std::vector<double> fold_to_interior<float>(const Grid&, const float*);
template std::vector<double> fold_to_interior<double>(const Grid&, const double*);

}  // namespace revwave
