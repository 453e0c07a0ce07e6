// The growth guard of every run's first forward sweep: a wavefield that grows without bound after
// the source has ended, or that is not finite, stops the run with UnstableRunError, naming the
// physics, the boundary and the space order (docs/input_checks.md, "The run-time guard").
//
// It samples E = sum u^2 over the grid (the propagator's wavefield_energy: a device reduction and
// one double read back on a GPU) every `every` = max(1, N / 64) positions and at position N, and
// only reads the field: no result changes by a bit. The source has ended after the last sample n
// of the signature with |w[n]| >= 1e-4 of its peak; E_ref is E at the first sampled position at or
// after n + 1 (the first field the last such sample has entered). A later E > F E_ref stops the run,
// F = 100 max(1, kappa_max / kappa_min) with kappa = rho c^2 the model's bulk modulus (why:
// growth_guard.cpp). A signature that never ends before N, or a zero E_ref, leaves the finiteness
// test alone.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "revwave/core/config.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

// The guard's numbers for one run, from the problem alone (O(nt), no field read).
struct GrowthGuardPlan {
  index_t every = 1;       // samples at the positions that are multiples of it, and at `last`
  index_t last = 0;        // N
  index_t reference = -1;  // E_ref is the first sample at or after this position; -1: no growth test
  double limit = 100;      // F
  double dt = 0;           // for the message's seconds
  std::string setting;     // "variable density, cpml boundary, space order 8"
};

// `source_end`: the last wavelet sample with |w| >= 1e-4 of the peak (-1: all zero).
GrowthGuardPlan plan_growth_guard(const Grid& grid, const TimeAxis& time, index_t source_end,
                                  const PhysicsSpec& physics, double bulk_modulus_ratio);

// The relative level below which a signature's sample counts as silence.
inline constexpr double source_silence = 1e-4;

template <class T>
index_t source_end_step(const std::vector<T>& wavelet) {
  double peak = 0;
  for (T w : wavelet) peak = std::max(peak, std::abs(static_cast<double>(w)));
  if (!(peak > 0)) return -1;
  for (auto n = static_cast<index_t>(wavelet.size()) - 1; n >= 0; --n)
    if (std::abs(static_cast<double>(wavelet[static_cast<std::size_t>(n)])) >= source_silence * peak) return n;
  return -1;
}

namespace detail {
template <class P, class = void>
struct has_wavefield_energy : std::false_type {};
template <class P>
struct has_wavefield_energy<P, std::void_t<decltype(double{std::declval<P&>().wavefield_energy()})>> : std::true_type {
};
}  // namespace detail

class GrowthGuard {
 public:
  explicit GrowthGuard(GrowthGuardPlan plan) : plan_(std::move(plan)) {}
  template <class T>
  explicit GrowthGuard(const Problem<T>& p)
      : GrowthGuard(
            plan_growth_guard(p.grid, p.time, source_end_step(p.wavelet), physics_of(p), p.bulk_modulus_ratio)) {}

  // Call once for every position a forward step reaches for the first time (1..N), in order. A
  // propagator without wavefield_energy (a test's mock) is not guarded.
  template <class P>
  void after_step(P& prop, index_t position) {
    if constexpr (detail::has_wavefield_energy<P>::value) {
      if (position % plan_.every != 0 && position != plan_.last) return;
      check(position, prop.wavefield_energy());
    }
  }

  // One sample E of the field at `position`; throws UnstableRunError.
  void check(index_t position, double energy);

  const GrowthGuardPlan& plan() const { return plan_; }
  double reference() const { return reference_; }     // E_ref, once taken (0 before)
  double largest_growth() const { return largest_; }  // the largest E / E_ref sampled so far

 private:
  GrowthGuardPlan plan_;
  bool referenced_ = false;
  double reference_ = 0, largest_ = 0;
};

}  // namespace revwave
