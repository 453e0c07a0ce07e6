// The propagator concept: what every driver (forward modelling, the gradient under each strategy,
// the dot-product and Taylor tests) needs of a backend, written once as C++17 traits that the
// drivers static_assert. CpuPropagator (host/numerics/acoustic) and CudaPropagator (cuda/backend)
// implement it; docs/design/propagator.md says how it came to be a trait and not a base class.
//
// A trait, not an abstract class, because (1) each backend's state and stores stay concrete
// types: the schedule runner hands the state (HostState, DeviceState, a C-PML's state with its
// layer fields) to the store as what it is, with no type erasure between a step and a
// checkpoint, and a test may wrap either (counting calls, guarding slots) without a vtable; and
// (2) the CPU propagator lives with its physics in host/numerics, which sees no plans, schedules
// or stores: a base class declaring make_checkpoints would have to live there too. With a trait,
// a backend's checkpoints are a customization point found by argument-dependent lookup, defined
// beside the backend's stores (driver/cpu_checkpoints.hpp; cuda/backend for the GPU). The price,
// drivers instantiated once per backend, is paid in cuda/backend's one file of entry points.
//
// With P a propagator, p a P&, n and j step indices, T = P::value_type:
//
// forward modelling (is_forward_propagator):
//   const Problem<T>& p.problem()
//   p.reset_forward()                 position 0: u[0] = u[-1] = 0
//   p.forward_step(n)                 position n -> n + 1, injecting q[n]
//   p.record_trace(n)                 S u[n] of the state at position n, kept where it is computed
//   std::vector<T> p.traces(k)        samples 0..k-1 (k x nrec, C order), to host memory once
// the checkpointed gradient's drivers (is_gradient_propagator), besides:
//   P::State, State& p.state()        what a checkpoint holds (the physics' state)
//   p.reserve_fields(held)            sizes the pool for a store holding `held` fields at once
//   p.record_next_trace(n)            S u[n] from the state at position n - 1, without stepping
//   p.set_adjoint_source(std::vector<T> r)   r[n] for samples 0..k-1, given once per run
//   p.reset_adjoint(); p.reverse_step(n)      step n reversed, S^T r[n+1] injected
//   std::vector<double> p.interior_gradient()
// `full`'s driver (keeps_history), besides:
//   size_t p.allocate_history(N, between); p.record_history(n); p.reverse_step_from_history(n);
//   p.release_history(); uint64 p.history_copy_bytes()
// a backend (is_propagator): all of the above and
//   double p.wavefield_energy()       sum u[n]^2 (the online stop rule; the growth guard where present)
//   int P::working_fields(Workload)   host-memory fields of the grid's size a run holds
//   p.adjoint_data_step(j); std::vector<T> p.source_traces(k)   F^T (dot-product test)
//   make_checkpoints(p, plan, options, planned, hint) -> CheckpointSet<Store>   (found by ADL)
//   checkpoint_placement(p) -> TierReport                                    (found by ADL)
//
// optionally, a physics with parameters besides m (the variable density):
//   std::vector<double> p.density_gradient()    dJ/drho at the interior points, or empty
// A propagator knows no misfit: it records traces and injects the adjoint source it is given.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "revwave/core/config.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/numerics/workload.hpp"
#include "revwave/schedule/schedule.hpp"
#include "revwave/store/prefetch_hint.hpp"

