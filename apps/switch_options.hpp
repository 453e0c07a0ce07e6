// Boolean options (--free-surface, --json, ...): given alone they are true; a value, from the command
// line (--free-surface=false) or a config file (free-surface = true), must be a boolean's spelling.
// CLI11 alone reads any number as one (0.5 as false, 1.5 as true): here that is one line naming the
// value and the rule.
#pragma once
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <memory>
#include <string>
#include <vector>

#include "revwave/core/errors.hpp"

namespace revwave::app {

inline void check_switch_text(const std::string& name, const std::string& text) {
  std::string t = text;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* ok : {"true", "false", "1", "0", "yes", "no", "on", "off"})
    if (t == ok) return;
  throw InputError(name + " '" + text + "' is invalid: it must be true or false (1 or 0, yes or no, on or off)");
}

// "--free-surface=" with nothing after the sign: CLI11 reads it as the bare switch (true) before any
// check sees it, so the command line is looked at first (`args`, the program's arguments): one
// line naming the switch, as for any other value that is no boolean's spelling.
inline void refuse_empty_switch_values(const CLI::App& app, const std::vector<std::string>& args) {
  for (const std::string& a : args) {
    if (a.size() < 4 || a.compare(0, 2, "--") != 0 || a.back() != '=') continue;
    const std::string name = a.substr(0, a.size() - 1);
    for (const CLI::App* sub : app.get_subcommands({})) {
      const CLI::Option* opt = sub->get_option_no_throw(name);
      if (opt != nullptr && opt->get_expected_min() == 0) check_switch_text(name, "");
    }
  }
}

// Given twice with two values (--free-surface --free-surface=false), the last would win in silence:
// that is refused too (the same value twice is one switch).
inline CLI::Option* add_switch(CLI::App* cmd, const std::string& name, bool& target, const std::string& help) {
  auto seen = std::make_shared<std::string>();  // the first value's spelling, as true or false
  return cmd->add_flag(name, target, help)->each([name, seen](const std::string& text) {
    check_switch_text(name, text);
    std::string t = text;
    std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string value = (t == "true" || t == "1" || t == "yes" || t == "on") ? "true" : "false";
    if (!seen->empty() && *seen != value)
      throw InputError(name + " is given twice, as " + *seen + " and as " + value + ": give it once");
    *seen = value;
  });
}

}  // namespace revwave::app
