// --compress fp16|bf16 in device slots, fused with the steps. A store of a state in encoded
// device slots leaves its encode to the propagator's next forward sweep, which reads the state
// (u[n], u[n-1]) at every point anyway and writes its encoding in passing (4 bytes a point instead
// of a cast kernel's read of 8 and write of 4, float; fp16's two peaks are still measured when the
// state is stored). A restore leaves its decode to the first forward step after it, which reads
// the two encoded fields directly and writes u[n] decoded beside u[n+1]. Whatever the next step
// cannot take (a reverse step, a read of the state, another store or restore first, a sweep kernel
// that cannot encode) is done by the cast kernels first (flush), so the slot's bytes and the
// state's values are always those of the unfused codec, bit for bit.
#pragma once
#include <memory>
#include <optional>

#include "revwave/cuda/kernels/acoustic/sweep_kernels.hpp"
#include "revwave/cuda/store/device_checkpoint_store.hpp"
#include "revwave/cuda/store/device_codec.hpp"

namespace revwave {

class FusedCodec {
 public:
  // Work on `compute` (the stream the steps run on); the codec must outlive this.
  FusedCodec(DeviceCodec& codec, cudaStream_t compute) : codec_(codec), stream_(compute) {}
  DeviceCodec& codec() const { return codec_; }

  // EncodedDeviceSlots' store: `state` encoded into `out` (u, then u_prev a stride later) by the
  // next forward sweep. The state's fields are held (so no step writes them in place) until then.
  void defer_encode(const DeviceState& state, unsigned char* out);
  // EncodedDeviceSlots' restore: `in` decoded into the state's two fields (fresh ones) by the next
  // forward step.
  void defer_decode(const unsigned char* in, const DeviceState& state);

  // What the next forward step takes over, if it is this state's (else the cast kernels run first
  // and it gets nothing): the encode's arguments for its sweep; the decode's encoded fields.
  bool take_encode(const DeviceState& state, SweepEncode& args);
  struct Decode {
    const unsigned char* u = nullptr;
    const unsigned char* u_prev = nullptr;
    bool bf16 = false;
  };
  bool take_decode(const DeviceState& state, Decode& d);

  // The cast kernels for whatever is pending, on the compute stream.
  void flush();
  // The state is replaced without being read (a reset, an upload): a pending decode has no use.
  void drop_decode() { decode_.reset(); }
  bool decode_pending() const { return decode_.has_value(); }

 private:
  struct Pending {
    DeviceState fields;  // held: the state encoded, or the fields a decode fills
    const unsigned char* code = nullptr;
    unsigned char* out = nullptr;
  };
  static bool same(const DeviceState& a, const DeviceState& b) {
    return a.u.data() == b.u.data() && a.u_prev.data() == b.u_prev.data();
  }

  DeviceCodec& codec_;
  cudaStream_t stream_;
  std::optional<Pending> encode_, decode_;
};

// A store whose every store and restore first flushes the fused codec: the composition's other
// tiers (raw slots sharing the state's fields, spills reading them) then see the state as it is.
class FlushingStore final : public DeviceCheckpointStore {
 public:
  FlushingStore(std::unique_ptr<DeviceCheckpointStore> inner, FusedCodec& fused)
      : inner_(std::move(inner)), fused_(fused) {}
  std::int64_t slots() const override { return inner_->slots(); }
  std::size_t slot_bytes() const override { return inner_->slot_bytes(); }
  std::int64_t held_fields() const override { return inner_->held_fields(); }
  void store(std::int64_t slot, const DeviceState& state) override {
    fused_.flush();
    inner_->store(slot, state);
  }
  void restore(std::int64_t slot, DeviceState& state, bool last_use) override {
    fused_.flush();
    inner_->restore(slot, state, last_use);
  }
  std::uint64_t copy_bytes() const override { return inner_->copy_bytes(); }
  CompressionStats compression() const override { return inner_->compression(); }
  std::int64_t prefetch_hits() const override { return inner_->prefetch_hits(); }
  void look_ahead() override { inner_->look_ahead(); }

 private:
  std::unique_ptr<DeviceCheckpointStore> inner_;
  FusedCodec& fused_;
};

}  // namespace revwave
