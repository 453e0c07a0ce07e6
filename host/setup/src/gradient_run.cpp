#include "revwave/setup/gradient_run.hpp"
#include "revwave/setup/problem_setup.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "revwave/core/system_memory.hpp"
#include "revwave/driver/backend_registry.hpp"

namespace revwave {

// What includes what in the counts, said in every gradient's JSON (and `revwave plan`'s). A
// checkpointed reverse step applies the forward operator once (u[n-1] from the pair it holds); full's
// reads the stored history instead.
static const char* step_counts_note(Strategy strategy) {
  return strategy == Strategy::full
             ? "forward_steps counts the advances only: full's reverse steps read the stored history and apply no "
               "forward operator; modelling the observed data is not counted"
             : "forward_steps counts advances and reverse steps (each reverse step applies the forward operator "
               "once); modelling the observed data is not counted";
}

template <class T>
nlohmann::json gradient_summary(const GradientRun<T>& r, const GradientJobOptions& o, const std::string& observed) {
  const GradientStats& s = r.output.stats;
  const StrategyPlan& plan = r.plan;
  double norm2 = 0;
  for (double v : r.output.gradient) norm2 += v * v;
  nlohmann::json j;
  j["objective"] = s.objective;
  j["gradient_norm"] = std::sqrt(norm2);
  if (!r.output.density_gradient.empty()) {
    double rho2 = 0;
    for (double v : r.output.density_gradient) rho2 += v * v;
    j["density_gradient_norm"] = std::sqrt(rho2);
  }
  j["strategy"] = to_string(plan.strategy);
  j["steps"] = s.steps;
  j["nt"] = r.job.time.nt();
  j["dt"] = r.job.time.dt;
  j["substeps"] = r.job.substeps;  // simulation steps per sample of the record
  j["forward_steps"] = s.forward_steps;
  // Online predicts nothing (its stop rule decides as it runs): it is measured against the offline
  // optimum for its slots instead.
  if (plan.strategy != Strategy::online) j["predicted_forward_steps"] = r.predicted_forward_steps;
  if (plan.strategy == Strategy::online) {
    j["offline_forward_steps"] = r.report.offline_forward_steps;
    j["online_ratio"] = double(s.forward_steps) / double(r.report.offline_forward_steps);
    j["max_steps"] = simulation_time(r.job).steps;
  }
  if (plan.strategy == Strategy::multilevel) {
    j["predicted_time_steps"] = r.report.predicted_time;
    j["tiers"] = nlohmann::json::array();
    for (const Tier& t : r.report.tiers) {
      j["tiers"].push_back(
          {{"name", t.name}, {"slots", t.slots}, {"store_cost", t.store_cost}, {"restore_cost", t.restore_cost}});
    }
  }
  j["reverse_steps"] = s.reverse_steps;
  j["step_counts"] = step_counts_note(plan.strategy);
  j["recompute_ratio"] = double(s.forward_steps) / double(s.steps);
  j["snaps"] = plan.snaps;
  j["stores"] = s.stores;
  j["restores"] = s.restores;
  j["checkpoint_bytes"] = plan.strategy == Strategy::full ? 0 : plan.storage_bytes;
  j["slot_bytes"] = plan.slot_bytes;
  j["wavefield_storage_bytes"] = s.wavefield_storage_bytes;
  j["checkpoint_copy_bytes"] = s.checkpoint_copy_bytes;
  j["compression"] = compression_summary(plan.compression, s.compression);
  j["store"] = to_string(takes_slots(plan.strategy) ? o.strategy.store.value_or(StoreKind::memory) : StoreKind::memory);
  j["phases"] = phases_json(r.clock);
  j["wall_seconds"] = r.clock.wall();
  j["seconds"] = {{"observed", r.job.seconds_observed},
                  {"allocate", s.seconds_allocate},
                  {"forward", s.seconds_forward},
                  {"reverse", s.seconds_reverse},
                  {"checkpoint_copies", s.seconds_copies}};
  j["peak_rss_bytes"] = peak_rss_bytes();
  j["peak_rss_counts"] = peak_rss_counts();
  j["warnings"] = r.warnings;
  if (backend_capabilities(r.backend.kind).device_memory) {
    j["placement"] = {{"device_slots", r.placement.device_slots},
                      {"host_slots", r.placement.host_slots},
                      {"history_tier", r.placement.history_tier},
                      {"tiers", r.placement.tier_choice},
                      {"seconds_spill", r.placement.seconds_spill}};
    j["cuda"] = j["placement"];  // the old key, kept for one release (CHANGELOG: Deprecated)
  }
  put_grid(j, r.job.start.grid);
  put_backend(j, r.backend);
  j["precision"] = to_string(o.problem.precision);
  j["observed"] = observed;
  // Only where chosen, so that an L2 run's fields stay those it always printed.
  if (o.misfit.kind != MisfitKind::l2) j["misfit"] = to_string(o.misfit.kind);
  if (o.estimate_wavelet) j["estimated_wavelet"] = estimated_wavelet_summary(r.job.start.acquisition.wavelet);
  return j;
}

nlohmann::json estimated_wavelet_summary(const std::vector<double>& wavelet) {
  double peak = 0, energy = 0;
  for (double w : wavelet) {
    peak = std::max(peak, std::abs(w));
    energy += w * w;
  }
  return {
      {"samples", wavelet.size()}, {"water_level", wavelet_water_level}, {"peak", peak}, {"norm", std::sqrt(energy)}};
}

nlohmann::json compression_summary(const Compression& mode, const CompressionStats& c) {
  return {{"mode", mode.text()},
          {"ratio", c.ratio()},
          {"raw_bytes", c.raw_bytes},
          {"compressed_bytes", c.compressed_bytes},
          {"fields_compressed", c.fields_compressed},
          {"fields_decompressed", c.fields_decompressed},
          {"seconds_compress", c.seconds_compress},
          {"seconds_decompress", c.seconds_decompress}};
}

std::string compression_line(const Compression& mode, const CompressionStats& c) {
  if (!mode.enabled()) return "";
  std::ostringstream os;
  os << "  compression     " << mode.text() << ": " << c.fields_compressed << " fields encoded, ratio " << c.ratio()
     << " (" << format_bytes(double(c.raw_bytes)) << " -> " << format_bytes(double(c.compressed_bytes)) << "), "
     << c.seconds_compress << " s compressing, " << c.seconds_decompress << " s decompressing (lossy: "
     << "the gradient differs from full's within the mode's error)\n";
  return os.str();
}

template nlohmann::json gradient_summary(const GradientRun<float>&, const GradientJobOptions&, const std::string&);
template nlohmann::json gradient_summary(const GradientRun<double>&, const GradientJobOptions&, const std::string&);

}  // namespace revwave
