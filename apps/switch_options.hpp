// Boolean options (--free-surface, --json, ...): given alone they are true; a value, from the command
// line (--free-surface=false) or a config file (free-surface = true), must be a boolean's spelling.
// CLI11 alone reads any number as one (0.5 as false, 1.5 as true): here that is one line naming the
// value and the rule.
#pragma once
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>
#include <string>

#include "revwave/core/errors.hpp"

namespace revwave::app {

inline void check_switch_text(const std::string& name, const std::string& text) {
  std::string t = text;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* ok : {"true", "false", "1", "0", "yes", "no", "on", "off"})
    if (t == ok) return;
  throw InputError(name + " '" + text + "' is invalid: it must be true or false (1 or 0, yes or no, on or off)");
}

inline CLI::Option* add_switch(CLI::App* cmd, const std::string& name, bool& target, const std::string& help) {
  return cmd->add_flag(name, target, help)->each([name](const std::string& text) { check_switch_text(name, text); });
}

}  // namespace revwave::app
