// `revwave gradient --png PREFIX`: three central slices of the gradient and the (first) shot record.
#pragma once
#include <string>
#include <vector>

#include "revwave/numerics/grid.hpp"

namespace revwave {

// PREFIX_gradient_xz.png, PREFIX_gradient_yz.png, PREFIX_gradient_xy.png, PREFIX_shot.png.
std::vector<std::string> gradient_picture_paths(const std::string& prefix);
// Writes them (the slices on each one's own colour scale, titled, axes in metres; the shot record
// `traces` (nt x nrec, dt apart) titled `record_title`); returns their paths.
std::vector<std::string> write_gradient_pictures(const std::string& prefix, const Grid& grid,
                                                 const std::vector<double>& gradient, const std::vector<double>& traces,
                                                 index_t nt, index_t nrec, double dt, const std::string& record_title);

}  // namespace revwave
