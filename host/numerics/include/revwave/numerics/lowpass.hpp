// A zero-phase low-pass filter for traces and source signatures (frequency continuation):
// a Butterworth filter of even order designed by the bilinear transform with its cutoff
// pre-warped, run forward and then backward. The pair has no phase and the magnitude response
// |H(f)|^2 = 1 / (1 + (tan(pi f dt) / tan(pi fc dt))^(2 order)): -6 dB at the cutoff.
#pragma once
#include <cstddef>
#include <vector>

namespace revwave {

class ZeroPhaseLowpass {
 public:
  // cutoff in (0, 1 / (2 dt)) Hz, dt > 0, order even in [2, 16]; InputError naming the rule else.
  ZeroPhaseLowpass(double cutoff_hz, double dt, int order = 4);

  // Filters n samples x[0], x[stride], ... in place. Both ends are extended by odd reflection
  // (continuous in value and slope) over the filter's settling length, so that neither end rings.
  void apply(double* x, std::size_t n, std::size_t stride = 1) const;
  template <class T>
  void apply_all(std::vector<T>& traces, std::size_t nt, std::size_t ntraces) const;  // (nt x ntraces), C order

  // The forward-backward pair's gain at frequency f (Hz): the closed form above.
  double gain(double f_hz) const;
  double cutoff() const { return cutoff_; }

 private:
  struct Section {
    double b0, b1, b2, a1, a2;  // y = b0 x + b1 x1 + b2 x2 - a1 y1 - a2 y2
  };
  void run(std::vector<double>& x) const;  // one forward pass, starting in the steady state of x[0]

  double cutoff_, dt_;
  int order_;
  std::vector<Section> sections_;
  std::size_t pad_;
};

}  // namespace revwave
