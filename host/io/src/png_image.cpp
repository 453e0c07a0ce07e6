// Diverging-colour PNG output through libpng's simplified write API.
#include "revwave/io/png_image.hpp"

#include <png.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"

namespace revwave {

namespace {

using Rgb = std::array<unsigned char, 3>;

// Anchors at v = -1, -0.5, 0, 0.5, 1 (ColorBrewer RdBu, centre made pure white so
// zero reads as "nothing here").
constexpr std::array<std::array<double, 3>, 5> kAnchors{
    {{5, 48, 97}, {67, 147, 195}, {255, 255, 255}, {214, 96, 77}, {103, 0, 31}}};

Rgb colour(double x, double clip) {
  if (std::isnan(x)) return {128, 128, 128};
  if (clip <= 0) return {255, 255, 255};
  const double v = std::clamp(x / clip, -1.0, 1.0);
  const double pos = (v + 1.0) * 2.0;  // 0..4 across the anchors
  const int i = std::min(3, static_cast<int>(pos));
  const double t = pos - i;
  Rgb out{};
  for (int k = 0; k < 3; ++k) {
    out[k] = static_cast<unsigned char>(std::lround(kAnchors[i][k] + t * (kAnchors[i + 1][k] - kAnchors[i][k])));
  }
  return out;
}

// Encodes an RGB buffer (rows top to bottom) and writes it atomically.
void write_rgb_png(const std::string& path, const std::vector<unsigned char>& rgb, std::int64_t width,
                   std::int64_t height) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = PNG_FORMAT_RGB;
  png_alloc_size_t size = 0;
  // First call measures, second encodes; the simplified API needs no setjmp here.
  if (!png_image_write_to_memory(&image, nullptr, &size, 0, rgb.data(), 0, nullptr)) {
    const std::string msg = image.message;
    png_image_free(&image);
    throw IoError(path + ": PNG encoding failed: " + msg);
  }
  std::vector<unsigned char> encoded(size);
  if (!png_image_write_to_memory(&image, encoded.data(), &size, 0, rgb.data(), 0, nullptr)) {
    const std::string msg = image.message;
    png_image_free(&image);
    throw IoError(path + ": PNG encoding failed: " + msg);
  }
  png_image_free(&image);
  write_file_atomically(path, [&](std::ostream& out) {
    out.write(reinterpret_cast<const char*>(encoded.data()), static_cast<std::streamsize>(size));
  });
}

// ASCII 32..126 in a 5 x 7 pixel font (g, j, p, q and y drawn two rows lower): seven rows of five bits (the leftmost pixel the highest
// bit) per character, two hex digits a row. Drawn for this project (tools: none; edit by hand).
constexpr const char* kGlyphs =
    "00000000000000040404040400040a0a0a000000000a0a1f0a1f0a0a040f140e051e04181902040813030c12140815120d"
    "0404080000000002040808080402080402020204080004150e1504000004041f040400000000000c04080000001f000000"
    "00000000000c0c000102040810000e11131519110e040c040404040e0e11010204081f1e01010e01011e02060a121f0202"
    "1f101e0101110e0608101e11110e1f0102040808080e11110e11110e0e11110f01020c000c0c000c0c00000c0c000c0408"
    "0204081008040200001f001f0000080402010204080e1101020400040e11171517100e0e11111f1111111e11111e11111e"
    "0e11101010110e1c12111111121c1f10101e10101f1f10101e1010100e11101711110f1111111f1111110e04040404040e"
    "0702020202120c111214181412111010101010101f111b1515111111111119151311110e11111111110e1e11111e101010"
    "0e11111115120d1e11111e1412110f10100e01011e1f0404040404041111111111110e11111111110a041111111515150a"
    "11110a040a111111110a040404041f01020408101f0e08080808080e001008040201000e02020202020e040a1100000000"
    "0000000000001f0804000000000000000e010f110f1010161911111e00000e1010110e01010d1311110f00000e111f100e"
    "0609081c080808000f11110f010e1010161911111104000c0404040e0200060202120c101012141814120c04040404040e"
    "00001a151511110000161911111100000e1111110e00001e111e101000000d130f01010000161910101000000e100e011e"
    "08081c080809060000111111130d00001111110a040000111115150a0000110a040a11000011110f010e00001f0204081f"
    "02040408040402040404040404040804040204040800000815020000";
constexpr int kGlyphAdvance = 6;  // 5 pixels and a gap

// An RGB canvas for the frame around the plot: text, lines, filled boxes.
struct Canvas {
  std::int64_t width, height;
  std::vector<unsigned char> rgb;
  Canvas(std::int64_t w, std::int64_t h) : width(w), height(h), rgb(static_cast<std::size_t>(w * h * 3), 255) {}
  void set(std::int64_t x, std::int64_t y, const Rgb& c) {
    if (x < 0 || y < 0 || x >= width || y >= height) return;
    std::copy(c.begin(), c.end(), rgb.begin() + (y * width + x) * 3);
  }
  void text(std::int64_t x, std::int64_t y, const std::string& t, const Rgb& c = {0, 0, 0}) {
    for (char ch : t) {
      const int code = ch >= 32 && ch <= 126 ? ch - 32 : '?' - 32;
      // The letters with a descender are drawn two rows lower, their tails below the baseline,
      // so that a g does not read as a 9 nor a y sit above the line.
      const int drop = ch == 'g' || ch == 'j' || ch == 'p' || ch == 'q' || ch == 'y' ? 2 : 0;
      for (int r = 0; r < 7; ++r) {
        const int bits = std::stoi(std::string(kGlyphs + code * 14 + r * 2, 2), nullptr, 16);
        for (int b = 0; b < 5; ++b)
          if (bits & (16 >> b)) set(x + b, y + r + drop, c);
      }
      x += kGlyphAdvance;
    }
  }
  static std::int64_t text_width(const std::string& t) {
    return static_cast<std::int64_t>(t.size()) * kGlyphAdvance - 1;
  }
  void hline(std::int64_t x0, std::int64_t x1, std::int64_t y) {
    for (std::int64_t x = x0; x <= x1; ++x) set(x, y, {0, 0, 0});
  }
  void vline(std::int64_t x, std::int64_t y0, std::int64_t y1) {
    for (std::int64_t y = y0; y <= y1; ++y) set(x, y, {0, 0, 0});
  }
};

// Round tick values (1, 2 or 5 times a power of ten apart) from lo to hi, about five of them.
std::vector<double> ticks(double lo, double hi) {
  if (!(hi > lo)) return {lo};
  const double raw = (hi - lo) / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  const double step = raw / p < 1.5 ? p : raw / p < 3.5 ? 2 * p : raw / p < 7.5 ? 5 * p : 10 * p;
  std::vector<double> out;
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
    out.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  return out;
}

std::string tick_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

// Layout of the frame: a title band, the y axis's name above its tick labels, tick labels left of
// and below the plot, the x axis's name under them, and the colour bar right of the plot.
constexpr std::int64_t kTop = 30, kLeft = 56, kBottom = 32, kBarGap = 14, kBarWidth = 14,
                       kRight = kBarGap + kBarWidth + 66;

}  // namespace

