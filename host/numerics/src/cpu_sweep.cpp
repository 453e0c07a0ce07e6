#include "revwave/numerics/cpu_sweep.hpp"

#include <pmmintrin.h>
#include <xmmintrin.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace revwave {
namespace {

// Rows of y per block, so that the 2R+1 x-planes of a block (about 1 MiB) stay
// in L2 while i advances and each plane of u comes from memory once.
index_t block_rows(index_t ny, index_t nz, int radius, std::size_t value_bytes) {
  const std::size_t budget = std::size_t(1) << 20;
  const std::size_t per_row = static_cast<std::size_t>(2 * radius + 1) * static_cast<std::size_t>(nz) * value_bytes;
  const index_t rows = static_cast<index_t>(budget / per_row) - 2 * radius;
  return std::clamp<index_t>(rows, 8, ny);
}

// Subnormal numbers appear on a thin shell ahead of every wavefront, where the stencil's
// numerical precursor decays through 1e-38 (float); on x86 each operation on one costs
// about a hundred cycles, which made the whole sweep four times slower. They carry no
// signal, so the sweeps flush them to zero (FTZ/DAZ, per thread, deterministic). This
// is not fast-math: every other operation keeps IEEE semantics and its order. The mode is
// the sweep's alone: each thread gets its own back when the sweep ends, so nothing after it
// (a JSON number, a misfit sum, another library) runs with subnormals flushed.
class FlushSubnormals {
 public:
  FlushSubnormals() : saved_(_mm_getcsr()) {
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
  }
  ~FlushSubnormals() { _mm_setcsr(saved_); }
  FlushSubnormals(const FlushSubnormals&) = delete;
  FlushSubnormals& operator=(const FlushSubnormals&) = delete;

 private:
  unsigned saved_;
};

template <class T, int R, bool Imaging>
void sweep(const Problem<T>& p, const SweepFields<T>& f) {
  const Grid& g = p.grid;
  const index_t nx = g.padded(0), ny = g.padded(1), nz = g.padded(2);
  const index_t sx = g.stride_x(), sy = g.stride_y();
  const StepCoefficients<T> c = p.coeffs;
  T w[R + 1];
  for (int q = 0; q <= R; ++q) w[q] = p.weights[q];
  const T* kx = p.kappa[0].data();
  const T* ky = p.kappa[1].data();
  const T* kz = p.kappa[2].data();
  const T* m = p.m.template as<T>();
  const index_t block_y = block_rows(ny, nz, R, sizeof(T));
  const index_t nby = (ny + block_y - 1) / block_y;
#pragma omp parallel
  {
    const FlushSubnormals flush;
#pragma omp for collapse(2) schedule(static)
    for (index_t jb = 0; jb < nby; ++jb) {
      for (index_t i = 0; i < nx; ++i) {
        const index_t j_end = std::min(ny, (jb + 1) * block_y);
        for (index_t j = jb * block_y; j < j_end; ++j) {
          const index_t base = g.index(i, j, 0);
          const T* uc = f.u + base;
          const T* up = f.u_prev + base;
          const T* mm = m + base;
          T* o = f.out + base;
          const T kxi = kx[i], kyj = ky[j];
          if constexpr (Imaging) {
            const T* fn = f.fwd_next + base;
            const T* fc = f.fwd + base;
            const T* fp = f.fwd_prev + base;
            T* gr = f.grad + base;
#pragma omp simd
            for (index_t k = 0; k < nz; ++k) {
              const T v = leapfrog_update(c, uc[k], up[k], laplacian<T, R>(w, uc + k, sy, sx), mm[k],
                                          damping_eta(c, kxi, kyj, kz[k]));
              gr[k] += imaging_term(c, v, fn[k], fc[k], fp[k]);
              o[k] = v;
            }
          } else {
#pragma omp simd
            for (index_t k = 0; k < nz; ++k)
              o[k] = leapfrog_update(c, uc[k], up[k], laplacian<T, R>(w, uc + k, sy, sx), mm[k],
                                     damping_eta(c, kxi, kyj, kz[k]));
          }
        }
      }
    }
  }
}

template <class T, bool Imaging>
void dispatch(const Problem<T>& p, const SweepFields<T>& f) {
  switch (p.grid.radius()) {
    case 1: return sweep<T, 1, Imaging>(p, f);
    case 2: return sweep<T, 2, Imaging>(p, f);
    case 3: return sweep<T, 3, Imaging>(p, f);
    case 4: return sweep<T, 4, Imaging>(p, f);
    case 5: return sweep<T, 5, Imaging>(p, f);
    case 6: return sweep<T, 6, Imaging>(p, f);
    case 7: return sweep<T, 7, Imaging>(p, f);
    case 8: return sweep<T, 8, Imaging>(p, f);
    default: throw std::logic_error("stencil radius out of range");
  }
}

}  // namespace

template <class T>
void cpu_leapfrog_sweep(const Problem<T>& problem, const SweepFields<T>& fields) {
  if (fields.grad != nullptr) dispatch<T, true>(problem, fields);
  else dispatch<T, false>(problem, fields);
}

template void cpu_leapfrog_sweep<float>(const Problem<float>&, const SweepFields<float>&);
template void cpu_leapfrog_sweep<double>(const Problem<double>&, const SweepFields<double>&);

}  // namespace revwave
