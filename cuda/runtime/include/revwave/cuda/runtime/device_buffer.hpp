// Move-only owners of device memory (DeviceBuffer) and pinned host memory (PinnedBuffer),
// a non-owning typed view to pass them around, and the device's pool of wavefields (shared
// handles, revwave/core/field_pool.hpp). The only place that calls cudaMalloc.
#pragma once
#include <cstddef>
#include <utility>

#include <cuda_runtime_api.h>

#include "revwave/core/field_pool.hpp"
#include "revwave/core/system_memory.hpp"
#include "revwave/cuda/runtime/cuda_error.hpp"

namespace revwave {

// A typed, non-owning view of device (or pinned) memory.
template <class T>
struct Span {
  T* data = nullptr;
  std::size_t size = 0;
};

// Zero-filled device memory. Allocation failure is a CudaOutOfMemoryError naming `what`.
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes, const char* what = "a device buffer") : bytes_(bytes) {
    if (bytes == 0) return;
    const cudaError_t err = cudaMalloc(&data_, bytes);
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      data_ = nullptr;
      throw CudaOutOfMemoryError(what, bytes, cuda_free_memory());
    }
    REVWAVE_CUDA_CHECK(err);
    // Legacy-stream memset, then wait: later work runs on non-blocking streams that do not order with it.
    // A fault here leaves the constructor by an exception, so no destructor runs: free the memory first.
    try {
      REVWAVE_CUDA_CHECK(cudaMemset(data_, 0, bytes));
      REVWAVE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
    } catch (...) {
      release();
      throw;
    }
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  ~DeviceBuffer() { release(); }

  void* data() noexcept { return data_; }
  const void* data() const noexcept { return data_; }
  std::size_t bytes() const noexcept { return bytes_; }
  template <class T>
  T* as() noexcept {
    return static_cast<T*>(data_);
  }
  template <class T>
  const T* as() const noexcept {
    return static_cast<const T*>(data_);
  }
  template <class T>
  Span<T> span() noexcept {
    return {as<T>(), bytes_ / sizeof(T)};
  }

  // Synchronous upload of `bytes` from host memory (set-up only, never in a time loop).
  void upload(const void* host, std::size_t bytes) {
    if (bytes == 0) return;
    REVWAVE_CUDA_CHECK(cudaMemcpy(data_, host, bytes, cudaMemcpyHostToDevice));
    REVWAVE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
  }
  void zero_async(cudaStream_t stream) {
    if (bytes_ != 0) REVWAVE_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes_, stream));
  }
  friend void swap(DeviceBuffer& a, DeviceBuffer& b) noexcept {
    std::swap(a.data_, b.data_);
    std::swap(a.bytes_, b.bytes_);
  }

 private:
  void release() noexcept {
    if (data_ != nullptr) cudaFree(data_);  // errors ignored: destructors never throw
    data_ = nullptr;
  }
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

// Page-locked host memory: the only kind async copies overlap with. Not zero-filled.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t bytes, const char* what = "a pinned host buffer") : bytes_(bytes) {
    if (bytes == 0) return;
    const cudaError_t err = cudaMallocHost(&data_, bytes);
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      data_ = nullptr;
      throw OutOfMemoryError(std::string(what) + " needs " + format_bytes(double(bytes)) +
                             " of pinned host memory, which could not be allocated");
    }
    REVWAVE_CUDA_CHECK(err);
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  ~PinnedBuffer() { release(); }

  void* data() noexcept { return data_; }
  const void* data() const noexcept { return data_; }
  std::size_t bytes() const noexcept { return bytes_; }
  template <class T>
  T* as() noexcept {
    return static_cast<T*>(data_);
  }
  template <class T>
  const T* as() const noexcept {
    return static_cast<const T*>(data_);
  }

 private:
  void release() noexcept {
    if (data_ != nullptr) cudaFreeHost(data_);
    data_ = nullptr;
  }
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

using DeviceField = Field<DeviceBuffer>;

// Device wavefields of `field_bytes` each, zero-filled when allocated (so every field's halo and
// row gaps are zero: sweeps write padded points only).
class DeviceFieldPool : public FieldPool<DeviceBuffer> {
 public:
  explicit DeviceFieldPool(std::size_t field_bytes)
      : FieldPool<DeviceBuffer>(field_bytes, [field_bytes] { return DeviceBuffer(field_bytes, "a wavefield"); }) {}
};

// The forward state on the device: (u[n], u[n-1]), the State of CudaPropagator.
struct DeviceState {
  DeviceField u;
  DeviceField u_prev;
};

}  // namespace revwave
