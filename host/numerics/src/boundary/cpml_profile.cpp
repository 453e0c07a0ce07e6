#include <cmath>

#include "revwave/numerics/boundary/cpml_formulas.hpp"
#include "revwave/numerics/boundary/cpml_layout.hpp"
#include "revwave/numerics/fd_coefficients.hpp"

namespace revwave {

std::vector<double> first_derivative_weights(int space_order) {
  const int k = space_order / 2;
  // d_q = (-1)^(q+1) (k!)^2 / (q (k-q)! (k+q)!): 1/2; 2/3, -1/12; ...
  std::vector<double> d(static_cast<std::size_t>(k) + 1, 0.0);
  const auto lf = [](int n) { return std::lgamma(static_cast<double>(n) + 1.0); };
  for (int q = 1; q <= k; ++q) {
    const double mag = std::exp(2.0 * lf(k) - lf(k - q) - lf(k + q)) / double(q);
    d[static_cast<std::size_t>(q)] = (q % 2 == 1) ? mag : -mag;
  }
  return d;
}

CpmlLayout cpml_layout(const Grid& g) {
  CpmlLayout l;
  for (int a = 0; a < 3; ++a) {
    l.padded[a] = g.padded(a);
    l.lo[a] = g.cpml ? g.layer_lo(a) : 0;
    l.hi[a] = g.cpml ? g.layer_hi(a) : 0;
  }
  l.tail = g.cpml_offset();
  index_t offset = 0;
  for (int a = 0; a < 3; ++a) {
    const index_t count = (l.lo[a] + l.hi[a]) * l.padded[(a + 1) % 3] * l.padded[(a + 2) % 3];
    l.psi[a] = offset;
    l.zeta[a] = offset + count;
    offset += 2 * count;
  }
  l.values = offset;
  return l;
}

// The peak damping d_max = 4 / (nbl dt) and shift alpha_max = 0.75 / (nbl dt): in units of the
// layer's own crossing time, so that, as with the sponge, the attenuation of a trip through the
// layer depends on the Courant number only, and the profile not on m (docs/physics/boundaries.md
// gives the echoes they were chosen by: d_max 2 / (nbl dt) echoed 1.2% at nbl 5, 4 / (nbl dt) 0.2%).
template <class T>
CpmlProfile<T> make_cpml_profile(const Grid& g, double dt) {
  CpmlProfile<T> p;
  p.layout = cpml_layout(g);
  const double h = g.spacing;
  const std::vector<double> d1 = first_derivative_weights(g.space_order);
  const std::vector<double> c = second_derivative_weights(g.space_order);
  p.d1.assign(d1.size(), T(0));
  p.d2.assign(c.size(), T(0));
  for (std::size_t q = 0; q < c.size(); ++q) {
    p.d1[q] = static_cast<T>(d1[q] / h);
    p.d2[q] = static_cast<T>(c[q] / (h * h));
  }
  p.d_max = cpml_d_scale / (double(g.nbl) * dt);
  p.alpha_max = cpml_alpha_scale / (double(g.nbl) * dt);
  for (int a = 0; a < 3; ++a) {
    const index_t n = g.padded(a), lo = p.layout.lo[a], hi = p.layout.hi[a];
    p.a[a].assign(static_cast<std::size_t>(n), T(0));
    p.b[a].assign(static_cast<std::size_t>(n), T(0));
    for (index_t i = 0; i < n; ++i) {
      index_t depth = 0;  // points into the layer: 1 at its first point, nbl at its outer edge
      if (i < lo)
        depth = lo - i;
      else if (i >= n - hi)
        depth = i - (n - hi - 1);
      if (depth == 0) continue;
      const double x = double(depth) / double(g.nbl);
      const double d = p.d_max * x * x, alpha = p.alpha_max * (1.0 - x);
      const double b = std::exp(-(d + alpha) * dt);
      p.b[a][static_cast<std::size_t>(i)] = static_cast<T>(b);
      p.a[a][static_cast<std::size_t>(i)] = static_cast<T>(cpml_a(d, alpha, b));
    }
  }
  return p;
}

template CpmlProfile<float> make_cpml_profile<float>(const Grid&, double);
template CpmlProfile<double> make_cpml_profile<double>(const Grid&, double);

}  // namespace revwave
