// revwave plan: what `revwave gradient` with the same options would do, without running it: the
// slots, the step counts, the predicted peak memory and the predicted time.
//
// A subcommand of its own rather than more options on `revwave schedule`: schedule counts an
// abstract schedule (--steps, --snaps), plan takes the gradient's own options (a model, a record,
// --tn, --checkpoint-memory, ...) and goes through the gradient's own preparation and
// plan_strategy, so that its slots and step counts are those the gradient will run.
#include <omp.h>

#include <unistd.h>
#include <array>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "gradient_job.hpp"
#include "revwave/core/cuda_info.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/schedule/multilevel.hpp"
#include "revwave/schedule/revolve.hpp"
#include "revwave/schedule/tier_split.hpp"
#include "revwave/setup/gradient_run.hpp"
#include "revwave/setup/survey_gradient_run.hpp"
#include "run_report.hpp"
#include "survey_commands.hpp"
#include "survey_options.hpp"

namespace revwave::app {
namespace {

// Throughput the time prediction assumes (docs/commands.md, "revwave plan"): measured with
// profiling/forward_throughput.sh and profiling/checkpoint_bench.py (docs/benchmarks.md), float32,
// space order 8. CPU: 0.99 GPts/s forward on 2 threads, so 0.5 GPts/s per thread; a reverse step
// (adjoint + imaging) costs 2.5 forward steps. GPU (H200): forward 147, fused reverse 71 GPts/s.
// Double precision is taken as twice as slow. A prediction, not a measurement of this machine.
constexpr double cpu_forward_points_per_thread_second = 0.5e9;
constexpr double cpu_reverse_cost = 2.5;
constexpr double gpu_forward_points_per_second = 147e9;
constexpr double gpu_reverse_points_per_second = 71e9;

// The forward steps a plan predicts over `steps`: the schedule's count; online's stop rule decides as
// it runs, and no run of it takes fewer than the offline optimum for its slots, which stands for it.
// What an online plan's counts are: a bound where the run goes to the record's end, a reference
// where --stop-energy may end it sooner (fewer steps, fewer forward steps).
std::string online_bound(const StrategyOptions& o) {
  if (o.stop_energy)
    return "a reference: the offline optimum for these slots over the whole record; --stop-energy may end the run "
           "sooner, with fewer steps";
  return "at least: online's stop rule decides as it runs, and no run takes fewer than the offline optimum for its "
         "slots, which these counts are";
}

index_t planned_forward_steps(const StrategyPlan& plan, index_t steps) {
  // Multilevel with its tiers' costs given: the schedule the run would make from them (it simulates
  // its candidates: seconds at a few thousand steps). Costs measured at start-up are 0 here, and
  // with every cost 0 the schedule uses every slot (multilevel.hpp): the count below, as online's.
  if (plan.strategy == Strategy::multilevel && !plan.measure_costs) {
    const MultilevelSchedule schedule(steps, plan.tiers);
    return static_cast<index_t>(optimal_forward_steps(steps, schedule.binomial_slots()));
  }
  if (plan.strategy != Strategy::online && plan.strategy != Strategy::multilevel) return plan.predicted_forward_steps;
  return static_cast<index_t>(optimal_forward_steps(steps, plan.snaps));
}

// What a multilevel plan's counts are where its tiers' costs are measured when the run starts.
constexpr const char* multilevel_bound =
    "at least: the tiers' costs are measured when the run starts, and with them the schedule may use fewer slots "
    "and take more forward steps; these counts use every slot";

// This process's resident memory now (Linux: /proc/self/statm), 0 where it cannot be read.
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

// The backend planned for. A plan runs nothing, so it plans for the CUDA backend on a machine
// without a usable GPU (or a build without CUDA) too, for the device memory --device-memory gives.
BackendChoice plan_backend(const ProblemOptions& p) {
  if (p.backend != Backend::cuda || cuda_device_count() > 0) return resolve_backend(p.backend);
  if (!p.device_memory) {
    throw InputError(
        "plan --backend cuda without a usable GPU here needs --device-memory BYTES, the memory of the "
        "card it plans for (" +
        cuda_unavailable_reason() + ")");
  }
  return {Backend::cuda, "planned for a GPU this machine lacks", cuda_unavailable_reason()};
}

// On the CUDA backend, where the run's slots or history go: what CudaPropagator's make_checkpoints
// and allocate_history decide (schedule/tier_split.hpp), for the device budget --device-memory
// gives, or else the device's free memory now less the run's fields (`run_fields`: u, u_prev, lam,
// lam_prev, dJ/dm, and the C-PML's u[n+1] where the grid has one) and the propagator's margin (the
// run measures it again). None where the run decides otherwise (compressed slots, multilevel
// tiers, --store disk, online).
struct DevicePlacement {
  std::size_t device_budget = 0, host_budget = 0;
  std::string history_tier;                  // full: where the history goes
  index_t device_slots = 0, host_slots = 0;  // revolve: its slots' split, in a sentence
  std::string tiers;
};

nlohmann::json to_json(const DevicePlacement& p) {
  nlohmann::json c = {{"device_budget", p.device_budget}, {"host_budget", p.host_budget}};
  if (!p.history_tier.empty()) {
    c["history_tier"] = p.history_tier;
  } else {
    c["device_slots"] = p.device_slots;
    c["host_slots"] = p.host_slots;
    c["tiers"] = p.tiers;
  }
  return c;
}

template <class T>
std::optional<DevicePlacement> device_placement(const GradientJobOptions& o, const StrategyPlan& plan,
                                                std::size_t field_bytes, int run_fields, std::size_t history_step,
                                                index_t steps, index_t& forward) {
  const DeviceBudgets b = device_budgets(o.problem);
  std::size_t device = b.device_memory;
  if (device == 0) {
    std::size_t free_b = 0;  // of the device the run would take (--device)
    for (const CudaDeviceInfo& d : cuda_devices())
      if (d.ordinal == b.device) free_b = d.free_memory;
    const std::size_t budget = device_budget_from_free(free_b);
    const std::size_t fields = static_cast<std::size_t>(run_fields) * field_bytes;
    device = budget > fields ? budget - fields : 0;
  }
  DevicePlacement c;
  c.device_budget = device;
  c.host_budget = b.host_memory > 0 ? b.host_memory : available_memory_bytes() / 2;
  if (plan.strategy == Strategy::full) {
    c.history_tier = history_tier(steps, history_step, device, c.host_budget);
    return c;
  }
  if (plan.strategy != Strategy::revolve || plan.compression.enabled() ||
      o.strategy.store.value_or(StoreKind::memory) != StoreKind::memory)
    return std::nullopt;
  const DeviceCheckpointPlan dp =
      plan_device_checkpoints(steps, plan.snaps, plan.slot_bytes, device, c.host_budget, b.min_host_spacing);
  c.device_slots = dp.split.device_slots;
  c.host_slots = dp.split.host_slots;
  c.tiers = dp.split.choice;
  forward = dp.predicted_forward_steps;
  return c;
}

// A layer point of the C-PML costs 1 + c interior points' work (its memory variables, and on the GPU
// its separate passes), so a step costs interior x (padded + c layer) / padded points. CPU: the step
// at 100^3 with a 10-point layer is 2.17 times the sponge's since its rows run inside the sweep
// (`revwave_cpu_step_bench 100 8 2 cpml`, docs/physics/boundaries.md; 2.30 before), c = 2.8; GPU: at
// 256^3 with a 20-point layer 2.8 times (the H200's, #46), c = 5.1.
constexpr double cpu_cpml_point_cost = 2.8;
constexpr double gpu_cpml_point_cost = 5.1;

// The interior points a step's cost is worth (the throughputs above are interior points per second).
double step_points(const Grid& g, Backend backend) {
  const double interior = double(g.shape[0]) * double(g.shape[1]) * double(g.shape[2]);
  if (!g.cpml || g.nbl == 0) return interior;
  const double padded = double(g.padded(0)) * double(g.padded(1)) * double(g.padded(2));
  const double c = backend == Backend::cuda ? gpu_cpml_point_cost : cpu_cpml_point_cost;
  return interior * (padded + c * (padded - interior)) / padded;
}

// The job as the gradient would prepare it. Where the options describe the model (the built-in one or
// --velocity, no density, no record or true model to read), arithmetic alone: no model is made, and
// `models` is what the gradient would hold of them (the true and the starting model, a double a point).
template <class T>
GradientJob<T> plan_job(const GradientJobOptions& o, std::size_t& models) {
  models = 0;
  const bool described = o.observed.empty() && !o.observed_record && o.true_model.empty() && !o.true_model_values &&
                         describable(o.problem);
  if (!described) return prepare_gradient_job<T>(o);
  GradientJob<T> job;
  double vmax = 0;
  job.start = describe_setup(o.problem, vmax);
  job.time = make_time(o.problem, job.start.grid, vmax, 1.0);
  job.observed_source = ObservedSource::modelled;
  models = checked_bytes({static_cast<std::size_t>(job.start.grid.interior_points()), 2, sizeof(double)},
                         "the true and the starting model");
  return job;
}

// What `revwave plan` predicts, of one shot's gradient or of a survey's: the JSON (--json) and the
// text report both render it.
struct PlanSummary {
  std::array<index_t, 3> shape{};
  int space_order = 0;
  Precision precision = Precision::float32;
  BackendChoice backend;
  std::optional<std::string> survey;  // a survey's description, its shots and its readers' warnings
  std::size_t shots = 0;
  std::vector<std::string> warnings;
  index_t steps = 0;  // a survey's: all shots'
  double dt = 0;      // the simulation's (the record's dt / substeps)
  index_t substeps = 1;
  std::optional<double> step_points;  // one shot's: interior points a step's cost is worth
  Strategy strategy = Strategy::full;
  std::string choice;
  index_t snaps = 0, slots = 0;
  std::size_t slot_bytes = 0, checkpoint_bytes = 0;
  index_t forward_steps = 0, advances = 0, observed_steps = 0;
  std::string forward_steps_bound;  // empty where the count is the run's
  std::string step_counts;
  double predicted_peak_bytes = 0;
  std::vector<std::pair<std::string, std::size_t>> peak_parts;
  // Whether this machine's available memory holds what the run would add to this process: the plan is
  // for any machine (a CPU node larger than this laptop), so it says so instead of refusing. Only
  // where the slots are this host's memory (the CPU): a GPU run's device slots are not, and its
  // split is not always predicted, so no claim is made for it.
  std::optional<double> needed_here;
  double available_here = 0;
  double predicted_seconds = 0;
  std::string prediction;
  std::optional<DevicePlacement> placement;
  std::string placement_note;  // on the GPU where the run places its slots itself
};

// The machine's part of a plan: `needed` bytes beside what this process holds now.
void put_machine(PlanSummary& s, const BackendChoice& backend, double needed) {
  if (!backend_capabilities(backend.kind).slots_in_host_memory()) return;
  s.needed_here = needed;
  s.available_here = double(available_memory_bytes());
}

nlohmann::json to_json(const PlanSummary& s) {
  nlohmann::json j;
  j["command"] = "plan";
  if (s.survey) {
    j["survey"] = *s.survey;
    j["shots"] = s.shots;
    j["warnings"] = s.warnings;
  }
  j["shape"] = s.shape;
  j["space_order"] = s.space_order;
  j["precision"] = to_string(s.precision);
  put_backend(j, s.backend);
  j["steps"] = s.steps;
  j["dt"] = s.dt;
  j["substeps"] = s.substeps;
  if (s.step_points) j["step_points"] = *s.step_points;
  j["strategy"] = to_string(s.strategy);
  j["choice"] = s.choice;
  j["snaps"] = s.snaps;
  j["slots"] = s.slots;
  j["slot_bytes"] = s.slot_bytes;
  j["checkpoint_bytes"] = s.checkpoint_bytes;
  j["forward_steps"] = s.forward_steps;
  if (!s.forward_steps_bound.empty()) j["forward_steps_bound"] = s.forward_steps_bound;
  j["advances"] = s.advances;
  j["reverse_steps"] = s.steps;
  j["observed_steps"] = s.observed_steps;
  j["step_counts"] = s.step_counts;
  j["predicted_peak_bytes"] = s.predicted_peak_bytes;
  if (s.needed_here) {
    j["this_machine"] = {{"available_bytes", s.available_here},
                         {"needed_bytes", *s.needed_here},
                         {"holds_the_run", *s.needed_here <= s.available_here}};
  }
  for (const auto& [part, bytes] : s.peak_parts) j["predicted_peak_parts"][part] = bytes;
  j["predicted_seconds"] = s.predicted_seconds;
  j["prediction"] = s.prediction;
  if (s.placement) {
    j["placement"] = to_json(*s.placement);
    j["cuda"] = j["placement"];  // the old key, kept for one release (CHANGELOG: Deprecated)
  } else if (!s.placement_note.empty()) {
    j["cuda_note"] = s.placement_note;
  }
  return j;
}

template <class T>
PlanSummary plan_summary(GradientJobOptions& o) {
  // As run_gradient_job, up to the plan: the same backend, inputs, working set and strategy.
  const BackendChoice backend = plan_backend(o.problem);
  refuse_cuda_options_on_cpu(o.problem, backend.kind);
  refuse_shots_at_once_for_one_shot(o.problem, "plan (of one shot's gradient)");
  o.strategy.backend = backend.kind;
  o.strategy.check_host_memory = false;  // a plan for any machine: it says whether this one holds the run
  apply_threads(o.problem.threads);
  require_data_for_user_model(o, false, "a gradient");
  require_density_for_density_gradient(o);
  std::size_t models = 0;
  const GradientJob<T> job = plan_job<T>(o, models);
  check_backend_runs(backend.kind, job.start.model.physics());  // as run_on_backend refuses the run
  const Grid& grid = job.start.grid;
  const int fields = gradient_working_fields(backend.kind, o), records = 4;
  const TimeAxis run_time = simulation_time(job);  // the record's axis unless it takes substeps
  const std::size_t working = run_bytes(job.start, run_time, sizeof(T), fields, records);
  const StrategyPlan plan = plan_strategy(o.strategy, run_time.steps, physics_state(grid, job.start.model.physics()),
                                          field_layout<T>(grid), working);

  const index_t steps = run_time.steps;
  const index_t observed_steps = job.observed_source == ObservedSource::modelled ? steps : 0;
  index_t forward = planned_forward_steps(plan, steps);
  const std::optional<DevicePlacement> cuda =
      backend.kind == Backend::cuda
          ? device_placement<T>(o, plan, grid.template field_bytes<T>(), grid.cpml ? 6 : 5,
                                history_step_bytes<T>(grid, job.start.model.physics()), steps, forward)
          : std::nullopt;
  // A checkpointed reverse step applies the forward operator once and is counted in the forward
  // steps; full's reverse steps read the stored history, and its forward steps are all advances.
  const bool full = plan.strategy == Strategy::full;
  const index_t advances = full ? forward : std::max<index_t>(0, forward - steps);
  // What this process holds now (the program, the models the gradient also holds) plus the working
  // set plus the checkpoints held in memory (disk slots and tiers other than memory hold none here).
  const bool slots_in_memory =
      plan.strategy == Strategy::full ||
      (plan.strategy != Strategy::multilevel && o.strategy.store.value_or(StoreKind::memory) == StoreKind::memory);
  std::size_t checkpoint_memory = slots_in_memory ? plan.storage_bytes : 0;
  if (cuda) {  // host memory holds the slots or the history spilled to pinned memory only
    checkpoint_memory = cuda->history_tier.empty() ? static_cast<std::size_t>(cuda->host_slots) * plan.slot_bytes
                                                   : (cuda->history_tier == "pinned-host" ? plan.storage_bytes : 0);
  }
  if (plan.strategy == Strategy::multilevel) {
    for (std::size_t t = 0; t < plan.tiers.size(); ++t)
      if (plan.tier_kinds[t] == TierKind::memory)
        checkpoint_memory += static_cast<std::size_t>(plan.tiers[t].slots) * plan.slot_bytes;
  }
  const std::size_t base = resident_bytes() + models;
  const double peak = double(base) + double(working) + double(checkpoint_memory);

  const double points = step_points(grid, backend.kind);
  const double slower = sizeof(T) == 8 ? 2.0 : 1.0;
  double seconds = 0;
  if (backend.kind == Backend::cuda) {
    seconds = slower * points *
              (double(observed_steps + advances) / gpu_forward_points_per_second +
               double(steps) / gpu_reverse_points_per_second);
  } else {
    const double rate = cpu_forward_points_per_thread_second * omp_get_max_threads();
    seconds = slower * points * (double(observed_steps + advances) + cpu_reverse_cost * double(steps)) / rate;
  }

  PlanSummary s;
  s.shape = grid.shape;
  s.space_order = grid.space_order;
  s.precision = o.problem.precision;
  s.backend = backend;
  s.steps = steps;
  s.dt = run_time.dt;
  s.substeps = job.substeps;
  s.step_points = points;  // the C-PML's layer weighed in
  s.strategy = plan.strategy;
  s.choice = plan.choice;
  s.snaps = plan.snaps;
  s.slots = plan.slots;
  s.slot_bytes = plan.slot_bytes;
  s.checkpoint_bytes = full ? 0 : plan.storage_bytes;
  s.forward_steps = forward;
  if (plan.strategy == Strategy::online) s.forward_steps_bound = online_bound(o.strategy);
  if (plan.strategy == Strategy::multilevel && plan.measure_costs) s.forward_steps_bound = multilevel_bound;
  s.advances = advances;
  s.observed_steps = observed_steps;
  s.step_counts = full ? "forward_steps = advances (full's reverse_steps read the stored history and apply no "
                         "forward operator); observed_steps (modelling the observed data in the true model) come on top"
                       : "forward_steps = advances + reverse_steps (each reverse step applies the forward operator "
                         "once); observed_steps (modelling the observed data in the true model) come on top";
  s.predicted_peak_bytes = peak;
  put_machine(s, backend, double(models) + double(working) + double(checkpoint_memory));
  s.peak_parts = {{"process_now", base - models},
                  {"models", models},
                  {"working_set", working},
                  {"checkpoints_in_memory", checkpoint_memory}};
  s.predicted_seconds = seconds;
  s.prediction =
      "nothing was run: peak = this process's resident memory now + the models a gradient holds where none was read + the working set + the checkpoints held in memory; "
      "time from documented throughput (CPU 0.5 GPts/s per thread forward, reverse 2.5x; GPU 147 / 71 GPts/s; a "
      "C-PML layer point 1 + 2.8 interior points on the CPU, 1 + 5.1 on the GPU), not measured here";
  s.placement = cuda;
  if (!cuda && backend.kind == Backend::cuda)
    s.placement_note =
        "on the GPU the run places compressed, tiered, disk and online slots itself: their split is not predicted";
  return s;
}

// A survey's plan (`plan --observed survey.sgy`, a directory, several records, --src-grid, ...): the
// survey read and checked as `gradient` reads it, then each shot on its window as its gradient would
// run: its steps (its records' substeps included), its slots and forward steps, summed over the shots;
// the working set and checkpoints of the largest window, which the shot engine allocates once; the
// gradient's sums (a value a model point) and what this process holds now (the model and the data).
template <class T>
PlanSummary survey_plan_summary(GradientJobOptions& o, const SurveyOptions& so) {
  const BackendChoice backend = plan_backend(o.problem);
  if (backend.kind == Backend::cuda && cuda_device_count() == 0)
    throw InputError("plan of a survey on --backend cuda needs the GPU it plans for here: plan one shot's record");
  o.strategy.check_host_memory = false;  // a plan for any machine: it says whether this one holds the run
  SurveyGradientJob job = prepare_survey_gradient<T>(o, so, 0, {});
  check_backend_runs(backend.kind, job.inputs.model.physics());
  const Grid& grid = job.inputs.grid;
  const Survey& survey = job.inputs.survey;
  const int fields = working_fields(backend.kind, Workload::gradient), records = 4;
  index_t steps = 0, forward = 0, advances = 0, substeps = 1;
  std::size_t working = 0, checkpoints = 0, slot_bytes = 0;
  double step_seconds = 0;
  StrategyPlan largest;
  std::map<index_t, index_t> forward_by_steps;
  const double slower = sizeof(T) == 8 ? 2.0 : 1.0;
  for (const Shot& shot : survey.shots) {
    const ModelWindow w = shot_window(grid, shot.acquisition, so.aperture);
    ProblemSetup window;
    window.grid = window_grid(grid, w);
    window.model = job.inputs.model;  // its density decides the physics' memory
    window.acquisition = shot.acquisition;
    const TimeAxis time = simulation_time(shot);
    const std::size_t shot_working = run_bytes(window, time, sizeof(T), fields, records);
    const StrategyPlan plan =
        plan_strategy(o.strategy, time.steps, physics_state(window.grid, job.inputs.model.physics()),
                      field_layout<T>(window.grid), shot_working);
    const bool full = plan.strategy == Strategy::full;
    steps += time.steps;
    // Shots of one length share their count (a multilevel schedule is made once per length).
    const auto known = forward_by_steps.find(time.steps);
    const index_t shot_forward = known != forward_by_steps.end()
                                     ? known->second
                                     : forward_by_steps[time.steps] = planned_forward_steps(plan, time.steps);
    forward += shot_forward;
    const index_t shot_advances = full ? shot_forward : std::max<index_t>(0, shot_forward - time.steps);
    advances += shot_advances;
    substeps = std::max(substeps, shot.substeps);
    if (shot_working + plan.storage_bytes >= working + checkpoints) {
      working = shot_working;
      largest = plan;
      slot_bytes = plan.slot_bytes;
      checkpoints = plan.storage_bytes;
    }
    const double points = step_points(window.grid, backend.kind);
    // Data modelled in the true model run first, on the whole grid (model_shot_data).
    const double modelled = job.inputs.has_truth ? step_points(grid, backend.kind) * double(time.steps) : 0.0;
    const double advance = double(shot_advances);
    if (backend.kind == Backend::cuda) {
      step_seconds +=
          slower *
          (points * (advance / gpu_forward_points_per_second + double(time.steps) / gpu_reverse_points_per_second) +
           modelled / gpu_forward_points_per_second);
    } else {
      const double rate = cpu_forward_points_per_thread_second * omp_get_max_threads();
      step_seconds += slower * (points * (advance + cpu_reverse_cost * double(time.steps)) + modelled) / rate;
    }
  }
  const std::size_t sums =
      checked_bytes({static_cast<std::size_t>(grid.interior_points()), sizeof(double)}, "the gradient's sums");
  const std::size_t base = resident_bytes();
  const double peak = double(base) + double(working) + double(checkpoints) + double(sums);
  PlanSummary s;
  s.survey = survey.description;
  s.shots = survey.shots.size();
  s.warnings = job.inputs.warnings;
  s.shape = grid.shape;
  s.space_order = grid.space_order;
  s.precision = o.problem.precision;
  s.backend = backend;
  s.steps = steps;
  s.dt = simulation_time(survey.shots.front()).dt;
  s.substeps = substeps;
  s.strategy = largest.strategy;
  s.choice = largest.choice + " (the largest window's)";
  s.snaps = largest.snaps;
  s.slots = largest.slots;
  s.slot_bytes = slot_bytes;
  s.checkpoint_bytes = largest.strategy == Strategy::full ? 0 : checkpoints;
  s.forward_steps = forward;
  if (largest.strategy == Strategy::online) s.forward_steps_bound = online_bound(o.strategy);
  if (largest.strategy == Strategy::multilevel && largest.measure_costs) s.forward_steps_bound = multilevel_bound;
  s.advances = advances;
  s.observed_steps = job.inputs.has_truth ? steps : 0;
  s.step_counts = "summed over the shots, each as one shot's plan counts them";
  s.predicted_peak_bytes = peak;
  put_machine(s, backend, double(working) + double(checkpoints) + double(sums));
  s.peak_parts = {
      {"process_now", base}, {"working_set", working}, {"checkpoints_in_memory", checkpoints}, {"gradient_sums", sums}};
  s.predicted_seconds = step_seconds;
  s.prediction =
      "nothing was run: peak = this process's resident memory now (the model and the data read) + the largest "
      "window's working set and checkpoints + the gradient's sums; time from documented throughput, one shot "
      "after another on one process, not measured here";
  return s;
}

// The plan as text: the problem, the strategy and its counts, where a GPU run's slots go, the
// predicted peak and time.
void print_plan(const PlanSummary& s) {
  const auto num = [](double v, int digits = 3) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    return std::string(text);
  };
  const bool full_history = s.strategy == Strategy::full;
  const std::string& bound = s.forward_steps_bound;
  const bool at_least = bound.rfind("at least", 0) == 0;
  std::cout << "revwave plan (a prediction: nothing is run): " << s.shape[0] << " x " << s.shape[1] << " x "
            << s.shape[2] << " points, " << s.steps << " time steps (N) of dt = " << num(s.dt * 1e3, 6) << " ms, "
            << to_string(s.precision) << " on " << backend_words(s.backend, false) << "\n";
  if (s.survey) {
    print_warnings(s.warnings);
    std::cout << "  survey          " << s.shots << " shots (" << *s.survey << "); N is all shots' steps\n";
  }
  std::cout << "  strategy        " << s.choice << "\n"
            << "  slots           " << s.slots << " checkpoints of " << format_bytes(double(s.slot_bytes)) << " ("
            << format_bytes(double(s.checkpoint_bytes)) << ")\n"
            << "  forward steps   " << (at_least ? "at least " : "") << s.forward_steps << " = " << s.advances
            << " advances"
            << (full_history
                    ? ""
                    : " + the " + std::to_string(s.steps) + " reverse steps (each also applies the forward operator)")
            << "; " << num(double(s.forward_steps) / double(s.steps), 4) << " x N"
            << (bound.empty()                        ? ""
                : s.strategy == Strategy::multilevel ? " (with every slot: the tiers' costs, measured at start-up, "
                                                       "may choose fewer)"
                : at_least                           ? " (online decides as it runs: the offline optimum for its slots)"
                           : " (online: the offline optimum for its slots; --stop-energy may end "
                             "the run sooner)")
            << "\n"
            << "  reverse steps   " << s.steps << " (one per time step, "
            << (full_history ? "reading the stored history: not in the forward steps" : "counted in the forward steps")
            << ")\n";
  if (s.placement) {
    std::cout << "  on the GPU      ";
    if (!s.placement->history_tier.empty())
      std::cout << "the history in " << (s.placement->history_tier == "device" ? "device" : "pinned host")
                << " memory (device budget " << format_bytes(double(s.placement->device_budget)) << ")\n";
    else
      std::cout << s.placement->tiers << "\n";
  }
  if (s.observed_steps > 0)
    std::cout << "  observed data   " << s.observed_steps
              << " forward steps in the true model, beside the counts above\n";
  std::cout << "  predicted peak  " << format_bytes(s.predicted_peak_bytes)
            << (s.survey ? " (this process now + the largest window's working set and checkpoints + the sums)\n"
                         : " (this process now + models + working set + checkpoints in memory)\n")
            << "  predicted time  " << num(s.predicted_seconds)
            << " s (from documented throughput, not measured here)\n";
  if (s.needed_here && *s.needed_here > s.available_here) {
    std::cout << "  this machine    " << format_bytes(s.available_here) << " available: the run needs "
              << format_bytes(*s.needed_here) << " more, so `revwave gradient` would refuse it here\n";
  }
}

template <class T>
void run(GradientJobOptions& o, const Presentation& view, const SurveyOptions& so) {
  refuse_unused_survey_options(o.observed, false, so);
  const PlanSummary s = gradient_is_survey(o, so) ? survey_plan_summary<T>(o, so) : plan_summary<T>(o);
  if (view.json)
    print_json(to_json(s));
  else
    print_plan(s);
}

}  // namespace

