// The problem a run describes, from its options: grid, model, acquisition, time axis, backend and
// the memory checks, shared by the command line (apps/) and the Python package (python/). The
// options are typed values (shapes, points, point grids, byte counts), named as the CLI's long
// options; the two edges parse text into them (revwave/setup/option_text.hpp) and a C++ caller
// fills them directly; either way the same checks give the same sentences.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "revwave/core/choices.hpp"
#include "revwave/driver/backend_choice.hpp"
#include "revwave/driver/cuda_backend.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/numerics/model.hpp"
#include "revwave/numerics/problem.hpp"
#include "revwave/setup/grid_layout.hpp"

namespace revwave {

// The absorbing layer's kind a grid was set up with (ProblemOptions::boundary's inverse).
inline Boundary boundary_of(const Grid& g) { return g.cpml ? Boundary::cpml : Boundary::sponge; }

// The time steps a command-line run takes without --yes (docs/input_checks.md): a record of 2-10 s
// at a stable step of 0.1-1 ms is 2,000-100,000 steps; a unit slip (--tn 500 for 500 ms, --spacing
// 0.01 for 10 m) makes hundreds of thousands, hours of a run that was meant to take seconds.
inline constexpr index_t steps_without_yes = 100000;

// A model parameter besides the velocity (Thomsen's epsilon and delta): one value at every point,
// a .npy of the model's shape, or an array in memory (the bindings'); none of them: not given.
struct ParameterInput {
  std::optional<double> constant;
  std::string file;
  std::shared_ptr<const NpyArray> values;
  bool given() const { return constant.has_value() || !file.empty() || values != nullptr; }
};

// Unset optionals were not given: they take their defaults. A given value is honoured or refused.
struct ProblemOptions {
  std::string model_file;
  // A model given in memory (the bindings' numpy array) instead of --model: its shape is the grid's.
  std::shared_ptr<const VelocityModel> model_values;
  std::optional<double> velocity;  // homogeneous model, m/s (unset: the built-in model)
  // --density FILE.npy (kg/m^3, the model's shape), or a density in memory (the bindings'), C
  // order: the variable-density physics. Neither: a constant density.
  std::string density_file;
  std::shared_ptr<const NpyArray> density_values;
  // --epsilon and --delta: Thomsen's parameters of a VTI medium (numerics/vti/), dimensionless; one
  // given, the other is 0 everywhere. Neither: an isotropic medium.
  ParameterInput epsilon;
  ParameterInput delta;
  // --q: the quality factor of a visco-acoustic medium (numerics/visco/), a number >= 5 or inf (no
  // attenuation there); --q-frequency: the frequency (Hz) at which the model's velocity is the
  // phase velocity (unset: f0). Neither: no attenuation.
  ParameterInput q;
  std::optional<double> q_frequency;
  std::array<index_t, 3> shape{80, 80, 80};  // interior points (unless a model gives its own)
  bool shape_given = false;                  // --shape was given: with a model it must be the model's shape
  double spacing = 10.0;
  index_t nbl = 10;
  bool free_surface = false;           // --free-surface: u = 0 at z = 0, no layer on the top face
  Boundary boundary = Boundary::cpml;  // --boundary: the absorbing layer's kind
  int space_order = 8;
  double tn = 0.5;
  std::optional<double> dt;  // unset: 0.9 x the stability bound
  double f0 = 12.0;
  // A sampled source signature of nt samples (the bindings' wavelet=) instead of the Ricker of f0.
  std::optional<std::vector<double>> wavelet_samples;
  // Sources, m (--src, or the bindings' (n, 3) array); unset: one near the top centre.
  std::optional<std::vector<Vec3>> sources;
  // Receivers, m (--rec, or the bindings' (n, 3) array), or read from --rec-file (n, 3), or
  // --rec-grid's; none of them: 16 x 16 just below the top edge.
  std::optional<std::vector<Vec3>> receivers;
  std::string rec_file;
  std::optional<PointGrid> rec_grid;
  Precision precision = Precision::float32;
  Backend backend = Backend::automatic;
  std::optional<int> threads;                // unset: all cores
  std::optional<std::size_t> device_memory;  // CUDA: checkpoint budget in device memory, bytes
  std::optional<std::size_t> host_memory;    // CUDA: checkpoint budget in pinned host memory, bytes
  std::optional<index_t> host_spacing;       // CUDA: fewest steps between checkpoints in pinned host memory (50)
  std::optional<int> shots_at_once;          // CUDA, surveys: shots run at once on the device (1)
  // The most time steps --tn and --dt (or the stability bound) may give unless `yes` (--yes): the
  // CLI's steps_without_yes. Unset: no limit (the Python package, where Ctrl-C ends a run).
  std::optional<index_t> max_steps;
  bool yes = false;
};

// Everything but the time axis; validated.
struct ProblemSetup {
  Grid grid;
  VelocityModel model;
  Acquisition acquisition;
  std::vector<GridLayout> layouts;  // --rec-grid: where its receivers went
};
ProblemSetup make_setup(const ProblemOptions& o);
// Whether the options describe their model without a file or an array to read: the built-in model
// or --velocity, and no density.
bool describable(const ProblemOptions& o);
// Such a problem without making its model (`revwave plan`: arithmetic on the description): the
// grid, the acquisition and the fastest velocity of the models a gradient would make (the built-in
// true model, and --velocity's where given); its `model` is a 1-point stand-in of that velocity.
ProblemSetup describe_setup(const ProblemOptions& o, double& max_velocity);
// "NX,NY,NZ", as --shape is written (the effective configuration records a model's shape so).
std::string shape_text(const std::array<index_t, 3>& shape);
// A survey's grid and model: the problem without its shot geometry (sources, receivers and
// their files or grids are dropped: every shot, or an observed record, brings its own).
ProblemSetup make_survey_setup(ProblemOptions o);
// Where the run's source is not a Ricker wavelet of --f0 (observed records, each with its own, or a
// sampled signature: `source` says which), the band Q is fitted over centres on --q-frequency, which
// must then be given (InputError otherwise); a model without Q is left as it is.
void centre_attenuation_band(const ProblemOptions& o, VelocityModel& model, const std::string& source);
// The time axis from --dt/--tn, checked against the model's stability bound (its density's
// contrasts included); `physics_factor`: physics_dt_factor of the model that the run propagates in.
// More steps than `max_steps` without `yes` is an InputError naming the likely unit slip.
TimeAxis make_time(const ProblemOptions& o, const ProblemSetup& s);
// Records sampled every `record_dt` and run in `substeps` steps each (choose_substeps): more than
// `max_steps` simulation steps in all without `yes` is an InputError naming the record, the step and
// the velocity that made it so (a velocity in km/s or a spacing in km is the likely slip).
void refuse_many_record_steps(const ProblemOptions& o, const std::string& record, const TimeAxis& time,
                              index_t substeps, double vmax);
TimeAxis make_time(const ProblemOptions& o, const ProblemSetup& s, double physics_factor);
// The same for a run whose fastest velocity is `vmax` (models the run may meet, or none made yet).
TimeAxis make_time(const ProblemOptions& o, const Grid& grid, double vmax, double physics_factor);
// Whether the options give a density (--density or one in memory).
bool density_given(const ProblemOptions& o);

// The backend that will run: BackendChoice and resolve_backend (revwave/driver/backend_choice.hpp).
// A run summary's backend: "backend", "backend_note" and, where the run could not take the GPU it
// was free to take (--backend auto without a usable one), "backend_reason" (the line that --verbose
// prints and `revwave info` gives).
void put_backend(nlohmann::json& j, const BackendChoice& b);
// The grid's block of a run's JSON summary: "shape", "space_order", "boundary" and "free_surface"
// (true, only where the top face is one).
void put_grid(nlohmann::json& j, const Grid& g);
// A forward run's block, a record's and a survey's: "nt", "steps", "dt", the grid's block with its
// "spacing" and "nbl", the backend (put_backend) and "precision".
void put_forward_run(nlohmann::json& j, const TimeAxis& time, const Grid& g, const BackendChoice& b,
                     Precision precision);
void apply_threads(const std::optional<int>& threads);
// --device-memory / --host-memory / --host-spacing / --shots-at-once as the CUDA backend's budgets.
DeviceBudgets device_budgets(const ProblemOptions& o);
// The name before 0.3, kept for one release.
[[deprecated("cuda_budgets() is device_budgets()")]] inline DeviceBudgets cuda_budgets(const ProblemOptions& o) {
  return device_budgets(o);
}
// Refuses the CUDA budget options when the run is on the CPU: they would be ignored.
void refuse_cuda_options_on_cpu(const ProblemOptions& o, Backend backend);
// Refuses --shots-at-once for a run of one shot (`what`: "a gradient", ...): it would be ignored.
void refuse_shots_at_once_for_one_shot(const ProblemOptions& o, const std::string& what);

// Refuses up front a run whose host working set cannot fit: `fields` wavefields of the grid and
// `trace_copies` copies of the nt x nrec record of T, with the count and the need in the message.
void require_run_memory(const ProblemSetup& s, const TimeAxis& t, std::size_t value_bytes, int fields, int trace_copies,
                        const std::string& what);
// The same arithmetic, for plan_strategy's memory check.
std::size_t run_bytes(const ProblemSetup& s, const TimeAxis& t, std::size_t value_bytes, int fields, int trace_copies);

// The rules the CLI applies to its numeric options as it parses them (--spacing > 0, --nbl >= 0,
// --space-order in [2, 16], ...), for options filled without the CLI (the bindings). InputError
// with the CLI's sentence.
void check_problem_numbers(const ProblemOptions& o);

}  // namespace revwave
