// revwave._revwave: the compiled half of the Python package. It fills the library's own option
// structs (revwave/setup) and calls the same functions as the command line, so a result is the
// CLI's result bit for bit and a refusal is the CLI's sentence. The Python half (revwave/__init__.py)
// turns keyword arguments into these options and numpy arrays into the dtypes read here.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <omp.h>

#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/driver/verification.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/setup/gradient_run.hpp"
#include "revwave/setup/problem_setup.hpp"
#include "revwave/setup/schedule_summary.hpp"
#include "revwave/store/compression.hpp"
#include "revwave/survey/shot_runner.hpp"
#include "revwave/survey/survey.hpp"
#include "revwave/survey/survey_gradient.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace revwave::python {
namespace {

// A C-contiguous float32 or float64 array on the host, read in place (the Python half converts
// other layouts and dtypes before they get here).
using InArray = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;

bool is_f32(const InArray& a) { return a.dtype() == nb::dtype<float>(); }
bool is_f64(const InArray& a) { return a.dtype() == nb::dtype<double>(); }

std::vector<double> values_of(const InArray& a, const std::string& name) {
  if (!is_f32(a) && !is_f64(a)) throw nb::type_error((name + " must be float32 or float64 here").c_str());
  std::vector<double> v(a.size());
  if (is_f32(a)) {
    const float* p = static_cast<const float*>(a.data());
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = p[i];
  } else {
    std::memcpy(v.data(), a.data(), v.size() * sizeof(double));
  }
  return v;
}

std::shared_ptr<const VelocityModel> model_of(const InArray& a, const std::string& name) {
  if (a.ndim() != 3) {
    throw InputError(name + ": a velocity model must be 3D (nx, ny, nz), this one has " + std::to_string(a.ndim()) +
                     " dimensions");
  }
  auto m = std::make_shared<VelocityModel>();
  m->shape = {static_cast<index_t>(a.shape(0)), static_cast<index_t>(a.shape(1)), static_cast<index_t>(a.shape(2))};
  m->velocity = values_of(a, name);
  return m;
}

std::vector<Vec3> points_of(const InArray& a, const std::string& name) {
  if (a.ndim() != 2 || a.shape(1) != 3 || a.shape(0) < 1) {
    throw InputError(name + ": points must have shape (n, 3) with n >= 1");
  }
  const std::vector<double> v = values_of(a, name);
  std::vector<Vec3> out(a.shape(0));
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {v[3 * i], v[3 * i + 1], v[3 * i + 2]};
  return out;
}

// A numpy array that owns its memory: the vector moves into a capsule.
template <class T>
nb::ndarray<nb::numpy, T> owned(std::vector<T>&& values, std::vector<std::size_t> shape) {
  auto* held = new std::vector<T>(std::move(values));
  nb::capsule owner(held, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::ndarray<nb::numpy, T>(held->data(), shape.size(), shape.data(), owner);
}

nb::object to_python(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return nb::none();
    case nlohmann::json::value_t::boolean: return nb::bool_(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return nb::int_(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return nb::int_(j.get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return nb::float_(j.get<double>());
    case nlohmann::json::value_t::string: return nb::str(j.get<std::string>().c_str());
    case nlohmann::json::value_t::array: {
      nb::list l;
      for (const auto& e : j) l.append(to_python(e));
      return l;
    }
    case nlohmann::json::value_t::object: {
      nb::dict d;
      for (auto it = j.begin(); it != j.end(); ++it) d[nb::str(it.key().c_str())] = to_python(it.value());
      return d;
    }
    default: return nb::none();
  }
}

nb::list points_to_python(const std::vector<Vec3>& pts) {
  nb::list l;
  for (const Vec3& p : pts) l.append(nb::make_tuple(p[0], p[1], p[2]));
  return l;
}

// `threads=` sets the OpenMP team of one call only (the CLI's --threads lasts its process): the
// calling thread's setting is restored afterwards.
class ThreadsScope {
 public:
  ThreadsScope() : saved_(omp_get_max_threads()) {}
  ~ThreadsScope() { omp_set_num_threads(saved_); }
  ThreadsScope(const ThreadsScope&) = delete;
  ThreadsScope& operator=(const ThreadsScope&) = delete;

 private:
  int saved_;
};

// ---- forward ----------------------------------------------------------------------------------

template <class T>
nb::dict forward_impl(const ProblemOptions& o) {
  const BackendChoice backend = resolve_backend(o.backend);
  refuse_cuda_options_on_cpu(o, backend.kind);
  const ProblemSetup setup = make_setup(o);
  const TimeAxis time = make_time(o, setup);
  ShotData<T> shot;
  {
    nb::gil_scoped_release unlocked;
    ThreadsScope scope;
    apply_threads(o.threads);
    // Counted as `revwave forward` counts (m and (u, u_prev) on the CPU; the record and two copies), so
    // that a refusal is the CLI's sentence.
    require_run_memory(setup, time, sizeof(T), working_fields(backend.kind, Workload::forward), 3, "the forward run");
    const Problem<T> problem = make_problem<T>(setup.grid, setup.model, setup.acquisition, time);
    shot = run_on_backend(backend.kind, problem, cuda_budgets(o), ForwardCall<T>{});
    check_finite_result(shot.traces.data(), shot.traces.size(), "the shot record");
  }
  nb::dict r;
  const std::size_t nt = static_cast<std::size_t>(shot.nt), nrec = static_cast<std::size_t>(shot.nrec);
  r["data"] = owned(std::move(shot.traces), {nt, nrec});
  r["dt"] = time.dt;
  r["f0"] = setup.acquisition.f0;
  r["t0"] = setup.acquisition.t0;
  r["src"] = points_to_python(setup.acquisition.sources);
  r["rec"] = points_to_python(setup.acquisition.receivers);
  r["seconds"] = shot.step_seconds;
  r["backend"] = to_string(backend.kind);
  return r;
}

// The CLI's parse-time rules for the strategy's numbers.
void check_job_numbers(const GradientJobOptions& o) {
  check_problem_numbers(o.problem);
  if (o.strategy.snaps) check_integer("--snaps", *o.strategy.snaps, at_least(1));
  if (o.strategy.stop_energy) check_number("--stop-energy", *o.strategy.stop_energy, {0.0, 1.0, true, true});
}

nb::dict forward(const ProblemOptions& o) {
  check_problem_numbers(o); return o.precision == Precision::float64 ? forward_impl<double>(o) : forward_impl<float>(o); }

// ---- gradient ---------------------------------------------------------------------------------

template <class T>
nb::tuple gradient_impl(GradientJobOptions o) {
  GradientRun<T> run;
  {
    nb::gil_scoped_release unlocked;
    ThreadsScope scope;
    run = run_gradient_job<T>(o, {});
  }
  const Grid& grid = run.job.start.grid;
  nlohmann::json stats = gradient_summary(run, o, run.job.observed_source == "file" ? o.observed_name : "modelled");
  // dJ/dm as `revwave gradient` writes it: in the run's precision.
  std::vector<T> values(run.output.gradient.begin(), run.output.gradient.end());
  check_finite_result(values.data(), values.size(), std::string("the gradient in ") + (sizeof(T) == 4 ? "float" : "double"));
  auto g = owned(std::move(values), {static_cast<std::size_t>(grid.shape[0]), static_cast<std::size_t>(grid.shape[1]),
                                     static_cast<std::size_t>(grid.shape[2])});
  nb::object observed = nb::none();
  if (run.job.observed_source == "modelled") {
    nb::dict rec;
    const std::size_t nrec = run.job.start.acquisition.receivers.size();
    std::vector<T> d(run.job.observed.begin(), run.job.observed.end());
    rec["data"] = owned(std::move(d), {static_cast<std::size_t>(run.job.time.nt()), nrec});
    rec["dt"] = run.job.time.dt;
    rec["f0"] = run.job.start.acquisition.f0;
    rec["t0"] = run.job.start.acquisition.t0;
    rec["src"] = points_to_python(run.job.start.acquisition.sources);
    rec["rec"] = points_to_python(run.job.start.acquisition.receivers);
    observed = rec;
  }
  return nb::make_tuple(run.output.stats.objective, g, to_python(stats), observed);
}

nb::tuple gradient(const GradientJobOptions& o) {
  check_job_numbers(o);
  return o.problem.precision == Precision::float64 ? gradient_impl<double>(o) : gradient_impl<float>(o);
}

// ---- surveys --------------------------------------------------------------------------------

// J and g summed over a survey's shots (records in memory, or paths `revwave gradient --observed`
// takes: SEG-Y files, directories of records, records), shot after shot on the fixed summation tree,
// as the CLI in one process. The stats are the CLI's survey JSON fields that describe the sum.
template <class T>
nb::tuple survey_impl(GradientJobOptions o, const std::vector<ShotRecord>& records, const std::vector<std::string>& paths,
                      double aperture) {
  finish_strategy_options(o);
  const BackendChoice backend = resolve_backend(o.problem.backend);
  refuse_cuda_options_on_cpu(o.problem, backend.kind);
  o.strategy.backend = backend.kind;
  if (aperture != -1 && !(std::isfinite(aperture) && aperture >= 0)) {
    throw InputError("--aperture " + std::to_string(aperture) + " m is invalid: a finite distance >= 0");
  }
  SurveyRunOptions run;
  run.strategy = o.strategy;
  run.backend = backend.kind;
  run.budgets = cuda_budgets(o.problem);
  run.aperture = aperture;
  const ProblemSetup setup = make_survey_setup(o.problem);
  Survey survey;
  if (!paths.empty()) {
    SurveyReadOptions ro;
    if (o.f0_given) ro.f0 = o.problem.f0;
    survey = read_survey(paths, ro);
  } else {
    if (o.f0_given) throw InputError("--f0: the records carry their wavelets: leave --f0 out");
    for (std::size_t i = 0; i < records.size(); ++i) {
      const ShotRecord& r = records[i];
      Shot shot;
      shot.name = "observed[" + std::to_string(i) + "]";
      shot.acquisition.sources = r.meta.sources;
      shot.acquisition.receivers = r.meta.receivers;
      shot.acquisition.f0 = r.meta.f0;
      shot.acquisition.t0 = r.meta.t0;
      shot.time.dt = r.meta.dt;
      shot.time.steps = r.meta.nt - 1;
      shot.data = r.traces;
      survey.shots.push_back(std::move(shot));
    }
    survey.description = std::to_string(records.size()) + " records given in memory";
  }
  if (survey.shots.empty()) throw InputError("observed: a survey needs at least one shot");
  SurveySum sum;
  {
    nb::gil_scoped_release unlocked;
    ThreadsScope scope;
    apply_threads(o.problem.threads);
    SerialShotRunner runner;
    sum = survey_gradient<T>(setup.grid, setup.model, survey, run, runner);
  }
  check_finite_result(&sum.objective, 1, "the objective");
  check_finite_result(sum.gradient.data(), sum.gradient.size(), "the gradient");
  std::vector<T> values(sum.gradient.begin(), sum.gradient.end());
  check_finite_result(values.data(), values.size(), std::string("the gradient in ") + (sizeof(T) == 4 ? "float" : "double"));
  double norm2 = 0;
  for (double v : sum.gradient) norm2 += v * v;
  nlohmann::json j;
  std::int64_t forward_steps = 0, reverse_steps = 0;
  CompressionStats compression;
  j["shot_objectives"] = nlohmann::json::array();
  for (const ShotSummary& s : sum.shots) {
    forward_steps += s.forward_steps;
    reverse_steps += s.reverse_steps;
    compression += s.compression;
    j["shot_objectives"].push_back(s.objective);
  }
  j["compression"] = compression_summary(run.strategy.compression, compression);  // summed over the shots, as the CLI
  j["survey"] = survey.description;
  j["shots"] = static_cast<std::int64_t>(survey.shots.size());
  j["objective"] = sum.objective;
  j["gradient_norm"] = std::sqrt(norm2);
  j["strategy"] = to_string(run.strategy.strategy);
  j["aperture"] = aperture;
  j["forward_steps"] = forward_steps;
  j["reverse_steps"] = reverse_steps;
  j["peak_partial_sums"] = sum.peak_partial_sums;
  j["backend"] = to_string(backend.kind);
  j["backend_note"] = backend.note;
  j["precision"] = to_string(o.problem.precision);
  const Grid& grid = setup.grid;
  auto g = owned(std::move(values), {static_cast<std::size_t>(grid.shape[0]), static_cast<std::size_t>(grid.shape[1]),
                                     static_cast<std::size_t>(grid.shape[2])});
  return nb::make_tuple(sum.objective, g, to_python(j), nb::none());
}

// ---- verification -----------------------------------------------------------------------------

template <class T>
nb::dict adjtest_impl(const ProblemOptions& o, std::uint32_t seed) {
  const BackendChoice backend = resolve_backend(o.backend);
  refuse_cuda_options_on_cpu(o, backend.kind);
  const ProblemSetup s = make_setup(o);
  const TimeAxis time = make_time(o, s);
  DotProductResult r;
  {
    nb::gil_scoped_release unlocked;
    ThreadsScope scope;
    apply_threads(o.threads);
    require_run_memory(s, time, sizeof(T), working_fields(backend.kind, Workload::dot_product_test), 3, "the dot-product test");
    r = dot_product_test<T>(s.grid, s.model, s.acquisition, time, seed, backend.kind, cuda_budgets(o));
  }
  check_finite_result(&r.forward_product, 1, "<F w, d>");
  check_finite_result(&r.adjoint_product, 1, "<w, F^T d>");
  nb::dict d;
  d["forward_product"] = r.forward_product;
  d["adjoint_product"] = r.adjoint_product;
  d["relative_error"] = r.relative_error;
  d["steps"] = time.steps;
  d["backend"] = to_string(backend.kind);
  return d;
}

nb::dict adjtest(const ProblemOptions& o, std::uint32_t seed) {
  check_problem_numbers(o);
  return o.precision == Precision::float64 ? adjtest_impl<double>(o, seed) : adjtest_impl<float>(o, seed);
}

template <class T>
nb::dict gradtest_impl(GradientJobOptions o, int halvings, double scale) {
  finish_strategy_options(o);
  // The Taylor test runs on the CPU reference backend, as `revwave gradtest` does.
  if (o.problem.backend == Backend::cuda) {
    throw InputError("gradtest runs on the CPU backend only: use backend='cpu' (the GPU Taylor test is in tests/cuda)");
  }
  TaylorResult t;
  {
    nb::gil_scoped_release unlocked;
    ThreadsScope scope;
    apply_threads(o.problem.threads);
    GradientJob<T> job = prepare_gradient_job<T>(o);
    require_run_memory(job.start, job.time, sizeof(T), 10, 3, "the Taylor test");
    plan_strategy(o.strategy, job.time.steps, field_layout<T>(job.start.grid),
                  run_bytes(job.start, job.time, sizeof(T), 10, 3));
    model_observed(job, Backend::cpu, {});
    const std::vector<double> dm = taylor_direction(job.start.model, job.start.grid.spacing, scale);
    t = taylor_test<T>(job.start.grid, job.start.model, dm, job.start.acquisition, job.time, job.observed, o.strategy,
                       halvings);
  }
  check_finite_result(&t.objective, 1, "J(m)");
  check_finite_result(&t.directional, 1, "<g, dm>");
  nb::dict d;
  d["objective"] = t.objective;
  d["directional_derivative"] = t.directional;
  d["h"] = t.h;
  d["first_order"] = t.first;
  d["second_order"] = t.second;
  d["rate_first"] = t.rate_first;
  d["rate_second"] = t.rate_second;
  d["pass"] = std::abs(t.rate_first - 1.0) <= 0.1 && t.rate_second >= 1.9;
  return d;
}

nb::dict gradtest(const GradientJobOptions& o, int halvings, double scale) {
  check_job_numbers(o);
  check_integer("--halvings", halvings, int_within(2, 40));
  check_number("--scale", scale, {0.0, 0.5, true, true});
  return o.problem.precision == Precision::float64 ? gradtest_impl<double>(o, halvings, scale)
                                         : gradtest_impl<float>(o, halvings, scale);
}

// ---- shot records on disk ---------------------------------------------------------------------

ShotRecord record_of(const InArray& data, double dt, double f0, double t0, const InArray& src, const InArray& rec,
                     const std::string& name) {
  if (data.ndim() != 2) {
    throw InputError(name + ": a shot record must be 2D (nt, nrec), this one has " + std::to_string(data.ndim()) +
                     " dimensions");
  }
  ShotRecord r;
  r.meta.dt = dt;
  r.meta.nt = static_cast<std::int64_t>(data.shape(0));
  r.meta.f0 = f0;
  r.meta.t0 = t0;
  r.meta.sources = points_of(src, name + " src");
  r.meta.receivers = points_of(rec, name + " rec");
  r.meta.precision = is_f32(data) ? "float32" : "float64";
  if (data.shape(1) != r.meta.receivers.size()) {
    throw InputError(name + ": data have " + std::to_string(data.shape(1)) + " traces, rec has " +
                     std::to_string(r.meta.receivers.size()) + " receivers");
  }
  r.traces = values_of(data, name + " data");
  check_shot_record(r, name);
  return r;
}

}  // namespace
}  // namespace revwave::python

NB_MODULE(_revwave, m) {
  using namespace revwave;
  using namespace revwave::python;
  m.doc() = "revwave's compiled core; use the package revwave, whose functions take keyword arguments.";

  // revwave's error classes as Python exceptions of the matching built-in kind.
  nb::exception<InputError>(m, "InputError", PyExc_ValueError);
  nb::exception<IoError>(m, "IoError", PyExc_OSError);
  nb::exception<OutOfMemoryError>(m, "OutOfMemoryError", PyExc_MemoryError);
  nb::exception<NonFiniteError>(m, "NonFiniteError", PyExc_RuntimeError);
  // Later registrations are tried first: the derived NotCompiledError after BackendError.
  nb::exception<BackendError>(m, "BackendError", PyExc_RuntimeError);
  nb::exception<NotCompiledError>(m, "NotCompiledError", PyExc_RuntimeError);

  nb::class_<ProblemOptions>(m, "ProblemOptions", "The options of a problem: the CLI's long options, - as _.")
      .def(nb::init<>())
      .def_rw("velocity", &ProblemOptions::velocity)
      .def_rw("shape", &ProblemOptions::shape)
      .def_rw("spacing", &ProblemOptions::spacing)
      .def_rw("nbl", &ProblemOptions::nbl)
      .def_rw("space_order", &ProblemOptions::space_order)
      .def_rw("tn", &ProblemOptions::tn)
      .def_rw("dt", &ProblemOptions::dt)
      .def_rw("f0", &ProblemOptions::f0)
      .def_rw("rec_grid", &ProblemOptions::rec_grid)
      .def_prop_rw(
          "precision", [](const ProblemOptions& o) { return std::string(to_string(o.precision)); },
          [](ProblemOptions& o, const std::string& v) { o.precision = parse_precision(v); })
      .def_prop_rw(
          "backend", [](const ProblemOptions& o) { return std::string(to_string(o.backend)); },
          [](ProblemOptions& o, const std::string& v) { o.backend = parse_backend(v); })
      .def_rw("threads", &ProblemOptions::threads)
      .def_rw("device_memory", &ProblemOptions::device_memory)
      .def_rw("host_memory", &ProblemOptions::host_memory)
      .def_rw("host_spacing", &ProblemOptions::host_spacing)
      .def("set_model", [](ProblemOptions& o, const InArray& a) { o.model_values = model_of(a, "model"); }, "model"_a)
      .def("set_sources", [](ProblemOptions& o, const InArray& a) { o.src_points = points_of(a, "src"); }, "src"_a)
      .def("set_receivers", [](ProblemOptions& o, const InArray& a) { o.rec_points = points_of(a, "rec"); }, "rec"_a);

  nb::class_<GradientJobOptions>(m, "GradientOptions", "The options of a gradient: problem, observed data, strategy.")
      .def(nb::init<>())
      .def_prop_rw(
          "problem", [](GradientJobOptions& o) -> ProblemOptions& { return o.problem; },
          [](GradientJobOptions& o, const ProblemOptions& p) { o.problem = p; }, nb::rv_policy::reference_internal)
      .def_rw("f0_given", &GradientJobOptions::f0_given)
      .def_rw("checkpoint_memory", &GradientJobOptions::checkpoint_memory)
      .def_prop_rw(
          "strategy", [](const GradientJobOptions& o) { return std::string(to_string(o.strategy.strategy)); },
          [](GradientJobOptions& o, const std::string& v) { o.strategy.strategy = parse_strategy(v); })
      .def_prop_rw(
          "snaps", [](const GradientJobOptions& o) { return o.strategy.snaps; },
          [](GradientJobOptions& o, std::optional<index_t> v) { o.strategy.snaps = v; })
      .def_prop_rw(
          "store",
          [](const GradientJobOptions& o) {
            return o.strategy.store ? std::optional<std::string>(to_string(*o.strategy.store)) : std::nullopt;
          },
          [](GradientJobOptions& o, std::optional<std::string> v) {
            o.strategy.store = v ? std::optional<StoreKind>(parse_store(*v)) : std::nullopt;
          })
      .def_prop_rw(
          "compress", [](const GradientJobOptions& o) { return o.strategy.compression.text(); },
          [](GradientJobOptions& o, const std::string& v) { o.strategy.compression = parse_compression(v); })
      .def_prop_rw(
          "checkpoint_dir", [](const GradientJobOptions& o) { return o.strategy.checkpoint_dir; },
          [](GradientJobOptions& o, const std::string& v) { o.strategy.checkpoint_dir = v; })
      .def_prop_rw(
          "tiers", [](const GradientJobOptions& o) { return o.strategy.tiers; },
          [](GradientJobOptions& o, const std::vector<std::string>& v) { o.strategy.tiers = v; })
      .def_prop_rw(
          "stop_energy", [](const GradientJobOptions& o) { return o.strategy.stop_energy; },
          [](GradientJobOptions& o, std::optional<double> v) { o.strategy.stop_energy = v; })
      .def(
          "set_observed",
          [](GradientJobOptions& o, const InArray& data, double dt, double f0, double t0, const InArray& src,
             const InArray& rec) {
            o.observed_record = std::make_shared<ShotRecord>(record_of(data, dt, f0, t0, src, rec, "observed"));
          },
          "data"_a, "dt"_a, "f0"_a, "t0"_a, "src"_a, "rec"_a)
      .def("set_observed_file", [](GradientJobOptions& o, const std::string& path) { o.observed = {path}; }, "path"_a)
      .def("set_true_model", [](GradientJobOptions& o, const InArray& a) { o.true_model_values = model_of(a, "true_model"); },
           "true_model"_a);

  m.def("forward", &forward, "options"_a, "Models one shot record; see revwave.forward.");
  m.def("gradient", &gradient, "options"_a, "Objective, dJ/dm and statistics; see revwave.gradient.");
  m.def(
      "survey_gradient",
      [](const GradientJobOptions& o, const std::vector<nb::dict>& records, const std::vector<std::string>& paths,
         double aperture) {
        check_job_numbers(o);
        std::vector<ShotRecord> shots;
        for (std::size_t i = 0; i < records.size(); ++i) {
          const nb::dict& d = records[i];
          shots.push_back(record_of(nb::cast<InArray>(d["data"]), nb::cast<double>(d["dt"]), nb::cast<double>(d["f0"]),
                                    nb::cast<double>(d["t0"]), nb::cast<InArray>(d["src"]), nb::cast<InArray>(d["rec"]),
                                    "observed[" + std::to_string(i) + "]"));
        }
        return o.problem.precision == Precision::float64 ? survey_impl<double>(o, shots, paths, aperture)
                                               : survey_impl<float>(o, shots, paths, aperture);
      },
      "options"_a, "records"_a, "paths"_a, "aperture"_a, "J and dJ/dm summed over a survey; see revwave.gradient.");
  m.def("adjtest", &adjtest, "options"_a, "seed"_a, "The dot-product test; see revwave.adjtest.");
  m.def("gradtest", &gradtest, "options"_a, "halvings"_a, "scale"_a, "The Taylor test; see revwave.gradtest.");
  m.def(
      "schedule",
      [](const ScheduleRequest& r) {
        nlohmann::json j;
        {
          nb::gil_scoped_release unlocked;
          j = schedule_summary(r);
        }
        return to_python(j);
      },
      "request"_a, "Counts (and lists) a checkpoint schedule; see revwave.schedule.");
  nb::class_<ScheduleRequest>(m, "ScheduleRequest", "The options of `revwave schedule`.")
      .def(nb::init<>())
      .def_rw("steps", &ScheduleRequest::steps)
      .def_rw("snaps", &ScheduleRequest::snaps)
      .def_prop_rw(
          "strategy", [](const ScheduleRequest& o) { return std::string(to_string(o.strategy)); },
          [](ScheduleRequest& o, const std::string& v) { o.strategy = parse_strategy(v); })
      .def_rw("actions", &ScheduleRequest::actions)
      .def_rw("tiers", &ScheduleRequest::tiers)
      .def_rw("slot_bytes", &ScheduleRequest::slot_bytes);
  m.def(
      "read_shot_record",
      [](const std::string& path) {
        ShotRecord r = read_shot_record(path);
        nb::dict d;
        const std::size_t nt = static_cast<std::size_t>(r.meta.nt), nrec = r.meta.receivers.size();
        if (r.meta.precision == "float32") d["data"] = owned(std::vector<float>(r.traces.begin(), r.traces.end()), {nt, nrec});
        else d["data"] = owned(std::move(r.traces), {nt, nrec});
        d["dt"] = r.meta.dt;
        d["f0"] = r.meta.f0;
        d["t0"] = r.meta.t0;
        d["src"] = points_to_python(r.meta.sources);
        d["rec"] = points_to_python(r.meta.receivers);
        return d;
      },
      "path"_a, "Reads a shot record .npy and its sidecar .json, as the CLI writes them.");
  m.def(
      "write_shot_record",
      [](const std::string& path, const InArray& data, double dt, double f0, double t0, const InArray& src,
         const InArray& rec) {
        const ShotRecord r = record_of(data, dt, f0, t0, src, rec, path);
        write_shot_record(path, r.meta, r.traces);
      },
      "path"_a, "data"_a, "dt"_a, "f0"_a, "t0"_a, "src"_a, "rec"_a,
      "Writes a shot record .npy (in the data's dtype) and its sidecar .json, as `revwave forward` does.");
  m.def("_address", [](const InArray& a) { return reinterpret_cast<std::uintptr_t>(a.data()); }, "array"_a,
        "The address the extension reads an array at (tests: C-contiguous float arrays are not copied).");
  m.def("_max_threads", [] { return omp_get_max_threads(); }, "The calling thread's OpenMP team size (tests).");
  m.def("parse_bytes", &parse_bytes, "text"_a, "A memory size such as 512M or 8GiB, in bytes (the CLI's rule).");
}
