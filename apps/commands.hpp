// One register function per subcommand (one file each: cmd_<name>.cpp).
#pragma once
#include <CLI/CLI.hpp>

namespace revwave::app {

// The whole command line: the --config file (TOML), every subcommand, and the check that a
// config file sets options of the subcommand that runs only.
void build_cli(CLI::App& app);

void register_forward(CLI::App& app);
void register_gradient(CLI::App& app);
void register_invert(CLI::App& app);
void register_adjtest(CLI::App& app);
void register_gradtest(CLI::App& app);
void register_schedule(CLI::App& app);
void register_plan(CLI::App& app);
void register_info(CLI::App& app);

}  // namespace revwave::app
