#include "revwave/inversion/inversion.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <istream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/numerics/gaussian_smoothing.hpp"
#include "revwave/numerics/lowpass.hpp"
#include "revwave/numerics/wavelet.hpp"

namespace revwave {

std::vector<double> velocity_gradient(const std::vector<double>& c, const std::vector<double>& g) {
  if (c.size() != g.size()) {
    throw std::invalid_argument("velocity_gradient: " + std::to_string(g.size()) + " gradient values for " +
                                std::to_string(c.size()) + " velocities");
  }
  std::vector<double> out(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) out[i] = -2.0 * g[i] / (c[i] * c[i] * c[i]);
  return out;
}

std::vector<double> depth_mask(const Grid& grid, double depth) {
  if (!(std::isfinite(depth) && depth >= 0)) {
    throw InputError("--mask-depth " + number_text(depth) + " m is invalid: a finite depth >= 0");
  }
  if (depth > grid.extent(2)) {
    throw InputError("--mask-depth " + number_text(depth) + " m is below the model's bottom at " +
                     number_text(grid.extent(2)) + " m: nothing would be updated");
  }
  const index_t nz = grid.shape[2];
  std::vector<double> w(static_cast<std::size_t>(grid.interior_points()));
  for (std::size_t i = 0; i < w.size(); ++i) {
    const double z = static_cast<double>(static_cast<index_t>(i) % nz) * grid.spacing;
    w[i] = z < depth ? 0.0 : 1.0;
  }
  return w;
}

void check_mask(const std::vector<double>& w, const std::vector<std::int64_t>& shape, const Grid& grid,
                const std::string& path) {
  if (shape.size() != 3 || shape[0] != grid.shape[0] || shape[1] != grid.shape[1] || shape[2] != grid.shape[2]) {
    std::string got;
    for (std::size_t i = 0; i < shape.size(); ++i) got += (i ? ", " : "") + std::to_string(shape[i]);
    throw InputError("--mask " + path + " has shape (" + got + "), the grid is (" + std::to_string(grid.shape[0]) + ", " +
                     std::to_string(grid.shape[1]) + ", " + std::to_string(grid.shape[2]) + ")");
  }
  bool any = false;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (!(std::isfinite(w[i]) && w[i] >= 0 && w[i] <= 1)) {
      throw InputError("--mask " + path + ": weight " + number_text(w[i]) + " at index " + std::to_string(i) +
                       " is invalid: weights lie in [0, 1]");
    }
    any = any || w[i] > 0;
  }
  if (!any) throw InputError("--mask " + path + " is zero everywhere: nothing would be updated");
}

Bounds velocity_bounds(const Grid& grid, const std::vector<double>& start, double vmin, double vmax,
                       const std::vector<double>& weights) {
  if (!(std::isfinite(vmin) && vmin > 0)) throw InputError("--vmin " + number_text(vmin) + " m/s is invalid: a finite velocity > 0");
  if (!(std::isfinite(vmax) && vmax > vmin)) {
    throw InputError("--vmax " + number_text(vmax) + " m/s is invalid: a finite velocity above --vmin " + number_text(vmin));
  }
  const index_t ny = grid.shape[1], nz = grid.shape[2];
  for (std::size_t i = 0; i < start.size(); ++i) {
    if (start[i] < vmin || start[i] > vmax) {
      const auto k = static_cast<index_t>(i);
      throw InputError("the starting model's velocity " + number_text(start[i]) + " m/s at point (" +
                       std::to_string(k / (ny * nz)) + ", " + std::to_string((k / nz) % ny) + ", " + std::to_string(k % nz) +
                       ") lies outside [--vmin, --vmax] = [" + number_text(vmin) + ", " + number_text(vmax) + "] m/s");
    }
  }
  Bounds b = Bounds::uniform(start.size(), vmin, vmax);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (weights[i] == 0) b.lower[i] = b.upper[i] = start[i];
  }
  return b;
}

