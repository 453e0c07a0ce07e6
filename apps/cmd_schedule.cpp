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

#include "choice_options.hpp"
#include "commands.hpp"
#include "number_options.hpp"
#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/online.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/schedule_counts.hpp"
#include "revwave/setup/schedule_summary.hpp"
#include "switch_options.hpp"

namespace revwave::app {
namespace {

struct ScheduleOptions : ScheduleRequest {
  bool json = false;
};

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
    if (ratio > w.ratio) {
      w.ratio = ratio;
      w.steps = N;
    }
    if (ratio > worst.ratio) {
      worst.ratio = ratio;
      worst.steps = N;
    }
  }
  if (o.json) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t r = 0; r < by_r.size(); ++r)
      if (by_r[r].n_from > 0)
        rows.push_back({{"repetition_number", r},
                        {"n_from", by_r[r].n_from},
                        {"n_to", by_r[r].n_to},
                        {"max_ratio", by_r[r].ratio},
                        {"worst_steps", by_r[r].steps}});
    std::cout << nlohmann::json{{"strategy", "online"},       {"snaps", o.snaps},           {"sweep_max", sweep},
                                {"worst_ratio", worst.ratio}, {"worst_steps", worst.steps}, {"by_repetition", rows}}
                     .dump()
              << '\n';
    return;
  }
  std::cout << "online vs offline forward steps, S = " << o.snaps << ", N = 1.." << sweep << ": worst ratio "
            << std::setprecision(6) << worst.ratio << " at N = " << worst.steps << '\n';
  std::cout << "   r       N from         N to    max ratio    at N\n";
  for (std::size_t r = 0; r < by_r.size(); ++r)
    if (by_r[r].n_from > 0)
      std::cout << std::setw(4) << r << std::setw(13) << by_r[r].n_from << std::setw(13) << by_r[r].n_to
                << std::setw(13) << std::fixed << std::setprecision(6) << by_r[r].ratio << std::defaultfloat
                << std::setw(8) << by_r[r].steps << '\n';
}

void run(const ScheduleOptions& o) {
  validate(o);
  if (o.sweep) {
    run_sweep(o);
    return;
  }
  const nlohmann::json j = schedule_summary(o);
  if (o.json) {
    std::cout << j.dump() << '\n';
    return;
  }
  if (o.actions) {
    for (const auto& a : j["actions"]) std::cout << a.get<std::string>() << '\n';
    std::cout << "end\n";
  }
  const std::int64_t snaps = j["snaps"].get<std::int64_t>();
  const std::int64_t repetitions = j["repetition_number"].get<std::int64_t>();
  const std::int64_t forward_steps = j["forward_steps"].get<std::int64_t>();
  std::ostringstream ratio;
  ratio << std::fixed << std::setprecision(3) << j["recompute_ratio"].get<double>();
  const auto row = [](const std::string& name, const std::string& value, const std::string& unit) {
    std::cout << "  " << std::left << std::setw(18) << name << std::right << std::setw(14) << value << "  " << unit
              << '\n';
  };
  std::cout << "schedule: " << to_string(o.strategy) << ", " << o.steps << " time steps, " << snaps
            << " checkpoint slots\n";
  row("forward steps", std::to_string(forward_steps),
      "steps (advances + reverses; a reverse step applies the forward operator too)");
  row("advances", std::to_string(j["advances"].get<std::int64_t>()), "steps");
  row("reverses", std::to_string(j["reverses"].get<std::int64_t>()),
      "adjoint steps (one per time step, inside the forward steps)");
  row("recompute ratio", ratio.str(), "forward steps per time step");
  row("stores", std::to_string(j["stores"].get<std::int64_t>()), "state copies");
  row("restores", std::to_string(j["restores"].get<std::int64_t>()), "state copies (incl. recreating step 0)");
  row("peak slots", std::to_string(j["peak_slots"].get<std::int64_t>()), "checkpoints held at once");
  row("repetition number", std::to_string(repetitions), "max. advances of any one step");
  if (o.strategy == Strategy::online) {
    std::ostringstream r;
    const std::int64_t offline = j["offline_forward_steps"].get<std::int64_t>();
    r << std::fixed << std::setprecision(4) << static_cast<double>(forward_steps) / static_cast<double>(offline);
    row("offline optimum", std::to_string(offline), "forward steps had N been known");
    row("online/offline", r.str(), "ratio of forward steps");
  }
  if (o.strategy == Strategy::multilevel) {
    const auto num = [](double v) {
      std::ostringstream s;
      s << std::setprecision(10) << v;
      return s.str();
    };
    for (const auto& t : j["tiers"]) {
      std::cout << "  tier " << t["name"].get<std::string>() << " (" << t["slots"].get<std::int64_t>()
                << " slots): " << t["stores"].get<std::int64_t>() << " stores, " << t["restores"].get<std::int64_t>()
                << " restores, " << num(t["bytes_moved"].get<double>()) << " bytes moved\n";
    }
    row("predicted time", num(j["predicted_time"].get<double>()), "forward-step units");
    row("fastest tier only", num(j["baseline_fastest_tier_time"].get<double>()),
        "forward-step units (Revolve baseline)");
    row("all slots, no tiers", num(j["baseline_all_slots_time"].get<double>()),
        "forward-step units (Revolve baseline)");
  }
}

}  // namespace

void register_schedule(CLI::App& app) {
  auto opts = std::make_shared<ScheduleOptions>();
  CLI::App* sub = app.add_subcommand("schedule", "Count (and list) a checkpoint schedule");
  add_integer(sub, "--steps", opts->steps, at_least(1), "Time steps N to reverse");
  add_integer(sub, "--snaps", opts->snaps, at_least(1), "Checkpoint slots S (the initial state is free)");
  add_choice(sub, "--strategy", opts->strategy, parse_strategy, {"revolve", "multilevel", "online"},
             "Checkpointing strategy");
  add_switch(sub, "--json", opts->json, "Print one JSON object");
  add_switch(sub, "--actions", opts->actions, "List the action stream, one action per line");
  sub->add_option(
      "--tier", opts->tiers,
      "multilevel: a tier NAME:SLOTS:STORE_COST:RESTORE_COST, NAME memory, pinned or disk (as gradient takes it; costs in forward steps), "
      "repeatable, fastest first");
  add_number(sub, "--slot-bytes", opts->slot_bytes, non_negative(), "",
             "multilevel: bytes per checkpoint, for the bytes moved (default 1 MiB)");
  // Benchmark aid, documented in profiling/online_ratios.sh: --strategy online --sweep NMAX.
  add_integer(sub, "--sweep", opts->sweep, int_within(1, 100000000),
              "online: sweep N = 1..NMAX, report the worst ratio")
      ->group("");
  sub->callback([opts] { run(*opts); });
}

}  // namespace revwave::app
