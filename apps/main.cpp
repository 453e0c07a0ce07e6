// revwave: parse, dispatch to a subcommand, turn every error into one line and an exit code.
#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/io/atomic_file.hpp"
#include "toml_config.hpp"

namespace {

// The exit codes the README documents.
enum Exit { ok = 0, check_failed = 1, input = 2, file = 3, memory = 4, backend = 5, not_finite = 6 };

int fail(const std::string& what, int code) {
  std::cerr << "revwave: error: " << what << "\n";
  return code;
}

// A config file's section for another subcommand would be read and silently ignored.
void refuse_foreign_sections(const CLI::App& app) {
  const CLI::App* running = app.get_subcommands().empty() ? nullptr : app.get_subcommands().front();
  for (const CLI::App* sub : app.get_subcommands({})) {
    if (sub == running) continue;
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->count() > 0) {
        throw revwave::InputError("the config file sets " + sub->get_name() + "." + opt->get_lnames().front() +
                                  ", but this run is 'revwave " + (running ? running->get_name() : "") +
                                  "': a config file holds the section of the subcommand it runs");
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A signal during a run removes the temporaries of unfinished outputs, then ends the process.
  revwave::remove_temporaries_on_signal();
  CLI::App app{"revwave: FWI gradients of the 3D acoustic wave equation with optimal checkpointing"};
  app.require_subcommand(1, 1);
  app.set_version_flag("--version", "revwave 0.1.0");
  // One --config for every subcommand: a TOML file with a [subcommand] section, as written
  // next to the outputs; accepted after the subcommand's name too. It must be valid TOML, and
  // a key that names no option is refused (set before the subcommands, which inherit it).
  app.config_formatter(std::make_shared<revwave::app::TomlConfig>());
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.set_config("--config", "", "read options from a TOML file (as written next to the outputs)")
      ->check([](const std::string& path) {
        revwave::app::check_toml_file(path);
        return std::string();
      });
  app.fallthrough();
  revwave::app::register_forward(app);
  revwave::app::register_gradient(app);
  revwave::app::register_adjtest(app);
  revwave::app::register_gradtest(app);
  revwave::app::register_schedule(app);
  revwave::app::register_info(app);
  // Runs once everything is parsed, before the subcommand's callback.
  app.parse_complete_callback([&app] { refuse_foreign_sections(app); });
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    // A check that ran and failed (adjtest, gradtest): its report is already printed.
    std::cerr << "revwave: " << e.what() << "\n";
    return e.get_exit_code();
  } catch (const CLI::FileError& e) {
    return fail(std::string(e.what()), file);
  } catch (const CLI::ConfigError& e) {
    // CLI11 says "INI was not able to parse KEY" for a key that names no option.
    const std::string text = e.what(), marker = "not able to parse ";
    const auto at = text.find(marker);
    if (at == std::string::npos) return fail(text, input);
    return fail("the config file's key '" + text.substr(at + marker.size()) +
                    "' names no option ([subcommand] then the option's long name without --; see 'revwave SUBCOMMAND --help')",
                input);
  } catch (const CLI::ParseError& e) {
    // One line: CLI11's message, without its multi-line help dump.
    return fail(std::string(e.what()) + " (see 'revwave --help')", input);
  } catch (const revwave::InputError& e) {
    return fail(e.what(), input);
  } catch (const revwave::IoError& e) {
    return fail(e.what(), file);
  } catch (const revwave::OutOfMemoryError& e) {
    return fail(e.what(), memory);
  } catch (const revwave::NotCompiledError& e) {
    return fail(e.what(), backend);
  } catch (const revwave::NonFiniteError& e) {
    return fail(e.what(), not_finite);
  } catch (const std::bad_alloc&) {
    return fail("out of memory (an allocation failed)", memory);
  } catch (const std::exception& e) {
    return fail(e.what(), check_failed);
  }
  return ok;
}
