// revwave: parse, dispatch to a subcommand, turn every error into one line and an exit code.
#include <cstdio>
#include <exception>
#include <iostream>

#include "commands.hpp"
#include "revwave/core/errors.hpp"

int main(int argc, char** argv) {
  CLI::App app{"revwave: FWI gradients of the 3D acoustic wave equation with optimal checkpointing"};
  app.require_subcommand(1, 1);
  app.set_version_flag("--version", "revwave 0.1.0");
  // One --config for every subcommand: a TOML file with a [subcommand] section, as written
  // next to the outputs; accepted after the subcommand's name too.
  app.set_config("--config", "", "read options from a TOML file (as written next to the outputs)");
  app.fallthrough();
  revwave::app::register_forward(app);
  revwave::app::register_gradient(app);
  revwave::app::register_adjtest(app);
  revwave::app::register_gradtest(app);
  revwave::app::register_schedule(app);
  revwave::app::register_info(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    // A check that ran and failed (adjtest, gradtest): its report is already printed.
    std::cerr << "revwave: " << e.what() << "\n";
    return e.get_exit_code();
  } catch (const CLI::ParseError& e) {
    // One line: CLI11's message, without its multi-line help dump.
    std::cerr << "revwave: error: " << e.what() << " (see 'revwave --help')\n";
    return e.get_exit_code() == 0 ? 2 : e.get_exit_code();
  } catch (const revwave::InputError& e) {
    std::cerr << "revwave: error: " << e.what() << "\n";
    return 2;
  } catch (const revwave::IoError& e) {
    std::cerr << "revwave: error: " << e.what() << "\n";
    return 3;
  } catch (const revwave::OutOfMemoryError& e) {
    std::cerr << "revwave: error: " << e.what() << "\n";
    return 4;
  } catch (const revwave::NotCompiledError& e) {
    std::cerr << "revwave: error: " << e.what() << "\n";
    return 5;
  } catch (const std::exception& e) {
    std::cerr << "revwave: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
