// What a physics gives the CPU propagator (acoustic/cpu_propagator.hpp): its sweeps and its part of
// the reverse step. The propagator owns the fields, the traces, the probes and the imaging of
// dJ/dm, which every physics here shares (a and b of the leapfrog update, hence its m-derivative,
// are common); a physics owns its operator and the images of its own parameters (the density's
// dJ/drho). A virtual call per sweep costs nothing beside the sweep, and the drivers stay
// instantiated once per backend. make_cpu_physics is the one place a problem's physics is chosen.
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "revwave/numerics/acoustic/next_field_probes.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/reverse_fields.hpp"

namespace revwave {

template <class T>
class RowHook;  // acoustic/cpu_sweep.hpp

// One reverse step as the propagator holds it when the physics takes its part.
template <class T>
struct ReverseStepView : ReverseFields<T> {
  // u[n+1] on the allocated grid, its source terms in, when a stored history holds it (the same
  // bits a recomputation gives, but at the sources); null: the physics recomputes what it needs.
  // The whole fields only: a history keeps no more of the layer than StateShape says.
  const T* u_next = nullptr;
  const NextFieldProbes* probes = nullptr;
  const T* next = nullptr;       // u[n+1] at the probes, the source terms included
  const T* r_next = nullptr;     // the adjoint source's sample n+1, one value per receiver
  const T* rec_scale = nullptr;  // per receiver corner: 1 / a
};

template <class T>
class CpuPhysics {
 public:
  virtual ~CpuPhysics() = default;
  // The forward recurrence's new field from (u, u_prev) before any source term; out may alias u_prev.
  virtual void forward_sweep(const T* u, const T* u_prev, T* out) = 0;
  // The transposed recurrence's (the dot-product test's adjoint); out may alias lam_prev.
  virtual void adjoint_sweep(const T* lam, const T* lam_prev, T* out) = 0;
  // forward_sweep's value at `count` indices, the same bits.
  virtual void next_at(const T* u, const T* u_prev, const index_t* index, std::size_t count, T* out) = 0;
  // The fused reverse sweep: lam_out, grad += dJ/dm's share, and the physics' own images.
  virtual void reverse_sweep(const ReverseStepView<T>& step) = 0;
  // The last of a reverse step, after the adjoint source went into lam_out at the receivers (lam +=
  // w r / a, dJ/dm imaged): lam[n+1] is complete, u[n] still the step's; the physics' own images.
  virtual void after_adjoint_source(const ReverseStepView<T>& /*step*/) {}
  virtual void reset_images() {}
  // The problem it was built on was refilled in place (a shot engine's next window): true when the
  // physics re-derived itself for it and is in the state a new one would start in, false when it
  // must be made again (make_cpu_physics).
  virtual bool retarget() { return false; }
  // Hands the sweeps a boundary's share of every row (RowHook; null: none): true when every sweep
  // of this physics calls it from now on, false when the boundary must make its own passes.
  virtual bool take_row_hook(const RowHook<T>* /*hook*/) { return false; }
  // dJ/drho's accumulator on the allocated grid when the problem images it (a boundary adds its
  // share there); null otherwise.
  virtual T* density_image() { return nullptr; }
  // dJ/drho at the interior points when the problem images it; empty otherwise.
  virtual std::vector<double> density_gradient() const { return {}; }
};

template <class T>
std::unique_ptr<CpuPhysics<T>> make_cpu_physics(const Problem<T>& problem);

}  // namespace revwave
