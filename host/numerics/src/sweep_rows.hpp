// What every CPU sweep of every physics shares (private to host/numerics): the loop over the
// padded grid's z rows, blocked in y and spread over the threads with subnormals flushed (the
// stencil radius's dispatch is revwave/core/dispatch_radius.hpp, shared with the CUDA launches).
#pragma once
#include <pmmintrin.h>
#include <xmmintrin.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

#include "revwave/core/dispatch_radius.hpp"
#include "revwave/numerics/grid.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave::sweep_rows {

// The most rows of y per block, so that the 2R+1 x-planes of each stencil field of a block (about
// 1 MiB in all) stay in L2 while i advances and each plane comes from memory once.
inline index_t block_rows(index_t ny, index_t nz, int radius, std::size_t value_bytes, int stencil_fields) {
  const std::size_t budget = std::size_t(1) << 20;
  const std::size_t per_row = static_cast<std::size_t>(stencil_fields) * static_cast<std::size_t>(2 * radius + 1) *
                              static_cast<std::size_t>(nz) * value_bytes;
  // at least 8 rows (a plane has 1), at most the plane
  return std::min<index_t>(std::max<index_t>(static_cast<index_t>(budget / per_row) - 2 * radius, 8), ny);
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

// What every physics' sweep reads besides its fields and its own coefficients: the padded rows'
// length, the strides, the step's coefficients, the Laplacian's weights, the sponge's profiles, m,
// and the rows the free surface completes at the start of each column (boundary/free_surface.hpp;
// 0 without). A physics' constants derive from it and add their own.
template <class T, int R>
struct StepConstants {
  const Grid& g;
  index_t nz, sx, sy;
  StepCoefficients<T> c;
  T w[R + 1];
  const T *kx, *ky, *kz, *m;
  index_t top;

  explicit StepConstants(const Problem<T>& p)
      : g(p.grid),
        nz(g.padded(2)),
        sx(g.stride_x()),
        sy(g.stride_y()),
        c(p.coeffs),
        kx(p.kappa[0].data()),
        ky(p.kappa[1].data()),
        kz(p.kappa[2].data()),
        m(p.m.template as<T>()),
        top(g.free_surface ? std::min<index_t>(R, nz) : 0) {
    for (int q = 0; q <= R; ++q) w[q] = p.weights[static_cast<std::size_t>(q)];
  }
  // The sponge's eta at padded (i, j, k).
  T eta(index_t i, index_t j, index_t k) const { return damping_eta(c, kx[i], ky[j], kz[k]); }
};

// Calls row(i, j, base, local) for every z-row of the padded grid (base: the row's first padded
// point), blocked and on all threads, with subnormals flushed; local is the thread's make_local(),
// made once per sweep (a boundary's row scratch: acoustic/cpu_sweep.hpp's RowHook).
// `stencil_fields`: the fields a sweep applies a stencil to, which the blocking keeps in cache.
template <class MakeLocal, class Row>
void for_each_row_local(const Grid& g, std::size_t value_bytes, int stencil_fields, MakeLocal&& make_local, Row&& row) {
  const index_t nx = g.padded(0), ny = g.padded(1), nz = g.padded(2);
  const int radius = static_cast<int>(g.radius());
  // As few blocks as fit, their rows as equal as can be (block jb: [jb ny / nby, (jb + 1) ny / nby)):
  // the threads share out blocks x planes in equal runs, so a short last block (105 + 23 rows of
  // 128) left one thread most of the sweep.
  const index_t most = block_rows(ny, nz, radius, value_bytes, stencil_fields);
  const index_t nby = (ny + most - 1) / most;
#pragma omp parallel
  {
    const FlushSubnormals flush;
    auto local = make_local();
#pragma omp for collapse(2) schedule(static)
    for (index_t jb = 0; jb < nby; ++jb) {
      for (index_t i = 0; i < nx; ++i) {
        const index_t j_end = (jb + 1) * ny / nby;
        for (index_t j = jb * ny / nby; j < j_end; ++j) row(i, j, g.index(i, j, 0), local);
      }
    }
  }
}

// for_each_row_local without a thread's local: row(i, j, base).
template <class Row>
void for_each_row(const Grid& g, std::size_t value_bytes, int stencil_fields, Row&& row) {
  for_each_row_local(
      g, value_bytes, stencil_fields, [] { return 0; },
      [&](index_t i, index_t j, index_t base, int) { row(i, j, base); });
}

// f(q) for q = 0 .. count - 1 (points listed apart from the rows: probes, a layer's region), on all
// threads where there are more than `parallel_from`, with subnormals flushed as in the sweeps.
template <class F>
void for_each_point(std::size_t count, std::size_t parallel_from, F&& f) {
  const auto n = static_cast<std::int64_t>(count);
#pragma omp parallel if (n > static_cast <std::int64_t>(parallel_from))
  {
    const FlushSubnormals flush;
#pragma omp for schedule(static)
    for (std::int64_t q = 0; q < n; ++q) f(static_cast<std::size_t>(q));
  }
}

}  // namespace revwave::sweep_rows
