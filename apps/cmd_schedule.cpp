// `revwave schedule`: the checkpoint schedule a run would execute, counted (and listed).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "number_options.hpp"
#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/online.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule_counts.hpp"

namespace revwave::app {
namespace {

struct ScheduleOptions {
  std::int64_t steps = 1000;
  std::int64_t snaps = 10;
  std::string strategy = "revolve";
  bool json = false;
  bool actions = false;
  std::vector<std::string> tiers;     // multilevel: NAME:SLOTS:STORE_COST:RESTORE_COST
  std::optional<double> slot_bytes;   // multilevel: bytes per checkpoint, for bytes moved (default 1 MiB)
  std::optional<std::int64_t> sweep;  // online: sweep N = 1..sweep, report the worst ratio
};

// Revolve's counts come from closed forms for any N; the other strategies (and a listing) are
// simulated action by action, which is refused beyond these sizes (a second or so of work).
constexpr std::int64_t max_simulated_steps = 1000000;
constexpr std::int64_t max_listed_actions = 10000000;

const std::vector<std::string>& strategies() {
  static const std::vector<std::string> names = {"revolve", "multilevel", "online"};
  return names;
}

// All broken rules at once, one line.
void validate(const ScheduleOptions& o) {
  std::vector<std::string> errors;
  auto keep = [&errors](const std::string& violation) {
    if (!violation.empty()) errors.push_back(violation);
  };
  keep(rule_violation("--steps", o.steps, at_least(1)));
  keep(rule_violation("--snaps", o.snaps, at_least(1)));
  if (o.slot_bytes) keep(rule_violation("--slot-bytes", *o.slot_bytes, non_negative()));
  if (!o.tiers.empty() && o.strategy != "multilevel")
    errors.push_back("--tier needs --strategy multilevel");
  if (o.slot_bytes && o.strategy != "multilevel") errors.push_back("--slot-bytes needs --strategy multilevel");
  if (o.sweep && o.strategy != "online") errors.push_back("--sweep needs --strategy online");
  if (o.sweep) keep(rule_violation("--sweep", *o.sweep, int_within(1, 100000000)));
  if (o.sweep && o.actions) errors.push_back("--actions does not apply to --sweep (it lists one schedule)");
  if (errors.empty() && o.strategy != "revolve" && !o.sweep && o.steps > max_simulated_steps) {
    errors.push_back("--steps " + std::to_string(o.steps) + " is too many for --strategy " + o.strategy +
                     ": its schedule is simulated action by action, up to " + std::to_string(max_simulated_steps) +
                     " steps (revolve's counts come from closed forms for any step count)");
  }
  if (errors.empty() && o.actions && o.strategy == "revolve") {
    const ScheduleCounts c = revolve_counts(o.steps, o.snaps);  // InputError beyond 2^63 - 1
    const std::int64_t actions = c.advances + c.stores + c.restores + c.reverses;
    if (actions > max_listed_actions || c.advances > max_listed_actions) {
      errors.push_back("--actions would list over " + std::to_string(std::max(actions, c.advances)) +
                       " actions; the limit is " + std::to_string(max_listed_actions) + " (drop --actions for the counts)");
    }
  }
  if (errors.empty()) return;
  std::string line = errors[0];
  for (std::size_t i = 1; i < errors.size(); ++i) line += "; " + errors[i];
  throw InputError(line);
}

// NAME:SLOTS:STORE_COST:RESTORE_COST; without --tier one zero-cost tier of --snaps slots.
std::vector<Tier> parse_tiers(const ScheduleOptions& o) {
  if (o.tiers.empty()) return {Tier{"memory", o.snaps, 0.0, 0.0}};
  std::vector<Tier> tiers;
  for (const std::string& text : o.tiers) {
    std::vector<std::string> f;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ':');) f.push_back(part);
    const std::string rule = "--tier " + text + " must be NAME:SLOTS:STORE_COST:RESTORE_COST";
    if (f.size() != 4 || f[0].empty()) throw InputError(rule);
    Tier t{f[0]};
    try {
      std::size_t used = 0;
      t.slots = std::stoll(f[1], &used);
      if (used != f[1].size()) throw InputError(rule);
      t.store_cost = std::stod(f[2], &used);
      if (used != f[2].size()) throw InputError(rule);
      t.restore_cost = std::stod(f[3], &used);
      if (used != f[3].size()) throw InputError(rule);
    } catch (const std::logic_error&) {  // stoll/stod: not a number or out of range
      throw InputError(rule + " (numbers)");
    }
    tiers.push_back(t);
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

std::unique_ptr<Schedule> make_schedule(const ScheduleOptions& o) {
  if (o.strategy == "revolve") return std::make_unique<RevolveSchedule>(o.steps, o.snaps);
  if (o.strategy == "multilevel") return std::make_unique<MultilevelSchedule>(o.steps, parse_tiers(o));
  // Slots beyond N are never used: the schedule stores every step either way.
  if (o.strategy == "online") return std::make_unique<OnlineRun>(o.steps, std::min(o.snaps, o.steps));
  throw InputError("--strategy " + o.strategy + " is not a known strategy");
}

// Dense sweep of the online schedule against the offline optimum, N = 1..o.sweep.
void run_sweep(const ScheduleOptions& o) {
  const std::int64_t sweep = *o.sweep;
  const std::vector<std::int64_t> online = online_forward_steps_sweep(sweep, std::min(o.snaps, sweep));
  struct Worst {
    double ratio = 0.0;
    std::int64_t steps = 0, n_from = 0, n_to = 0;
  };
  std::vector<Worst> by_r;
  Worst worst;
  for (std::int64_t N = 1; N <= sweep; ++N) {
    const std::int64_t offline = optimal_forward_steps(N, o.snaps);
    const double ratio = static_cast<double>(online[N - 1]) / static_cast<double>(offline);
    const std::int64_t r = N < 2 ? 0 : revolve_repetitions(N, std::min(o.snaps, N) + 1);
    if (static_cast<std::int64_t>(by_r.size()) <= r) by_r.resize(r + 1);
    Worst& w = by_r[r];
    if (w.n_from == 0) w.n_from = N;
    w.n_to = N;
    if (ratio > w.ratio) { w.ratio = ratio; w.steps = N; }
    if (ratio > worst.ratio) { worst.ratio = ratio; worst.steps = N; }
  }
  if (o.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t r = 0; r < by_r.size(); ++r)
      if (by_r[r].n_from > 0)
        rows.push_back({{"repetition_number", r}, {"n_from", by_r[r].n_from}, {"n_to", by_r[r].n_to},
                        {"max_ratio", by_r[r].ratio}, {"worst_steps", by_r[r].steps}});
    std::cout << nlohmann::json{{"strategy", "online"}, {"snaps", o.snaps}, {"sweep_max", sweep},
                                {"worst_ratio", worst.ratio}, {"worst_steps", worst.steps},
                                {"by_repetition", rows}}.dump()
              << '\n';
    return;
  }
  std::cout << "online vs offline forward steps, S = " << o.snaps << ", N = 1.." << sweep
            << ": worst ratio " << std::setprecision(6) << worst.ratio << " at N = " << worst.steps << '\n';
  std::cout << "   r       N from         N to    max ratio    at N\n";
  for (std::size_t r = 0; r < by_r.size(); ++r)
    if (by_r[r].n_from > 0)
      std::cout << std::setw(4) << r << std::setw(13) << by_r[r].n_from << std::setw(13) << by_r[r].n_to
                << std::setw(13) << std::fixed << std::setprecision(6) << by_r[r].ratio
                << std::defaultfloat << std::setw(8) << by_r[r].steps << '\n';
}

void run(const ScheduleOptions& o) {
  validate(o);
  if (o.sweep) {
    run_sweep(o);
    return;
  }
  std::vector<std::string> listed;
  if (o.actions) {
    auto listing = make_schedule(o);
    for (Action a = listing->next(); a.kind != ActionKind::end; a = listing->next()) {
      if (o.json) listed.push_back(to_string(a)); else std::cout << to_string(a) << '\n';
    }
    if (!o.json) std::cout << "end\n";
  }
  std::unique_ptr<Schedule> schedule = o.strategy == "revolve" ? nullptr : make_schedule(o);
  std::vector<Tier> tiers;
  MultilevelCounts multilevel;
  const double slot_bytes = o.slot_bytes.value_or(1048576.0);
  if (o.strategy == "multilevel") {
    tiers = static_cast<MultilevelSchedule&>(*schedule).tiers();
    multilevel = count_multilevel(*schedule, tiers, slot_bytes);
  }
  const ScheduleCounts c = o.strategy == "revolve"      ? revolve_counts(o.steps, o.snaps)
                           : o.strategy == "multilevel" ? multilevel.counts
                                                        : count_schedule(*schedule);
  const std::int64_t snaps = o.strategy == "multilevel" && schedule->slots() > 0 ? schedule->slots() : o.snaps;
  const std::int64_t offline = optimal_forward_steps(o.steps, snaps);
  // Griewank's r with s = S + 1 checkpoints; more than N slots change nothing.
  const std::int64_t repetitions = revolve_repetitions(o.steps, std::min(snaps, o.steps) + 1);

  if (o.json) {
    nlohmann::json j = {{"steps", o.steps},
                        {"snaps", snaps},
                        {"strategy", o.strategy},
                        {"forward_steps", c.forward_steps},
                        {"advances", c.advances},
                        {"stores", c.stores},
                        {"restores", c.restores},
                        {"reverses", c.reverses},
                        {"recompute_ratio", c.recompute_ratio},
                        {"peak_slots", c.peak_slots},
                        {"repetition_number", repetitions}};
    if (o.strategy == "multilevel") {
      nlohmann::json rows = nlohmann::json::array();
      for (std::size_t t = 0; t < tiers.size(); ++t) {
        const TierCounts& tc = multilevel.tiers[t];
        rows.push_back({{"name", tiers[t].name}, {"slots", tiers[t].slots},
                        {"store_cost", tiers[t].store_cost}, {"restore_cost", tiers[t].restore_cost},
                        {"stores", tc.stores}, {"restores", tc.restores},
                        {"bytes_moved", tc.bytes_moved}, {"cost", tc.cost}});
      }
      j["tiers"] = rows;
      j["slot_bytes"] = slot_bytes;
      j["predicted_time"] = multilevel.predicted_time;
      j["baseline_fastest_tier_time"] = revolve_fastest_tier_time(o.steps, tiers);
      j["baseline_all_slots_time"] = revolve_all_slots_time(o.steps, tiers);
      j["binomial_slots"] = static_cast<MultilevelSchedule&>(*schedule).binomial_slots();
    }
    if (o.strategy == "online") {
      j["offline_forward_steps"] = offline;
      j["ratio"] = static_cast<double>(c.forward_steps) / static_cast<double>(offline);
    }
    if (o.actions) j["actions"] = listed;
    std::cout << j.dump() << '\n';
    return;
  }
  std::ostringstream ratio;
  ratio << std::fixed << std::setprecision(3) << c.recompute_ratio;
  const auto row = [](const std::string& name, const std::string& value, const std::string& unit) {
    std::cout << "  " << std::left << std::setw(18) << name << std::right << std::setw(14) << value
              << "  " << unit << '\n';
  };
  std::cout << "schedule: " << o.strategy << ", " << o.steps << " time steps, " << snaps
            << " checkpoint slots\n";
  row("forward steps", std::to_string(c.forward_steps), "steps (advances + reverses)");
  row("advances", std::to_string(c.advances), "steps");
  row("reverses", std::to_string(c.reverses), "adjoint steps");
  row("recompute ratio", ratio.str(), "forward steps per time step");
  row("stores", std::to_string(c.stores), "state copies");
  row("restores", std::to_string(c.restores), "state copies (incl. recreating step 0)");
  row("peak slots", std::to_string(c.peak_slots), "checkpoints held at once");
  row("repetition number", std::to_string(repetitions), "max. advances of any one step");
  if (o.strategy == "online") {
    std::ostringstream r;
    r << std::fixed << std::setprecision(4) << static_cast<double>(c.forward_steps) / static_cast<double>(offline);
    row("offline optimum", std::to_string(offline), "forward steps had N been known");
    row("online/offline", r.str(), "ratio of forward steps");
  }
  if (o.strategy == "multilevel") {
    const auto num = [](double v) { std::ostringstream s; s << std::setprecision(10) << v; return s.str(); };
    for (std::size_t t = 0; t < tiers.size(); ++t) {
      const TierCounts& tc = multilevel.tiers[t];
      std::cout << "  tier " << tiers[t].name << " (" << tiers[t].slots << " slots): " << tc.stores
                << " stores, " << tc.restores << " restores, " << num(tc.bytes_moved) << " bytes moved\n";
    }
    row("predicted time", num(multilevel.predicted_time), "forward-step units");
    row("fastest tier only", num(revolve_fastest_tier_time(o.steps, tiers)), "forward-step units (Revolve baseline)");
    row("all slots, no tiers", num(revolve_all_slots_time(o.steps, tiers)), "forward-step units (Revolve baseline)");
  }
}

}  // namespace

