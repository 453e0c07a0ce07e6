#include "revwave/io/png_slices.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "revwave/io/png_image.hpp"

namespace revwave {
namespace {

std::string metres(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g m", v);
  return text;
}

}  // namespace

std::vector<std::string> write_central_slices(const std::string& prefix, const std::array<std::int64_t, 3>& shape,
                                              const std::vector<double>& values, double clip,
                                              const SliceLabels& labels) {
  const std::int64_t nx = shape[0], ny = shape[1], nz = shape[2];
  if (values.size() != static_cast<std::size_t>(nx * ny * nz)) {
    throw std::invalid_argument("write_central_slices: " + std::to_string(values.size()) + " values for the shape");
  }
  auto at = [&](std::int64_t i, std::int64_t j, std::int64_t k) {
    return values[static_cast<std::size_t>((i * ny + j) * nz + k)];
  };
  const int up = static_cast<int>(std::max<std::int64_t>(1, 400 / std::max({nx, ny, nz})));
  const double h = labels.spacing;
  // Rows down the picture, columns across: (name, x axis, y axis, where the plane is cut).
  const auto frame = [&](const char* plane, const char* across, const char* down, const std::string& cut) {
    PictureLabels l;
    l.title = labels.what + ", " + plane + " slice at " + cut;
    l.x_axis = std::string(across) + " (m)";
    l.y_axis = std::string(down) + " (m)";
    l.dx = l.dy = h;
    l.unit = labels.unit;
    return l;
  };
  std::vector<std::string> files;
  std::vector<double> s;
  // The middle index of each axis (integer division: a grid line), and the metres it lies at.
  const std::int64_t mid_x = nx / 2, mid_y = ny / 2, mid_z = nz / 2;
  for (std::int64_t k = 0; k < nz; ++k)
    for (std::int64_t i = 0; i < nx; ++i) s.push_back(at(i, mid_y, k));
  files.push_back(prefix + "_xz.png");
  PictureLabels xz = frame("x-z", "x", "z", "y = " + metres(double(mid_y) * h));
  if (ny == 1) xz.title = labels.what + ", the x-z plane";  // a plane is its own slice
  write_labelled_png(files.back(), s.data(), nz, nx, clip, up, xz);
  if (ny == 1) return files;  // its y-z and x-y slices would be one pixel wide
  s.clear();
  for (std::int64_t k = 0; k < nz; ++k)
    for (std::int64_t j = 0; j < ny; ++j) s.push_back(at(mid_x, j, k));
  files.push_back(prefix + "_yz.png");
  write_labelled_png(files.back(), s.data(), nz, ny, clip, up,
                     frame("y-z", "y", "z", "x = " + metres(double(mid_x) * h)));
  s.clear();
  for (std::int64_t i = 0; i < nx; ++i)
    for (std::int64_t j = 0; j < ny; ++j) s.push_back(at(i, j, mid_z));
  files.push_back(prefix + "_xy.png");
  write_labelled_png(files.back(), s.data(), nx, ny, clip, up,
                     frame("x-y", "y", "x", "z = " + metres(double(mid_z) * h)));
  return files;
}

void write_record_picture(const std::string& path, const std::vector<double>& traces, std::int64_t nt,
                          std::int64_t nrec, double dt, const std::string& title) {
  if (traces.size() != static_cast<std::size_t>(nt * nrec))
    throw std::invalid_argument("write_record_picture: " + std::to_string(traces.size()) + " values for nt x nrec");
  // Gained by t: a wave's amplitude falls as 1/r = 1/(c t) in 3D, so later arrivals keep their
  // strength beside the direct wave, which otherwise takes the whole colour scale.
  std::vector<double> gained(traces.size());
  for (std::int64_t n = 0; n < nt; ++n)
    for (std::int64_t r = 0; r < nrec; ++r) {
      const auto i = static_cast<std::size_t>(n * nrec + r);
      gained[i] = traces[i] * (static_cast<double>(n) * dt);
    }
  PictureLabels l;
  l.title = title + ", gain t";
  l.x_axis = "receiver";
  l.y_axis = "t (s)";
  l.dy = dt;
  l.unit = "u t (a.u.)";
  write_labelled_png(path, gained.data(), nt, nrec, 0,
                     static_cast<int>(std::max<std::int64_t>(1, 400 / std::max(nt, nrec))), l);
}

}  // namespace revwave
