#include "revwave/setup/schedule_summary.hpp"

#include <algorithm>
#include <memory>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/online.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule_counts.hpp"
#include "revwave/store/tier_spec.hpp"

namespace revwave {
namespace {

// Revolve's counts come from closed forms for any N; the other strategies (and a listing) are
// simulated action by action, which is refused beyond these sizes (a second or so of work).
constexpr std::int64_t max_simulated_steps = 1000000;
constexpr std::int64_t max_listed_actions = 10000000;

}  // namespace

void validate(const ScheduleRequest& o) {
  std::vector<std::string> errors;
  auto keep = [&errors](const std::string& violation) {
    if (!violation.empty()) errors.push_back(violation);
  };
  keep(rule_violation("--steps", o.steps, at_least(1)));
  keep(rule_violation("--snaps", o.snaps, at_least(1)));
  if (o.slot_bytes) keep(rule_violation("--slot-bytes", *o.slot_bytes, non_negative()));
  if (!o.tiers.empty() && o.strategy != Strategy::multilevel) errors.push_back("--tier needs --strategy multilevel");
  if (o.slot_bytes && o.strategy != Strategy::multilevel) errors.push_back("--slot-bytes needs --strategy multilevel");
  if (o.sweep && o.strategy != Strategy::online) errors.push_back("--sweep needs --strategy online");
  if (o.sweep) keep(rule_violation("--sweep", *o.sweep, int_within(1, 100000000)));
  if (o.sweep && o.actions) errors.push_back("--actions does not apply to --sweep (it lists one schedule)");
  if (errors.empty() && o.strategy != Strategy::revolve && !o.sweep && o.steps > max_simulated_steps) {
    errors.push_back("--steps " + std::to_string(o.steps) + " is too many for --strategy " + to_string(o.strategy) +
                     ": its schedule is simulated action by action, up to " + std::to_string(max_simulated_steps) +
                     " steps (revolve's counts come from closed forms for any step count)");
  }
  if (errors.empty() && o.actions && o.strategy == Strategy::revolve) {
    const ScheduleCounts c = revolve_counts(o.steps, o.snaps);  // InputError beyond 2^63 - 1
    const std::int64_t actions = c.advances + c.stores + c.restores + c.reverses;
    if (actions > max_listed_actions || c.advances > max_listed_actions) {
      errors.push_back("--actions would list over " + std::to_string(std::max(actions, c.advances)) +
                       " actions; the limit is " + std::to_string(max_listed_actions) +
                       " (drop --actions for the counts)");
    }
  }
  if (errors.empty()) return;
  std::string line = errors[0];
  for (std::size_t i = 1; i < errors.size(); ++i) line += "; " + errors[i];
  throw InputError(line);
}

namespace {

// NAME:SLOTS:STORE_COST:RESTORE_COST through the run's own parser (revwave/store/tier_spec.hpp), so
// that `schedule` and `gradient` take the same tiers; without --tier one zero-cost tier of --snaps
// slots. The schedule runs on no backend, so every tier name is taken (pinned too), and the costs
// must be given: a run measures them at start-up, a count has nothing to measure.
std::vector<Tier> parse_tiers(const ScheduleRequest& o) {
  if (o.tiers.empty()) return {Tier{"memory", o.snaps, 0.0, 0.0}};
  std::vector<Tier> tiers;
  for (const std::string& text : o.tiers) {
    const TierSpec spec = parse_tier_spec(text, no_backend);
    if (!spec.costs_given) {
      throw InputError("--tier '" + text +
                       "' needs its costs for a schedule: NAME:SLOTS:STORE_COST:RESTORE_COST (in forward steps; "
                       "a run measures them at start-up, a schedule has nothing to measure)");
    }
    tiers.push_back(Tier{to_string(spec.kind), spec.slots, spec.store_cost, spec.restore_cost});
  }
  validate_tiers(tiers);
  return tiers;
}

// Runs an online schedule for a run that turns out to have o.steps steps: finish is
// called as soon as the last step's start position is reached.
class OnlineRun final : public Schedule {
 public:
  OnlineRun(std::int64_t steps, std::int64_t slots) : online_(slots), steps_(steps) {}
  Action next() override {
    if (!online_.finished() && online_.position() == steps_ - 1) online_.finish(steps_);
    return online_.next();
  }
  std::int64_t slots() const override { return online_.slots(); }
  bool restore_is_last_use() const override { return online_.restore_is_last_use(); }

