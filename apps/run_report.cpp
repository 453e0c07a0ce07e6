#include "run_report.hpp"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "toml_config.hpp"

namespace revwave::app {

ProgressBar::ProgressBar(std::string label, bool enabled)
    : label_(std::move(label)),
      enabled_(enabled && isatty(STDERR_FILENO) == 1),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

ProgressBar::~ProgressBar() { finish(); }

void ProgressBar::operator()(index_t done, index_t total) {
  if (!enabled_ || total <= 0) return;
  const auto now = std::chrono::steady_clock::now();
  // Quiet for the first half second (short runs stay clean), then ten updates a second.
  if (now - start_ < std::chrono::milliseconds(500)) return;
  if (done < total && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  const double frac = static_cast<double>(done) / static_cast<double>(total);
  const int width = 40, filled = static_cast<int>(frac * width);
  const double secs = std::chrono::duration<double>(now - start_).count();
  const double eta = frac > 0 ? secs * (1 - frac) / frac : 0;
  std::fprintf(stderr, "\r%-9s [%s%s] %5.1f%%  %6.1fs elapsed, ~%.0fs left ", label_.c_str(),
               std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(width - filled), '.').c_str(), 100 * frac, secs, eta);
  drawn_ = true;
}

void ProgressBar::finish() {
  if (drawn_) std::fprintf(stderr, "\r%*s\r", 100, "");
  drawn_ = false;
}

std::string npy_output(const std::string& out) {
  if (std::filesystem::path(out).extension().empty() && !out.empty() && out.back() != '/') return out + ".npy";
  return out;
}

void require_npy_ending(const std::string& option, const std::string& out) {
  std::string ext = std::filesystem::path(out).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext != ".npy") {
    throw revwave::InputError(option + " " + out +
                              ": the output is a NumPy array, FILE.npy (a name without an ending gets .npy)");
  }
}

std::string backend_words(const BackendChoice& b, bool verbose) {
  std::string detail = b.note;
  if (verbose && !b.reason.empty()) detail += (detail.empty() ? "" : ": ") + b.reason;
  return std::string(to_string(b.kind)) + (detail.empty() ? "" : " (" + detail + ")");
}

std::string misfit_note(MisfitKind kind) {
  return kind == MisfitKind::l2 ? "" : std::string(" (misfit ") + to_string(kind) + ")";
}

void write_effective_config(const CLI::App& cmd, const std::string& path,
                            const std::map<std::string, std::string>& values, const std::set<std::string>& leave_out,
                            const std::string& replay) {
  const std::string table = effective_config_toml(cmd, values, leave_out);
  write_file_atomically(path, [&](std::ostream& os) {
    os << "# revwave " << cmd.get_name() << ": effective configuration; repeat with\n"
       << "#   revwave " << cmd.get_name() << " --config " << path << " " << replay << "\n"
       << table;
  });
}

std::set<std::string> unused_defaults(const CLI::App& cmd) {
  std::set<std::string> out;
  const CLI::Option* observed = cmd.get_option_no_throw("--observed");
  const CLI::Option* wavelet = cmd.get_option_no_throw("--wavelet");
  const CLI::Option* f0 = cmd.get_option_no_throw("--f0");
  // A given --f0 stays (beside --wavelet a warning said it was not used; an inversion's fingerprint
  // holds it, so its --resume needs it).
  const bool signature = (observed != nullptr && observed->count() > 0) || (wavelet != nullptr && wavelet->count() > 0);
  if (signature && f0 != nullptr && f0->count() == 0) out.insert("f0");
  return out;
}

void print_json(const nlohmann::json& j) { std::cout << j.dump(2) << std::endl; }

namespace {
std::vector<std::string>& deferred_warnings() {
  static std::vector<std::string> pending;
  return pending;
}
}  // namespace

void defer_warning(std::string warning) { deferred_warnings().push_back(std::move(warning)); }

void print_warnings(const std::vector<std::string>& warnings) {
  for (const std::string& w : deferred_warnings()) std::cerr << "revwave: warning: " << w << "\n";
  deferred_warnings().clear();
  for (const std::string& w : warnings) std::cerr << "revwave: warning: " << w << "\n";
}

}  // namespace revwave::app