double default_png_clip(const double* data, std::int64_t count) {
  std::vector<double> mags;
  mags.reserve(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    if (std::isfinite(data[i])) mags.push_back(std::fabs(data[i]));
  }
  if (mags.empty()) return 0.0;
  const auto k = static_cast<std::size_t>(std::floor(0.99 * static_cast<double>(mags.size() - 1)));
  std::nth_element(mags.begin(), mags.begin() + static_cast<std::ptrdiff_t>(k), mags.end());
  return mags[k];
}

void write_png_signed(const std::string& path, const double* data, std::int64_t rows, std::int64_t cols, double clip,
                      int upscale) {
  if (data == nullptr || rows < 1 || cols < 1 || upscale < 1) {
    throw std::invalid_argument("write_png_signed(" + path + "): need data, rows >= 1, cols >= 1, upscale >= 1");
  }
  // PNG's limit is 2^31 - 1 per side; also keep the RGB buffer's size representable.
  constexpr std::int64_t kMaxSide = std::numeric_limits<std::int32_t>::max();
  if (rows > kMaxSide / upscale || cols > kMaxSide / upscale ||
      rows * upscale > std::numeric_limits<std::int64_t>::max() / 3 / (cols * upscale)) {
    throw InputError(path + ": picture of " + std::to_string(rows) + " x " + std::to_string(cols) + " at upscale " +
                     std::to_string(upscale) + " is too large for PNG");
  }
  if (!(clip > 0) || !std::isfinite(clip)) clip = default_png_clip(data, rows * cols);

  const std::int64_t height = rows * upscale;
  const std::int64_t width = cols * upscale;
  std::vector<unsigned char> rgb(static_cast<std::size_t>(height * width * 3));
  for (std::int64_t r = 0; r < rows; ++r) {
    unsigned char* line = rgb.data() + r * upscale * width * 3;
    for (std::int64_t c = 0; c < cols; ++c) {
      const Rgb px = colour(data[r * cols + c], clip);
      for (int s = 0; s < upscale; ++s) std::copy(px.begin(), px.end(), line + ((c * upscale + s) * 3));
    }
    for (int s = 1; s < upscale; ++s) std::copy(line, line + width * 3, line + s * width * 3);
  }

  write_rgb_png(path, rgb, width, height);
}

}  // namespace revwave

