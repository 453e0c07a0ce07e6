// revwave: parse, dispatch to a subcommand, turn every error into one line and an exit code.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "did_you_mean.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/core/openmp_wait.hpp"
#include "revwave/core/utf8_text.hpp"
#include "revwave/inversion/run_directory.hpp"
#include "revwave/io/atomic_file.hpp"
#include "revwave/setup/thread_limit.hpp"
#include "switch_options.hpp"

namespace {

// `revwave invert --resume DIR` needs nothing else: the run's configuration, written into DIR when it
// began, is read as if given with --config (options on the command line still win), unless a --config
// is given. Where DIR is a directory without it, --config's check names the missing file.
std::vector<std::string> with_resumed_configuration(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  const auto has = [&](const std::string& name) {
    return std::any_of(args.begin(), args.end(),
                       [&](const std::string& a) { return a == name || a.rfind(name + "=", 0) == 0; });
  };
  if (!has("invert") || has("--config")) return args;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string dir;
    if (args[i] == "--resume" && i + 1 < args.size())
      dir = args[i + 1];
    else if (args[i].rfind("--resume=", 0) == 0)
      dir = args[i].substr(9);
    if (dir.empty()) continue;
    const std::string config = revwave::inversion_config_path(dir);
    std::error_code ec;
    // A run directory without its configuration (deleted since) is refused naming the file, by
    // --config's own check, rather than run as the options alone would describe another problem.
    if (std::filesystem::is_regular_file(config, ec) || std::filesystem::is_directory(dir, ec))
      args.insert(args.end(), {"--config", config});
    break;
  }
  return args;
}

// The team size the command line asks for (--threads N or --threads=N), 0 when it does not say.
int threads_asked(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--threads" && i + 1 < argc) return std::atoi(argv[i + 1]);
    if (a.rfind("--threads=", 0) == 0) return std::atoi(a.c_str() + 10);
  }
  return 0;
}

// The exit codes the README documents.
enum Exit { ok = 0, check_failed = 1, input = 2, file = 3, memory = 4, backend = 5, not_finite = 6, unstable = 7 };

int fail(const std::string& what, int code) {
  std::cerr << "revwave: error: " << revwave::utf8_text(what) << "\n";
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  // Every line out as it is printed, also into a file or a pipe (stdio would hold 4 KiB there): a
  // job killed on a cluster keeps the log it had written. std::cout writes through C's stdout.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  // OpenMP's waiting at barriers, before anything runs (revwave/core/openmp_wait.hpp): this may run
  // the program again, once.
  revwave::choose_openmp_waiting(argv, threads_asked(argc, argv));
  // A signal during a run removes the temporaries of unfinished outputs, then ends the process.
  revwave::remove_temporaries_on_signal();
  CLI::App app{"revwave: FWI gradients of the 3D acoustic wave equation with optimal checkpointing"};
  revwave::app::build_cli(app);
  try {
    // A team from the environment is checked as --threads is, before anything runs in parallel
    // (past the runtime's limit libgomp crashes without a word).
    if (const auto team = revwave::environment_team(); team && threads_asked(argc, argv) <= 0)
      revwave::check_thread_count("OMP_NUM_THREADS", *team);
    const std::vector<std::string> args = with_resumed_configuration(argc, argv);
    revwave::app::refuse_empty_switch_values(app, args);
    std::vector<char*> pointers;
    for (const std::string& a : args) pointers.push_back(const_cast<char*>(a.c_str()));
    app.parse(static_cast<int>(pointers.size()), pointers.data());
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
    const std::string key = text.substr(at + marker.size());
    const std::string meant = revwave::app::config_key_suggestion(app, key);
    if (!meant.empty()) return fail("the config file's key '" + key + "' names no option" + meant, input);
    return fail("the config file's key '" + key +
                    "' names no option ([subcommand] then the option's long name without --; see 'revwave "
                    "SUBCOMMAND --help')",
                input);
  } catch (const CLI::ParseError& e) {
    // A subcommand or an option that does not exist, with the name it was likely meant to be; else
    // one line: CLI11's message, without its multi-line help dump.
    const std::string unknown = revwave::app::unknown_name_text(app, std::vector<std::string>(argv, argv + argc));
    if (!unknown.empty()) return fail(unknown, input);
    return fail(std::string(e.what()) + " (see 'revwave --help')", input);
  } catch (const revwave::InputError& e) {
    return fail(e.what(), input);
  } catch (const revwave::IoError& e) {
    return fail(e.what(), file);
  } catch (const revwave::OutOfMemoryError& e) {
    return fail(e.what(), memory);
  } catch (const revwave::BackendError& e) {  // a device fault, or a backend not compiled in
    return fail(e.what(), backend);
  } catch (const revwave::NonFiniteError& e) {
    return fail(e.what(), not_finite);
  } catch (const revwave::UnstableRunError& e) {  // the growth guard stopped the run
    return fail(e.what(), unstable);
  } catch (const std::bad_alloc&) {
    return fail("out of memory (an allocation failed)", memory);
  } catch (const std::exception& e) {
    return fail(e.what(), check_failed);
  }
  return ok;
}