 private:
  OnlineSchedule online_;
  std::int64_t steps_;
};

std::unique_ptr<Schedule> make_schedule(const ScheduleRequest& o) {
  if (o.strategy == Strategy::revolve) return std::make_unique<RevolveSchedule>(o.steps, o.snaps);
  if (o.strategy == Strategy::multilevel) return std::make_unique<MultilevelSchedule>(o.steps, parse_tiers(o));
  // Slots beyond N are never used: the schedule stores every step either way.
  if (o.strategy == Strategy::online) return std::make_unique<OnlineRun>(o.steps, std::min(o.snaps, o.steps));
  throw InputError(std::string("--strategy ") + to_string(o.strategy) +
                   " has no schedule to count: use revolve, multilevel or online");
}

}  // namespace

nlohmann::json schedule_summary(const ScheduleRequest& o) {
  validate(o);
  std::vector<std::string> listed;
  if (o.actions) {
    auto listing = make_schedule(o);
    for (Action a = listing->next(); a.kind != ActionKind::end; a = listing->next()) {
      listed.push_back(to_string(a));
    }
  }
  std::unique_ptr<Schedule> schedule = o.strategy == Strategy::revolve ? nullptr : make_schedule(o);
  std::vector<Tier> tiers;
  MultilevelCounts multilevel;
  const double slot_bytes = o.slot_bytes.value_or(1048576.0);
  if (o.strategy == Strategy::multilevel) {
    tiers = static_cast<MultilevelSchedule&>(*schedule).tiers();
    multilevel = count_multilevel(*schedule, tiers, slot_bytes);
  }
  const ScheduleCounts c = o.strategy == Strategy::revolve      ? revolve_counts(o.steps, o.snaps)
                           : o.strategy == Strategy::multilevel ? multilevel.counts
                                                                : count_schedule(*schedule);
  const std::int64_t snaps = o.strategy == Strategy::multilevel && schedule->slots() > 0 ? schedule->slots() : o.snaps;
  const std::int64_t offline = optimal_forward_steps(o.steps, snaps);
  // Griewank's r with s = S + 1 checkpoints; more than N slots change nothing.
  const std::int64_t repetitions = revolve_repetitions(o.steps, std::min(snaps, o.steps) + 1);

  nlohmann::json j = {{"steps", o.steps},
                      {"snaps", snaps},
                      {"strategy", to_string(o.strategy)},
                      {"forward_steps", c.forward_steps},
                      {"advances", c.advances},
                      {"stores", c.stores},
                      {"restores", c.restores},
                      {"reverses", c.reverses},
                      {"recompute_ratio", c.recompute_ratio},
                      {"peak_slots", c.peak_slots},
                      {"repetition_number", repetitions}};
  if (o.strategy == Strategy::multilevel) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t t = 0; t < tiers.size(); ++t) {
      const TierCounts& tc = multilevel.tiers[t];
      rows.push_back({{"name", tiers[t].name},
                      {"slots", tiers[t].slots},
                      {"store_cost", tiers[t].store_cost},
                      {"restore_cost", tiers[t].restore_cost},
                      {"stores", tc.stores},
                      {"restores", tc.restores},
                      {"bytes_moved", tc.bytes_moved},
                      {"cost", tc.cost}});
    }
    j["tiers"] = rows;
    j["slot_bytes"] = slot_bytes;
    j["predicted_time"] = multilevel.predicted_time;
    j["baseline_fastest_tier_time"] = revolve_fastest_tier_time(o.steps, tiers);
    j["baseline_all_slots_time"] = revolve_all_slots_time(o.steps, tiers);
    j["binomial_slots"] = static_cast<MultilevelSchedule&>(*schedule).binomial_slots();
  }
  if (o.strategy == Strategy::online) {
    j["offline_forward_steps"] = offline;
    j["ratio"] = static_cast<double>(c.forward_steps) / static_cast<double>(offline);
  }
  if (o.actions) j["actions"] = listed;
  return j;
}

}  // namespace revwave
