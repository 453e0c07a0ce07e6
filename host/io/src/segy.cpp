// SEG-Y's time axis in whole microseconds, and which paths are SEG-Y.
#include "revwave/io/segy.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "revwave/core/errors.hpp"
#include "segy_scalars.hpp"

namespace revwave {

namespace fs = std::filesystem;

bool is_segy_path(const std::string& path) {
  std::string ext = fs::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext == ".sgy" || ext == ".segy";
}

std::int64_t segy_interval_us(double dt) {
  const double us = dt * 1e6;
  const double whole = std::round(us);
  if (!(std::isfinite(dt) && dt > 0) || std::abs(us - whole) > 1e-9 * std::max(1.0, whole) || whole < 1 ||
      whole > 32767) {
    std::ostringstream os;
    os.precision(17);
    os << "dt " << dt
       << " s cannot be written to SEG-Y: its sample interval is a whole number of microseconds, 1..32767 us";
    throw InputError(os.str());
  }
  return static_cast<std::int64_t>(whole);
}

double segy_dt_floor(double dt) {
  const double us = std::floor(dt * 1e6 + 1e-9);
  if (!(us >= 1))
    throw InputError("dt " + segy_detail::format_double(dt) + " s is below SEG-Y's smallest sample interval of 1 us");
  return segy_dt(static_cast<std::int64_t>(std::min(us, 32767.0)));
}

}  // namespace revwave
