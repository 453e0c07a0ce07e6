// revwave info: the backends compiled in and the CUDA devices found.
#include <omp.h>
#include <iostream>
#include <memory>

#include "commands.hpp"
#include "revwave/core/cuda_info.hpp"
#include "revwave/core/system_memory.hpp"
#include "run_report.hpp"
#include "switch_options.hpp"

namespace revwave::app {

void register_info(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("info", "list the backends compiled in and the devices found");
  add_switch(cmd, "--json", *json, "print one JSON object");
  cmd->callback([json] {
    const auto devices = cuda_devices();
    std::vector<std::string> backends{"cpu"};
    if (cuda_compiled()) backends.push_back("cuda");
    if (*json) {
      nlohmann::json j;
      j["backends_compiled"] = backends;
      j["cuda_devices"] = nlohmann::json::array();
      for (const auto& d : devices) {
        j["cuda_devices"].push_back(
            {{"ordinal", d.ordinal},
             {"name", d.name},
             {"total_memory_bytes", d.total_memory},
             {"free_memory_bytes", d.free_memory},
             {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)}});
      }
      if (devices.empty())
        j["cuda_unavailable_reason"] = cuda_unavailable_reason();  // what --backend auto falls back for
      j["cpu_threads"] = omp_get_max_threads();
      j["host_memory_available_bytes"] = available_memory_bytes();
      print_json(j);
      return;
    }
    std::cout << "backends compiled: cpu" << (cuda_compiled() ? ", cuda" : "") << "\n"
              << "cpu: " << omp_get_max_threads() << " OpenMP threads, "
              << format_bytes(double(available_memory_bytes())) << " memory available\n";
    if (devices.empty()) {
      std::cout << "cuda devices: none (" << cuda_unavailable_reason() << ")\n";
    }
    for (const auto& d : devices) {
      std::cout << "cuda device " << d.ordinal << ": " << d.name << ", compute capability " << d.cc_major << "."
                << d.cc_minor << ", " << format_bytes(double(d.total_memory)) << " ("
                << format_bytes(double(d.free_memory)) << " free)\n";
    }
  });
}

}  // namespace revwave::app
