#include "device_problem.hpp"

#include <stdexcept>
#include <vector>

namespace revwave {
namespace {

template <class T>
DeviceBuffer upload_vector(const std::vector<T>& v, const char* what) {
  DeviceBuffer b(v.size() * sizeof(T), what);
  b.upload(v.data(), b.bytes());
  return b;
}


}  // namespace

template <class T>
DeviceProblem<T>::DeviceProblem(const Problem<T>& p)
    : grid_(p.grid),
      m_(p.m.bytes(), "the squared slowness m"),
      kx_(upload_vector(p.kappa[0], "damping profiles")),
      ky_(upload_vector(p.kappa[1], "damping profiles")),
      kz_(upload_vector(p.kappa[2], "damping profiles")),
      wavelet_(upload_vector(p.wavelet, "the wavelet")),
      src_(p.src),
      rec_(p.rec) {
  m_.upload(p.m.data(), p.m.bytes());
  const double h3 = p.grid.spacing * p.grid.spacing * p.grid.spacing;
  std::vector<T> src_scale(p.src.index.size()), rec_scale(p.rec.index.size());
  for (std::size_t c = 0; c < src_scale.size(); ++c)
    src_scale[c] = static_cast<T>(1.0 / (h3 * static_cast<double>(leapfrog_a_at(p, p.src.index[c]))));
  for (std::size_t c = 0; c < rec_scale.size(); ++c) rec_scale[c] = T(1) / leapfrog_a_at(p, p.rec.index[c]);
  src_scale_ = upload_vector(src_scale, "source scales");
  rec_scale_ = upload_vector(rec_scale, "receiver scales");

  const index_t r = p.grid.radius();
  if (r < 1 || r > max_radius || static_cast<index_t>(p.weights.size()) != r + 1) {
    throw std::logic_error("stencil weights do not match the space order");
  }
  base_.m = m_.as<T>();
  base_.kx = kx_.as<T>();
  base_.ky = ky_.as<T>();
  base_.kz = kz_.as<T>();
  base_.c = p.coeffs;
  for (index_t q = 0; q <= r; ++q) base_.w[q] = p.weights[static_cast<std::size_t>(q)];
  base_.nx = p.grid.padded(0);
  base_.ny = p.grid.padded(1);
  base_.nz = p.grid.padded(2);
  base_.sx = p.grid.stride_x();
  base_.sy = p.grid.stride_y();
}

template <class T>
FoldShape DeviceProblem<T>::fold_shape() const {
  return {grid_.shape[0], grid_.shape[1], grid_.shape[2], grid_.nbl, grid_.radius(), grid_.stride_x(), grid_.stride_y()};
}

template <class T>
std::size_t DeviceProblem<T>::bytes() const {
  return m_.bytes() + kx_.bytes() + ky_.bytes() + kz_.bytes() + wavelet_.bytes() + src_scale_.bytes() +
         rec_scale_.bytes();
}

template class DeviceProblem<float>;
template class DeviceProblem<double>;

}  // namespace revwave
