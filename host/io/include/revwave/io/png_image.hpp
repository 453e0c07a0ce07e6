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
void write_png_signed(const std::string& path, const double* data, std::int64_t rows, std::int64_t cols, double clip,
                      int upscale = 1);

// What a labelled picture says: a title, the axes in their units (the centre of column c lies at
// x0 + c * dx, of row r at y0 + r * dy: metres for a slice, seconds down a shot record) and the
// colour bar's unit.
struct PictureLabels {
  std::string title;
  std::string x_axis = "x (m)";
  double x0 = 0, dx = 1;
  std::string y_axis = "z (m)";
  double y0 = 0, dy = 1;
  std::string unit;
};

// Where a labelled picture puts its samples: the plot's top-left pixel (left, top), its size
// (cols x upscale by rows x upscale) and the whole image's (wider when the title needs it). The
// title is drawn in rows 0 .. title_band - 1; a black frame surrounds the plot one pixel outside it.
struct PictureLayout {
  std::int64_t left = 0, top = 0, plot_width = 0, plot_height = 0, width = 0, height = 0;
  static constexpr std::int64_t title_band = 14;  // rows 0..13 hold the title
};
PictureLayout labelled_png_layout(std::int64_t rows, std::int64_t cols, int upscale, const PictureLabels& labels);

// As write_png_signed, framed: the title on top, tick marks and labels on both axes (at round
// numbers of their unit), the axes' names, and a colour bar on the right from -clip to +clip with
// its unit. Text is drawn with a built-in 5 x 7 pixel font (ASCII; anything else as '?').
void write_labelled_png(const std::string& path, const double* data, std::int64_t rows, std::int64_t cols, double clip,
                        int upscale, const PictureLabels& labels);

// The clip write_png_signed uses when given clip <= 0: the 99th percentile of |data|
// over the finite samples (0 when there are none).
double default_png_clip(const double* data, std::int64_t count);

}  // namespace revwave
