#include "did_you_mean.hpp"

#include <algorithm>

namespace revwave::app {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// Every long name of `app`'s options, with their dashes, and those of the root it inherits (--config).
std::vector<std::string> long_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* a = &app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* opt : a->get_options())
      for (const std::string& n : opt->get_lnames()) names.push_back("--" + n);
    if (a->get_config_ptr() != nullptr)
      for (const std::string& n : a->get_config_ptr()->get_lnames()) names.push_back("--" + n);
  }
  return names;
}

}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[n][m];
}

std::string closest_name(const std::string& typed, const std::vector<std::string>& names) {
  const std::size_t allowed = std::max<std::size_t>(1, typed.size() / 5);
  std::string best;
  std::size_t best_distance = allowed + 1;
  for (const std::string& n : names) {
    const std::size_t d = edit_distance(typed, n);
    if (d < best_distance) best = n, best_distance = d;
  }
  return best;
}

std::string unknown_name_text(const CLI::App& app, const std::vector<std::string>& args) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
  const CLI::App* running = &app;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;
    if (a == "--config") {  // its value is a path, not a name
      ++i;
      continue;
    }
    if (a.rfind("--", 0) == 0) {
      const std::string name = a.substr(0, a.find('='));
      const std::vector<std::string> known = long_names(*running);
      if (std::find(known.begin(), known.end(), name) != known.end()) continue;
      const std::string meant = closest_name(name, known);
      const std::string help = running == &app ? "revwave --help" : "revwave " + running->get_name() + " --help";
      return "unknown option " + name + (meant.empty() ? "" : ": did you mean " + meant + "?") + " (see '" + help +
             "')";
    }
    if (running != &app || a.empty() || a[0] == '-') continue;
    // The first word is the subcommand.
    if (std::find(commands.begin(), commands.end(), a) != commands.end()) {
      running = app.get_subcommand(a);
      continue;
    }
    const std::string meant = closest_name(a, commands);
    return "unknown subcommand '" + a + "'" + (meant.empty() ? "" : ": did you mean '" + meant + "'?") +
           " (the subcommands: " + joined(commands) + ")";
  }
  return {};
}

std::string config_key_suggestion(const CLI::App& app, const std::string& key) {
  const std::size_t dot = key.rfind('.');
  if (dot == std::string::npos) return {};
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : app.get_subcommands({}))
    if (s->get_name() == key.substr(0, dot)) sub = s;
  if (sub == nullptr) return {};
  std::vector<std::string> names;
  for (const CLI::Option* opt : sub->get_options())
    if (opt->get_configurable())
      for (const std::string& n : opt->get_lnames()) names.push_back(n);
  const std::string meant = closest_name(key.substr(dot + 1), names);
  return meant.empty() ? std::string() : " (did you mean '" + sub->get_name() + "." + meant + "'?)";
}

}  // namespace revwave::app
