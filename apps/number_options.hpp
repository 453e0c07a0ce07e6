// Numeric options, parsed strictly and range-checked where they enter: the text (from the command
// line or a config file) must be one number that keeps the rule, else one line names the option,
// the value and the rule. An optional target stays unset unless the option is given, so that a
// value the user gave is never mistaken for "not given" and replaced by a default.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "revwave/core/checks.hpp"

namespace revwave::app {

inline CLI::Option* add_number(CLI::App* cmd, const std::string& name, double& target, const Range& rule,
                               const std::string& unit, const std::string& help) {
  auto* opt = cmd->add_option_function<std::string>(
      name, [&target, name, rule, unit](const std::string& text) { target = parse_number(name, text, rule, unit); },
      help);
  return opt->type_name("NUMBER")->default_str(number_text(target));
}

inline CLI::Option* add_number(CLI::App* cmd, const std::string& name, std::optional<double>& target, const Range& rule,
                               const std::string& unit, const std::string& help) {
  auto* opt = cmd->add_option_function<std::string>(
      name, [&target, name, rule, unit](const std::string& text) { target = parse_number(name, text, rule, unit); },
      help);
  return opt->type_name("NUMBER");
}

// Integers of any width: the rule must lie within the target type's range.
template <class Int>
CLI::Option* add_integer(CLI::App* cmd, const std::string& name, Int& target, const IntRange& rule,
                         const std::string& help) {
  auto* opt = cmd->add_option_function<std::string>(
      name,
      [&target, name, rule](const std::string& text) { target = static_cast<Int>(parse_integer(name, text, rule)); },
      help);
  return opt->type_name("INT")->default_str(std::to_string(target));
}

template <class Int>
CLI::Option* add_integer(CLI::App* cmd, const std::string& name, std::optional<Int>& target, const IntRange& rule,
                         const std::string& help) {
  auto* opt = cmd->add_option_function<std::string>(
      name,
      [&target, name, rule](const std::string& text) { target = static_cast<Int>(parse_integer(name, text, rule)); },
      help);
  return opt->type_name("INT");
}

}  // namespace revwave::app