namespace revwave {

struct StrategyOptions;
struct StrategyPlan;

// Where a backend placed a run's checkpoints (or its history) beyond what the plan says, and what
// waiting on their copies cost; filled by backends with tiers of their own (CUDA: device and
// pinned host memory), empty on the CPU, whose slots are where the plan puts them.
struct TierReport {
  index_t device_slots = 0;
  index_t host_slots = 0;
  std::string history_tier;             // strategy full: "device" or "pinned-host"
  std::string tier_choice;              // one sentence: where the checkpoints or the history live, and why
  index_t predicted_forward_steps = 0;  // of the schedule that ran (revolve: it may be two-level)
  double seconds_spill = 0;             // time the compute stream waited on copies to/from pinned host
};

// A checkpointed run as a backend lays it out: the schedule the driver executes (the one the driver
// planned, or the backend's refinement of it: CUDA's two levels when the device holds too few
// slots; null where the driver drives its own, online) and the store on the backend's state.
template <class Store>
struct CheckpointSet {
  std::unique_ptr<Schedule> schedule;
  index_t predicted_forward_steps = 0;  // of that schedule (0: unknown ahead)
  std::unique_ptr<Store> store;
};

namespace concept_detail {

template <class P>
using value_t = typename P::value_type;

template <class P>
using forward_ops =
    std::void_t<decltype(static_cast<const Problem<value_t<P>>&>(std::declval<P&>().problem())),
                decltype(std::declval<P&>().reset_forward()), decltype(std::declval<P&>().forward_step(index_t{})),
                decltype(std::declval<P&>().record_trace(index_t{})),
                decltype(std::declval<std::vector<value_t<P>>&>() = std::declval<P&>().traces(index_t{}))>;

template <class P>
using gradient_ops =
    std::void_t<typename P::State, decltype(static_cast<typename P::State&>(std::declval<P&>().state())),
                decltype(std::declval<P&>().reserve_fields(std::int64_t{})),
                decltype(std::declval<P&>().record_next_trace(index_t{})),
                decltype(std::declval<P&>().set_adjoint_source(std::declval<std::vector<value_t<P>>>())),
                decltype(std::declval<P&>().reset_adjoint()), decltype(std::declval<P&>().reverse_step(index_t{})),
                decltype(std::declval<std::vector<double>&>() = std::declval<P&>().interior_gradient())>;

template <class P>
using history_ops = std::void_t<
    decltype(std::size_t{std::declval<P&>().allocate_history(index_t{}, std::declval<const std::function<void()>&>())}),
    decltype(std::declval<P&>().record_history(index_t{})),
    decltype(std::declval<P&>().reverse_step_from_history(index_t{})), decltype(std::declval<P&>().release_history()),
    decltype(std::uint64_t{std::declval<const P&>().history_copy_bytes()})>;

template <class P>
using backend_ops =
    std::void_t<decltype(double{std::declval<P&>().wavefield_energy()}),
                decltype(int{P::working_fields(Workload::gradient)}),
                decltype(std::declval<P&>().adjoint_data_step(index_t{})),
                decltype(std::declval<std::vector<value_t<P>>&>() = std::declval<P&>().source_traces(index_t{})),
                decltype(make_checkpoints(std::declval<P&>(), std::declval<const StrategyPlan&>(),
                                          std::declval<const StrategyOptions&>(),
                                          std::declval<std::unique_ptr<Schedule>>(), std::declval<PrefetchHint*>())
                             .store),
                decltype(static_cast<TierReport>(checkpoint_placement(std::declval<P&>())))>;

template <class P, class = void>
struct density_images : std::false_type {};
template <class P>
struct density_images<
    P, std::void_t<decltype(std::declval<std::vector<double>&>() = std::declval<P&>().density_gradient())>>
    : std::true_type {};

template <class P, class = void>
struct forward : std::false_type {};
template <class P>
struct forward<P, forward_ops<P>> : std::true_type {};
template <class P, class = void>
struct gradient : std::false_type {};
template <class P>
struct gradient<P, gradient_ops<P>> : forward<P> {};
template <class P, class = void>
struct history : std::false_type {};
template <class P>
struct history<P, history_ops<P>> : std::true_type {};
template <class P, class = void>
struct backend : std::false_type {};
template <class P>
struct backend<P, backend_ops<P>> : std::bool_constant<gradient<P>::value && history<P>::value> {};

}  // namespace concept_detail

// dJ/drho where the propagator images it, read back once after the reverse sweep; empty otherwise.
template <class P>
std::vector<double> density_gradient_of(P& prop) {
  if constexpr (concept_detail::density_images<P>::value)
    return prop.density_gradient();
  else
    return {};
}

template <class P>
inline constexpr bool is_forward_propagator_v = concept_detail::forward<P>::value;
template <class P>
inline constexpr bool is_gradient_propagator_v = concept_detail::gradient<P>::value;
template <class P>
inline constexpr bool keeps_history_v = concept_detail::history<P>::value;
template <class P>
inline constexpr bool is_propagator_v = concept_detail::backend<P>::value;

}  // namespace revwave
