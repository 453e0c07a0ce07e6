// The fused codec's bookkeeping: what is pending, what the next step takes, and the cast kernels
// for the rest.
#include "revwave/cuda/store/fused_codec.hpp"

namespace revwave {

void FusedCodec::defer_encode(const DeviceState& state, unsigned char* out) {
  flush();
  // fp16's peaks now, while the fields are the state's (peak slots 2 and 3: the plain encode's is 0).
  codec_.measure_peak(state.u.data(), 2, stream_);
  codec_.measure_peak(state.u_prev.data(), 3, stream_);
  encode_ = Pending{state, nullptr, out};
}

void FusedCodec::defer_decode(const unsigned char* in, const DeviceState& state) {
  flush();
  decode_ = Pending{state, in, nullptr};
}

bool FusedCodec::take_encode(const DeviceState& state, SweepEncode& args) {
  if (!encode_) return false;
  if (!same(encode_->fields, state)) {
    flush();
    return false;
  }
  args.u = encode_->out;
  args.u_prev = encode_->out + codec_.stride();
  args.u_peak = codec_.peak(2);
  args.u_prev_peak = codec_.peak(3);
  args.bf16 = codec_.bf16();
  encode_.reset();  // the handles go: the sweep may write u_prev in place
  return true;
}

bool FusedCodec::take_decode(const DeviceState& state, Decode& d) {
  if (!decode_) return false;
  if (!same(decode_->fields, state)) {
    flush();
    return false;
  }
  d = Decode{decode_->code, decode_->code + codec_.stride(), codec_.bf16()};
  decode_.reset();
  return true;
}

void FusedCodec::flush() {
  if (encode_) {
    codec_.encode_measured(encode_->fields.u.data(), 2, encode_->out, stream_);
    codec_.encode_measured(encode_->fields.u_prev.data(), 3, encode_->out + codec_.stride(), stream_);
    encode_.reset();
  }
  if (decode_) {
    codec_.decode(decode_->code, decode_->fields.u.data(), stream_);
    codec_.decode(decode_->code + codec_.stride(), decode_->fields.u_prev.data(), stream_);
    decode_.reset();
  }
}

}  // namespace revwave
