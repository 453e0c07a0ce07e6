// A C-PML around any physics of the CPU propagator (cpu_physics.hpp): the physics' own sweeps run
// as they are (its layer without a sponge: eta = 0), and the points within the stencil's radius R
// of a layer take the C-PML's share C / a of the update (boundary/cpml_formulas.hpp):
//   forward:  psi[n] into the new field's tail (a pass over the x and y slabs, before the sweep;
//             z's, which only their own column reads, with the row), then at every point near a
//             slab zeta[n] into the tail and u[n+1] = v + C[n] / a;
//   adjoint:  nu, then mu (passes over the x and y slabs, z's with the row, in a buffer of this
//             physics: the adjoint is not checkpointed), then lam[k] = v' + C'[k] / a;
//   next_at:  the physics' value plus C / a, psi recomputed where it is needed: the same bits;
//   reverse:  psi[n], nu and mu of the x and y slabs, then the physics' fused sweep; near the
//             slabs u[n+1] and lam[n+1] are completed and dJ/dm imaged again from its value before
//             the sweep (the physics' own images, dJ/drho's, are taken after the step:
//             cpu_physics.hpp); from a stored history u[n+1] is read instead (the step's u_next),
//             and psi is not needed.
// Without a density the region's rows run inside the physics' sweeps (RowHook, take_row_hook):
// each row is completed right after the sweep wrote it, in the sweep's cache blocks and threads,
// and the reverse sweep hands over its u[n+1] a row at a time, so no forward sweep runs again.
// Only psi, nu and mu, which a row reads at its neighbours, keep passes of their own; they walk z
// rows (src/boundary/cpml_rows.hpp, where the rows inside the sweep live too). next_at is their
// per-point form. The values and their order are the separate passes' of before: the same bits.
// With a free surface the plane z = 0 stays zero (it has no C-PML share) and the top face has no layer.
// With a variable density the layer stretches the flux form (boundary/cpml_point.hpp): the passes
// are the per-point form's, a point at a time over the slabs and the region, after the physics'
// sweeps, and the reverse step adds the layer's share of dJ/drho to the density's image
// (after_adjoint_source).
#pragma once
#include <array>
#include <memory>
#include <vector>

#include "revwave/core/host_buffer.hpp"
#include "revwave/numerics/boundary/cpml_layout.hpp"
#include "revwave/numerics/cpu_physics.hpp"

namespace revwave {

template <class T>
class CpmlCpuPhysics final : public CpuPhysics<T> {
 public:
  CpmlCpuPhysics(const Problem<T>& problem, std::unique_ptr<CpuPhysics<T>> inner);
  ~CpmlCpuPhysics() override;
  CpmlCpuPhysics(const CpmlCpuPhysics&) = delete;
  CpmlCpuPhysics& operator=(const CpmlCpuPhysics&) = delete;
  void forward_sweep(const T* u, const T* u_prev, T* out) override;
  void adjoint_sweep(const T* lam, const T* lam_prev, T* out) override;
  void next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) override;
  void reverse_sweep(const ReverseStepView<T>& step) override;
  void after_adjoint_source(const ReverseStepView<T>& step) override;
  void reset_images() override;
  // The region is kept where the window's padded layout, layers, radius and surface are the last
  // one's (it depends on nothing else) and the divisors are taken again from the new m, without
  // allocating. The buffers are left as they are: psi_ and next_ are written before they are read
  // in every reverse step, and adjoint_ is cleared by reset_images() before every adjoint run.
  bool retarget() override;
  std::vector<double> density_gradient() const override { return inner_->density_gradient(); }
  T* density_image() override { return inner_->density_image(); }

 private:
  void take_divisors();
  void adjoint_buffer();   // adjoint_, when first needed
  void reverse_buffers();  // psi_, grad0_, next_ and adjoint_, when first needed
  CpmlPointTables<T> tables() const;
  // The density's passes (a point at a time): psi (forward) or nu and mu (adjoint) over the slabs.
  void density_psi(const T* u, const T* old, T* psi_out) const;
  void density_nu_mu(const T* lam, T* adj) const;
  template <class F, class G>
  void each_slab_point(F&& f, G&& g) const;
  template <class F>
  void each_region_point(F&& f) const;
  // f(k, x, y, base, b, e, q, scratch) for each z range [b, e) of the region's rows (row (x, y)
  // at grid index base; q: the range's first place in divisor_), threaded as the rows are.
  template <class F>
  void each_region_range(F&& f) const;

  class Hook;  // the region's rows inside the inner physics' sweeps (cpml_physics.cpp)

  const Problem<T>& p_;
  std::unique_ptr<CpuPhysics<T>> inner_;
  std::unique_ptr<Hook> hook_;            // without a density the inner physics' sweeps take it
  std::array<index_t, 15> region_key_{};  // what region_ depends on (region_key)
  // The region: the points within R of a slab (the plane z = 0 left out), row by row in the rows'
  // ranges; their grid indices listed only with a density (its per-point passes walk the list).
  std::vector<index_t> region_;
  std::vector<T> divisor_;          // the update's a at each of them
  std::vector<index_t> row_first_;  // per padded z row (x, y), then the end: where its points start
  // The adjoint's and the reverse step's (made when first needed, kept: a forward run holds none).
  std::vector<T> psi_;      // psi[n] of the reverse step's recomputed u[n+1] (tail layout)
  std::vector<T> adjoint_;  // nu (zeta's places) and mu (psi's)
  std::vector<T> grad0_;    // with a density: per region point, dJ/dm before the sweep
  std::vector<T> next_;     // with a density: a field, the physics' u[n+1] (C / a not added)
  // With a density only (density_): the slabs' points (axis, offset, grid index, coordinate on the
  // axis) and the staggered weights as T.
  bool density_ = false;
  struct SlabPoint {
    int a;
    index_t o, idx, x;
  };
  std::vector<SlabPoint> slab_;
  std::vector<T> stagger_;
};

}  // namespace revwave
