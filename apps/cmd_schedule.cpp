// `revwave schedule`: the checkpoint schedule a run would execute, counted (and listed).
#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "revwave/errors.hpp"
#include "revwave/revolve.hpp"
#include "revwave/schedule_counts.hpp"

namespace revwave::app {
namespace {

struct ScheduleOptions {
  std::int64_t steps = 1000;
  std::int64_t snaps = 10;
  std::string strategy = "revolve";
  bool json = false;
  bool actions = false;
};

const std::vector<std::string>& strategies() {
  static const std::vector<std::string> names = {"revolve"};
  return names;
}

// All broken rules at once, one line.
void validate(const ScheduleOptions& o) {
  std::vector<std::string> errors;
  if (o.steps < 1) errors.push_back("--steps " + std::to_string(o.steps) + " must be >= 1");
  if (o.snaps < 1) errors.push_back("--snaps " + std::to_string(o.snaps) + " must be >= 1 checkpoint slot");
  if (errors.empty()) return;
  std::string line = errors[0];
  for (std::size_t i = 1; i < errors.size(); ++i) line += "; " + errors[i];
  throw InputError(line);
}

std::unique_ptr<Schedule> make_schedule(const ScheduleOptions& o) {
  if (o.strategy == "revolve") return std::make_unique<RevolveSchedule>(o.steps, o.snaps);
  throw InputError("--strategy " + o.strategy + " is not a known strategy");
}

void run(const ScheduleOptions& o) {
  validate(o);
  std::vector<std::string> listed;
  if (o.actions) {
    auto listing = make_schedule(o);
    for (Action a = listing->next(); a.kind != ActionKind::end; a = listing->next()) {
      if (o.json) listed.push_back(to_string(a)); else std::cout << to_string(a) << '\n';
    }
    if (!o.json) std::cout << "end\n";
  }
  auto schedule = make_schedule(o);
  const ScheduleCounts c = count_schedule(*schedule);
  // Griewank's r with s = S + 1 checkpoints; more than N slots change nothing.
  const std::int64_t repetitions = revolve_repetitions(o.steps, std::min(o.snaps, o.steps) + 1);

  if (o.json) {
    nlohmann::json j = {{"steps", o.steps},
                        {"snaps", o.snaps},
                        {"strategy", o.strategy},
                        {"forward_steps", c.forward_steps},
                        {"advances", c.advances},
                        {"stores", c.stores},
                        {"restores", c.restores},
                        {"reverses", c.reverses},
                        {"recompute_ratio", c.recompute_ratio},
                        {"peak_slots", c.peak_slots},
                        {"repetition_number", repetitions}};
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
  std::cout << "schedule: " << o.strategy << ", " << o.steps << " time steps, " << o.snaps
            << " checkpoint slots\n";
  row("forward steps", std::to_string(c.forward_steps), "steps (advances + reverses)");
  row("advances", std::to_string(c.advances), "steps");
  row("reverses", std::to_string(c.reverses), "adjoint steps");
  row("recompute ratio", ratio.str(), "forward steps per time step");
  row("stores", std::to_string(c.stores), "state copies");
  row("restores", std::to_string(c.restores), "state copies (incl. recreating step 0)");
  row("peak slots", std::to_string(c.peak_slots), "checkpoints held at once");
  row("repetition number", std::to_string(repetitions), "max. advances of any one step");
}

}  // namespace

void register_schedule(CLI::App& app) {
  auto opts = std::make_shared<ScheduleOptions>();
  CLI::App* sub = app.add_subcommand("schedule", "Count (and list) a checkpoint schedule");
  sub->add_option("--steps", opts->steps, "Time steps N to reverse")->capture_default_str();
  sub->add_option("--snaps", opts->snaps, "Checkpoint slots S (the initial state is free)")
      ->capture_default_str();
  sub->add_option("--strategy", opts->strategy, "Checkpointing strategy")
      ->check(CLI::IsMember(strategies()))
      ->capture_default_str();
  sub->add_flag("--json", opts->json, "Print one JSON object");
  sub->add_flag("--actions", opts->actions, "List the action stream, one action per line");
  sub->callback([opts] { run(*opts); });
}

}  // namespace revwave::app
