#include "revwave/cuda/backend/device_records.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace revwave {

template <class T>
void DeviceRecords<T>::size_for(const Problem<T>& p, index_t probes, UploadRing* ring, const Stream& compute) {
  const std::size_t nt = static_cast<std::size_t>(p.time.nt());
  const std::size_t nrec = static_cast<std::size_t>(std::max<index_t>(p.rec.count, 1));
  const std::size_t nsrc = static_cast<std::size_t>(std::max<index_t>(p.src.count, 1));
  const std::size_t np = static_cast<std::size_t>(std::max<index_t>(probes, 1));
  auto size = [&](DeviceBuffer& b, std::size_t bytes, const char* what) {
    if (b.bytes() >= bytes) return;
    if (ring != nullptr && b.bytes() > 0) compute.synchronize();
    b = DeviceBuffer(ring != nullptr ? bytes + bytes / 4 : bytes, what);
  };
  size(next_, np * sizeof(T), "u[n+1] at the probes");
  size(saved_, np * sizeof(T), "the gradient at the probes");
  size(traces_, nt * nrec * sizeof(T), "the traces");
  size(adjoint_source_, nt * nrec * sizeof(T), "the adjoint source");
  size(source_traces_, nt * nsrc * sizeof(T), "the source traces");
  // After every allocation: one that fails leaves the row bounds those of the buffers there are.
  nt_ = p.time.nt();
  nrec_ = p.rec.count;
  nsrc_ = p.src.count;
}

template <class T>
T* DeviceRecords<T>::row(DeviceBuffer& rows, index_t sample, index_t width, const char* what) {
  if (sample < 0 || sample >= nt_) throw std::logic_error(std::string(what) + " sample out of range");
  return rows.template as<T>() + sample * width;
}

template <class T>
std::vector<T> DeviceRecords<T>::read(const DeviceBuffer& rows, index_t samples, index_t width, const char* what,
                                      const Stream& compute) const {
  if (samples > nt_) throw std::logic_error(std::string(what) + ": more samples asked for than a run records");
  std::vector<T> out(static_cast<std::size_t>(samples * width));
  REVWAVE_CUDA_CHECK(cudaMemcpyAsync(out.data(), rows.data(), out.size() * sizeof(T), cudaMemcpyDeviceToHost, compute));
  compute.synchronize();
  return out;
}

template <class T>
std::vector<T> DeviceRecords<T>::traces(index_t samples, const Stream& compute) const {
  return read(traces_, samples, nrec_, "traces", compute);
}

template <class T>
std::vector<T> DeviceRecords<T>::source_traces(index_t samples, const Stream& compute) const {
  return read(source_traces_, samples, nsrc_, "source_traces", compute);
}

template <class T>
void DeviceRecords<T>::set_adjoint_source(const std::vector<T>& r, UploadRing* ring, const Stream& compute) {
  const std::size_t nrec = static_cast<std::size_t>(std::max<index_t>(nrec_, 1));
  if (r.size() % nrec != 0) throw std::logic_error("set_adjoint_source: not a whole number of samples");
  if (r.size() / nrec > static_cast<std::size_t>(nt_) || r.size() * sizeof(T) > adjoint_source_.bytes())
    throw std::logic_error("set_adjoint_source: more samples than a run has");
  adjoint_samples_ = static_cast<index_t>(r.size() / nrec);
  if (ring != nullptr) {
    ring->upload(adjoint_source_.data(), r.data(), r.size() * sizeof(T), compute);
  } else {
    REVWAVE_CUDA_CHECK(
        cudaMemcpyAsync(adjoint_source_.data(), r.data(), r.size() * sizeof(T), cudaMemcpyHostToDevice, compute));
    compute.synchronize();
  }
}

template <class T>
const T* DeviceRecords<T>::adjoint_source(index_t sample) const {
  if (sample < 0 || sample >= adjoint_samples_)
    throw std::logic_error("adjoint source sample " + std::to_string(sample) + " was not given");
  return adjoint_source_.template as<T>() + sample * nrec_;
}

template class DeviceRecords<float>;
template class DeviceRecords<double>;

}  // namespace revwave
