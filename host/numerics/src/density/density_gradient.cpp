#include "revwave/numerics/density/density_gradient.hpp"

#include "revwave/numerics/density/density_model.hpp"

namespace revwave {

template <class T>
std::vector<double> density_gradient(const Grid& grid, const T* image, double reference) {
  std::vector<double> out = fold_allocated_to_interior(grid, image);
  for (double& v : out) v /= reference;
  return out;
}

template std::vector<double> density_gradient<float>(const Grid&, const float*, double);
template std::vector<double> density_gradient<double>(const Grid&, const double*, double);

}  // namespace revwave
