#include "revwave/survey/shot_runner.hpp"

#include <stdexcept>

#include "revwave/core/errors.hpp"
#include "revwave/survey/summation_tree.hpp"

namespace revwave {

SurveySum SerialShotRunner::run(std::int64_t count, std::size_t gradient_size, const ShotTask& task, const Progress& shots_done) {
  SummationTree tree(count, gradient_size);
  SurveySum sum;
  sum.shots.resize(static_cast<std::size_t>(count));
  for (std::int64_t s = 0; s < count; ++s) {
    // Between a shot's time steps the caller hears which shot runs (its callback may cancel the run).
    const Progress steps = shots_done ? Progress([&](index_t, index_t) { shots_done(s, count); }) : Progress{};
    ShotOutput out = task(s, steps);
    out.summary.shot = s;
    out.summary.rank = 0;
    sum.shots[static_cast<std::size_t>(s)] = out.summary;
    tree.add(s, out.summary.objective, std::move(out.gradient));
    if (shots_done) shots_done(s + 1, count);
  }
  sum.objective = tree.value();
  sum.gradient = std::move(tree.vector());
  sum.peak_partial_sums = tree.peak_held();
  return sum;
}

int error_kind(const std::exception& e) {
  if (dynamic_cast<const InputError*>(&e)) return 2;
  if (dynamic_cast<const IoError*>(&e)) return 3;
  if (dynamic_cast<const OutOfMemoryError*>(&e)) return 4;
  if (dynamic_cast<const NotCompiledError*>(&e)) return 5;
  return 1;
}

void throw_error_of_kind(int kind, const std::string& message) {
  switch (kind) {
    case 2: throw InputError(message);
    case 3: throw IoError(message);
    case 4: throw OutOfMemoryError(message);
    case 5: throw NotCompiledError(message);
    default: throw std::runtime_error(message);
  }
}

}  // namespace revwave
