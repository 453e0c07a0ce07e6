// The CUDA backend's checkpoint stores: the host's store interface (BasicCheckpointStore,
// revwave/store/checkpoint_store.hpp) over the device's state, the context every device tier
// shares, and the composition (BasicTieredStore) instantiated for it. Each tier is a store of its
// own, one concept per file, composed by make_device_store (device_store_factory.hpp) as the plan
// places the slots:
//   device_slots.hpp          device memory: handles to the pool's fields (no copy, no wait);
//   pinned_slots.hpp          pinned host memory: PCIe copies on the transfer stream, fenced, prefetched;
//   encoded_device_slots.hpp  --compress fp16|bf16 in device memory: cast kernels on the compute
//                             stream, or the steps themselves (fused_codec.hpp);
//   encoded_pinned_slots.hpp  --compress fp16|bf16 in pinned host memory: encoded on the device, then copied;
//   staged_host_tier.hpp      a host medium behind pinned staging and a host worker thread: the
//                             ZFP-encoded pinned slots of --compress zfp-... (encoded_host_slots.hpp)
//                             and files in --checkpoint-dir (disk_host_slots.hpp).
//
// The discipline they share, which is what keeps the copies off the critical path and the bits
// exact:
// - Device slots are handles to the state's fields (the propagator's pool): storing shares them,
//   restoring shares them back; nothing is copied and nothing waits.
// - A spill reads the state's fields directly, on the transfer stream after the compute work
//   enqueued so far, and holds them (and fences them: whoever writes one next waits for the copy)
//   until the tier's next spill, so the steps meanwhile write other fields.
// - A copy back goes into free fields of the pool, on the transfer stream after the compute work
//   enqueued so far (their last readers there); the compute stream waits for it, timed by the
//   spill clock, before the state takes them. A kernel that writes a free field (a decode) first
//   waits for the fences on it, as a step does.
// - Restores are read ahead: a tier asks the prefetch hint (the driver's lookahead into the
//   schedule) for its next restore and starts it as soon as that slot's content is final (it is
//   not stored again first); the restore itself then only hands the fields over. A composition
//   gives every tier that chance after each store and restore of any tier (look_ahead()).
// - Every tier copies on the one transfer stream, so the copies of different tiers stay in issue
//   order. No store or restore makes the host wait for the device (tests/cudasim/test_host_waits.cpp);
//   a tier behind a host worker waits for the worker only where it needs its staging again.
#pragma once
#include <cstddef>
#include <cstdint>

#include "revwave/cuda/runtime/cuda_streams.hpp"
#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/cuda/runtime/write_fences.hpp"
#include "revwave/store/checkpoint_store.hpp"
#include "revwave/store/prefetch_hint.hpp"
#include "revwave/store/tiered_store.hpp"

namespace revwave {

using DeviceCheckpointStore = BasicCheckpointStore<DeviceState>;
using DeviceTieredStore = BasicTieredStore<DeviceState>;
extern template class BasicTieredStore<DeviceState>;

class FusedCodec;

// What the device tiers share with the propagator: its pool of fields, its streams, the fences on
// fields a copy still reads, the clock of the compute stream's waits on copies, and the fused
// codec through which encoded device slots leave their casts to the steps (null: none).
struct DeviceStoreContext {
  DeviceFieldPool& pool;
  CudaStreams& streams;
  WriteFences& fences;
  SpillClock& clock;
  FusedCodec* fused = nullptr;
};

// A tier's place in a composition: its slot 0 is the schedule's global slot `first`, and the hint
// (null: nothing is read ahead) answers in global ids.
struct TierLookahead {
  PrefetchHint* hint = nullptr;
  std::int64_t first = 0;
  // How far ahead a tier looks: far enough for any segment of a two-level schedule.
  static constexpr std::size_t window = std::size_t(1) << 16;
  // The tier's next slot to read ahead (its own id), or -1 when there is none yet.
  std::int64_t next(std::int64_t slots) const {
    if (hint == nullptr || slots == 0) return -1;
    const std::int64_t global = hint->next_restore(first, slots, window);
    return global < 0 ? -1 : global - first;
  }
};

}  // namespace revwave
