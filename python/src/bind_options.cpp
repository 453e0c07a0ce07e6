// The library's option structs as Python classes: the Python half fills them from keyword
// arguments (the CLI's long options, - as _), text choices parsed into the library's enums here.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "arrays.hpp"
#include "bindings.hpp"
#include "py_misfit.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/inversion/invert_run.hpp"
#include "revwave/setup/gradient_job.hpp"
#include "revwave/setup/option_text.hpp"
#include "revwave/setup/problem_setup.hpp"
#include "revwave/setup/schedule_summary.hpp"
#include "revwave/setup/survey_setup.hpp"

namespace revwave::python {
namespace {

using namespace nb::literals;

// A memory size as the CLI reads it ("8GiB", an integer's text): bytes, or unset.
std::optional<std::size_t> memory_of(const std::optional<std::string>& text) {
  return text ? std::optional<std::size_t>(parse_bytes(*text)) : std::nullopt;
}

std::uintptr_t model_address = 0;  // where set_model last read a model (tests: no copy on the way in)

void bind_problem(nb::module_& m) {
  nb::class_<ProblemOptions>(m, "ProblemOptions", "The options of a problem: the CLI's long options, - as _.")
      .def(nb::init<>())
      .def_rw("model_file", &ProblemOptions::model_file)
      .def_rw("velocity", &ProblemOptions::velocity)
      .def_rw("q_frequency", &ProblemOptions::q_frequency)
      .def_prop_rw(
          "shape", [](const ProblemOptions& o) { return shape_text(o.shape); },
          [](ProblemOptions& o, const std::string& v) { o.shape = parse_shape(v, "--shape"); })
      .def_rw("shape_given", &ProblemOptions::shape_given)
      .def_rw("spacing", &ProblemOptions::spacing)
      .def_rw("nbl", &ProblemOptions::nbl)
      .def_rw("free_surface", &ProblemOptions::free_surface)
      .def_prop_rw(
          "boundary", [](const ProblemOptions& o) { return std::string(to_string(o.boundary)); },
          [](ProblemOptions& o, const std::string& v) { o.boundary = parse_boundary(v); })
      .def_rw("space_order", &ProblemOptions::space_order)
      .def_rw("tn", &ProblemOptions::tn)
      .def_rw("dt", &ProblemOptions::dt)
      .def_rw("f0", &ProblemOptions::f0)
      .def_prop_rw(
          "rec_grid", [](const ProblemOptions& o) { return o.rec_grid ? o.rec_grid->text() : std::string(); },
          [](ProblemOptions& o, const std::string& v) {
            o.rec_grid = v.empty() ? std::nullopt : std::optional<PointGrid>(parse_point_grid(v, "--rec-grid"));
          })
      .def_prop_rw(
          "precision", [](const ProblemOptions& o) { return std::string(to_string(o.precision)); },
          [](ProblemOptions& o, const std::string& v) { o.precision = parse_precision(v); })
      .def_prop_rw(
          "backend", [](const ProblemOptions& o) { return std::string(to_string(o.backend)); },
          [](ProblemOptions& o, const std::string& v) { o.backend = parse_backend(v); })
      .def_rw("threads", &ProblemOptions::threads)
      .def_prop_rw(
          "device_memory", [](const ProblemOptions& o) { return o.device_memory; },
          [](ProblemOptions& o, const std::optional<std::string>& v) { o.device_memory = memory_of(v); })
      .def_prop_rw(
          "host_memory", [](const ProblemOptions& o) { return o.host_memory; },
          [](ProblemOptions& o, const std::optional<std::string>& v) { o.host_memory = memory_of(v); })
      .def_rw("host_spacing", &ProblemOptions::host_spacing)
      .def_rw("shots_at_once", &ProblemOptions::shots_at_once)
      .def(
          "set_model",
          [](ProblemOptions& o, const InArray& a) {
            model_address = reinterpret_cast<std::uintptr_t>(a.data());
            o.model_values = model_of(a, "model");
          },
          "model"_a)
      .def_rw("density_file", &ProblemOptions::density_file)
      .def(
          "set_density", [](ProblemOptions& o, const InArray& a) { o.density_values = npy_of(a, "density"); },
          "density"_a)
      .def(
          "set_parameter",
          [](ProblemOptions& o, const std::string& name, const nb::object& value) {
            // Thomsen's epsilon or delta, or Q: a float everywhere, a .npy path (str), or an array.
            ParameterInput in;
            if (nb::isinstance<nb::float_>(value))
              in.constant = nb::cast<double>(value);
            else if (nb::isinstance<nb::str>(value))
              in.file = nb::cast<std::string>(value);
            else
              in.values = npy_of(nb::cast<InArray>(value), name);
            (name == "q" ? o.q : name == "delta" ? o.delta : o.epsilon) = in;
          },
          "name"_a, "value"_a)
      .def(
          "set_sources", [](ProblemOptions& o, const InArray& a) { o.sources = points_of(a, "src"); }, "src"_a)
      .def(
          "set_receivers", [](ProblemOptions& o, const InArray& a) { o.receivers = points_of(a, "rec"); }, "rec"_a)
      .def(
          "set_wavelet",
          [](ProblemOptions& o, const InArray& a) {
            if (a.ndim() != 1 || a.shape(0) < 2)
              throw InputError("wavelet: a source signature is a 1-D array of at least 2 samples");
            o.wavelet_samples = values_of(a, "wavelet");
          },
          "wavelet"_a);
}

void bind_strategy(nb::class_<GradientJobOptions>& c) {
  c.def_prop_rw(
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
          [](GradientJobOptions& o, std::optional<double> v) { o.strategy.stop_energy = v; });
}

void bind_gradient(nb::module_& m) {
  nb::class_<GradientJobOptions> c(m, "GradientOptions",
                                   "The options of a gradient: problem, observed data, strategy.");
  c.def(nb::init<>())
      .def_prop_rw(
          "problem", [](GradientJobOptions& o) -> ProblemOptions& { return o.problem; },
          [](GradientJobOptions& o, const ProblemOptions& p) { o.problem = p; }, nb::rv_policy::reference_internal)
      .def_rw("f0_given", &GradientJobOptions::f0_given)
      .def_prop_rw(
          "checkpoint_memory", [](const GradientJobOptions& o) { return o.strategy.checkpoint_memory; },
          [](GradientJobOptions& o, const std::optional<std::string>& v) {
            o.strategy.checkpoint_memory = memory_of(v);
          })
      .def(
          "set_observed",
          [](GradientJobOptions& o, const InArray& data, double dt, double f0, double t0, const InArray& src,
             const InArray& rec) {
            o.observed_record = std::make_shared<ShotRecord>(record_of(data, dt, f0, t0, src, rec, "observed"));
          },
          "data"_a, "dt"_a, "f0"_a, "t0"_a, "src"_a, "rec"_a)
      .def(
          "set_observed_file", [](GradientJobOptions& o, const std::string& path) { o.observed = {path}; }, "path"_a)
      .def(
          "set_observed_files",
          [](GradientJobOptions& o, const std::vector<std::string>& paths) { o.observed = paths; }, "paths"_a)
      .def(
          "set_true_model",
          [](GradientJobOptions& o, const InArray& a) { o.true_model_values = model_of(a, "true_model"); },
          "true_model"_a)
      .def_rw("true_model_file", &GradientJobOptions::true_model)
      .def_prop_rw(
          "misfit", [](const GradientJobOptions& o) { return std::string(to_string(o.misfit.kind)); },
          [](GradientJobOptions& o, const std::string& v) {
            o.misfit = MisfitChoice{parse_misfit(v), nullptr, nullptr};
          })
      .def(
          "set_misfit_callable", [](GradientJobOptions& o, nb::object fn) { o.misfit = python_misfit(std::move(fn)); },
          "fn"_a)
      .def_rw("estimate_wavelet", &GradientJobOptions::estimate_wavelet)
      .def_rw("keep_traces", &GradientJobOptions::keep_traces)
      .def_rw("density_gradient", &GradientJobOptions::density_gradient);
  bind_strategy(c);
}

void bind_survey(nb::module_& m) {
  nb::class_<SurveyOptions>(m, "SurveyOptions",
                            "A survey's options: source grid, spread, wavelet, origin, aperture, records.")
      .def(nb::init<>())
      .def_prop_rw(
          "origin", [](const SurveyOptions& o) { return o.origin ? point_text(*o.origin) : std::string(); },
          [](SurveyOptions& o, const std::string& v) {
            o.origin = v.empty() ? std::nullopt : std::optional<Vec3>(parse_point(v, "--origin"));
          })
      .def_rw("wavelet", &SurveyOptions::wavelet)
      .def_prop_rw(
          "src_grid", [](const SurveyOptions& o) { return o.src_grid ? o.src_grid->text() : std::string(); },
          [](SurveyOptions& o, const std::string& v) {
            o.src_grid = v.empty() ? std::nullopt : std::optional<PointGrid>(parse_point_grid(v, "--src-grid"));
          })
      .def_rw("spread", &SurveyOptions::spread)
      .def_rw("aperture", &SurveyOptions::aperture)
      .def(
          "set_wavelet", [](SurveyOptions& o, const InArray& a) { o.wavelet_samples = values_of(a, "wavelet"); },
          "wavelet"_a)
      .def(
          "set_records",
          [](SurveyOptions& o, const std::vector<nb::dict>& records) {
            auto held = std::make_shared<std::vector<ShotRecord>>();
            for (std::size_t i = 0; i < records.size(); ++i)
              held->push_back(record_of(records[i], "observed[" + std::to_string(i) + "]"));
            o.observed_records = held;
          },
          "records"_a);
}

void bind_invert(nb::module_& m) {
  nb::class_<InvertOptions>(m, "InvertOptions", "The options of an inversion: `revwave invert`'s, - as _.")
      .def(nb::init<>())
      .def_prop_rw(
          "job", [](InvertOptions& o) -> GradientJobOptions& { return o.job; },
          [](InvertOptions& o, const GradientJobOptions& j) { o.job = j; }, nb::rv_policy::reference_internal)
      .def_prop_rw(
          "survey", [](InvertOptions& o) -> SurveyOptions& { return o.survey; },
          [](InvertOptions& o, const SurveyOptions& s) { o.survey = s; }, nb::rv_policy::reference_internal)
      .def_rw("vmin", &InvertOptions::vmin)
      .def_rw("vmax", &InvertOptions::vmax)
      .def_rw("lbfgs_memory", &InvertOptions::lbfgs_memory)
      .def_rw("iterations", &InvertOptions::iterations)
      .def_rw("tolerance", &InvertOptions::tolerance)
      .def_rw("first_step", &InvertOptions::first_step)
      .def_rw("mask", &InvertOptions::mask)
      .def(
          "set_mask", [](InvertOptions& o, const InArray& a) { o.mask_values = npy_of(a, "mask"); }, "mask"_a)
      .def_rw("mask_depth", &InvertOptions::mask_depth)
      .def_rw("illumination", &InvertOptions::illumination)
      .def_rw("smooth", &InvertOptions::smooth)
      .def_rw("bands", &InvertOptions::bands)
      .def_rw("out_dir", &InvertOptions::out_dir)
      .def_rw("out_dir_given", &InvertOptions::out_dir_given)
      .def_rw("resume", &InvertOptions::resume);
}

void bind_schedule(nb::module_& m) {
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
}

}  // namespace

std::uintptr_t last_model_address() { return model_address; }

void bind_options(nb::module_& m) {
  bind_problem(m);
  bind_gradient(m);
  bind_survey(m);
  bind_invert(m);
  bind_schedule(m);
}

}  // namespace revwave::python
