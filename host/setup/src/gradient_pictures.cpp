#include "revwave/setup/gradient_pictures.hpp"

#include "revwave/io/png_slices.hpp"

namespace revwave {

std::vector<std::string> gradient_picture_paths(const std::string& prefix) {
  std::vector<std::string> paths;
  for (const char* suffix : {"_gradient_xz.png", "_gradient_yz.png", "_gradient_xy.png", "_shot.png"})
    paths.push_back(prefix + suffix);
  return paths;
}

std::vector<std::string> write_gradient_pictures(const std::string& prefix, const Grid& grid,
                                                 const std::vector<double>& gradient, const std::vector<double>& traces,
                                                 index_t nt, index_t nrec, double dt, const std::string& record_title) {
  std::vector<std::string> files = write_central_slices(prefix + "_gradient", grid.shape, gradient, 0,
                                                        SliceLabels{"gradient dJ/dm", "J per s^2/m^2", grid.spacing});
  files.push_back(prefix + "_shot.png");
  write_record_picture(files.back(), traces, nt, nrec, dt, record_title);
  return files;
}

}  // namespace revwave
