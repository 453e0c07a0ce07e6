// The command line as one CLI11 app: subcommands, the config file and its rules.
#include <memory>
#include <string>

#include "commands.hpp"
#include "revwave/core/errors.hpp"
#include "toml_config.hpp"

namespace revwave::app {
namespace {

// A config file's section for another subcommand would be read and silently ignored.
void refuse_foreign_sections(const CLI::App& app) {
  const CLI::App* running = app.get_subcommands().empty() ? nullptr : app.get_subcommands().front();
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub == running) continue;
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->count() > 0) {
        throw InputError("the config file sets " + sub->get_name() + "." + opt->get_lnames().front() +
                         ", but this run is 'revwave " + (running ? running->get_name() : "") +
                         "': a config file holds the section of the subcommand it runs");
      }
    }
  }
}

}  // namespace

void build_cli(CLI::App& app) {
  app.require_subcommand(1, 1);
  app.set_version_flag("--version", "revwave " REVWAVE_VERSION);  // project()'s VERSION (CMakeLists.txt)
  // One --config for every subcommand: a TOML file with a [subcommand] section, as written
  // next to the outputs; accepted after the subcommand's name too. It must be valid TOML, and
  // a key that names no option is refused (set before the subcommands, which inherit it).
  app.config_formatter(std::make_shared<TomlConfig>(&app));
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.set_config("--config", "", "read options from a TOML file (as written next to the outputs)")
      ->check([](const std::string& path) {
        check_toml_file(path);
        return std::string();
      });
  app.fallthrough();
  register_forward(app);
  register_gradient(app);
  register_invert(app);
  register_adjtest(app);
  register_gradtest(app);
  register_schedule(app);
  register_plan(app);
  register_info(app);
  // Runs once everything is parsed, before the subcommand's callback.
  app.parse_complete_callback([&app] { refuse_foreign_sections(app); });
}

}  // namespace revwave::app
