// What an inversion is asked to do: bounds, optimiser, preconditioner, mask and bands.
#pragma once
#include <vector>

namespace revwave {

struct InversionSettings {
  double vmin = 0, vmax = 0;  // m/s
  int lbfgs_memory = 5;
  int iterations = 10;       // per band
  double tolerance = 1e-4;   // a band ends when an iteration lowers J by less than this fraction
  double first_step = 0;     // m/s: the largest change of the first trial of a band (0: 2% of vmax)
  int max_evaluations = 10;  // trials per line search
  bool illumination = true;
  double smooth = 0;            // Gaussian sigma, grid points
  std::vector<double> weights;  // mask per interior point; empty: 1 everywhere
  std::vector<double> bands;    // cut-offs in Hz, increasing; empty: one band of the data as they are
};

}  // namespace revwave
