// Who runs which shot: a runner calls a shot task for every shot index (here one after another;
// revwave/mpi spreads them over processes) and sums the results with the fixed summation tree.
#pragma once
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "revwave/core/progress.hpp"
#include "revwave/store/compression.hpp"

namespace revwave {

// What one shot reports beside its gradient; trivially copyable, so it travels between processes as bytes.
struct ShotSummary {
  std::int64_t shot = 0;
  std::int64_t rank = 0;             // the process that ran it
  double objective = 0;              // J_s
  double seconds = 0;                // the whole shot: set-up, forward and reverse
  std::int64_t steps = 0, forward_steps = 0, reverse_steps = 0, stores = 0, restores = 0;
  std::int64_t predicted_forward_steps = 0;
  std::int64_t window[6] = {0, 0, 0, 0, 0, 0};  // first interior point and shape of the shot's model window
  std::int64_t snaps = 0;
  double seconds_forward = 0, seconds_reverse = 0, seconds_copies = 0;
  std::uint64_t wavefield_storage_bytes = 0;
  CompressionStats compression;  // --compress: what the shot's checkpoint store encoded and decoded
};

struct ShotOutput {
  ShotSummary summary;
  std::vector<double> gradient;  // dJ_s/dm on the whole model's interior points
};

// Runs shot `shot`; `progress` reports its time steps (and lets a runner serve others meanwhile).
using ShotTask = std::function<ShotOutput(std::int64_t shot, const Progress& progress)>;

struct SurveySum {
  bool root = true;               // false on every process but the first: they hold nothing
  double objective = 0;           // sum of J_s over the tree
  std::vector<double> gradient;   // sum of g_s over the same tree
  std::vector<ShotSummary> shots; // by shot index
  int processes = 1;
  std::size_t peak_partial_sums = 0;  // gradients the summing process held at once
};

class ShotRunner {
 public:
  virtual ~ShotRunner() = default;
  // Calls `task` once for each of shots 0..count-1 and sums J and g over the tree. `shots_done`
  // (shots finished, count) is called on the root only. A task's exception ends the run on every
  // process with that exception's kind and message.
  virtual SurveySum run(std::int64_t count, std::size_t gradient_size, const ShotTask& task,
                        const Progress& shots_done = {}) = 0;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Collective: every process ends with the first process's `values` (size and bits), so that all
  // of them can take the same decisions on what the root summed (the inversion's J and g).
  virtual void broadcast_from_root(std::vector<double>& values) = 0;
  // Collective: every process passes what it caught (or nullptr). If any failed, every process
  // throws the error of the lowest failing rank (same kind and message); else returns. Work that
  // one process does for all (the root writing files) is followed by this, so that none goes on alone.
  virtual void agree(std::exception_ptr failure) = 0;
};

// Shot after shot in this process.
class SerialShotRunner final : public ShotRunner {
 public:
  SurveySum run(std::int64_t count, std::size_t gradient_size, const ShotTask& task, const Progress& shots_done = {}) override;
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void broadcast_from_root(std::vector<double>&) override {}
  void agree(std::exception_ptr failure) override {
    if (failure) std::rethrow_exception(failure);
  }
};

// Errors crossing process boundaries: the kind of a library exception (1 other, 2 InputError,
// 3 IoError, 4 OutOfMemoryError, 5 NotCompiledError), and the exception of a kind with a message.
int error_kind(const std::exception& e);
[[noreturn]] void throw_error_of_kind(int kind, const std::string& message);

}  // namespace revwave
