// PNG pictures of 2-D slices (gradients, wavefields, shot records) for people to look at.
#pragma once
#include <cstdint>
#include <string>

namespace revwave {

// Writes data[r * cols + c] as an 8-bit RGB PNG, row 0 at the top, atomically.
// Colour map: diverging blue-white-red (ColorBrewer RdBu with a pure white centre),
// symmetric about zero: -clip is dark blue, 0 white, +clip dark red; values beyond
// clip saturate. clip <= 0 (or not finite) means "use the 99th percentile of |data|";
// if that is 0 the picture is all white. NaN is drawn mid grey. Each sample becomes an
// upscale x upscale block (nearest neighbour) so small slices are visible.
// rows, cols, upscale >= 1 and data != nullptr, else std::invalid_argument; a picture
// larger than PNG allows is an InputError; a write failure an IoError.
void write_png_signed(const std::string& path, const double* data, std::int64_t rows, std::int64_t cols,
                      double clip, int upscale = 1);

// The clip write_png_signed uses when given clip <= 0: the 99th percentile of |data|
// over the finite samples (0 when there are none).
double default_png_clip(const double* data, std::int64_t count);

}  // namespace revwave
