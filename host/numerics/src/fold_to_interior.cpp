#include "revwave/numerics/fold_to_interior.hpp"

namespace revwave {

template <class T>
std::vector<double> fold_to_interior(const Grid& g, const T* padded) {
  const index_t nx = g.shape[0], ny = g.shape[1], nz = g.shape[2], nbl = g.nbl;
  std::vector<double> out(static_cast<std::size_t>(nx * ny * nz));
  // Padded indices that copy interior index ix: the whole layer at the edges.
  auto lo = [nbl](index_t ix) { return ix == 0 ? index_t(0) : ix + nbl; };
  auto hi = [nbl](index_t ix, index_t n) { return ix == n - 1 ? n + 2 * nbl - 1 : ix + nbl; };
#pragma omp parallel for schedule(static)
  for (index_t ix = 0; ix < nx; ++ix)
    for (index_t iy = 0; iy < ny; ++iy)
      for (index_t iz = 0; iz < nz; ++iz) {
        double s = 0;
        for (index_t i = lo(ix); i <= hi(ix, nx); ++i)
          for (index_t j = lo(iy); j <= hi(iy, ny); ++j)
            for (index_t k = lo(iz); k <= hi(iz, nz); ++k) s += static_cast<double>(padded[g.index(i, j, k)]);
        out[static_cast<std::size_t>((ix * ny + iy) * nz + iz)] = s;
      }
  return out;
}

template std::vector<double> fold_to_interior<float>(const Grid&, const float*);
template std::vector<double> fold_to_interior<double>(const Grid&, const double*);

}  // namespace revwave
