#include "problem_options.hpp"

#include <omp.h>

#include <cmath>
#include <iostream>
#include <sstream>

#include "revwave/core/errors.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/driver/cuda_info.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave::app {

void add_problem_options(CLI::App* cmd, ProblemOptions& o) {
  cmd->add_option("--model", o.model_file, "velocity model, .npy (nx, ny, nz), m/s")->check(CLI::ExistingFile);
  cmd->add_option("--velocity", o.velocity, "homogeneous velocity, m/s (instead of --model)");
  cmd->add_option("--shape", o.shape, "interior points NX,NY,NZ (z is depth)")->capture_default_str();
  cmd->add_option("--spacing", o.spacing, "grid spacing h, m")->capture_default_str();
  cmd->add_option("--nbl", o.nbl, "absorbing points per side")->capture_default_str();
  cmd->add_option("--space-order", o.space_order, "even order of the Laplacian, 2..16")->capture_default_str();
  cmd->add_option("--tn", o.tn, "simulated time, s")->capture_default_str();
  cmd->add_option("--dt", o.dt, "time step, s (default: 0.9 x the stability bound)");
  cmd->add_option("--f0", o.f0, "Ricker peak frequency, Hz")->capture_default_str();
  cmd->add_option("--src", o.src, "source X,Y,Z in m (repeatable)");
  cmd->add_option("--rec", o.rec, "receiver X,Y,Z in m (repeatable)");
  cmd->add_option("--rec-file", o.rec_file, "receivers, .npy of shape (n, 3), m")->check(CLI::ExistingFile);
  cmd->get_option("--model")->excludes(cmd->get_option("--velocity"));
  cmd->add_option("--rec-grid", o.rec_grid, "NX,NY,Z: a grid of NX x NY receivers over the x-y extent at depth Z (m)");
  cmd->get_option("--rec-file")->excludes(cmd->get_option("--rec"));
  cmd->get_option("--rec-grid")->excludes(cmd->get_option("--rec"));
  cmd->get_option("--rec-grid")->excludes(cmd->get_option("--rec-file"));
  add_run_options(cmd, o);
}

void add_run_options(CLI::App* cmd, ProblemOptions& o) {
  cmd->add_option("--precision", o.precision, "float or double")
      ->check(CLI::IsMember({"float", "double"}))
      ->capture_default_str();
  cmd->add_option("--backend", o.backend, "auto, cpu or cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}))->capture_default_str();
  cmd->add_option("--threads", o.threads, "OpenMP threads (default: all cores)");
  cmd->add_option("--device-memory", o.device_memory, "CUDA: device memory for checkpoint slots, e.g. 8GiB (default: what is free)");
  cmd->add_option("--host-memory", o.host_memory, "CUDA: pinned host memory for spilled slots, e.g. 64GiB (default: half of what is available)");
  cmd->add_option("--host-spacing", o.host_spacing,
                  "CUDA: fewest forward steps between checkpoints spilled to pinned host memory (two-level schedule)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--json", o.json, "print one JSON object with the run's summary");
}

namespace {

std::vector<double> parse_list(const std::string& text, const std::string& option, std::size_t count) {
  std::vector<double> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    std::size_t pos = 0;
    double x = 0;
    try {
      x = std::stod(item, &pos);
    } catch (...) {
      pos = 0;
    }
    if (pos == 0 || pos != item.size() || !std::isfinite(x)) {
      throw InputError(option + " '" + text + "' is invalid: expected " + std::to_string(count) + " comma-separated numbers");
    }
    v.push_back(x);
  }
  if (v.size() != count) {
    throw InputError(option + " '" + text + "' is invalid: expected " + std::to_string(count) + " comma-separated numbers");
  }
  return v;
}

}  // namespace

std::vector<Vec3> parse_points(const std::vector<std::string>& texts, const std::string& option) {
  std::vector<Vec3> out;
  for (const auto& t : texts) {
    const auto v = parse_list(t, option, 3);
    out.push_back({v[0], v[1], v[2]});
  }
  return out;
}

