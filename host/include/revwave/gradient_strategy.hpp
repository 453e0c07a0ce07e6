// From the user's strategy options to a gradient run: how many slots, which store,
// what the schedule predicts, and the run itself on any backend.
#pragma once
#include <memory>
#include <string>

#include "revwave/checkpoint_store.hpp"
#include "revwave/gradient_driver.hpp"
#include "revwave/schedule.hpp"

namespace revwave {

struct StrategyOptions {
  std::string strategy = "revolve";  // full | revolve
  index_t snaps = 0;                 // 0: from checkpoint_memory, else the default
  std::size_t checkpoint_memory = 0; // bytes, 0: unset
  std::string store = "memory";      // memory | disk
  std::string checkpoint_dir;        // for the disk store
};

inline constexpr index_t default_snaps = 20;

struct StrategyPlan {
  std::string strategy;
  index_t steps = 0;
  index_t snaps = 0;                    // slots asked for or derived (0 for full)
  index_t slots = 0;                    // slots the schedule can use: min(snaps, N - 2), allocated
  std::size_t slot_bytes = 0;           // one checkpoint: (u[n], u[n-1])
  std::size_t storage_bytes = 0;        // slots x slot size, or the history for full
  index_t predicted_forward_steps = 0;  // the schedule's count
  std::string choice;                   // a sentence saying what was chosen and why
};

// Validates the options (unknown strategy or store, S < 1, a budget below one slot,
// a memory store that cannot fit) and derives the slot count.
StrategyPlan plan_strategy(const StrategyOptions& options, index_t steps, std::size_t field_bytes);

std::unique_ptr<Schedule> make_schedule(const StrategyPlan& plan);
std::unique_ptr<CheckpointStore> make_store(const StrategyOptions& options, const StrategyPlan& plan,
                                            std::size_t field_bytes);

template <class Propagator, class T = typename Propagator::value_type>
GradientOutput run_gradient(Propagator& prop, const T* observed, const StrategyOptions& options,
                            const StrategyPlan& plan, const Progress& progress = {}) {
  if (plan.strategy == "full") return gradient_full(prop, observed, progress);
  auto schedule = make_schedule(plan);
  auto store = prop.make_store(options, plan);
  return gradient_checkpointed(prop, observed, *schedule, *store, plan.predicted_forward_steps, progress);
}

}  // namespace revwave
