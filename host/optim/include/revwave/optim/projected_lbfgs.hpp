// Bound-constrained minimisation: projected L-BFGS with a backtracking line search along the
// projection arc.
//
// One iteration from a feasible x with gradient g:
//  1. The binding set B: variables at a bound whose descent direction -g_i points out of the box.
//     The reduced gradient r is g with r_i = 0 on B; r = 0 means x is stationary (KKT).
//  2. The direction d = -H r (the L-BFGS two-loop, H0 = gamma M with M the preconditioner),
//     d_i = 0 on B. If it is not a descent direction (r.d >= 0) the memory is cleared and
//     d = -M r (then -r).
//  3. The line search (Armijo along the arc, Bertsekas 1982): trial x(a) = P(x + a d), accepted
//     when f(x(a)) <= f(x) + c1 g.(x(a) - x), c1 = 1e-4. The first trial is a = 1, or, while the
//     memory is empty, the a that moves the largest component of d by `first_step`. A rejected
//     trial a is replaced by the minimiser of the quadratic through f(x), r.d and f(x(a)),
//     clamped to [0.1 a, 0.5 a] (0.1 a when f(x(a)) is not finite). After `max_evaluations`
//     rejections with a non-empty memory the memory is cleared and the search restarts once
//     from the preconditioned steepest descent; a second failure ends the minimisation.
//  4. The pair (x(a) - x, g(x(a)) - g) enters the memory when it satisfies s.y > 0 (the Wolfe
//     curvature condition is not imposed on the step; pairs that violate it are skipped).
// Every point handed to the objective lies in the box. Everything is deterministic: the same
// state gives the same next state, bit for bit (which is what resuming relies on).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "revwave/optim/lbfgs.hpp"

namespace revwave {

// f(x), writing its gradient into `gradient` (sized like x).
using Objective = std::function<double(const std::vector<double>& x, std::vector<double>& gradient)>;

struct Bounds {
  std::vector<double> lower, upper;  // per variable, lower <= upper; +-infinity for none
  static Bounds uniform(std::size_t n, double lower, double upper);
  std::vector<double> project(std::vector<double> x) const;
  bool contains(const std::vector<double>& x) const;
};

struct LbfgsOptions {
  int memory = 5;            // curvature pairs kept
  double armijo = 1e-4;      // c1
  int max_evaluations = 10;  // trials per line search
  double first_step = 0;     // > 0: largest change of a variable on the first trial of an empty memory
};

struct OptimizerState {
  std::vector<double> x, g;  // the current (feasible) iterate and its gradient
  double f = 0;
  LbfgsMemory memory{5};
  int iteration = 0;    // iterations completed
  int evaluations = 0;  // objective evaluations so far, the first included
};

enum class StepOutcome { accepted, stationary, line_search_failed };
std::string to_string(StepOutcome outcome);

struct IterationReport {
  StepOutcome outcome = StepOutcome::accepted;
  double f_before = 0, f = 0;        // objective before and after
  double step = 0;                   // the accepted a
  int evaluations = 0;               // objective evaluations in this iteration
  double reduced_gradient_norm = 0;  // |r| at the iterate the iteration started from
  bool memory_reset = false;
};

// Projects x0 into the bounds and evaluates it (InputError when the sizes disagree or a bound
// pair is inverted; a non-finite f or gradient at the start is an InputError too).
OptimizerState start_minimisation(std::vector<double> x0, const Objective& objective, const Bounds& bounds,
                                  const LbfgsOptions& options);

// One iteration (see the file comment); `state` is unchanged unless a step is accepted.
IterationReport iterate(OptimizerState& state, const Objective& objective, const Bounds& bounds,
                        const LbfgsOptions& options, const Preconditioner& preconditioner = {});

}  // namespace revwave
