// The checkpoint casts' launch structs (launch/kernel_launch.hpp): a thread per packed value of the
// padded box, the bodies of cast_kernels.hpp. The encode reads the whole allocated field (its
// padded box) and, for fp16, the peak the reduction left on the device.
#pragma once
#include "revwave/cuda/kernels/cast_kernels.hpp"
#include "revwave/cuda/kernels/launch/kernel_launch.hpp"
#include "revwave/cuda/kernels/tuning/cast_policy.hpp"

namespace revwave::cast {

using LinearKernel = launch::LinearKernel<tuning::CastPolicy>;

// Bytes of a field up to its last padded point.
template <class T>
std::size_t field_span(const CastShape& s) {
  return launch::bytes_of<T>(s.origin + (s.box0 - 1) * s.sx + (s.box1 - 1) * s.sy + s.box2);
}

template <class T>
struct EncodeKernel : LinearKernel {
  static constexpr const char* name = "a checkpoint encode";
  CastShape s;
  const T* field;
  const double* peak;
  unsigned char* out;
  EncodeKernel(const CastShape& shape, const T* f, const double* p, unsigned char* o)
      : s(shape), field(f), peak(p), out(o) {}
  LaunchShape shape() const { return shape_for(s.points()); }
  void accesses(launch::MemoryAccesses& acc) const {
    acc = {launch::reads(field, field_span<T>(s)), launch::writes(out, s.encoded_bytes())};
    if (!s.bf16) acc.push_back(launch::reads(peak, sizeof(double)));
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    encode_thread(s, field, peak, out, item(t.place()));
  }
};

template <class T>
struct DecodeKernel : LinearKernel {
  static constexpr const char* name = "a checkpoint decode";
  CastShape s;
  const unsigned char* in;
  T* field;
  DecodeKernel(const CastShape& shape, const unsigned char* i, T* f) : s(shape), in(i), field(f) {}
  LaunchShape shape() const { return shape_for(s.points()); }
  void accesses(launch::MemoryAccesses& acc) const {
    acc = {launch::reads(in, s.encoded_bytes()), launch::writes(field, field_span<T>(s))};
  }
  template <class Thread>
  REVWAVE_HD void operator()(Thread& t) const {
    decode_thread(s, in, field, item(t.place()));
  }
};

}  // namespace revwave::cast