ProblemSetup make_setup(const ProblemOptions& o) {
  ProblemSetup s;
  const auto sh = parse_list(o.shape, "--shape", 3);
  for (int a = 0; a < 3; ++a) {
    if (sh[a] != std::floor(sh[a]) || sh[a] < 2) {
      throw InputError("--shape '" + o.shape + "' is invalid: three integers, each at least 2");
    }
    s.grid.shape[a] = static_cast<index_t>(sh[a]);
  }
  s.grid.spacing = o.spacing;
  s.grid.nbl = o.nbl;
  s.grid.space_order = o.space_order;
  if (!o.model_file.empty()) {
    const NpyArray a = read_npy(o.model_file);
    if (a.shape.size() != 3) {
      throw InputError(o.model_file + ": a velocity model must be 3D (nx, ny, nz), this one has " +
                       std::to_string(a.shape.size()) + " dimensions");
    }
    s.model.shape = {a.shape[0], a.shape[1], a.shape[2]};
    s.model.velocity = a.data;
    s.grid.shape = s.model.shape;
  } else if (o.velocity != 0 || std::isnan(o.velocity)) {
    s.model = homogeneous_model(s.grid.shape, o.velocity);
  } else {
    s.model = default_true_model(s.grid.shape, o.spacing);
  }
  validate(s.grid);
  validate(s.model);

  Acquisition& acq = s.acquisition;
  acq.f0 = o.f0;
  if (!(std::isfinite(o.f0) && o.f0 > 0)) {
    std::ostringstream os;
    os << "--f0 " << o.f0 << " Hz is invalid: the peak frequency must be finite and positive";
    throw InputError(os.str());
  }
  acq.t0 = default_wavelet_delay(o.f0);
  const double h = s.grid.spacing;
  if (o.src.empty()) {
    acq.sources = {{0.5 * s.grid.extent(0), 0.5 * s.grid.extent(1), std::min(2 * h, s.grid.extent(2))}};
  } else {
    acq.sources = parse_points(o.src, "--src");
  }
  if (!o.rec_file.empty()) {
    const NpyArray a = read_npy(o.rec_file);
    if (a.shape.size() != 2 || a.shape[1] != 3 || a.shape[0] < 1) {
      throw InputError(o.rec_file + ": receivers must have shape (n, 3) with n >= 1");
    }
    for (std::int64_t i = 0; i < a.shape[0]; ++i) acq.receivers.push_back({a.data[3 * i], a.data[3 * i + 1], a.data[3 * i + 2]});
  } else if (!o.rec.empty()) {
    acq.receivers = parse_points(o.rec, "--rec");
  } else {
    // By default a 16 x 16 receiver grid just below the top edge.
    std::vector<double> g{16, 16, std::min(2 * h, s.grid.extent(2))};
    if (!o.rec_grid.empty()) {
      g = parse_list(o.rec_grid, "--rec-grid", 3);
      if (g[0] < 1 || g[1] < 1 || g[0] != std::floor(g[0]) || g[1] != std::floor(g[1])) {
        throw InputError("--rec-grid '" + o.rec_grid + "' is invalid: NX and NY must be integers >= 1");
      }
    }
    const int nx = static_cast<int>(g[0]), ny = static_cast<int>(g[1]);
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        acq.receivers.push_back({nx > 1 ? s.grid.extent(0) * i / (nx - 1) : 0.5 * s.grid.extent(0),
                                 ny > 1 ? s.grid.extent(1) * j / (ny - 1) : 0.5 * s.grid.extent(1), g[2]});
  }
  // Check the points now so that a bad one fails before any work.
  trilinear_points(s.grid, acq.sources, "source");
  trilinear_points(s.grid, acq.receivers, "receiver");
  return s;
}

TimeAxis make_time(const ProblemOptions& o, const ProblemSetup& s) {
  const double vmax = max_velocity(s.model);
  double dt = o.dt;
  if (dt == 0) {
    dt = default_dt(s.grid, vmax);
  } else {
    check_stable(dt, s.grid, vmax);
  }
  return make_time_axis(o.tn, dt);
}

BackendChoice resolve_backend(const std::string& requested) {
  if (requested == "cpu") return {"cpu", ""};
  const bool have_gpu = !cuda_devices().empty();
  if (requested == "cuda") {
    if (!cuda_compiled()) throw NotCompiledError("--backend cuda: " + cuda_unavailable_reason());
    if (!have_gpu) throw InputError("--backend cuda: " + cuda_unavailable_reason());
    return {"cuda", ""};
  }
  if (have_gpu) return {"cuda", "auto: a CUDA device is present"};
  return {"cpu", std::string("auto: ") + (cuda_compiled() ? cuda_unavailable_reason() : "no CUDA backend in this build") +
                     ", using the CPU"};
}

CudaBudgets cuda_budgets(const ProblemOptions& o) {
  CudaBudgets b;
  if (!o.device_memory.empty()) b.device_memory = parse_bytes(o.device_memory);
  if (!o.host_memory.empty()) b.host_memory = parse_bytes(o.host_memory);
  b.min_host_spacing = o.host_spacing;
  return b;
}

void apply_threads(int threads) {
  if (threads < 0) throw InputError("--threads " + std::to_string(threads) + " is invalid: it must be >= 1");
  if (threads > 0) omp_set_num_threads(threads);
}

}  // namespace revwave::app
