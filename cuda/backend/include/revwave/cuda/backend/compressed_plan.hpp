// The CUDA revolve plan under --compress fp16|bf16 where the slots fit in device memory: how many
// of the budget's slots stay raw and how many are encoded. A raw device slot costs nothing to store
// or restore (a handle to the pool's fields) but takes 2 fields; an encoded one takes a quarter of
// that (float) but costs its codec's store and restore (codec_costs). More slots save forward
// steps, each encoded store and restore spends some: the plan is the least predicted time loop,
// forward steps plus the encoded slots' costs, in forward steps, over every split of the budget.
// Each split is a two-tier multilevel schedule (raw tier first, encoded second), whose placement
// puts the checkpoints stored and restored most often on the raw tier; all raw and all encoded
// are splits too, so compression is used where (and as far as) it pays.
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "revwave/core/config.hpp"
#include "revwave/cuda/store/device_codec.hpp"
#include "revwave/schedule/schedule.hpp"

namespace revwave {

struct CompressedSlotPlan {
  std::unique_ptr<Schedule> schedule;  // slot ids [0, raw_slots) raw, then the encoded ones
  index_t raw_slots = 0, encoded_slots = 0;
  double predicted_time = 0;  // forward steps + the encoded slots' costs, in forward steps
  index_t predicted_forward_steps = 0;
  std::string choice;  // one sentence for the run report
};

// `budget` bytes of device slots (at least one encoded slot's); `codec` names the encoding ("fp16").
CompressedSlotPlan plan_compressed_slots(index_t steps, std::size_t budget, std::size_t raw_slot_bytes,
                                         std::size_t encoded_slot_bytes, const CodecCosts& costs,
                                         const std::string& codec);

}  // namespace revwave
