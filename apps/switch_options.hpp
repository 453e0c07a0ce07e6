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

// A boolean's spelling (true, false, 1, 0, yes, no, on, off, in any case) read as its value;
// anything else is one line naming the switch, the text and the rule.
inline bool switch_value(const std::string& name, const std::string& text) {
  std::string t = text;
  std::transform(t.begin(), t.end(), t.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const char* yes : {"true", "1", "yes", "on"})
    if (t == yes) return true;
  for (const char* no : {"false", "0", "no", "off"})
    if (t == no) return false;
  throw InputError(name + " '" + text + "' is invalid: it must be true or false (1 or 0, yes or no, on or off)");
}

// "--free-surface=" with nothing after the sign: CLI11 reads it as the bare switch (true) before any
// check sees it, so the command line is looked at first (`args`, the program's arguments, the
// subcommand's name among them): one line naming the switch, as for any other value that is no
// boolean's spelling.
inline void refuse_empty_switch_values(const CLI::App& app, const std::vector<std::string>& args) {
  const std::vector<const CLI::App*> all = app.get_subcommands({});
  std::vector<const CLI::App*> in_use = all;  // until a subcommand is named (a config file may name it)
  for (const std::string& a : args) {
    if (a == "--") return;
    for (const CLI::App* named : all)
      if (named->check_name(a)) in_use = {named};
    if (a.size() < 4 || a.compare(0, 2, "--") != 0 || a.back() != '=') continue;
    const std::string name = a.substr(0, a.size() - 1);
    for (const CLI::App* sub : in_use) {
      const CLI::Option* opt = sub->get_option_no_throw(name);
      if (opt != nullptr && opt->get_expected_min() == 0) (void)switch_value(name, "");
    }
  }
}

// Given twice with two values (--free-surface --free-surface=false), the last would win in silence:
// that is refused too (the same value twice is one switch).
inline CLI::Option* add_switch(CLI::App* cmd, const std::string& name, bool& target, const std::string& help) {
  auto seen = std::make_shared<std::string>();  // the first value's spelling, as true or false
  return cmd->add_flag(name, target, help)->each([name, seen](const std::string& text) {
    const std::string value = switch_value(name, text) ? "true" : "false";
    if (!seen->empty() && *seen != value)
      throw InputError(name + " is given twice, as " + *seen + " and as " + value + ": give it once");
    *seen = value;
  });
}

}  // namespace revwave::app
