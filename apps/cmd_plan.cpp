// revwave plan: what `revwave gradient` with the same options would do, without running it: the
// slots, the step counts, the predicted peak memory and the predicted time.
//
// A subcommand of its own rather than more options on `revwave schedule`: schedule counts an
// abstract schedule (--steps, --snaps), plan takes the gradient's own options (a model, a record,
// --tn, --checkpoint-memory, ...) and goes through the gradient's own preparation and
// plan_strategy, so that its slots and step counts are those the gradient will run.
#include <omp.h>

#include <unistd.h>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>

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
// run measures it again). Null where the run decides otherwise (compressed slots,
// multilevel tiers, --store disk, online).
template <class T>
nlohmann::json device_placement(const GradientJobOptions& o, const StrategyPlan& plan, std::size_t field_bytes,
                                int run_fields, std::size_t history_step, index_t steps, index_t& forward) {
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
  const std::size_t host = b.host_memory > 0 ? b.host_memory : available_memory_bytes() / 2;
  nlohmann::json c = {{"device_budget", device}, {"host_budget", host}};
  if (plan.strategy == Strategy::full) {
    c["history_tier"] = history_tier(steps, history_step, device, host);
    return c;
  }
  if (plan.strategy != Strategy::revolve || plan.compression.enabled() ||
      o.strategy.store.value_or(StoreKind::memory) != StoreKind::memory)
    return nullptr;
  const DeviceCheckpointPlan dp =
      plan_device_checkpoints(steps, plan.snaps, plan.slot_bytes, device, host, b.min_host_spacing);
  c["device_slots"] = dp.split.device_slots;
  c["host_slots"] = dp.split.host_slots;
  c["tiers"] = dp.split.choice;
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

// Whether this machine's available memory holds what the run would add to this process: the plan is
// for any machine (a CPU node larger than this laptop), so it says so instead of refusing.
nlohmann::json this_machine(double needed) {
  const double here = double(available_memory_bytes());
  return {{"available_bytes", here}, {"needed_bytes", needed}, {"holds_the_run", needed <= here}};
}

template <class T>
nlohmann::json plan_summary(GradientJobOptions& o) {
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
  const Grid& grid = job.start.grid;
  const int fields = gradient_working_fields(backend.kind, o), records = 4;
  const TimeAxis run_time = simulation_time(job);  // the record's axis unless it takes substeps
  const std::size_t working = run_bytes(job.start, run_time, sizeof(T), fields, records);
  const StrategyPlan plan = plan_strategy(
      o.strategy, run_time.steps, physics_state(grid, job.start.model.has_density()), field_layout<T>(grid), working);

  const index_t steps = run_time.steps;
  const index_t observed_steps = job.observed_source == ObservedSource::modelled ? steps : 0;
  index_t forward = planned_forward_steps(plan, steps);
  const nlohmann::json cuda =
      backend.kind == Backend::cuda
          ? device_placement<T>(o, plan, grid.template field_bytes<T>(), grid.cpml ? 6 : 5,
                                history_step_bytes<T>(grid, job.start.model.has_density()), steps, forward)
          : nlohmann::json(nullptr);
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
  if (!cuda.is_null()) {  // host memory holds the slots or the history spilled to pinned memory only
    checkpoint_memory = cuda.contains("host_slots") ? cuda["host_slots"].get<std::size_t>() * plan.slot_bytes
                                                    : (cuda["history_tier"] == "pinned-host" ? plan.storage_bytes : 0);
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

  nlohmann::json j;
  j["command"] = "plan";
  j["shape"] = grid.shape;
  j["space_order"] = grid.space_order;
  j["precision"] = to_string(o.problem.precision);
  put_backend(j, backend);
  j["steps"] = steps;
  j["dt"] = run_time.dt;  // the simulation's (the record's dt / substeps)
  j["substeps"] = job.substeps;
  j["step_points"] = points;  // interior points a step's cost is worth (the C-PML's layer weighed in)
  j["strategy"] = to_string(plan.strategy);
  j["choice"] = plan.choice;
  j["snaps"] = plan.snaps;
  j["slots"] = plan.slots;
  j["slot_bytes"] = plan.slot_bytes;
  j["checkpoint_bytes"] = plan.strategy == Strategy::full ? 0 : plan.storage_bytes;
  j["forward_steps"] = forward;
  if (plan.strategy == Strategy::online) j["forward_steps_bound"] = online_bound(o.strategy);
  if (plan.strategy == Strategy::multilevel && plan.measure_costs) j["forward_steps_bound"] = multilevel_bound;
  j["advances"] = advances;
  j["reverse_steps"] = steps;
  j["observed_steps"] = observed_steps;
  j["step_counts"] =
      full ? "forward_steps = advances (full's reverse_steps read the stored history and apply no "
             "forward operator); observed_steps (modelling the observed data in the true model) come on top"
           : "forward_steps = advances + reverse_steps (each reverse step applies the forward operator "
             "once); observed_steps (modelling the observed data in the true model) come on top";
  j["predicted_peak_bytes"] = peak;
  // Where the slots are this host's memory (the CPU): a GPU run's device slots are not, and its
  // split is not always predicted, so no claim is made for it.
  if (backend_capabilities(backend.kind).slots_in_host_memory())
    j["this_machine"] = this_machine(double(models) + double(working) + double(checkpoint_memory));
  j["predicted_peak_parts"] = {{"process_now", base - models},
                               {"models", models},
                               {"working_set", working},
                               {"checkpoints_in_memory", checkpoint_memory}};
  j["predicted_seconds"] = seconds;
  j["prediction"] =
      "nothing was run: peak = this process's resident memory now + the models a gradient holds where none was read + the working set + the checkpoints held in memory; "
      "time from documented throughput (CPU 0.5 GPts/s per thread forward, reverse 2.5x; GPU 147 / 71 GPts/s; a "
      "C-PML layer point 1 + 2.8 interior points on the CPU, 1 + 5.1 on the GPU), not measured here";
  if (!cuda.is_null()) {
    j["placement"] = cuda;
    j["cuda"] = cuda;  // the old key, kept for one release (CHANGELOG: Deprecated)
  } else if (backend.kind == Backend::cuda) {
    j["cuda_note"] =
        "on the GPU the run places compressed, tiered, disk and online slots itself: their split is not predicted";
  }
  return j;
}

// A survey's plan (`plan --observed survey.sgy`, a directory, several records, --src-grid, ...): the
// survey read and checked as `gradient` reads it, then each shot on its window as its gradient would
// run: its steps (its records' substeps included), its slots and forward steps, summed over the shots;
// the working set and checkpoints of the largest window, which the shot engine allocates once; the
// gradient's sums (a value a model point) and what this process holds now (the model and the data).
template <class T>
nlohmann::json survey_plan_summary(GradientJobOptions& o, const SurveyOptions& so) {
  const BackendChoice backend = plan_backend(o.problem);
  if (backend.kind == Backend::cuda && cuda_device_count() == 0)
    throw InputError("plan of a survey on --backend cuda needs the GPU it plans for here: plan one shot's record");
  o.strategy.check_host_memory = false;  // a plan for any machine: it says whether this one holds the run
  SurveyGradientJob job = prepare_survey_gradient<T>(o, so, 0, {});
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
        plan_strategy(o.strategy, time.steps, physics_state(window.grid, job.inputs.model.has_density()),
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
  nlohmann::json j;
  j["command"] = "plan";
  j["survey"] = survey.description;
  j["shots"] = survey.shots.size();
  j["shape"] = grid.shape;
  j["space_order"] = grid.space_order;
  j["precision"] = to_string(o.problem.precision);
  put_backend(j, backend);
  j["steps"] = steps;  // all shots'
  j["dt"] = simulation_time(survey.shots.front()).dt;
  j["substeps"] = substeps;
  j["strategy"] = to_string(largest.strategy);
  j["choice"] = largest.choice + " (the largest window's)";
  j["snaps"] = largest.snaps;
  j["slots"] = largest.slots;
  j["slot_bytes"] = slot_bytes;
  j["checkpoint_bytes"] = largest.strategy == Strategy::full ? 0 : checkpoints;
  j["forward_steps"] = forward;
  if (largest.strategy == Strategy::online) j["forward_steps_bound"] = online_bound(o.strategy);
  if (largest.strategy == Strategy::multilevel && largest.measure_costs) j["forward_steps_bound"] = multilevel_bound;
  j["advances"] = advances;
  j["reverse_steps"] = steps;
  j["observed_steps"] = job.inputs.has_truth ? steps : 0;
  j["step_counts"] = "summed over the shots, each as one shot's plan counts them";
  j["predicted_peak_bytes"] = peak;
  if (backend_capabilities(backend.kind).slots_in_host_memory())
    j["this_machine"] = this_machine(double(working) + double(checkpoints) + double(sums));
  j["predicted_peak_parts"] = {
      {"process_now", base}, {"working_set", working}, {"checkpoints_in_memory", checkpoints}, {"gradient_sums", sums}};
  j["predicted_seconds"] = step_seconds;
  j["prediction"] =
      "nothing was run: peak = this process's resident memory now (the model and the data read) + the largest "
      "window's working set and checkpoints + the gradient's sums; time from documented throughput, one shot "
      "after another on one process, not measured here";
  j["warnings"] = job.inputs.warnings;
  return j;
}

template <class T>
void run(GradientJobOptions& o, const Presentation& view, const SurveyOptions& so) {
  refuse_unused_survey_options(o.observed, false, so);
  const nlohmann::json j = gradient_is_survey(o, so) ? survey_plan_summary<T>(o, so) : plan_summary<T>(o);
  if (view.json) {
    print_json(j);
    return;
  }
  const auto num = [](double v, int digits = 3) {
    char text[64];
    std::snprintf(text, sizeof text, "%.*g", digits, v);
    return std::string(text);
  };
  const auto shape = j["shape"];
  const std::int64_t steps = j["steps"], forward = j["forward_steps"], advances = j["advances"],
                     observed = j["observed_steps"];
  const bool full_history = j["strategy"] == "full";
  const std::string bound = j.value("forward_steps_bound", std::string());
  BackendChoice b{j["backend"] == "cuda" ? Backend::cuda : Backend::cpu, j["backend_note"], ""};
  std::cout << "revwave plan (a prediction: nothing is run): " << shape[0] << " x " << shape[1] << " x " << shape[2]
            << " points, " << steps << " time steps (N) of dt = " << num(j["dt"].get<double>() * 1e3, 6) << " ms, "
            << j["precision"].get<std::string>() << " on " << backend_words(b, false) << "\n";
  if (j.contains("shots")) {
    print_warnings(j["warnings"].get<std::vector<std::string>>());
    std::cout << "  survey          " << j["shots"] << " shots (" << j["survey"].get<std::string>()
              << "); N is all shots' steps\n";
  }
  std::cout << "  strategy        " << j["choice"].get<std::string>() << "\n"
            << "  slots           " << j["slots"] << " checkpoints of " << format_bytes(j["slot_bytes"].get<double>())
            << " (" << format_bytes(j["checkpoint_bytes"].get<double>()) << ")\n"
            << "  forward steps   " << (bound.rfind("at least", 0) == 0 ? "at least " : "") << forward << " = "
            << advances << " advances"
            << (full_history
                    ? ""
                    : " + the " + std::to_string(steps) + " reverse steps (each also applies the forward operator)")
            << "; " << num(double(forward) / double(steps), 4) << " x N"
            << (bound.empty()                   ? ""
                : j["strategy"] == "multilevel" ? " (with every slot: the tiers' costs, measured at start-up, "
                                                  "may choose fewer)"
                : bound.rfind("at least", 0) == 0
                    ? " (online decides as it runs: the offline optimum for its slots)"
                    : " (online: the offline optimum for its slots; --stop-energy may end "
                      "the run sooner)")
            << "\n"
            << "  reverse steps   " << steps << " (one per time step, "
            << (full_history ? "reading the stored history: not in the forward steps" : "counted in the forward steps")
            << ")\n";
  if (j.contains("placement")) {
    const auto& c = j["placement"];
    std::cout << "  on the GPU      ";
    if (c.contains("history_tier"))
      std::cout << "the history in " << (c["history_tier"] == "device" ? "device" : "pinned host")
                << " memory (device budget " << format_bytes(c["device_budget"].get<double>()) << ")\n";
    else
      std::cout << c["tiers"].get<std::string>() << "\n";
  }
  if (observed > 0)
    std::cout << "  observed data   " << observed << " forward steps in the true model, beside the counts above\n";
  std::cout << "  predicted peak  " << format_bytes(j["predicted_peak_bytes"].get<double>())
            << (j.contains("shots")
                    ? " (this process now + the largest window's working set and checkpoints + the sums)\n"
                    : " (this process now + models + working set + checkpoints in memory)\n")
            << "  predicted time  " << num(j["predicted_seconds"].get<double>())
            << " s (from documented throughput, not measured here)\n";
  if (j.contains("this_machine") && !j["this_machine"]["holds_the_run"].get<bool>()) {
    std::cout << "  this machine    " << format_bytes(j["this_machine"]["available_bytes"].get<double>())
              << " available: the run needs " << format_bytes(j["this_machine"]["needed_bytes"].get<double>())
              << " more, so `revwave gradient` would refuse it here\n";
  }
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
