// "Did you mean": the name a mistyped subcommand or option was meant to be, by edit distance, for
// the one line a parse error gets.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace revwave::app {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbours ("snpas" is one from "snaps") each count one.
std::size_t edit_distance(const std::string& a, const std::string& b);
// The name of `names` closest to `typed`, when it is close enough to be a typo of it (at most one
// edit in five characters, at least one); empty otherwise.
std::string closest_name(const std::string& typed, const std::vector<std::string>& names);
// The sentence for a command line that names a subcommand or a long option `app` does not have:
// "unknown subcommand 'gradiant': did you mean 'gradient'? ...", "unknown option --snpas: did you
// mean --snaps? ..."; empty when every name on it is known (the parse failed for another reason).
std::string unknown_name_text(const CLI::App& app, const std::vector<std::string>& args);
// For a config file's key SECTION.NAME that names no option: " (did you mean 'gradient.snaps'?)"
// when SECTION is a subcommand with an option close to NAME, else empty.
std::string config_key_suggestion(const CLI::App& app, const std::string& key);

}  // namespace revwave::app
