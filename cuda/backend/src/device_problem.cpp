#include "revwave/cuda/backend/device_problem.hpp"

#include <stdexcept>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "revwave/numerics/acoustic/next_field_probes.hpp"

namespace revwave {
namespace {

// Per receiver injection target (distinct indices in order of first appearance, as DevicePoints
// lists them): the probe at that index.
std::vector<index_t> target_probes(const SparsePoints& rec, const NextFieldProbes& probes) {
  std::unordered_map<index_t, index_t> probe_of;
  for (std::size_t p = 0; p < probes.index.size(); ++p) probe_of.emplace(probes.index[p], static_cast<index_t>(p));
  std::unordered_set<index_t> seen;
  std::vector<index_t> out;
  for (index_t idx : rec.index)
    if (seen.insert(idx).second) out.push_back(probe_of.at(idx));
  return out;
}

}  // namespace

template <class T>
DeviceProblem<T>::DeviceProblem(const Problem<T>& p) : m_(p.m.bytes(), "the squared slowness m") {
  m_.upload(p.m.data(), p.m.bytes());
  set_tables(
      p, [&p](index_t idx) { return leapfrog_a_at(p, idx); }, nullptr, nullptr);
}

template <class T>
DeviceProblem<T>::DeviceProblem(const Problem<T>& p, const ResidentWindow<T>& w, UploadRing& ring,
                                cudaStream_t stream) {
  assign(p, w, ring, stream);
}

template <class T>
void DeviceProblem<T>::assign(const Problem<T>& p, const ResidentWindow<T>& w, UploadRing& ring, cudaStream_t stream) {
  const std::size_t bytes = p.grid.template field_bytes<T>();
  if (m_.bytes() < bytes) {
    if (m_.bytes() > 0) REVWAVE_CUDA_CHECK(cudaStreamSynchronize(stream));  // kernels may still read the old one
    m_ = DeviceBuffer(bytes, "the squared slowness m");
  }
  launch_window_cut(WindowCut<T>{w.place, w.whole_m, m_.as<T>()}, stream);
  set_tables(p, w.a_at, &ring, stream);
}

template <class T>
void DeviceProblem<T>::set_tables(const Problem<T>& p, const std::function<T(index_t)>& a_at, UploadRing* ring,
                                  cudaStream_t stream) {
  grid_ = p.grid;
  put_on_device(kx_, p.kappa[0], "damping profiles", ring, stream);
  put_on_device(ky_, p.kappa[1], "damping profiles", ring, stream);
  put_on_device(kz_, p.kappa[2], "damping profiles", ring, stream);
  put_on_device(wavelet_, p.wavelet, "the wavelet", ring, stream);
  src_.assign(p.src, ring, stream);
  rec_.assign(p.rec, ring, stream);
  const double cell = p.grid.cell_volume();  // h^3, or h^2 on a plane
  std::vector<T> src_scale(p.src.index.size()), rec_scale(p.rec.index.size());
  for (std::size_t c = 0; c < src_scale.size(); ++c)
    src_scale[c] = static_cast<T>(1.0 / (cell * static_cast<double>(a_at(p.src.index[c]))));
  for (std::size_t c = 0; c < rec_scale.size(); ++c) rec_scale[c] = T(1) / a_at(p.rec.index[c]);
  put_on_device(src_scale_, src_scale, "source scales", ring, stream);
  put_on_device(rec_scale_, rec_scale, "receiver scales", ring, stream);

  const NextFieldProbes probes = make_next_field_probes(p.src, p.rec);
  put_on_device(probe_index_, probes.index, "the reverse step's probes", ring, stream);
  put_on_device(probe_source_begin_, probes.source_begin, "the reverse step's probes", ring, stream);
  put_on_device(probe_source_corner_, probes.source_corner, "the reverse step's probes", ring, stream);
  put_on_device(receiver_probe_, probes.receiver_probe, "the reverse step's probes", ring, stream);
  put_on_device(target_probe_, target_probes(p.rec, probes), "the reverse step's probes", ring, stream);
  probes_.count = static_cast<index_t>(probes.size());
  probes_.index = probe_index_.as<index_t>();
  probes_.source_begin = probe_source_begin_.as<index_t>();
  probes_.source_corner = probe_source_corner_.as<index_t>();
  probes_.receiver_probe = receiver_probe_.as<index_t>();
  probes_.target_probe = target_probe_.as<index_t>();

  const index_t r = p.grid.radius();
  if (r < 1 || r > max_radius || static_cast<index_t>(p.weights.size()) != r + 1) {
    throw std::logic_error("stencil weights do not match the space order");
  }
  base_ = SweepArgs<T>{};
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
  return {grid_.shape[0],   grid_.shape[1],   grid_.shape[2],    grid_.nbl,        grid_.radius(),
          grid_.stride_x(), grid_.stride_y(), grid_.layer_lo(2), grid_.layer_lo(1)};
}

template <class T>
std::size_t DeviceProblem<T>::bytes() const {
  return m_.bytes() + kx_.bytes() + ky_.bytes() + kz_.bytes() + wavelet_.bytes() + src_scale_.bytes() +
         rec_scale_.bytes();
}

template class DeviceProblem<float>;
template class DeviceProblem<double>;

}  // namespace revwave
