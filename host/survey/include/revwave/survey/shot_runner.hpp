// Who runs which shot: a runner calls a shot task for every shot index (here one after another;
// revwave/mpi spreads them over processes) and sums the results with the fixed summation tree, on
// the tiles the shots' windows touch, where the run's engine keeps them (host or device memory).
#pragma once
#include <chrono>
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

#include "revwave/core/progress.hpp"
#include "revwave/driver/shot_engine.hpp"
#include "revwave/driver/tile_sums.hpp"
#include "revwave/store/compression.hpp"
#include "revwave/survey/summation_tree.hpp"

namespace revwave {

// What one shot reports beside its gradient; trivially copyable, so it travels between processes as bytes.
struct ShotSummary {
  std::int64_t shot = 0;
  std::int64_t rank = 0;  // the process that ran it
  double objective = 0;   // J_s
  double seconds = 0;     // the whole shot: set-up, forward and reverse
  std::int64_t steps = 0, forward_steps = 0, reverse_steps = 0, stores = 0, restores = 0;
  std::int64_t predicted_forward_steps = 0;
  std::int64_t window[6] = {0, 0, 0, 0, 0, 0};  // first interior point and shape of the shot's model window
  std::int64_t snaps = 0;
  double seconds_forward = 0, seconds_reverse = 0, seconds_copies = 0;
  std::uint64_t wavefield_storage_bytes = 0;
  CompressionStats compression;        // --compress: what the shot's checkpoint store encoded and decoded
  ShotPhases phases;                   // where its time went (the runner adds the tree's sums and the wait before it)
  std::int64_t time_loop_ticket = -1;  // >= 0: phases.time_loop is yet to be read from its engine (a device's)
};

struct ShotOutput {
  ShotSummary summary;
  TiledPart gradient;  // dJ_s/dm on the tiles its window touches (zero elsewhere), in the runner's TileBlocks
};

// Runs shot `shot`; `progress` reports its time steps (and lets a runner serve others meanwhile).
using ShotTask = std::function<ShotOutput(std::int64_t shot, const Progress& progress)>;

struct SurveySum {
  bool root = true;                // false on every process but the first: they hold nothing
  double objective = 0;            // sum of J_s over the tree
  std::vector<double> gradient;    // sum of g_s over the same tree, on the whole model (read back once)
  std::vector<ShotSummary> shots;  // by shot index
  int processes = 1;
  std::size_t peak_partial_sums = 0;  // gradients the summing process held at once
  double seconds_sum = 0;             // the root's time in the tree's sums and the read-back
  double seconds_reserve = 0;         // the sums' blocks reserved before the first shot (reserve_tree_blocks)
};

class ShotRunner {
 public:
  virtual ~ShotRunner() = default;
  // Calls `task` once for each of shots 0..count-1 and sums J and g over the tree, the parts in
  // `sums` (the tasks' parts live there; parts from other processes arrive there). `shots_done`
  // (shots finished, count) is called on the root only. A task's exception ends the run on every
  // process with that exception's kind and message.
  virtual SurveySum run(std::int64_t count, TileBlocks& sums, const ShotTask& task,
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
  SurveySum run(std::int64_t count, TileBlocks& sums, const ShotTask& task, const Progress& shots_done = {}) override;
  int rank() const override { return 0; }
  int size() const override { return 1; }
  void broadcast_from_root(std::vector<double>&) override {}
  void agree(std::exception_ptr failure) override {
    if (failure) std::rethrow_exception(failure);
  }
};

// The tree of a run's parts, and the steps every runner takes: a shot's summary completed (its
// index, rank, and the wait since the process's previous shot), its part added (timed into its
// accumulate phase), the root read back once.
class TiledSums {
 public:
  TiledSums(std::int64_t count, TileBlocks& sums);
  void add(ShotOutput&& out, SurveySum& sum);
  void finish(SurveySum& sum);
  TileBlocks& blocks() { return blocks_; }

 private:
  TileBlocks& blocks_;
  BasicSummationTree<TiledPart> tree_;
  double seconds_ = 0;
};

// The blocks a tree over `leaves` leaves holds at most when one process adds them in ascending
// order, leaf s's part on tiles(s) (the tiles its window touches, ascending; asked for once, when
// the leaf is added) counted from when it is made: a sum of two parts keeps the blocks of the
// tiles either holds and frees the second of each pair both hold. What the serial runner's run
// allocates for its sums, exactly. Holds the tree's few partial unions, never every leaf's list.
std::size_t tree_peak_blocks(index_t leaves, const std::function<std::vector<index_t>(index_t leaf)>& tiles);

// Calls `task(s, progress)`, completing the summary: shot, rank, and the idle time since `last`
// (updated to the end of this shot; the caller moves it past the work it does for the shot after).
ShotOutput run_task(const ShotTask& task, std::int64_t s, int rank, const Progress& progress,
                    std::chrono::steady_clock::time_point& last);

// Errors crossing process boundaries: the kind of a library exception (1 other, 2 InputError,
// 3 IoError, 4 OutOfMemoryError, 5 NotCompiledError, 7 UnstableRunError), and the exception of a
// kind with a message.
int error_kind(const std::exception& e);
[[noreturn]] void throw_error_of_kind(int kind, const std::string& message);

}  // namespace revwave
