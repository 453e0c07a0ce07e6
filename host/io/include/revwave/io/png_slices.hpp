// The pictures a run leaves for people: three central slices of a 3-D array (a gradient, a model
// update) and a shot record, each through write_labelled_png (a title, axes in metres or seconds,
// a colour bar with its unit). `revwave gradient --png` and the inversion's run directory draw
// with these, so both look alike.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace revwave {

// What the slices show: `what` opens each title ("gradient dJ/dm", "model - start model,
// iteration 3"), `unit` labels the colour bar, `spacing` (metres) the axes (point i at i * spacing).
struct SliceLabels {
  std::string what;
  std::string unit;
  double spacing = 1;
};

// PREFIX_xz.png (x-z at the middle y, depth down the rows), PREFIX_yz.png (y-z at the middle x) and
// PREFIX_xy.png (x-y at the middle z) of `values` (shape (nx, ny, nz), z fastest), on one colour
// scale: clip as write_png_signed takes it (<= 0: each slice's 99th percentile of |value|). Each
// title names the slice and the coordinate it is cut at ("x-z slice at y = 400 m"). Each sample is
// drawn as a block of 400 / max(nx, ny, nz) pixels (at least 1). Returns the three paths; on a
// plane (ny = 1) only PREFIX_xz.png, "the x-z plane", whose other slices would be one pixel wide.
std::vector<std::string> write_central_slices(const std::string& prefix, const std::array<std::int64_t, 3>& shape,
                                              const std::vector<double>& values, double clip,
                                              const SliceLabels& labels);

// PATH: a shot record (nt, nrec), time (dt apart, from 0 s) down the rows, receivers across, blocks of
// 400 / max(nt, nrec) pixels, titled `title` + ", gain t": each sample times its time, which undoes
// a 3D wave's 1/r spreading so that later arrivals are not drowned by the direct wave.
void write_record_picture(const std::string& path, const std::vector<double>& traces, std::int64_t nt,
                          std::int64_t nrec, double dt, const std::string& title);

}  // namespace revwave
