// Multi-level checkpointing: slots on tiers with store/restore costs, and cost accounting.
//
// Slot ids are global and contiguous per tier, fastest tier first: tier 0 owns
// [0, c0), tier 1 owns [c0, c0 + c1), ... Costs are in units of one forward step.
// The initial state (initial_slot) is recreated: it costs nothing.
//
// Algorithm: a binomial (Revolve) schedule on s' <= sum c slots, whose slots are
// used as a stack (depth d holds the (d+1)-th live checkpoint), with the depths
// placed on the tiers by an exact dynamic program over (depth, slots used per tier)
// that minimises sum_d stores_d * store_cost + restores_d * restore_cost; s' is
// chosen to minimise forward_steps(s') + that placement cost. This is a multistage
// binomial schedule with a DP placement (cf. Stumm & Walther, "MultiStage approaches
// for optimal offline checkpointing", SIAM J. Sci. Comput. 31(3), 2009); it is not
// H-Revolve's (Herrmann & Pallez 2020) fully cost-aware split search.
// Guarantees, by construction (both are candidates of the minimisation):
//   predicted time <= Revolve on the fastest tier alone (RevolveSchedule(N, c0)),
//   predicted time <= RevolveSchedule(N, sum c) with its slot ids as global ids;
//   with all costs zero the forward steps equal optimal_forward_steps(N, sum c).
// Cost: one counting simulation of RevolveSchedule(N, s') per candidate s'
// (O(N r) each) plus the DP, O(s' * prod_{t < T-1} (c_t + 1) * T). For large inputs
// the candidate s' are thinned to a geometric subset and a DP over 2e7 cells is
// replaced by a greedy placement; the two baselines stay candidates, so the
// guarantees hold for every input.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "revwave/schedule/schedule.hpp"
#include "revwave/schedule/schedule_counts.hpp"

namespace revwave {

struct Tier {
  std::string name;
  std::int64_t slots = 0;
  double store_cost = 0.0;    // per checkpoint stored, in forward steps
  double restore_cost = 0.0;  // per checkpoint restored, in forward steps
};

// The most a store or restore may cost, in forward steps (a slot written across the world is
// still cheaper): beyond it a schedule's total would lose the steps' own worth, then overflow.
inline constexpr double max_tier_cost = 1e15;

// InputError naming the value and the rule: no tiers, a negative capacity, capacities
// summing to zero, or a cost that is negative, NaN, infinite or above max_tier_cost.
void validate_tiers(const std::vector<Tier>& tiers);

// The tier owning global slot id `slot` (initial_slot: -1).
int tier_of_slot(const std::vector<Tier>& tiers, std::int64_t slot);

struct TierCounts {
  std::string name;
  std::int64_t stores = 0;
  std::int64_t restores = 0;   // not counting the recreated initial state
  double bytes_moved = 0.0;    // (stores + restores) * slot bytes
  double cost = 0.0;           // stores * store_cost + restores * restore_cost
  std::int64_t peak_live = 0;  // most slots of this tier holding a checkpoint at once
};

struct MultilevelCounts {
  ScheduleCounts counts;
  std::vector<TierCounts> tiers;
  double predicted_time = 0.0;  // forward_steps + sum of tier costs, in forward steps
};

// Pulls `schedule` to its end, reading its slot ids as global ids over `tiers`.
MultilevelCounts count_multilevel(Schedule& schedule, const std::vector<Tier>& tiers, double slot_bytes = 0.0);
double predicted_time(Schedule& schedule, const std::vector<Tier>& tiers);

// The two baselines: Revolve on the fastest tier alone (no slots if c0 = 0) and
// Revolve on all slots with its stack slot ids as global ids.
double revolve_fastest_tier_time(std::int64_t steps, const std::vector<Tier>& tiers);
double revolve_all_slots_time(std::int64_t steps, const std::vector<Tier>& tiers);

class MultilevelSchedule final : public Schedule {
 public:
  // InputError unless steps >= 1 and validate_tiers(tiers) passes.
  MultilevelSchedule(std::int64_t steps, std::vector<Tier> tiers);
  ~MultilevelSchedule() override;

  Action next() override;
  // Global slot ids lie in [0, sum of capacities).
  std::int64_t slots() const override { return total_slots_; }
  int tier_of(std::int64_t slot) const override { return tier_of_slot(tiers_, slot); }
  // Forwarded from the binomial schedule: ids are only renamed.
  bool restore_is_last_use() const override;

  std::int64_t steps() const { return steps_; }
  const std::vector<Tier>& tiers() const { return tiers_; }
  // The plan: binomial slots s' used, their global ids by stack depth, the predicted time.
  std::int64_t binomial_slots() const { return binomial_slots_; }
  const std::vector<std::int64_t>& depth_to_slot() const { return depth_to_slot_; }
  double planned_time() const { return planned_time_; }

 private:
  std::int64_t steps_;
  std::vector<Tier> tiers_;
  std::int64_t total_slots_ = 0;
  std::int64_t binomial_slots_ = 0;
  std::vector<std::int64_t> depth_to_slot_;
  double planned_time_ = 0.0;
  std::unique_ptr<Schedule> inner_;
};

}  // namespace revwave
