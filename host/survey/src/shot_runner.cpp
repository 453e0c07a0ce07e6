#include "revwave/survey/shot_runner.hpp"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "revwave/core/errors.hpp"
#include "revwave/survey/summation_tree.hpp"

namespace revwave {

TiledSums::TiledSums(std::int64_t count, TileBlocks& sums)
    : blocks_(sums), tree_(count, [](TiledPart& into, TiledPart&& other) { into.add(std::move(other)); }) {}

void TiledSums::add(ShotOutput&& out, SurveySum& sum) {
  const auto t = std::chrono::steady_clock::now();
  const std::int64_t s = out.summary.shot;
  if (!out.gradient.empty() && out.gradient.blocks() != &blocks_)
    throw std::logic_error("TiledSums: a part lives elsewhere");
  tree_.add(s, out.summary.objective, std::move(out.gradient));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  out.summary.phases.accumulate += seconds;
  seconds_ += seconds;
  sum.shots[static_cast<std::size_t>(s)] = out.summary;
}

void TiledSums::finish(SurveySum& sum) {
  const auto t = std::chrono::steady_clock::now();
  sum.objective = tree_.value();
  sum.gradient = tree_.payload().dense();
  tree_.payload().reset();
  sum.peak_partial_sums = tree_.peak_held();
  sum.seconds_sum = seconds_ + std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

ShotOutput run_task(const ShotTask& task, std::int64_t s, int rank, const Progress& progress,
                    std::chrono::steady_clock::time_point& last) {
  const auto start = std::chrono::steady_clock::now();
  ShotOutput out = task(s, progress);
  out.summary.shot = s;
  out.summary.rank = rank;
  out.summary.phases.idle += std::chrono::duration<double>(start - last).count();
  last = std::chrono::steady_clock::now();
  return out;
}

SurveySum SerialShotRunner::run(std::int64_t count, TileBlocks& blocks, const ShotTask& task,
                                const Progress& shots_done) {
  TiledSums sums(count, blocks);
  SurveySum sum;
  sum.shots.resize(static_cast<std::size_t>(count));
  auto last = std::chrono::steady_clock::now();
  for (std::int64_t s = 0; s < count; ++s) {
    // Between a shot's time steps the caller hears which shot runs (its callback may cancel the run).
    const Progress steps = shots_done ? Progress([&](index_t, index_t) { shots_done(s, count); }) : Progress{};
    sums.add(run_task(task, s, 0, steps, last), sum);
    last = std::chrono::steady_clock::now();  // the sum is the shot's accumulate phase, not the next one's wait
    if (shots_done) shots_done(s + 1, count);
  }
  sums.finish(sum);
  return sum;
}

std::size_t tree_peak_blocks(index_t leaves, const std::function<std::vector<index_t>(index_t leaf)>& tiles) {
  if (leaves < 1) return 0;
  std::size_t held = 0, peak = 0;
  BasicSummationTree<std::vector<index_t>> tree(
      leaves, [&held](std::vector<index_t>& into, std::vector<index_t>&& other) {
        std::vector<index_t> both;
        both.reserve(into.size() + other.size());
        std::set_union(into.begin(), into.end(), other.begin(), other.end(), std::back_inserter(both));
        held -= into.size() + other.size() - both.size();
        into = std::move(both);
      });
  for (index_t s = 0; s < leaves; ++s) {
    std::vector<index_t> part = tiles(s);
    held += part.size();
    peak = std::max(peak, held);
    tree.add(s, 0.0, std::move(part));
  }
  return peak;
}

int error_kind(const std::exception& e) {
  if (dynamic_cast<const InputError*>(&e)) return 2;
  if (dynamic_cast<const IoError*>(&e)) return 3;
  if (dynamic_cast<const OutOfMemoryError*>(&e)) return 4;
  if (dynamic_cast<const NotCompiledError*>(&e)) return 5;
  if (dynamic_cast<const UnstableRunError*>(&e)) return 7;
  return 1;
}

void throw_error_of_kind(int kind, const std::string& message) {
  switch (kind) {
    case 2: throw InputError(message);
    case 3: throw IoError(message);
    case 4: throw OutOfMemoryError(message);
    case 5: throw NotCompiledError(message);
    case 7: throw UnstableRunError(message);
    default: throw std::runtime_error(message);
  }
}

}  // namespace revwave
