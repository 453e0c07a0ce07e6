#include "revwave/setup/problem_setup.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "revwave/core/checks.hpp"
#include "revwave/core/cuda_info.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/openmp_wait.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/backend_registry.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/misfit/record_resampling.hpp"
#include "revwave/numerics/acoustic/acoustic_state.hpp"
#include "revwave/numerics/wavelet.hpp"
#include "revwave/setup/plausibility.hpp"
#include "revwave/setup/thread_limit.hpp"

namespace revwave {

namespace {

// By default 16 x 16 receivers just below the top edge over the x-y extent, edges included (the
// built-in problem's; on a plane, ny = 1, a line of 16); --rec-grid NX,NY,Z at cell centres
// (revwave/setup/grid_layout.hpp).
std::vector<Vec3> receiver_grid(const ProblemOptions& o, const Grid& grid, std::vector<GridLayout>& layouts) {
  if (o.rec_grid) {
    layouts.push_back(grid_layout("--rec-grid", *o.rec_grid, grid));
    return layouts.back().points();
  }
  const index_t nx = 16, ny = grid.planar() ? 1 : 16;
  const double depth = std::min(2 * grid.spacing, grid.extent(2));
  std::vector<Vec3> receivers;
  for (index_t i = 0; i < nx; ++i)
    for (index_t j = 0; j < ny; ++j)
      receivers.push_back({grid.extent(0) * double(i) / double(nx - 1),
                           ny > 1 ? grid.extent(1) * double(j) / double(ny - 1) : 0.0, depth});
  return receivers;
}

std::vector<Vec3> make_receivers(const ProblemOptions& o, const Grid& grid, std::vector<GridLayout>& layouts) {
  if (o.receivers) {
    if (o.receivers->empty()) throw InputError("rec: receivers must have shape (n, 3) with n >= 1");
    return *o.receivers;
  }
  if (!o.rec_file.empty()) {
    const NpyArray a = read_npy(o.rec_file);
    if (a.shape.size() != 2 || a.shape[1] != 3 || a.shape[0] < 1) {
      throw InputError(o.rec_file + ": receivers must have shape (n, 3) with n >= 1");
    }
    std::vector<Vec3> receivers;
    for (std::int64_t i = 0; i < a.shape[0]; ++i)
      receivers.push_back({a.data[3 * i], a.data[3 * i + 1], a.data[3 * i + 2]});
    return receivers;
  }
  return receiver_grid(o, grid, layouts);
}

// The wavelet, sources (by default one near the top centre) and receivers, checked against the grid.
Acquisition make_acquisition(const ProblemOptions& o, const Grid& grid, std::vector<GridLayout>& layouts) {
  Acquisition acq;
  acq.f0 = check_number("--f0", o.f0, positive(), "Hz");
  acq.t0 = checked_wavelet_delay(o.f0, "--f0");
  if (o.wavelet_samples) acq.wavelet = *o.wavelet_samples;
  if (o.sources) {
    if (o.sources->empty()) throw InputError("src: sources must have shape (n, 3) with n >= 1");
    acq.sources = *o.sources;
  } else {
    acq.sources = {{0.5 * grid.extent(0), 0.5 * grid.extent(1), std::min(2 * grid.spacing, grid.extent(2))}};
  }
  acq.receivers = make_receivers(o, grid, layouts);
  // Check the points now so that a bad one fails before any work.
  check_sources_below_free_surface(grid, acq.sources, "source");
  trilinear_points(grid, acq.sources, "source");
  trilinear_points(grid, acq.receivers, "receiver");
  return acq;
}

// A parameter's array (a file or the bindings'), checked against the grid's shape: `name` as a
// sentence names it ("--density d.npy", "density"), `what` what it must be ("a density").
std::vector<double> read_model_array(const NpyArray& a, const Grid& grid, const std::string& name,
                                     const std::string& what) {
  const std::vector<std::int64_t> want = {grid.shape[0], grid.shape[1], grid.shape[2]};
  if (a.shape != want) {
    const auto text = [](const std::vector<std::int64_t>& shape) {
      std::string t;
      for (std::size_t i = 0; i < shape.size(); ++i) t += (i ? ", " : "") + std::to_string(shape[i]);
      return "(" + t + ")";
    };
    throw InputError(name + " has shape " + text(a.shape) + ", the model is " + text(want) + ": " + what +
                     " must have the model's shape");
  }
  return a.data;
}

// --density (or the bindings' array), checked against the grid's shape; empty when not given.
std::vector<double> read_density(const ProblemOptions& o, const Grid& grid) {
  if (!o.density_values && o.density_file.empty()) return {};
  const NpyArray a = o.density_values ? *o.density_values : read_npy(o.density_file);
  return read_model_array(a, grid, o.density_values ? std::string("density") : "--density " + o.density_file,
                          "a density");
}

// --epsilon or --delta (`flag`): its values at every interior point; empty when not given.
std::vector<double> read_parameter(const ParameterInput& in, const Grid& grid, const std::string& flag) {
  if (in.constant) {
    check_number(flag, *in.constant, finite(), "");
    return std::vector<double>(static_cast<std::size_t>(grid.interior_points()), *in.constant);
  }
  if (in.values) return read_model_array(*in.values, grid, flag.substr(2), "a parameter");
  if (!in.file.empty()) return read_model_array(read_npy(in.file), grid, flag + " " + in.file, "a parameter");
  return {};
}

// --q and --q-frequency into the model (numerics/visco/visco_model.hpp checks Q at every point).
void read_attenuation(const ProblemOptions& o, const Grid& grid, VelocityModel& model) {
  if (o.q_frequency && !o.q.given())
    throw InputError("--q-frequency " + number_text(*o.q_frequency) +
                     " Hz needs --q: it is the frequency at which the attenuating model's velocity holds");
  if (!o.q.given()) return;
  check_number("--f0", o.f0, positive(), "Hz");  // the fitted band's centre
  if (o.q_frequency) check_number("--q-frequency", *o.q_frequency, positive(), "Hz");
  if (o.q.constant && !(*o.q.constant >= min_quality))  // infinity passes: no attenuation
    throw InputError("--q " + number_text(*o.q.constant) + " is invalid: Q must be a number of at least " +
                     number_text(min_quality) + " (inf: no attenuation)");
  model.q = o.q.constant ? std::vector<double>(static_cast<std::size_t>(grid.interior_points()), *o.q.constant)
                         : read_parameter(o.q, grid, "--q");
  model.q_frequency = o.q_frequency.value_or(o.f0);
  model.q_f0 = o.f0;
  if (o.wavelet_samples) centre_attenuation_band(o, model, "a sampled source signature (no f0)");
}

// A --shape given with a model must be the model's: the model sets the grid.
void check_shape_agrees(const ProblemOptions& o, const std::array<index_t, 3>& model_shape, const std::string& model) {
  if (!o.shape_given || o.shape == model_shape) return;
  throw InputError("--shape " + shape_text(o.shape) + " disagrees with " + model + ", whose shape is (" +
                   std::to_string(model_shape[0]) + ", " + std::to_string(model_shape[1]) + ", " +
                   std::to_string(model_shape[2]) + "): the model sets the grid (leave --shape out)");
}

}  // namespace

void centre_attenuation_band(const ProblemOptions& o, VelocityModel& model, const std::string& source) {
  if (!model.has_attenuation()) return;
  if (!o.q_frequency)
    throw InputError("--q with " + source +
                     " needs --q-frequency: the constant Q is fitted over a band around it (0.25 to 3 times it)");
  model.q_f0 = *o.q_frequency;
}

bool density_given(const ProblemOptions& o) { return !o.density_file.empty() || o.density_values != nullptr; }

std::string shape_text(const std::array<index_t, 3>& shape) {
  return std::to_string(shape[0]) + "," + std::to_string(shape[1]) + "," + std::to_string(shape[2]);
}

namespace {

// The grid --shape and the grid options give (a model's shape replaces --shape where one is given).
Grid options_grid(const ProblemOptions& o) {
  Grid g;
  for (int a = 0; a < 3; ++a) g.shape[a] = check_integer("--shape " + shape_text(o.shape), o.shape[a], at_least(1));
  g.spacing = o.spacing;
  g.nbl = o.nbl;
  g.free_surface = o.free_surface;
  g.cpml = o.boundary == Boundary::cpml;
  g.space_order = o.space_order;
  return g;
}

}  // namespace

bool describable(const ProblemOptions& o) {
  return o.model_file.empty() && !o.model_values && !density_given(o) && !o.epsilon.given() && !o.delta.given() &&
         !o.q.given();
}

ProblemSetup describe_setup(const ProblemOptions& o, double& max_velocity) {
  if (!describable(o)) throw std::logic_error("describe_setup: the options give a model or a density to read");
  ProblemSetup s;
  s.grid = options_grid(o);
  validate(s.grid);
  max_velocity = default_true_model_max_velocity(s.grid.shape, o.spacing);
  if (o.velocity) {
    validate(homogeneous_model({1, 1, 1}, *o.velocity));
    check_velocity_floor(*o.velocity, "--velocity", o.precision);
    max_velocity = std::max(max_velocity, *o.velocity);
  }
  s.model = homogeneous_model({1, 1, 1}, max_velocity);  // a stand-in: the description makes no model
  s.acquisition = make_acquisition(o, s.grid, s.layouts);
  return s;
}

ProblemSetup make_setup(const ProblemOptions& o) {
  ProblemSetup s;
  s.grid = options_grid(o);
  if (!o.model_file.empty()) {
    const NpyArray a = read_npy(o.model_file);
    if (a.shape.size() != 3) {
      throw InputError(o.model_file + ": a velocity model must be 3D (nx, ny, nz), this one has " +
                       std::to_string(a.shape.size()) + " dimensions");
    }
    s.model.shape = {a.shape[0], a.shape[1], a.shape[2]};
    s.model.velocity = a.data;
    check_shape_agrees(o, s.model.shape, "--model " + o.model_file);
    s.grid.shape = s.model.shape;
  } else if (o.model_values) {
    s.model = *o.model_values;
    check_shape_agrees(o, s.model.shape, "the model");
    s.grid.shape = s.model.shape;
  }
  validate(s.grid);  // also refuses a shape whose allocated grid does not fit 64-bit counts
  if (o.model_file.empty() && !o.model_values) {
    // The model holds one double per interior point: refuse a shape that cannot fit before making it.
    require_memory(checked_bytes({static_cast<std::size_t>(s.grid.interior_points()), 8}, "the velocity model"),
                   "the velocity model of " + std::to_string(s.grid.interior_points()) + " points (--shape " +
                       shape_text(o.shape) + ")");
    s.model = o.velocity ? homogeneous_model(s.grid.shape, *o.velocity) : default_true_model(s.grid.shape, o.spacing);
  }
  s.model.density = read_density(o, s.grid);
  s.model.epsilon = read_parameter(o.epsilon, s.grid, "--epsilon");
  s.model.delta = read_parameter(o.delta, s.grid, "--delta");
  if (s.model.epsilon.empty() != s.model.delta.empty())  // one given: the other is 0
    (s.model.epsilon.empty() ? s.model.epsilon : s.model.delta).assign(s.model.velocity.size(), 0.0);
  read_attenuation(o, s.grid, s.model);
  s.grid.extra_fields = s.model.physics().extra_fields();  // what every field carries (make_problem's grid)
  check_physics_supported(s.grid, s.model);                // before any run: surveys build no make_problem
  const std::string name = o.model_file.empty() ? "the model" : "--model " + o.model_file;
  const ModelRange range = validated_range(s.model, name);
  if (o.velocity) check_velocity_floor(*o.velocity, "--velocity", o.precision);
  check_velocity_floor(s.model, range.min_velocity, name, o.precision);

  s.acquisition = make_acquisition(o, s.grid, s.layouts);
  return s;
}

ProblemSetup make_survey_setup(ProblemOptions o) {
  o.sources.reset();
  o.receivers.reset();
  o.rec_file.clear();
  o.rec_grid.reset();
  return make_setup(o);
}

TimeAxis make_time(const ProblemOptions& o, const ProblemSetup& s) {
  return make_time(o, s, physics_dt_factor(s.grid, s.model));
}

namespace {

// A run far longer than the options usually describe, unless --yes: one line saying what made it so
// long, the unit slip first where one is likely.
void refuse_many_steps(const ProblemOptions& o, const TimeAxis& t, double vmax) {
  if (!o.max_steps || o.yes || t.steps <= *o.max_steps) return;
  std::string why;
  const auto add = [&why](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  if (o.tn > 20) {
    add("--tn " + number_text(o.tn) + " s looks like milliseconds typed as seconds (" + number_text(o.tn / 1000) +
        " s?)");
  }
  if (o.spacing < 1) {
    add("--spacing " + number_text(o.spacing) + " m looks like kilometres typed as metres (" +
        number_text(o.spacing * 1000) + " m?)");
  }
  if (o.dt) add("--dt " + number_text(*o.dt) + " s is the step");
  if (why.empty()) {
    add("dt is the stability bound of --spacing " + number_text(o.spacing) + " m and the fastest velocity " +
        number_text(vmax) + " m/s");
  }
  throw InputError("--tn " + number_text(o.tn) + " s at dt = " + number_text(t.dt) + " s is " +
                   std::to_string(t.steps) + " time steps, more than the " + std::to_string(*o.max_steps) +
                   " a run takes without --yes: " + why + " (give --yes to run it as it is)");
}

}  // namespace

void refuse_many_record_steps(const ProblemOptions& o, const std::string& record, const TimeAxis& time,
                              index_t substeps, double vmax) {
  const double steps = double(simulation_samples(time.nt(), substeps) - 1);
  if (!o.max_steps || o.yes || substeps == 1 || steps <= double(*o.max_steps)) return;
  throw InputError(record + ": its " + std::to_string(time.nt()) + " samples every " + number_text(time.dt) +
                   " s take " + std::to_string(substeps) + " simulation steps each to be stable for " +
                   number_text(vmax) + " m/s with --spacing " + number_text(o.spacing) + " m, " + number_text(steps) +
                   " steps in all, more than the " + std::to_string(*o.max_steps) +
                   " a run takes without --yes (is a velocity or the spacing in the wrong unit? give --yes to "
                   "run it as it is)");
}

TimeAxis make_time(const ProblemOptions& o, const ProblemSetup& s, double physics_factor) {
  return make_time(o, s.grid, max_velocity(s.model), physics_factor);
}

TimeAxis make_time(const ProblemOptions& o, const Grid& grid, double vmax, double physics_factor) {
  double dt = 0;
  if (o.dt) {
    dt = *o.dt;
    check_stable(dt, grid, vmax, physics_factor);
  } else {
    dt = default_dt(grid, vmax) * physics_factor;
    // The step derives from the spacing and the fastest velocity: where it is no number, the
    // refusal names them, not dt (a step too small for --tn is make_time_axis's to name).
    if (!(std::isfinite(dt) && dt > 0)) {
      throw InputError("--spacing " + number_text(grid.spacing) + " m with the fastest velocity " + number_text(vmax) +
                       " m/s gives the stable step dt = " + number_text(dt) +
                       " s, which is no positive number: give a spacing in metres and velocities in m/s");
    }
    // More steps than a count can hold (2^53) where the fastest velocity is faster than any rock's
    // (100 km/s, about ten times the fastest P wave): the velocity made them, so name it, not the count.
    if (vmax > 1e5 && !(o.tn / dt <= 9007199254740992.0)) {
      throw InputError("--tn " + number_text(o.tn) + " s at the stable step dt = " + number_text(dt) +
                       " s of --spacing " + number_text(grid.spacing) + " m and the fastest velocity " +
                       number_text(vmax) + " m/s would be " + number_text(o.tn / dt) +
                       " time steps, more than 2^53: is a velocity in the wrong unit? (velocities are in m/s)");
    }
  }
  const TimeAxis t = make_time_axis(o.tn, dt);
  refuse_many_steps(o, t, vmax);
  return t;
}

namespace {

// One wavefield's bytes: its allocated grid and, with a C-PML, the auxiliary values in its tail.
std::size_t wavefield_bytes(const Grid& g, std::size_t value_bytes) {
  return checked_bytes({static_cast<std::size_t>(g.alloc_points() + g.tail_values()), value_bytes}, "one wavefield");
}

// What the problem's physics holds besides the propagator's fields (its own declaration).
PhysicsMemory physics_memory_of(const ProblemSetup& s, std::size_t value_bytes) {
  return physics_memory(s.grid, s.model.physics(), value_bytes);
}

}  // namespace

std::size_t run_bytes(const ProblemSetup& s, const TimeAxis& t, std::size_t value_bytes, int fields, int trace_copies) {
  const PhysicsMemory physics = physics_memory_of(s, value_bytes);
  fields += physics.coefficient_fields;
  const std::size_t field = wavefield_bytes(s.grid, value_bytes);
  const std::size_t nrec = s.acquisition.receivers.size();
  const std::size_t nt = static_cast<std::size_t>(t.nt());
  const std::size_t wavefields = checked_bytes({static_cast<std::size_t>(fields), field}, "the wavefields");
  const std::size_t traces =
      checked_bytes({static_cast<std::size_t>(trace_copies), nt, nrec, value_bytes}, "the traces");
  const std::size_t per_step = checked_bytes({nt, 3 * 8}, "the wavelet and the misfit per step");
  const std::size_t run = checked_sum(checked_sum(wavefields, traces, "the run"), per_step, "the run");
  return checked_sum(run, physics.other_bytes, "the run");
}

void require_run_memory(const ProblemSetup& s, const TimeAxis& t, std::size_t value_bytes, int fields, int trace_copies,
                        const std::string& what) {
  const std::size_t bytes = run_bytes(s, t, value_bytes, fields, trace_copies);
  const std::size_t field = wavefield_bytes(s.grid, value_bytes);
  const PhysicsMemory physics = physics_memory_of(s, value_bytes);
  const std::string density = physics.coefficient_fields > 0 ? std::string(" and ") + physics.coefficients : "";
  require_memory(bytes, what + " (" + std::to_string(fields) + " wavefields" + density + " of " +
                            format_bytes(double(field)) + ", " + std::to_string(t.nt()) + " samples x " +
                            std::to_string(s.acquisition.receivers.size()) + " receivers of traces)");
}

void put_grid(nlohmann::json& j, const Grid& g) {
  j["shape"] = g.shape;
  j["space_order"] = g.space_order;
  if (g.free_surface) j["free_surface"] = true;
  j["boundary"] = to_string(boundary_of(g));
}

void put_forward_run(nlohmann::json& j, const TimeAxis& time, const Grid& g, const BackendChoice& b,
                     Precision precision) {
  j["nt"] = time.nt();
  j["steps"] = time.steps;
  j["dt"] = time.dt;
  put_grid(j, g);
  j["spacing"] = g.spacing;
  j["nbl"] = g.nbl;
  put_backend(j, b);
  j["precision"] = to_string(precision);
}

void put_backend(nlohmann::json& j, const BackendChoice& b) {
  j["backend"] = to_string(b.kind);
  j["backend_note"] = b.note;
  if (!b.reason.empty()) j["backend_reason"] = b.reason;
  j["openmp_wait"] = openmp_wait_note();
}

DeviceBudgets device_budgets(const ProblemOptions& o) {
  DeviceBudgets b;
  if (o.device_memory) b.device_memory = *o.device_memory;
  if (o.host_memory) b.host_memory = *o.host_memory;
  if (o.host_spacing) b.min_host_spacing = *o.host_spacing;
  if (o.shots_at_once) b.shots_at_once = *o.shots_at_once;
  return b;
}

void refuse_cuda_options_on_cpu(const ProblemOptions& o, Backend backend) {
  if (backend_capabilities(backend).device_memory) return;
  const char* given = o.device_memory   ? "--device-memory"
                      : o.host_memory   ? "--host-memory"
                      : o.host_spacing  ? "--host-spacing"
                      : o.shots_at_once ? "--shots-at-once"
                                        : nullptr;
  if (given != nullptr) {
    throw InputError(std::string(given) + " does not apply: the run is on the CPU backend (" +
                     (o.backend == Backend::automatic ? std::string("--backend auto found no CUDA device")
                                                      : std::string("--backend ") + to_string(o.backend)) +
                     "), and the option is the CUDA backend's");
  }
}

void refuse_shots_at_once_for_one_shot(const ProblemOptions& o, const std::string& what) {
  if (!o.shots_at_once) return;
  throw InputError("--shots-at-once " + std::to_string(*o.shots_at_once) + " does not apply: " + what +
                   " runs one shot (the option runs a survey's shots at once: --observed with several shots, "
                   "--src-grid)");
}

void apply_threads(const std::optional<int>& threads) {
  if (!threads) {
    // The environment's team, checked as --threads is (the command line does so before it parses).
    if (const auto team = environment_team()) check_thread_count("OMP_NUM_THREADS", *team);
    return;
  }
  check_thread_count("--threads", *threads);
  omp_set_num_threads(*threads);
}

void check_problem_numbers(const ProblemOptions& o) {
  if (o.velocity) check_number("--velocity", *o.velocity, positive(), "m/s");
  check_number("--spacing", o.spacing, positive(), "m");
  check_integer("--nbl", o.nbl, at_least(0));
  check_integer("--space-order", o.space_order, int_within(2, 16));
  check_number("--tn", o.tn, positive(), "s");
  if (o.dt) check_number("--dt", *o.dt, positive(), "s");
  check_number("--f0", o.f0, positive(), "Hz");
  if (o.threads) {
    check_integer("--threads", *o.threads, int_within(1, 65536));
    check_thread_count("--threads", *o.threads);
  }
  if (o.host_spacing) check_integer("--host-spacing", *o.host_spacing, at_least(1));
  if (o.shots_at_once) check_integer("--shots-at-once", *o.shots_at_once, int_within(1, max_shots_at_once));
}

}  // namespace revwave
