// revwave._revwave: the compiled half of the Python package. It binds the library's runs
// (revwave/setup, revwave/inversion) on the library's own option structs, so a result is the CLI's
// result bit for bit and a refusal is the CLI's sentence; it adds only the conversions to and from
// numpy and the release of the GIL. The Python half (revwave/__init__.py) turns keyword arguments
// into these options and numpy arrays into the dtypes read here.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/array.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <omp.h>

#include <algorithm>
#include <string>
#include <type_traits>
#include <vector>

#include "arrays.hpp"
#include "bindings.hpp"
#include "mpi_runs.hpp"
#include "revwave/core/cancellation.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/utf8_text.hpp"
#include "revwave/inversion/invert_run.hpp"
#include "revwave/inversion/velocity_gradient.hpp"
#include "revwave/io/shot_record.hpp"
#include "revwave/setup/forward_run.hpp"
#include "revwave/setup/gradient_run.hpp"
#include "revwave/setup/result_values.hpp"
#include "revwave/setup/schedule_summary.hpp"
#include "revwave/setup/survey_forward_run.hpp"
#include "revwave/setup/survey_gradient_run.hpp"
#include "revwave/setup/verification_runs.hpp"
#include "signals.hpp"

namespace revwave::python {
namespace {

using namespace nb::literals;

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

// Runs `work` without the GIL and with the call's own OpenMP team. `work` gets the progress callback
// to hand the library, which turns Ctrl-C into the run's end and the call's KeyboardInterrupt
// (signals.hpp).
template <class F>
auto unlocked(F&& work) {
  SignalCheck signals;
  try {
    nb::gil_scoped_release released;
    ThreadsScope scope;
    if constexpr (std::is_invocable_v<F, SignalCheck&>)
      return work(signals);  // a call that tells the hook itself
    else
      return work(signals.progress());
  } catch (const RunCancelled&) {
    if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
    throw nb::python_error();  // the signal handler's exception, set on this thread by PyErr_CheckSignals
  }
}

std::vector<std::size_t> sizes(const std::array<index_t, 3>& shape) {
  return {static_cast<std::size_t>(shape[0]), static_cast<std::size_t>(shape[1]), static_cast<std::size_t>(shape[2])};
}

// The CLI's parse-time rules for the strategy's numbers.
void check_job_numbers(const GradientJobOptions& o) {
  check_problem_numbers(o.problem);
  if (o.strategy.snaps) check_integer("--snaps", *o.strategy.snaps, at_least(1));
  if (o.strategy.stop_energy) check_number("--stop-energy", *o.strategy.stop_energy, {0.0, 1.0, true, true});
}

template <class T>
nb::dict forward_impl(const ProblemOptions& o) {
  ForwardRun<T> run = unlocked([&](const Progress& progress) { return run_forward_job<T>(o, {}, progress); });
  const nlohmann::json stats = forward_summary(run, o.precision);
  nb::dict r = record_dict(std::move(run.shot.traces), run.setup.acquisition, run.time);
  r["stats"] = to_python(stats);
  return r;
}

// dJ/dc = -2 dJ/dm / c^3 in the run's precision (the chain rule revwave invert takes).
template <class T>
nb::object velocity_gradient_array(const VelocityModel& model, const std::vector<double>& dj_dm) {
  return nb::cast(owned(values_in_precision<T>(velocity_gradient(model.velocity, dj_dm), "dJ/dc"), sizes(model.shape)));
}

// An estimated signature (float64, as the CLI writes it), or None.
nb::object wavelet_array(const std::vector<double>& wavelet) {
  if (wavelet.empty()) return nb::none();
  return nb::cast(owned(std::vector<double>(wavelet), {wavelet.size()}));
}

template <class T>
nb::tuple gradient_impl(GradientJobOptions o) {
  GradientRun<T> run = unlocked([&](const Progress& progress) { return run_gradient_job<T>(o, {}, progress); });
  nlohmann::json stats =
      gradient_summary(run, o, run.job.observed_source == ObservedSource::record ? o.observed_name : "modelled");
  // dJ/dm as `revwave gradient` writes it: in the run's precision.
  auto g = owned(values_in_precision<T>(run.output.gradient, "the gradient"), sizes(run.job.start.grid.shape));
  const std::vector<std::size_t> record = {static_cast<std::size_t>(run.job.time.nt()),
                                           run.job.start.acquisition.receivers.size()};
  nb::dict extras;
  extras["dj_dc"] = velocity_gradient_array<T>(run.job.start.model, run.output.gradient);
  extras["wavelet"] = o.estimate_wavelet ? wavelet_array(run.job.start.acquisition.wavelet) : nb::none();
  extras["synthetic"] = o.keep_traces ? nb::cast(owned(std::move(run.synthetic), record)) : nb::none();
  extras["residual"] = o.keep_traces ? nb::cast(owned(std::move(run.adjoint_source), record)) : nb::none();
  extras["density_gradient"] =
      o.density_gradient ? nb::cast(owned(values_in_precision<T>(run.output.density_gradient, "the density gradient"),
                                          sizes(run.job.start.grid.shape)))
                         : nb::none();
  nb::object observed = nb::none();
  if (run.job.observed_source == ObservedSource::modelled) {
    observed = record_dict(std::move(run.job.observed), run.job.start.acquisition, run.job.time);
  }
  return nb::make_tuple(run.output.stats.objective, g, to_python(stats), observed, extras);
}

// J and g summed over a survey's shots on the CLI's fixed tree, shot after shot in this process, or
// under mpiexec over its processes (the CLI's MPI runner): every process returns the root's J and g
// (broadcast), so that scripts on every process take the same steps. The stats are the CLI's survey
// JSON fields on the first process; the others hold {"rank": r} only.
template <class T>
nb::tuple survey_gradient_impl(GradientJobOptions o, const SurveyOptions& so) {
  SurveyGradientJob job;
  ShotRunner& runner = shot_runner();
  std::vector<double> packed;
  nlohmann::json stats;
  unlocked([&](const Progress& progress) {
    apply_process_threads(o.problem.threads);
    std::exception_ptr failure;
    try {
      job = prepare_survey_gradient<T>(o, so, mpi_session().local_rank(), {});
    } catch (...) {
      failure = std::current_exception();
    }
    runner.agree(failure);  // every process has the same inputs now, or every process raises the first error
    SurveySum sum = run_survey_gradient_job<T>(job, runner, progress);
    if (sum.root) {
      stats = survey_gradient_summary(job, sum, o.problem.precision);
      packed.reserve(sum.gradient.size() + 1);
      packed.push_back(sum.objective);
      packed.insert(packed.end(), sum.gradient.begin(), sum.gradient.end());
    } else {
      stats = {{"rank", runner.rank()}};
    }
    runner.broadcast_from_root(packed);
  });
  const std::vector<double> dj_dm(packed.begin() + 1, packed.end());
  auto g = owned(values_in_precision<T>(dj_dm, "the gradient"), sizes(job.inputs.grid.shape));
  nb::dict extras;
  extras["dj_dc"] = velocity_gradient_array<T>(job.inputs.model, dj_dm);
  extras["wavelet"] = wavelet_array(job.wavelet);
  extras["synthetic"] = nb::none();
  extras["residual"] = nb::none();
  return nb::make_tuple(packed.front(), g, to_python(stats), nb::none(), extras);
}

template <class T>
nb::tuple forward_survey_impl(const ProblemOptions& o, const SurveyOptions& so, const std::string& out) {
  const SurveyForwardRun run = unlocked([&](const Progress& progress) {
    SurveyForwardRun r = run_survey_forward_job<T>(o, so, out, progress);
    if (!out.empty()) write_survey_records(r, out, o.precision);
    return r;
  });
  nb::list records;
  for (const Shot& shot : run.survey.shots) {
    records.append(record_dict(std::vector<T>(shot.data.begin(), shot.data.end()), shot.acquisition, shot.time));
  }
  return nb::make_tuple(records, to_python(survey_forward_summary(run, so, o.precision)));
}

// Under mpiexec every process runs the same optimiser on the root's J and g (the CLI's rule) and
// returns the same model; the first process writes the run directory.
template <class T>
nb::dict invert_impl(InvertOptions o) {
  const InvertResult result = unlocked([&](SignalCheck& signals) {
    apply_process_threads(o.job.problem.threads);
    o.local_rank = mpi_session().local_rank();
    InvertReporter report;
    // The hook counts iterations, of bands x --iterations (a band that converges ends early): the
    // time steps of every evaluation would restart its count. They still look for Ctrl-C.
    report.progress = signals.signals_only();
    index_t total = 0;
    report.started = [&](const InvertJob& job, const InversionState&) {
      total = static_cast<index_t>(std::max<std::size_t>(job.settings.bands.size(), 1)) * job.settings.iterations;
    };
    report.iteration = [&](const IterationRecord& r) {
      signals.check(r.iteration, std::max<index_t>(total, r.iteration));
    };
    return run_invert<T>(o, shot_runner(), report);
  });
  nb::dict d;
  d["model"] = owned_as<T>(result.model, sizes(result.shape));
  d["history"] = nb::cast(result.history);
  d["stats"] = to_python(invert_summary(result));
  d["wavelet"] = wavelet_array(result.wavelet);
  return d;
}

template <class T>
nb::dict adjtest_impl(const ProblemOptions& o, std::uint32_t seed, std::optional<double> tolerance) {
  const AdjtestRun r = unlocked([&](const Progress&) { return run_adjtest<T>(o, seed, tolerance); });
  return nb::cast<nb::dict>(to_python(adjtest_summary(r, o.precision)));
}

template <class T>
nb::dict gradtest_impl(GradientJobOptions o, int halvings, double scale) {
  const GradtestRun r = unlocked([&](const Progress&) { return run_gradtest<T>(o, halvings, scale); });
  return nb::cast<nb::dict>(to_python(gradtest_summary(r, o)));
}

bool in_double(const ProblemOptions& o) { return o.precision == Precision::float64; }

nb::dict read_record(const std::string& path) {
  ShotRecord r = read_shot_record(path);
  nb::dict d;
  const std::size_t nt = static_cast<std::size_t>(r.meta.nt), nrec = r.meta.receivers.size();
  if (r.meta.precision == "float32")
    d["data"] = owned(std::vector<float>(r.traces.begin(), r.traces.end()), {nt, nrec});
  else
    d["data"] = owned(std::move(r.traces), {nt, nrec});
  d["dt"] = r.meta.dt;
  d["f0"] = r.meta.f0;
  d["t0"] = r.meta.t0;
  d["src"] = points_to_python(r.meta.sources);
  d["rec"] = points_to_python(r.meta.receivers);
  return d;
}

}  // namespace

void bind_runs(nb::module_& m) {
  m.def(
      "forward",
      [](const ProblemOptions& o) {
        check_problem_numbers(o);
        return in_double(o) ? forward_impl<double>(o) : forward_impl<float>(o);
      },
      "options"_a, "Models one shot record; see revwave.forward.");
  m.def(
      "forward_survey",
      [](const ProblemOptions& o, const SurveyOptions& so, const std::string& out) {
        check_problem_numbers(o);
        return in_double(o) ? forward_survey_impl<double>(o, so, out) : forward_survey_impl<float>(o, so, out);
      },
      "options"_a, "survey"_a, "out"_a, "Models a survey's shot records; see revwave.forward_survey.");
  m.def(
      "gradient",
      [](const GradientJobOptions& o) {
        check_job_numbers(o);
        return in_double(o.problem) ? gradient_impl<double>(o) : gradient_impl<float>(o);
      },
      "options"_a, "Objective, dJ/dm and statistics; see revwave.gradient.");
  m.def(
      "survey_gradient",
      [](const GradientJobOptions& o, const SurveyOptions& so) {
        check_job_numbers(o);
        return in_double(o.problem) ? survey_gradient_impl<double>(o, so) : survey_gradient_impl<float>(o, so);
      },
      "options"_a, "survey"_a, "J and dJ/dm summed over a survey; see revwave.gradient.");
  m.def(
      "invert",
      [](const InvertOptions& o) {
        check_invert_numbers(o);
        return in_double(o.job.problem) ? invert_impl<double>(o) : invert_impl<float>(o);
      },
      "options"_a, "Full-waveform inversion; see revwave.invert.");
  m.def(
      "adjtest",
      [](const ProblemOptions& o, std::uint32_t seed, std::optional<double> tolerance) {
        check_problem_numbers(o);
        if (tolerance) check_number("--tolerance", *tolerance, positive());
        return in_double(o) ? adjtest_impl<double>(o, seed, tolerance) : adjtest_impl<float>(o, seed, tolerance);
      },
      "options"_a, "seed"_a, "tolerance"_a.none(), "The dot-product test; see revwave.adjtest.");
  m.def(
      "gradtest",
      [](const GradientJobOptions& o, int halvings, double scale) {
        check_job_numbers(o);
        check_integer("--halvings", halvings, int_within(2, 40));
        check_number("--scale", scale, {0.0, 0.5, true, true});
        return in_double(o.problem) ? gradtest_impl<double>(o, halvings, scale)
                                    : gradtest_impl<float>(o, halvings, scale);
      },
      "options"_a, "halvings"_a, "scale"_a, "The Taylor test; see revwave.gradtest.");
  m.def(
      "schedule",
      [](const ScheduleRequest& r) {
        const nlohmann::json j = unlocked([&](const Progress&) { return schedule_summary(r); });
        return to_python(j);
      },
      "request"_a, "Counts (and lists) a checkpoint schedule; see revwave.schedule.");
  m.def("read_shot_record", &read_record, "path"_a,
        "Reads a shot record .npy and its sidecar .json, as the CLI writes them.");
  m.def(
      "write_shot_record",
      [](const std::string& path, const InArray& data, double dt, double f0, double t0, const InArray& src,
         const InArray& rec) {
        const ShotRecord r = record_of(data, dt, f0, t0, src, rec, path);
        write_shot_record(path, r.meta, r.traces);
      },
      "path"_a, "data"_a, "dt"_a, "f0"_a, "t0"_a, "src"_a, "rec"_a,
      "Writes a shot record .npy (in the data's dtype) and its sidecar .json, as `revwave forward` does.");
}

}  // namespace revwave::python

