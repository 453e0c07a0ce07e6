// Diverging-colour PNG output through libpng's simplified write API.
#include "revwave/io/png_image.hpp"

#include <png.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"

namespace revwave {

namespace {

using Rgb = std::array<unsigned char, 3>;

// Anchors at v = -1, -0.5, 0, 0.5, 1 (ColorBrewer RdBu, centre made pure white so
// zero reads as "nothing here").
constexpr std::array<std::array<double, 3>, 5> kAnchors{{
    {5, 48, 97}, {67, 147, 195}, {255, 255, 255}, {214, 96, 77}, {103, 0, 31}}};

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

}  // namespace revwave
