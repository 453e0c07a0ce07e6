// A move-only, 128-byte aligned, zero-initialised host array (the grid's rows start on 128-byte
// boundaries: grid.hpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "revwave/core/errors.hpp"

namespace revwave {

class HostBuffer {
 public:
  HostBuffer() = default;
  explicit HostBuffer(std::size_t bytes) : bytes_(bytes) {
    if (bytes == 0) return;
    const std::size_t rounded = bytes > SIZE_MAX - 127 ? 0 : (bytes + 127) / 128 * 128;
    data_ = rounded == 0 ? nullptr : static_cast<std::byte*>(std::aligned_alloc(128, rounded));
    if (data_ == nullptr) {
      throw OutOfMemoryError("could not allocate " + std::to_string(bytes) + " bytes of host memory");
    }
    std::memset(data_, 0, bytes);
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  HostBuffer(HostBuffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    if (this != &o) {
      std::free(data_);
      data_ = std::exchange(o.data_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }
  ~HostBuffer() { std::free(data_); }

  std::byte* data() noexcept { return data_; }
  const std::byte* data() const noexcept { return data_; }
  std::size_t bytes() const noexcept { return bytes_; }
  template <class T> T* as() noexcept { return reinterpret_cast<T*>(data_); }
  template <class T> const T* as() const noexcept { return reinterpret_cast<const T*>(data_); }
  void zero() noexcept { if (data_) std::memset(data_, 0, bytes_); }
  friend void swap(HostBuffer& a, HostBuffer& b) noexcept {
    std::swap(a.data_, b.data_);
    std::swap(a.bytes_, b.bytes_);
  }

 private:
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace revwave
