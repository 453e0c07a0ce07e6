#include "toml_config.hpp"

#define TOML_HEADER_ONLY 1
#include <toml++/toml.h>

#include <cstdio>
#include <fstream>
#include <regex>
#include <sstream>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"

namespace revwave::app {
namespace {

[[noreturn]] void bad_value(const std::string& key, const std::string& why) {
  throw IoError("config key '" + key + "': " + why);
}

std::string scalar_text(const toml::node& node, const std::string& key) {
  if (const auto* s = node.as_string()) return s->get();
  if (const auto* i = node.as_integer()) return std::to_string(i->get());
  if (const auto* f = node.as_floating_point()) return number_text(f->get());
  if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
  if (node.is_table()) bad_value(key, "a table is not an option value (one level: [subcommand] then option = value)");
  if (node.is_array()) bad_value(key, "an array inside an array is not an option value");
  bad_value(key, "dates and times are not option values (use a string, a number, a boolean or an array)");
}

std::vector<std::string> inputs(const toml::node& node, const std::string& key) {
  std::vector<std::string> out;
  if (const auto* a = node.as_array()) {
    for (const toml::node& e : *a) out.push_back(scalar_text(e, key));
    if (out.empty()) bad_value(key, "an empty array gives no value");
  } else {
    out.push_back(scalar_text(node, key));
  }
  return out;
}

std::string parse_error_text(const toml::parse_error& e) {
  std::ostringstream os;
  os << "line " << e.source().begin.line << ", column " << e.source().begin.column << ": " << e.description();
  return os.str();
}

}  // namespace

std::vector<CLI::ConfigItem> TomlConfig::from_config(std::istream& in) const {
  toml::table root;
  try {
    root = toml::parse(in);
  } catch (const toml::parse_error& e) {
    throw IoError("the config file is not valid TOML (" + parse_error_text(e) + ")");
  }
  std::vector<CLI::ConfigItem> items;
  for (auto&& [key, node] : root) {
    const std::string name(key.str());
    if (const auto* table = node.as_table()) {
      for (auto&& [option, value] : *table) {
        const std::string full = name + "." + std::string(option.str());
        items.push_back(CLI::ConfigItem{{name}, std::string(option.str()), inputs(value, full)});
      }
    } else {
      items.push_back(CLI::ConfigItem{{}, name, inputs(node, name)});
    }
  }
  return items;
}

std::string TomlConfig::to_config(const CLI::App* app, bool, bool, std::string) const {
  std::string text;
  for (const CLI::App* sub : app->get_subcommands()) text += effective_config_toml(*sub);
  return text;
}

void check_toml_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path + ": cannot open the config file");
  try {
    (void)toml::parse(in, path);
  } catch (const toml::parse_error& e) {
    throw IoError(path + ": not valid TOML (" + parse_error_text(e) + ")");
  }
}

std::string toml_value(const std::string& text) {
  // TOML's decimal integers and floats (no leading zeros, digits on both sides of a point);
  // a literal that would not read back as the same number (overflow) is quoted instead.
  static const std::regex integer(R"([+-]?(0|[1-9][0-9]*))");
  static const std::regex floating(R"([+-]?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)");
  std::int64_t i = 0;
  double d = 0;
  if (std::regex_match(text, integer) && read_int64(text, i)) return text;
  if (!std::regex_match(text, integer) && std::regex_match(text, floating) && read_double(text, d)) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (u < 0x20 || u == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      quoted += buf;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

std::string effective_config_toml(const CLI::App& cmd) {
  std::ostringstream os;
  os << "[" << cmd.get_name() << "]\n";
  for (const CLI::Option* opt : cmd.get_options()) {
    if (!opt->get_configurable() || opt->get_lnames().empty()) continue;
    const std::string& key = opt->get_lnames().front();
    if (key == "help") continue;
    if (opt->get_expected_min() == 0) {  // a flag
      os << key << " = " << (opt->count() > 0 && opt->as<bool>() ? "true" : "false") << "\n";
      continue;
    }
    std::vector<std::string> values = opt->results();
    if (opt->count() == 0) {
      if (opt->get_default_str().empty()) continue;
      values = {opt->get_default_str()};
    }
    if (values.size() == 1 && opt->get_items_expected_max() <= 1) {
      os << key << " = " << toml_value(values.front()) << "\n";
    } else {
      os << key << " = [";
      for (std::size_t i = 0; i < values.size(); ++i) os << (i ? ", " : "") << toml_value(values[i]);
      os << "]\n";
    }
  }
  return os.str();
}

}  // namespace revwave::app