std::vector<double> fold_counts(const Grid& grid) {
  const index_t nx = grid.shape[0], ny = grid.shape[1], nz = grid.shape[2];
  auto count = [&grid](index_t i, index_t n) { return (i == 0 || i == n - 1) ? double(1 + grid.nbl) : 1.0; };
  std::vector<double> f(static_cast<std::size_t>(grid.interior_points()));
  for (index_t i = 0; i < nx; ++i)
    for (index_t j = 0; j < ny; ++j)
      for (index_t k = 0; k < nz; ++k) f[static_cast<std::size_t>((i * ny + j) * nz + k)] = count(i, nx) * count(j, ny) * count(k, nz);
  return f;
}

std::vector<double> illumination_diagonal(const std::vector<double>& illumination, const Grid& grid) {
  if (illumination.size() != static_cast<std::size_t>(grid.interior_points())) {
    throw std::invalid_argument("illumination_diagonal: the illumination has the wrong size");
  }
  double peak = 0;
  for (double v : illumination) peak = std::max(peak, v);
  if (!(std::isfinite(peak) && peak > 0)) {
    throw InputError("the illumination is " + number_text(peak) + " at its largest: the sources light nothing (check the wavelet)");
  }
  const double water = illumination_water_level * peak;
  const std::vector<double> f = fold_counts(grid);
  std::vector<double> d(illumination.size());
  double top = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    d[i] = 1.0 / ((illumination[i] + water) * f[i]);
    top = std::max(top, d[i]);
  }
  for (double& v : d) v /= top;
  return d;
}

Preconditioner make_preconditioner(std::vector<double> diagonal, std::vector<double> weights, std::array<index_t, 3> shape,
                                   double sigma) {
  if (diagonal.empty() && weights.empty() && sigma == 0) return {};
  for (double& w : weights) w = std::sqrt(w);
  return [d = std::move(diagonal), w = std::move(weights), shape, sigma](const std::vector<double>& v) {
    std::vector<double> out = v;
    if (!w.empty())
      for (std::size_t i = 0; i < out.size(); ++i) out[i] *= w[i];
    if (sigma > 0) gaussian_smooth(out, shape, sigma);
    if (!d.empty())
      for (std::size_t i = 0; i < out.size(); ++i) out[i] *= d[i];
    if (sigma > 0) gaussian_smooth(out, shape, sigma);
    if (!w.empty())
      for (std::size_t i = 0; i < out.size(); ++i) out[i] *= w[i];
    return out;
  };
}

Survey band_survey(const Survey& survey, double cutoff) {
  if (cutoff == 0) return survey;
  Survey out = survey;
  for (Shot& shot : out.shots) {
    const double nyquist = 0.5 / shot.time.dt;
    if (!(cutoff > 0 && cutoff < nyquist)) {
      throw InputError("--bands: cut-off " + number_text(cutoff) + " Hz is invalid for " + shot.name +
                       ": it must lie in (0, " + number_text(nyquist) + ") Hz, below the Nyquist frequency of dt = " +
                       number_text(shot.time.dt) + " s");
    }
    const ZeroPhaseLowpass filter(cutoff, shot.time.dt, 4);
    const auto nt = static_cast<std::size_t>(shot.time.nt());
    const auto lead = static_cast<std::size_t>(std::ceil(band_lead_periods / (cutoff * shot.time.dt)));
    if (shot.wavelet.empty()) shot.wavelet = ricker_samples(shot.acquisition.f0, shot.acquisition.t0, shot.time.dt, shot.time.nt());
    std::vector<double> w(lead + nt, 0.0);
    std::copy(shot.wavelet.begin(), shot.wavelet.end(), w.begin() + static_cast<std::ptrdiff_t>(lead));
    filter.apply(w.data(), w.size());
    shot.wavelet = std::move(w);
    const std::size_t traces = shot.data.size() / nt;
    std::vector<double> d((lead + nt) * traces, 0.0);
    std::copy(shot.data.begin(), shot.data.end(), d.begin() + static_cast<std::ptrdiff_t>(lead * traces));
    filter.apply_all(d, lead + nt, traces);
    if (!shot.data.empty()) shot.data = std::move(d);
    shot.time.steps += static_cast<index_t>(lead);
    shot.name += " (low-passed at " + number_text(cutoff) + " Hz)";
  }
  return out;
}

