// One gradient of a small problem through the installed package (revwave/revwave.hpp): Revolve
// with a few slots, checked against the full-history gradient of the same problem. Every strategy
// images with the same wavefields, so J and dJ/dm must agree bit for bit; exit 1 otherwise.
#include <cstdio>
#include <cstring>
#include <exception>

#include "revwave/revwave.hpp"

namespace {

revwave::GradientJobOptions small_problem(revwave::Strategy strategy) {
  revwave::GradientJobOptions o;
  o.problem.shape = {24, 24, 24};  // grid points, 10 m apart: the built-in true model, smoothed to start
  o.problem.tn = 0.4;              // s
  o.problem.backend = revwave::Backend::cpu;
  o.strategy.strategy = strategy;
  if (strategy == revwave::Strategy::revolve) o.strategy.snaps = 4;
  return o;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace

int main() {
  try {
    const revwave::GradientResult revolve = revwave::gradient(small_problem(revwave::Strategy::revolve));
    const revwave::GradientResult full = revwave::gradient(small_problem(revwave::Strategy::full));
    const revwave::GradientStats& s = revolve.stats;
    // Forward steps count the advances and the reverse steps (each applies the forward operator once).
    std::printf(
        "revolve, %lld slots: %lld steps, %lld forward steps (full history: %lld), of which %lld reverse steps\n",
        static_cast<long long>(revolve.plan.slots), static_cast<long long>(s.steps),
        static_cast<long long>(s.forward_steps), static_cast<long long>(full.stats.forward_steps),
        static_cast<long long>(s.reverse_steps));
    std::printf("J      %.17g (full history: %.17g)\n", revolve.objective, full.objective);
    std::printf("|dJ/dm| %.17g (full history: %.17g)\n", revolve.gradient_norm, full.gradient_norm);
    bool same = same_bits(revolve.objective, full.objective) && revolve.gradient.size() == full.gradient.size();
    for (std::size_t i = 0; same && i < revolve.gradient.size(); ++i)
      same = same_bits(revolve.gradient[i], full.gradient[i]);
    if (!same || revolve.objective <= 0 || s.forward_steps <= full.stats.forward_steps) {
      std::fprintf(stderr, "revwave_example: Revolve and the full history differ (or nothing was recomputed)\n");
      return 1;
    }
    std::printf("Revolve's J and gradient equal the full history's, bit for bit\n");
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "revwave_example: %s\n", e.what());
    return 2;
  }
}
