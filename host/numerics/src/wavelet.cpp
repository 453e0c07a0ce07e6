#include "revwave/numerics/wavelet.hpp"

#include <cmath>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"

namespace revwave {

double checked_wavelet_delay(double f0, const std::string& what) {
  const double t0 = default_wavelet_delay(f0);
  if (!std::isfinite(t0)) {
    throw InputError(what + " " + number_text(f0) + " Hz is invalid: the Ricker wavelet's delay 1.5 / f0 is " +
                     number_text(t0) + " s, no finite time (f0 is in Hz)");
  }
  return t0;
}

}  // namespace revwave
