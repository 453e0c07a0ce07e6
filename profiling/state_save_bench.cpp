// Seconds a save of the inversion's resume state takes, as an iteration pays it: an N^3 model, the
// preconditioner and `pairs` curvature pairs (the L-BFGS memory full), saved once (every file) and
// then ROUNDS times as iterations save it, each with a new pair that drops the oldest (state.bin
// and, in format 4, one new vector file; the dropped pair's file removed after). Prints JSON.
//   revwave_state_save_bench [N=160] [ROUNDS=4] [DIR=/tmp/revwave-state-bench]
// profiling/state_save_ab.sh runs it against another commit's library.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "revwave/inversion/inversion_state.hpp"

#ifndef REVWAVE_STATE_BENCH_PRUNE
#define REVWAVE_STATE_BENCH_PRUNE 1
#endif

namespace {

std::vector<double> filled(std::size_t n, double seed) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = seed + 1e-3 * static_cast<double>(i % 977);
  return v;
}

// Its own: the library it is built against for the A/B (61495a7) predates revwave/core/seconds_since.hpp.
double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class Save>
double timed(Save&& save) {
  const auto t0 = std::chrono::steady_clock::now();
  save();
  return seconds_since(t0);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace revwave;
  const std::size_t side = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 160;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 4;
  const std::string dir = argc > 3 ? argv[3] : "/tmp/revwave-state-bench";
  const std::size_t n = side * side * side;
  const int pairs = 5;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/state.bin";
  InversionState s;
  s.fingerprint = "0123456789abcdef";
  s.band_started = true;
  s.optimizer.x = filled(n, 2000);
  s.optimizer.g = filled(n, 1e-9);
  s.model = s.optimizer.x;
  s.diagonal = filled(n, 1);
  s.optimizer.memory = LbfgsMemory(pairs);
  int made = 0;
  const auto add_pair = [&] {
    ++made;
    std::vector<double> a = filled(n, made), b = filled(n, 2.0 * made);
    s.optimizer.memory.update(std::move(a), std::move(b));
  };
  for (int k = 0; k < pairs; ++k) add_pair();
  const auto save = [&] {
#if REVWAVE_STATE_BENCH_PRUNE  // format 4: the save names its files, the clean-up removes the others
    remove_unused_state_files(path, save_inversion_state(path, s));
#else  // a library before format 4 (state_save_ab.sh builds it so)
    save_inversion_state(path, s);
#endif
  };
  const double first = timed(save);
  std::vector<double> each;
  for (int r = 0; r < rounds; ++r) {
    add_pair();
    const double v = s.optimizer.x[0];
    s.optimizer.x[0] = v + 1;  // the iterate moves
    s.model = s.optimizer.x;
    each.push_back(timed(save));
  }
  std::sort(each.begin(), each.end());
  std::uintmax_t bytes = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
    if (e.is_regular_file()) bytes += e.file_size();
  std::printf(
      "{\"n\": %zu, \"vector_bytes\": %zu, \"first_save_s\": %.3f, \"iteration_save_min_s\": %.3f, "
      "\"iteration_save_median_s\": %.3f, \"bytes_on_disk\": %ju}\n",
      n, n * sizeof(double), first, each.front(), each[each.size() / 2], bytes);
  std::filesystem::remove_all(dir);
  return 0;
}
