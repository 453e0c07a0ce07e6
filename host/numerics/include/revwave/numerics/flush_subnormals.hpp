// The CPU sweeps' floating-point mode: subnormals flushed to zero while a sweep runs.
#pragma once
#include <pmmintrin.h>
#include <xmmintrin.h>

namespace revwave {

// Subnormal numbers appear on a thin shell ahead of every wavefront, where the stencil's
// numerical precursor decays through 1e-38 (float); on x86 each operation on one costs
// about a hundred cycles, which made the whole sweep four times slower. They carry no
// signal, so the sweeps flush them to zero (FTZ/DAZ, per thread, deterministic). This
// is not fast-math: every other operation keeps IEEE semantics and its order. The mode is
// the sweep's alone: each thread gets its own back when the sweep ends, so nothing after it
// (a JSON number, a misfit sum, another library) runs with subnormals flushed.
class FlushSubnormals {
 public:
  FlushSubnormals() : saved_(_mm_getcsr()) {
    _MM_SET_FLUSH_ZERO_MODE(_MM_FLUSH_ZERO_ON);
    _MM_SET_DENORMALS_ZERO_MODE(_MM_DENORMALS_ZERO_ON);
  }
  ~FlushSubnormals() { _mm_setcsr(saved_); }
  FlushSubnormals(const FlushSubnormals&) = delete;
  FlushSubnormals& operator=(const FlushSubnormals&) = delete;

 private:
  unsigned saved_;
};

}  // namespace revwave
