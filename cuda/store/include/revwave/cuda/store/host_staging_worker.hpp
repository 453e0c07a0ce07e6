// The pinned-host tier of the CUDA backend with --compress zfp-rate|zfp-accuracy: ZFP-encoded
// checkpoint slots in host memory, encoded and decoded by one host worker thread off the critical
// path (Debian's libzfp has no CUDA execution, so the device cannot do it).
//
// A spill copies the state's two fields raw into a pinned staging pair over PCIe; a host function
// enqueued behind that copy on the transfer stream hands the slot to the worker, which encodes the
// staging into the slot's compact buffer (host_store's FieldCodec, the CPU backend's). A restore
// asks the worker, the same way, to decode the slot into a second pinned staging pair, whence it
// is copied to the device. The jobs run in the order the transfer stream reaches them, so a decode
// never overtakes the encode of its slot, and a decode into the fetch staging never overtakes the
// copy out of it. The host thread waits for the worker only where it must: before the next spill
// overwrites the spill staging, and before a restore copies out of the fetch staging. Nothing here
// is touched by the device but the two staging pairs.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>

#include "revwave/cuda/runtime/device_buffer.hpp"
#include "revwave/core/host_buffer.hpp"
#include "revwave/store/compressed_store.hpp"
#include "revwave/store/compression.hpp"

namespace revwave {

class HostEncodedSlots {
 public:
  // `slots` encoded slots (CompressedStore::slot_bytes_of(codec) each) and the two raw staging pairs.
  HostEncodedSlots(std::int64_t slots, const FieldCodec& codec);
  // Waits for the device (the host functions already enqueued call into this) and joins the worker.
  ~HostEncodedSlots();
  HostEncodedSlots(const HostEncodedSlots&) = delete;
  HostEncodedSlots& operator=(const HostEncodedSlots&) = delete;

  // Host memory the tier takes: the encoded slots and the two pinned staging pairs (raw fields).
  static std::size_t staging_bytes(const FieldCodec& codec) { return 4 * codec.layout().field_bytes(); }

  // The raw staging fields the device copies into (spill) and out of (fetch): 0 is u, 1 is u_prev.
  void* spill_field(int i) { return spill_[i].data(); }
  const void* fetch_field(int i) const { return fetch_[i].data(); }

  // Enqueued on `stream`: when the stream gets there, the worker starts encoding the spill staging
  // into `slot` (decoding `slot` into the fetch staging). Returns the job's ticket.
  std::uint64_t encode_after(cudaStream_t stream, std::int64_t slot) { return enqueue(stream, slot, true); }
  std::uint64_t decode_after(cudaStream_t stream, std::int64_t slot) { return enqueue(stream, slot, false); }
  bool done(std::uint64_t ticket) const;
  // Blocks until the job is done; returns the seconds waited. A job that failed rethrows here.
  double wait(std::uint64_t ticket);

  // Fields encoded and decoded, their bytes and the worker's seconds.
  CompressionStats stats() const;

 private:
  struct Job {
    HostEncodedSlots* self;
    std::int64_t slot;
    bool encode;
  };
  static void CUDART_CB submit(void* job);
  std::uint64_t enqueue(cudaStream_t stream, std::int64_t slot, bool encode);
  void work();
  void run(const Job& job);

  FieldCodec codec_;
  std::vector<EncodedSlot> slots_;
  PinnedBuffer spill_[2], fetch_[2];
  std::uint64_t issued_ = 0;  // tickets handed out (host thread only)

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Job> queue_;
  std::uint64_t finished_ = 0;
  bool stopping_ = false;
  std::exception_ptr failure_;
  CompressionStats stats_;
  std::thread worker_;  // last: starts once everything above exists
};

}  // namespace revwave