void register_schedule(CLI::App& app) {
  auto opts = std::make_shared<ScheduleOptions>();
  CLI::App* sub = app.add_subcommand("schedule", "Count (and list) a checkpoint schedule");
  add_integer(sub, "--steps", opts->steps, at_least(1), "Time steps N to reverse");
  add_integer(sub, "--snaps", opts->snaps, at_least(1), "Checkpoint slots S (the initial state is free)");
  sub->add_option("--strategy", opts->strategy, "Checkpointing strategy")
      ->check(CLI::IsMember(strategies()))
      ->capture_default_str();
  sub->add_flag("--json", opts->json, "Print one JSON object");
  sub->add_flag("--actions", opts->actions, "List the action stream, one action per line");
  sub->add_option("--tier", opts->tiers,
                  "multilevel: a tier NAME:SLOTS:STORE_COST:RESTORE_COST (costs in forward steps), "
                  "repeatable, fastest first");
  add_number(sub, "--slot-bytes", opts->slot_bytes, non_negative(), "",
             "multilevel: bytes per checkpoint, for the bytes moved (default 1 MiB)");
  // Benchmark aid, documented in profiling/online_ratios.sh: --strategy online --sweep NMAX.
  add_integer(sub, "--sweep", opts->sweep, int_within(1, 100000000), "online: sweep N = 1..NMAX, report the worst ratio")
      ->group("");
  sub->callback([opts] { run(*opts); });
}

}  // namespace revwave::app