namespace revwave {

PictureLayout labelled_png_layout(std::int64_t rows, std::int64_t cols, int upscale, const PictureLabels& labels) {
  PictureLayout l;
  l.left = kLeft;
  l.top = kTop;
  l.plot_width = cols * upscale;
  l.plot_height = rows * upscale;
  l.width = std::max(kLeft + l.plot_width + kRight, Canvas::text_width(labels.title) + 8);
  l.height = kTop + l.plot_height + kBottom;
  return l;
}

void write_labelled_png(const std::string& path, const double* data, std::int64_t rows, std::int64_t cols, double clip,
                        int upscale, const PictureLabels& labels) {
  if (data == nullptr || rows < 1 || cols < 1 || upscale < 1) {
    throw std::invalid_argument("write_labelled_png(" + path + "): need data, rows >= 1, cols >= 1, upscale >= 1");
  }
  constexpr std::int64_t kMaxSide = 1 << 20;  // a picture for people: a million pixels a side is plenty
  if (rows > kMaxSide / upscale || cols > kMaxSide / upscale) {
    throw InputError(path + ": picture of " + std::to_string(rows) + " x " + std::to_string(cols) + " at upscale " +
                     std::to_string(upscale) + " is too large to draw");
  }
  if (!(clip > 0) || !std::isfinite(clip)) clip = default_png_clip(data, rows * cols);
  const PictureLayout l = labelled_png_layout(rows, cols, upscale, labels);
  Canvas c(l.width, l.height);
  // The samples: row r, column c as an upscale x upscale block at (left + c * up, top + r * up).
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t k = 0; k < cols; ++k) {
      const Rgb px = colour(data[r * cols + k], clip);
      for (int a = 0; a < upscale; ++a)
        for (int b = 0; b < upscale; ++b) c.set(l.left + k * upscale + b, l.top + r * upscale + a, px);
    }
  const std::int64_t right = l.left + l.plot_width, bottom = l.top + l.plot_height;
  c.hline(l.left - 1, right, l.top - 1);
  c.hline(l.left - 1, right, bottom);
  c.vline(l.left - 1, l.top - 1, bottom);
  c.vline(right, l.top - 1, bottom);
  c.text(4, 4, labels.title);
  // A value v on an axis lies at the pixel of the sample centre it falls on: (v - v0) / dv samples.
  const auto pixel = [upscale](double v, double v0, double dv) {
    return static_cast<std::int64_t>(std::floor(((v - v0) / dv + 0.5) * upscale));
  };
  if (labels.dx != 0) {
    const double lo = std::min(labels.x0, labels.x0 + labels.dx * double(cols - 1)),
                 hi = std::max(labels.x0, labels.x0 + labels.dx * double(cols - 1));
    for (double v : ticks(lo, hi)) {
      const std::int64_t x = l.left + std::min(l.plot_width - 1, pixel(v, labels.x0, labels.dx));
      c.vline(x, bottom + 1, bottom + 3);
      const std::string t = tick_text(v);
      c.text(x - Canvas::text_width(t) / 2, bottom + 6, t);
    }
  }
  c.text(l.left + (l.plot_width - Canvas::text_width(labels.x_axis)) / 2, bottom + 17 + 2, labels.x_axis);
  if (labels.dy != 0) {
    const double lo = std::min(labels.y0, labels.y0 + labels.dy * double(rows - 1)),
                 hi = std::max(labels.y0, labels.y0 + labels.dy * double(rows - 1));
    for (double v : ticks(lo, hi)) {
      const std::int64_t y = l.top + std::min(l.plot_height - 1, pixel(v, labels.y0, labels.dy));
      c.hline(l.left - 4, l.left - 2, y);
      const std::string t = tick_text(v);
      c.text(l.left - 6 - Canvas::text_width(t), y - 3, t);
    }
  }
  c.text(4, PictureLayout::title_band + 4, labels.y_axis);
  // The colour bar: +clip at the top, -clip at the bottom, ticks at +clip, 0 and -clip.
  const std::int64_t bar = right + kBarGap;
  for (std::int64_t y = l.top; y < bottom; ++y) {
    const double v = clip * (1.0 - 2.0 * (double(y - l.top) + 0.5) / double(l.plot_height));
    for (std::int64_t x = bar; x < bar + kBarWidth; ++x) c.set(x, y, colour(v, clip));
  }
  c.hline(bar - 1, bar + kBarWidth, l.top - 1);
  c.hline(bar - 1, bar + kBarWidth, bottom);
  c.vline(bar - 1, l.top - 1, bottom);
  c.vline(bar + kBarWidth, l.top - 1, bottom);
  const double marks[] = {clip, 0.0, -clip};
  const std::int64_t at[] = {l.top, l.top + l.plot_height / 2, bottom - 1};
  for (int i = 0; i < 3; ++i) {
    c.hline(bar + kBarWidth + 1, bar + kBarWidth + 3, at[i]);
    c.text(bar + kBarWidth + 5, std::clamp<std::int64_t>(at[i] - 3, l.top - 1, bottom - 7),
           clip > 0 ? tick_text(marks[i]) : "0");
  }
  c.text(std::max<std::int64_t>(bar, l.width - 2 - Canvas::text_width(labels.unit)), PictureLayout::title_band + 4,
         labels.unit);
  write_rgb_png(path, c.rgb, c.width, c.height);
}

}  // namespace revwave
