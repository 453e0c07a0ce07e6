// What a CUDA run records and replays, in device memory: the traces it samples (nt x nrec), the
// adjoint source it injects (samples x nrec), the source traces of the linear adjoint (nt x nsrc),
// and u[n+1] at the probes with the gradient there before a reverse sweep (the probes' scratch).
// Sized once per problem (an engine's grown with room to spare, never shrunk), read back once.
#pragma once
#include <cstddef>
#include <vector>

#include "revwave/cuda/backend/upload_ring.hpp"
#include "revwave/cuda/runtime/cuda_streams.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/numerics/problem.hpp"

namespace revwave {

template <class T>
class DeviceRecords {
 public:
  // Buffers for p's samples, receivers, sources and `probes` probes, grown where too small. An
  // allocation waits for the device, so a propagator sizes them before its steps; with a ring (an
  // engine) a buffer still in use is waited for on `compute` first.
  void size_for(const Problem<T>& p, index_t probes, UploadRing* ring, const Stream& compute);

  // Row `sample` of the traces or of the source traces (a logic error outside the run's nt).
  T* trace_row(index_t sample) { return row(traces_, sample, nrec_, "trace"); }
  T* source_trace_row(index_t sample) { return row(source_traces_, sample, nsrc_, "source trace"); }
  // The first `samples` rows, read back (one copy, one wait).
  std::vector<T> traces(index_t samples, const Stream& compute) const;
  std::vector<T> source_traces(index_t samples, const Stream& compute) const;

  // The adjoint source, whole samples of the receivers: copied on `compute` (after any step still
  // reading the last one), through the ring where there is one, else synchronously.
  void set_adjoint_source(const std::vector<T>& r, UploadRing* ring, const Stream& compute);
  // Its row `sample` (a logic error where it was not given).
  const T* adjoint_source(index_t sample) const;

  T* next() { return next_.template as<T>(); }    // u[n+1] at the probes
  T* saved() { return saved_.template as<T>(); }  // the gradient there before the sweep

 private:
  T* row(DeviceBuffer& rows, index_t sample, index_t width, const char* what);
  std::vector<T> read(const DeviceBuffer& rows, index_t samples, index_t width, const char* what,
                      const Stream& compute) const;

  DeviceBuffer traces_, adjoint_source_, source_traces_, next_, saved_;
  index_t nt_ = 0, nrec_ = 0, nsrc_ = 0, adjoint_samples_ = 0;
};

}  // namespace revwave