void register_plan(CLI::App& app) {
  auto o = std::make_shared<GradientJobOptions>();
  CLI::App* cmd = app.add_subcommand(
      "plan",
      "Predict what `revwave gradient` with these options would do (slots, step counts, peak memory, time) without running it");
  auto view = std::make_shared<Presentation>();
  add_gradient_job_options(cmd, *o, *view, CudaOptions::all);
  // A survey as `gradient` reads or lays it out.
  auto so = std::make_shared<SurveyOptions>();
  add_origin_and_wavelet_options(cmd, *so);
  add_layout_options(cmd, *so);
  add_aperture_option(cmd, *so);
  add_segy_read_options(cmd, *so);
  cmd->get_option("--observed")->excludes(cmd->get_option("--src-grid"));
  // The gradient's --density-gradient FILE: counted (its accumulator), nothing written.
  auto density_out = std::make_shared<std::string>();
  cmd->add_option("--density-gradient", *density_out,
                  "plan the gradient that also writes dJ/drho (needs --density; nothing is written)")
      ->check(named_output());
  // A plan runs no step: it may count any number of them.
  o->problem.max_steps.reset();
  cmd->remove_option(cmd->get_option("--yes"));
  cmd->callback([o, view, so, density_out] {
    o->density_gradient = !density_out->empty();
    if (o->problem.precision == Precision::float64)
      run<double>(*o, *view, *so);
    else
      run<float>(*o, *view, *so);
  });
}

}  // namespace revwave::app