NB_MODULE(_revwave, m) {
  using namespace revwave;
  using namespace revwave::python;
  using namespace nb::literals;
  m.doc() = "revwave's compiled core; use the package revwave, whose functions take keyword arguments.";
  m.attr("__version__") = REVWAVE_VERSION;  // project()'s VERSION, the CLI's --version

  // revwave's error classes as Python exceptions of the matching built-in kind.
  // Their messages go through utf8_text: one that quotes bytes that are not UTF-8 (a sidecar's,
  // in the JSON parser's words) could not become a str and reached Python empty.
  static PyObject* kinds[7] = {
      nb::exception<InputError>(m, "InputError", PyExc_ValueError).ptr(),
      nb::exception<IoError>(m, "IoError", PyExc_OSError).ptr(),
      nb::exception<OutOfMemoryError>(m, "OutOfMemoryError", PyExc_MemoryError).ptr(),
      nb::exception<NonFiniteError>(m, "NonFiniteError", PyExc_RuntimeError).ptr(),
      nb::exception<UnstableRunError>(m, "UnstableRunError", PyExc_RuntimeError).ptr(),
      nb::exception<BackendError>(m, "BackendError", PyExc_RuntimeError).ptr(),
      nb::exception<NotCompiledError>(m, "NotCompiledError", PyExc_RuntimeError).ptr()};  // the module holds them
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    const auto raise = [](PyObject* kind, const std::exception& e) {
      PyErr_SetString(kind, utf8_text(e.what()).c_str());
    };
    try {
      std::rethrow_exception(p);
    } catch (const InputError& e) {
      raise(kinds[0], e);
    } catch (const IoError& e) {
      raise(kinds[1], e);
    } catch (const OutOfMemoryError& e) {
      raise(kinds[2], e);
    } catch (const NonFiniteError& e) {
      raise(kinds[3], e);
    } catch (const UnstableRunError& e) {
      raise(kinds[4], e);
    } catch (const NotCompiledError& e) {  // before its base
      raise(kinds[6], e);
    } catch (const BackendError& e) {
      raise(kinds[5], e);
    }
  });

  bind_options(m);
  bind_runs(m);
  m.def(
      "_address", [](const InArray& a) { return reinterpret_cast<std::uintptr_t>(a.data()); }, "array"_a,
      "The address the extension reads an array at (tests: C-contiguous float arrays are not copied).");
  m.def(
      "_max_threads", [] { return omp_get_max_threads(); }, "The calling thread's OpenMP team size (tests).");
  m.def("_last_model_address", &last_model_address,
        "The address the last model was read at (tests: a C-contiguous array or CPU tensor is not copied).");
  m.def("_mpi_compiled", &mpi_compiled, "Whether the library's MPI runner is built in (else a one-process stub).");
  m.def(
      "_mpi_rank", [] { return mpi_session().rank(); }, "This process's rank under mpiexec (0 without).");
  m.def(
      "_mpi_size", [] { return mpi_session().size(); }, "The number of processes under mpiexec (1 without).");
  m.def("_set_progress", &set_progress_hook, "hook"_a.none(),
        "The callable (done, total) the next calls report their progress to, or None (revwave._progress sets it).");
  m.def("parse_bytes", &parse_bytes, "text"_a, "A memory size such as 512M or 8GiB, in bytes (the CLI's rule).");
}
