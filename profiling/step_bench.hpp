// What the CPU step benchmarks (cpu_step_bench.cpp, density_step_bench.cpp) share: a timer, random
// fields and a median. Public API only, so that a benchmark still builds against an older revwave
// for an A/B comparison (profiling/reverse_step_ab.sh).
#pragma once
#include <algorithm>
#include <chrono>
#include <functional>
#include <random>
#include <vector>

#include "revwave/numerics/grid.hpp"

namespace revwave::bench {

inline double seconds_of(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Random values in [-1, 1) on the padded points; the halo stays zero.
template <class T>
void randomize(const Grid& g, T* f, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  for (index_t i = 0; i < g.padded(0); ++i)
    for (index_t j = 0; j < g.padded(1); ++j)
      for (index_t k = 0; k < g.padded(2); ++k) f[g.index(i, j, k)] = static_cast<T>(u(rng));
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

}  // namespace revwave::bench
