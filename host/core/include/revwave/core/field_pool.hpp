// Wavefields as shared handles into one pool of equal fields allocated up front. A checkpoint in
// memory is a handle to the fields of the state it keeps, never a copy: storing shares the
// state's two fields with the slot, restoring shares the slot's fields with the state. A field
// with more than one holder is read-only: the step that would overwrite it in place writes into
// a free field of the pool instead, and the field returns to the pool when its last holder lets
// go. With a store holding at most H fields, 2 + H fields suffice (the state's two: at most one
// of them is unshared when a step needs a free field, and a step needs one only then).
//
// Buffer is a move-only owner of `field_bytes` bytes (HostBuffer; DeviceBuffer in cuda/). Holder
// counts change on one thread only; a field's data pointer never changes, so a worker thread
// (a disk write) may read through a handle another thread keeps alive.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "revwave/core/host_buffer.hpp"

namespace revwave {

template <class Buffer>
class FieldPool;

template <class Buffer>
class Field {
 public:
  Field() = default;
  Field(const Field& o) : pool_(o.pool_), id_(o.id_), buffer_(o.buffer_) { hold(); }
  Field(Field&& o) noexcept
      : pool_(std::exchange(o.pool_, nullptr)), id_(o.id_), buffer_(std::exchange(o.buffer_, nullptr)) {}
  // Copy and swap: a self-assignment copies, then swaps with the copy.
  Field& operator=(const Field& o) {  // NOLINT(bugprone-unhandled-self-assignment): copy and swap is safe
    Field copy(o);
    swap(*this, copy);
    return *this;
  }
  Field& operator=(Field&& o) noexcept {
    Field moved(std::move(o));
    swap(*this, moved);
    return *this;
  }
  ~Field() { reset(); }

  // Lets go of the field (back to the pool when this was its last holder).
  void reset() noexcept;
  explicit operator bool() const noexcept { return buffer_ != nullptr; }
  auto data() const noexcept { return buffer_->data(); }
  template <class T>
  T* as() const noexcept {
    return buffer_->template as<T>();
  }
  std::size_t bytes() const noexcept { return buffer_ != nullptr ? buffer_->bytes() : 0; }
  // Handles to this field, this one included (0 for an empty handle).
  int holders() const noexcept;
  // Written only by a sole holder: a shared field belongs, read-only, to a slot or a copy in flight.
  bool shared() const noexcept { return holders() > 1; }
  bool same_field(const Field& o) const noexcept { return buffer_ == o.buffer_; }

  friend void swap(Field& a, Field& b) noexcept {
    std::swap(a.pool_, b.pool_);
    std::swap(a.id_, b.id_);
    std::swap(a.buffer_, b.buffer_);
  }

 private:
  friend class FieldPool<Buffer>;
  Field(FieldPool<Buffer>* pool, std::size_t id, Buffer* buffer) : pool_(pool), id_(id), buffer_(buffer) { hold(); }
  void hold() noexcept;

  FieldPool<Buffer>* pool_ = nullptr;
  std::size_t id_ = 0;
  Buffer* buffer_ = nullptr;
};

template <class Buffer>
class FieldPool {
 public:
  // make() allocates one field (it may throw OutOfMemoryError); nothing is allocated until asked.
  FieldPool(std::size_t field_bytes, std::function<Buffer()> make)
      : field_bytes_(field_bytes), make_(std::move(make)) {}
  FieldPool(const FieldPool&) = delete;
  FieldPool& operator=(const FieldPool&) = delete;
  ~FieldPool() = default;  // every Field must be gone by now

  std::size_t field_bytes() const noexcept { return field_bytes_; }
  // Allocates fields now until there are `fields` in all (never fewer than there are), calling
  // `between` after each: a whole history takes seconds, and a front end may cancel there.
  void ensure_capacity(std::int64_t fields, const std::function<void()>& between = {}) {
    while (capacity() < fields) {
      std::size_t id = 0;
      while (id < buffers_.size() && buffers_[id]) ++id;
      if (id == buffers_.size()) {
        buffers_.emplace_back();
        holders_.push_back(0);
      }
      buffers_[id] = std::make_unique<Buffer>(make_());
      free_.push_back(id);
      ++capacity_;
      if (between) between();
    }
  }
  // Frees the fields nobody holds.
  void release_unused() noexcept {
    for (std::size_t id : free_) buffers_[id].reset();
    capacity_ -= static_cast<std::int64_t>(free_.size());
    free_.clear();
  }
  // A field nobody else holds, its content whatever it last was. Running out is a programming
  // error (the pool was sized for the stores that hold fields): std::logic_error.
  Field<Buffer> acquire() {
    if (free_.empty()) {
      throw std::logic_error("field pool exhausted: all " + std::to_string(capacity_) + " fields of " +
                             std::to_string(field_bytes_) + " bytes are held");
    }
    const std::size_t id = free_.back();  // the most recently freed: likely still in cache
    free_.pop_back();
    return Field<Buffer>(this, id, buffers_[id].get());
  }
  std::int64_t capacity() const noexcept { return capacity_; }
  std::int64_t in_use() const noexcept { return capacity_ - static_cast<std::int64_t>(free_.size()); }
  std::int64_t peak_in_use() const noexcept { return peak_; }
  std::size_t allocated_bytes() const noexcept { return static_cast<std::size_t>(capacity_) * field_bytes_; }

 private:
  friend class Field<Buffer>;
  void hold(std::size_t id) noexcept {
    if (holders_[id]++ == 0) peak_ = std::max(peak_, in_use());
  }
  void release(std::size_t id) noexcept {
    if (--holders_[id] == 0) free_.push_back(id);
  }

  std::size_t field_bytes_;
  std::function<Buffer()> make_;
  std::vector<std::unique_ptr<Buffer>> buffers_;  // null: an id whose field was released
  std::vector<int> holders_;
  std::vector<std::size_t> free_;
  std::int64_t capacity_ = 0, peak_ = 0;
};

template <class Buffer>
void Field<Buffer>::hold() noexcept {
  if (pool_ != nullptr) pool_->hold(id_);
}

template <class Buffer>
void Field<Buffer>::reset() noexcept {
  if (pool_ != nullptr) pool_->release(id_);
  pool_ = nullptr;
  buffer_ = nullptr;
}

template <class Buffer>
int Field<Buffer>::holders() const noexcept {
  return pool_ != nullptr ? pool_->holders_[id_] : 0;
}

using HostField = Field<HostBuffer>;

// Host fields of `field_bytes` each, zero-filled when allocated.
class HostFieldPool : public FieldPool<HostBuffer> {
 public:
  explicit HostFieldPool(std::size_t field_bytes)
      : FieldPool<HostBuffer>(field_bytes, [field_bytes] { return HostBuffer(field_bytes); }) {}
};

// The forward state that restarts the recurrence at position n: (u[n], u[n-1]).
struct HostState {
  HostField u;       // u[n]
  HostField u_prev;  // u[n-1]
};

}  // namespace revwave
