// The configuration file: TOML, parsed by toml++ (a file that is not valid TOML is refused with
// its line and column), handed to CLI11 as [subcommand] option = value items, and written back as
// the effective configuration of a run.
#pragma once
#include <CLI/CLI.hpp>
#include <iosfwd>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace revwave::app {

class TomlConfig final : public CLI::Config {
 public:
  // root: the application whose subcommands the file's tables name, asked how many values each
  // option takes (an array for a one-value option is refused naming the key); null: not asked.
  explicit TomlConfig(const CLI::App* root = nullptr) : root_(root) {}
  // Tables are subcommands, keys their options without the leading "--"; a value may be a
  // string, an integer, a float, a boolean or an array of those (a repeatable option). Anything
  // else (dates, tables inside a subcommand, arrays of tables) is an IoError naming the key.
  std::vector<CLI::ConfigItem> from_config(std::istream& in) const override;
  std::string to_config(const CLI::App* app, bool default_also, bool write_description,
                        std::string prefix) const override;

 private:
  const CLI::App* root_;
};

// Reads and parses `path` as TOML: IoError "PATH: not valid TOML (line L, column C: ...)".
void check_toml_file(const std::string& path);

// The effective configuration of subcommand `cmd`: a [name] table holding every option that was
// given (command line or config file) or has a default, as TOML that TomlConfig reads back. An option
// not given takes its value from `values` where the run found one (--shape: the model's), and none
// where an option it excludes was given (--tn beside --observed); `leave_out` names keys not written.
std::string effective_config_toml(const CLI::App& cmd, const std::map<std::string, std::string>& values = {},
                                  const std::set<std::string>& leave_out = {});

// TOML text of one value: bare when it is a TOML integer or float literal, else a basic string.
std::string toml_value(const std::string& text);
// TOML text of one value as a basic string, whatever it looks like (a file named 7).
std::string toml_string(const std::string& text);

}  // namespace revwave::app
