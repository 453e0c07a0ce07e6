// The pictures a run leaves for people: three central slices of a 3-D array (a gradient, a model
// update) and a shot record, each through write_png_signed. `revwave gradient --png` and the
// inversion's run directory draw with these, so both look alike.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace revwave {

// PREFIX_xz.png (x-z at the middle y, depth down the rows), PREFIX_yz.png (y-z at the middle x) and
// PREFIX_xy.png (x-y at the middle z) of `values` (shape (nx, ny, nz), z fastest), on one colour
// scale: clip as write_png_signed takes it (<= 0: each slice's 99th percentile of |value|). Each
// sample is drawn as a block of 400 / max(nx, ny, nz) pixels (at least 1). Returns the three paths.
std::vector<std::string> write_central_slices(const std::string& prefix, const std::array<std::int64_t, 3>& shape,
                                              const std::vector<double>& values, double clip = 0);

// PATH: a shot record (nt, nrec), time down the rows, blocks of 400 / max(nt, nrec) pixels.
void write_record_picture(const std::string& path, const std::vector<double>& traces, std::int64_t nt, std::int64_t nrec);

}  // namespace revwave
