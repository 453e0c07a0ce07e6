// A move-only, 128-byte aligned, zero-initialised host array (the grid's rows start on 128-byte
// boundaries: grid.hpp).
//
// Arrays of a wavefield's size (1 MiB and more) are mapped from the kernel directly, populated
// at once (MAP_POPULATE: one call instead of a page fault per 4 KiB page when the array is first
// written) and already zero, so they are not cleared again. The checkpoint pool creates its
// fields while the gradient runs; a fault per page made that time grow with the slot count.
#pragma once
#if defined(__linux__)
#include <sys/mman.h>
#endif

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
#if defined(__linux__) && defined(MAP_POPULATE)
    if (bytes >= mapped_from) {
      void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
      if (p == MAP_FAILED) {
        throw OutOfMemoryError("could not allocate " + std::to_string(bytes) + " bytes of host memory");
      }
      data_ = static_cast<std::byte*>(p);  // page-aligned, and zero
      mapped_ = true;
      return;
    }
#endif
    const std::size_t rounded = bytes > SIZE_MAX - 127 ? 0 : (bytes + 127) / 128 * 128;
    data_ = rounded == 0 ? nullptr : static_cast<std::byte*>(std::aligned_alloc(128, rounded));
    if (data_ == nullptr) {
      throw OutOfMemoryError("could not allocate " + std::to_string(bytes) + " bytes of host memory");
    }
    std::memset(data_, 0, bytes);
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;
  HostBuffer(HostBuffer&& o) noexcept
      : data_(std::exchange(o.data_, nullptr)),
        bytes_(std::exchange(o.bytes_, 0)),
        mapped_(std::exchange(o.mapped_, false)) {}
  HostBuffer& operator=(HostBuffer&& o) noexcept {
    if (this != &o) {
      release();
      data_ = std::exchange(o.data_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
      mapped_ = std::exchange(o.mapped_, false);
    }
    return *this;
  }
  ~HostBuffer() { release(); }

  std::byte* data() noexcept { return data_; }
  const std::byte* data() const noexcept { return data_; }
  std::size_t bytes() const noexcept { return bytes_; }
  template <class T>
  T* as() noexcept {
    return reinterpret_cast<T*>(data_);
  }
  template <class T>
  const T* as() const noexcept {
    return reinterpret_cast<const T*>(data_);
  }
  void zero() noexcept {
    if (data_) std::memset(data_, 0, bytes_);
  }
  friend void swap(HostBuffer& a, HostBuffer& b) noexcept {
    std::swap(a.data_, b.data_);
    std::swap(a.bytes_, b.bytes_);
    std::swap(a.mapped_, b.mapped_);
  }

 private:
  static constexpr std::size_t mapped_from = std::size_t(1) << 20;
  void release() noexcept {
#if defined(__linux__) && defined(MAP_POPULATE)
    if (mapped_) {
      munmap(data_, bytes_);
      return;
    }
#endif
    std::free(data_);
  }
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
  bool mapped_ = false;
};

}  // namespace revwave