std::string to_string(BandEnd reason) {
  switch (reason) {
    case BandEnd::running: return "running";
    case BandEnd::iterations: return "iterations";
    case BandEnd::relative_decrease: return "relative_decrease";
    case BandEnd::line_search_failed: return "line_search_failed";
    case BandEnd::stationary: return "stationary";
  }
  return "unknown";
}

std::uint64_t fnv1a(const void* data, std::size_t bytes, std::uint64_t h) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    h ^= p[i];
    h *= 1099511628211ull;
  }
  return h;
}

// ---- the state file: "revwave-inversion-state 1\n", a JSON line of the scalars and vector sizes,
// then the vectors as little-endian doubles in the order the JSON lists them.
namespace {

constexpr const char* state_magic = "revwave-inversion-state 1";

void put(std::ostream& os, const std::vector<double>& v) {
  os.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(v.size() * sizeof(double)));
}

std::vector<double> take(std::istream& is, std::size_t n, const std::string& path) {
  std::vector<double> v(n);
  is.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n * sizeof(double)));
  if (static_cast<std::size_t>(is.gcount()) != n * sizeof(double)) throw IoError(path + ": the inversion state is truncated");
  return v;
}

}  // namespace

void save_inversion_state(const std::string& path, const InversionState& s) {
  nlohmann::json j;
  j["fingerprint"] = s.fingerprint;
  j["band"] = s.band;
  j["band_iteration"] = s.band_iteration;
  j["iteration"] = s.iteration;
  j["band_started"] = s.band_started;
  j["band_end"] = static_cast<int>(s.band_end);
  j["ended"] = nlohmann::json::array();
  for (BandEnd e : s.ended) j["ended"].push_back(static_cast<int>(e));
  j["optimizer_iteration"] = s.optimizer.iteration;
  j["evaluations"] = s.optimizer.evaluations;
  j["memory_capacity"] = s.optimizer.memory.capacity();
  j["pairs"] = s.optimizer.memory.size();
  j["n"] = s.model.size();
  j["x"] = s.optimizer.x.size();
  j["diagonal"] = s.diagonal.size();
  const std::vector<double> f{s.optimizer.f};
  write_file_atomically(path, [&](std::ostream& os) {
    os << state_magic << "\n" << j.dump() << "\n";
    put(os, f);
    put(os, s.model);
    put(os, s.optimizer.x);
    put(os, s.optimizer.g);
    put(os, s.diagonal);
    for (const CurvaturePair& p : s.optimizer.memory.pairs()) {
      put(os, p.s);
      put(os, p.y);
    }
  });
}

InversionState load_inversion_state(const std::string& path) {
  std::ifstream is(path, std::ios::binary);
  if (!is) throw IoError(path + ": cannot open the inversion state (" + std::strerror(errno) + ")");
  std::string magic, header;
  std::getline(is, magic);
  if (magic != state_magic) throw IoError(path + ": not a revwave inversion state");
  std::getline(is, header);
  InversionState s;
  try {
    const nlohmann::json j = nlohmann::json::parse(header);
    s.fingerprint = j.at("fingerprint").get<std::string>();
    s.band = j.at("band").get<int>();
    s.band_iteration = j.at("band_iteration").get<int>();
    s.iteration = j.at("iteration").get<int>();
    s.band_started = j.at("band_started").get<bool>();
    s.band_end = static_cast<BandEnd>(j.at("band_end").get<int>());
    for (int e : j.at("ended")) s.ended.push_back(static_cast<BandEnd>(e));
    s.optimizer.iteration = j.at("optimizer_iteration").get<int>();
    s.optimizer.evaluations = j.at("evaluations").get<int>();
    s.optimizer.memory = LbfgsMemory(j.at("memory_capacity").get<int>());
    const auto n = j.at("n").get<std::size_t>(), nx = j.at("x").get<std::size_t>(), nd = j.at("diagonal").get<std::size_t>();
    const int pairs = j.at("pairs").get<int>();
    s.optimizer.f = take(is, 1, path).front();
    s.model = take(is, n, path);
    s.optimizer.x = take(is, nx, path);
    s.optimizer.g = take(is, nx, path);
    s.diagonal = take(is, nd, path);
    std::deque<CurvaturePair> saved;
    for (int k = 0; k < pairs; ++k) {
      CurvaturePair p;
      p.s = take(is, nx, path);
      p.y = take(is, nx, path);
      saved.push_back(std::move(p));
    }
    s.optimizer.memory.assign(std::move(saved));
  } catch (const nlohmann::json::exception& e) {
    throw IoError(path + ": the inversion state's header is invalid (" + e.what() + ")");
  }
  if (is.peek() != std::char_traits<char>::eof()) throw IoError(path + ": the inversion state has trailing bytes");
  return s;
}

