// Named choices (--precision, --backend, --strategy, --store, ...): the text is checked against the
// choices (the help shows them as CLI11 shows a set; the error quotes the value, so that "cpu " or
// an empty value is seen as given) and parsed into the enum once, here, where it enters.
#pragma once
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "revwave/core/choices.hpp"

namespace revwave::app {

// The value must be one of `choices`: "'cpu ' is not one of auto, cpu, cuda" otherwise.
inline CLI::Validator one_of(const std::vector<std::string>& choices) {
  std::string set, words;
  for (const std::string& c : choices) {
    set += (set.empty() ? "" : ",") + c;
    words += (words.empty() ? "" : ", ") + c;
  }
  return CLI::Validator(
      [choices, words](std::string& text) {
        for (const std::string& c : choices)
          if (text == c) return std::string();
        return "'" + text + "' is not one of " + words;
      },
      "{" + set + "}", "one of");
}

template <class E, class Parse>
CLI::Option* add_choice(CLI::App* cmd, const std::string& name, E& target, Parse parse,
                        const std::vector<std::string>& choices, const std::string& help) {
  auto* opt = cmd->add_option_function<std::string>(
      name, [&target, parse](const std::string& text) { target = parse(text); }, help);
  return opt->type_name("TEXT")->check(one_of(choices))->default_str(to_string(target));
}

template <class E, class Parse>
CLI::Option* add_choice(CLI::App* cmd, const std::string& name, std::optional<E>& target, Parse parse,
                        const std::vector<std::string>& choices, const std::string& help) {
  auto* opt = cmd->add_option_function<std::string>(
      name, [&target, parse](const std::string& text) { target = parse(text); }, help);
  return opt->type_name("TEXT")->check(one_of(choices));
}

}  // namespace revwave::app
