// Named choices (--precision, --backend, --strategy, --store): the text is checked against the
// choices as CLI11 does for any set (the same help and error line) and parsed into the enum once,
// here, where it enters.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "revwave/core/choices.hpp"

namespace revwave::app {

template <class E, class Parse>
CLI::Option* add_choice(CLI::App* cmd, const std::string& name, E& target, Parse parse,
                        const std::vector<std::string>& choices, const std::string& help) {
  auto* opt = cmd->add_option_function<std::string>(
      name, [&target, parse](const std::string& text) { target = parse(text); }, help);
  return opt->type_name("TEXT")->check(CLI::IsMember(choices))->default_str(to_string(target));
}

template <class E, class Parse>
CLI::Option* add_choice(CLI::App* cmd, const std::string& name, std::optional<E>& target, Parse parse,
                        const std::vector<std::string>& choices, const std::string& help) {
  auto* opt = cmd->add_option_function<std::string>(
      name, [&target, parse](const std::string& text) { target = parse(text); }, help);
  return opt->type_name("TEXT")->check(CLI::IsMember(choices));
}

}  // namespace revwave::app