void run_inversion(const Grid& grid, const std::vector<double>& start, const InversionSettings& settings,
                   const BandProblem& band_problem, InversionState& state, const InversionHooks& hooks) {
  if (settings.lbfgs_memory < 1) throw InputError("--lbfgs-memory " + std::to_string(settings.lbfgs_memory) + " is invalid: at least 1");
  if (settings.iterations < 1) throw InputError("--iterations " + std::to_string(settings.iterations) + " is invalid: at least 1");
  const Bounds bounds = velocity_bounds(grid, start, settings.vmin, settings.vmax, settings.weights);
  LbfgsOptions lo;
  lo.memory = settings.lbfgs_memory;
  lo.max_evaluations = settings.max_evaluations;
  lo.first_step = settings.first_step > 0 ? settings.first_step : 0.02 * settings.vmax;
  const std::vector<double> bands = settings.bands.empty() ? std::vector<double>{0.0} : settings.bands;
  if (state.model.empty()) state.model = start;

  for (; state.band < static_cast<int>(bands.size()); ++state.band) {
    const double cutoff = bands[static_cast<std::size_t>(state.band)];
    const auto problem = band_problem(cutoff);
    const Objective objective = [&](const std::vector<double>& x, std::vector<double>& g) { return problem.first(x, g); };
    if (!state.band_started) {
      state.diagonal = settings.illumination ? illumination_diagonal(problem.second(state.model), grid) : std::vector<double>{};
      state.optimizer = start_minimisation(state.model, objective, bounds, lo);
      state.band_iteration = 0;
      state.band_end = BandEnd::running;
      state.band_started = true;
    }
    if (hooks.band_start) hooks.band_start(state.band, cutoff, state.optimizer.f);
    const Preconditioner m = make_preconditioner(state.diagonal, settings.weights, grid.shape, settings.smooth);
    while (state.band_end == BandEnd::running) {
      if (state.band_iteration >= settings.iterations) {
        state.band_end = BandEnd::iterations;
        break;
      }
      const auto t0 = std::chrono::steady_clock::now();
      const IterationReport rep = iterate(state.optimizer, objective, bounds, lo, m);
      if (rep.outcome == StepOutcome::stationary) {
        state.band_end = BandEnd::stationary;
        break;
      }
      if (rep.outcome == StepOutcome::line_search_failed) {
        state.band_end = BandEnd::line_search_failed;
        break;
      }
      ++state.band_iteration;
      ++state.iteration;
      state.model = state.optimizer.x;
      IterationRecord r;
      r.iteration = state.iteration;
      r.band = state.band;
      r.cutoff = cutoff;
      r.objective = rep.f;
      r.objective_before = rep.f_before;
      r.gradient_norm = rep.reduced_gradient_norm;
      r.step = rep.step;
      r.evaluations = rep.evaluations;
      r.memory_reset = rep.memory_reset;
      r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (!(rep.f_before - rep.f > settings.tolerance * std::abs(rep.f_before))) state.band_end = BandEnd::relative_decrease;
      if (hooks.iteration) hooks.iteration(state, r);
    }
    // The band's end is recorded with the next band's start pending: a resume goes on from there.
    state.ended.push_back(state.band_end);
    const BandEnd reason = state.band_end;
    state.band_started = false;
    state.band_end = BandEnd::running;
    state.optimizer = OptimizerState{};
    state.diagonal.clear();
    ++state.band;
    if (hooks.band_end) hooks.band_end(state, state.band - 1, reason);
    --state.band;  // the loop's increment
  }
}

}  // namespace revwave
