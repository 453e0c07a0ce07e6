#include "toml_config.hpp"

#define TOML_HEADER_ONLY 1
#include <toml++/toml.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "revwave/core/checks.hpp"
#include "revwave/core/errors.hpp"
#include "revwave/io/npy.hpp"
#include "revwave/setup/option_text.hpp"

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

// Checks what toml++ 3.3 (Debian 12) cannot be trusted with before it parses: it reaches
// undefined behaviour on malformed UTF-8 and on some non-ASCII characters where it looks for
// whitespace (marzer/tomlplusplus #190, #295). TOML allows non-ASCII text only inside strings and
// comments and no control characters but tab; this lexes just enough (strings, comments) to say
// so first, with the line and column. Empty when the text may go to the parser.
std::string unsafe_toml(const std::string& t) {
  std::size_t line = 1, column = 1;
  const auto at = [&](const std::string& what) {
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what;
  };
  enum class In { code, comment, basic, literal, ml_basic, ml_literal } in = In::code;
  bool after_continuation = false;  // in a multi-line basic string, after a line-ending backslash
  for (std::size_t i = 0; i < t.size(); ++i) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (c >= 0x80) {
      // One whole UTF-8 sequence: shortest form, no surrogates, at most U+10FFFF.
      const std::size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
      if (len == 0 || i + len > t.size()) return at("not UTF-8");
      std::uint32_t cp = c & (len == 2 ? 0x1Fu : len == 3 ? 0x0Fu : 0x07u);
      for (std::size_t k = 1; k < len; ++k) {
        const auto cc = static_cast<unsigned char>(t[i + k]);
        if ((cc & 0xC0) != 0x80) return at("not UTF-8");
        cp = cp << 6 | (cc & 0x3Fu);
      }
      if ((len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
          (len == 4 && (cp < 0x10000 || cp > 0x10FFFF))) {
        return at("not UTF-8");
      }
      if (in == In::code) return at("a non-ASCII character outside a string or a comment");
      if (after_continuation) return at("a non-ASCII character right after a line-ending backslash");
      i += len - 1;
      ++column;
      continue;
    }
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) return at("a control character");
    if (c == '\r' && (i + 1 >= t.size() || t[i + 1] != '\n')) return at("a carriage return without a newline");
    const bool triple_quote = c == '"' && t.compare(i, 3, "\"\"\"") == 0;
    const bool triple_apostrophe = c == '\'' && t.compare(i, 3, "'''") == 0;
    std::size_t skip = 0;
    switch (in) {
      case In::code:
        if (c == '#')
          in = In::comment;
        else if (triple_quote)
          in = In::ml_basic, skip = 2;
        else if (triple_apostrophe)
          in = In::ml_literal, skip = 2;
        else if (c == '"')
          in = In::basic;
        else if (c == '\'')
          in = In::literal;
        break;
      case In::comment:
        if (c == '\n') in = In::code;
        break;
      case In::basic:
        if (c == '\\')
          skip = 1;
        else if (c == '"' || c == '\n')
          in = In::code;
        break;
      case In::literal:
        if (c == '\'' || c == '\n') in = In::code;
        break;
      case In::ml_basic:
        if (c == '\\') {
          std::size_t j = i + 1;
          while (j < t.size() && (t[j] == ' ' || t[j] == '\t')) ++j;
          if (j < t.size() && (t[j] == '\n' || t[j] == '\r'))
            after_continuation = true;
          else
            skip = 1;  // an escape: the next character is escaped
        } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
          after_continuation = false;
        }
        if (triple_quote) in = In::code, skip = 2;
        break;
      case In::ml_literal:
        if (triple_apostrophe) in = In::code, skip = 2;
        break;
    }
    for (std::size_t k = 0; k <= skip && i + k < t.size(); ++k) {
      if (t[i + k] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    i += skip;
  }
  return {};
}

// Whether one of the option's checks is `wanted`, by CLI11's description of it ("FILE",
// "PATH(existing)") or by the name revwave gives its own ("named output", "file prefix").
bool has_check(const CLI::Option* opt, const std::string& wanted) {
  auto* o = const_cast<CLI::Option*>(opt);  // CLI11 2.3 looks validators up through non-const calls only
  for (int i = 0;; ++i) {
    try {
      const CLI::Validator* v = o->get_validator(i);
      if (v->get_description() == wanted || v->get_name() == wanted) return true;
    } catch (const CLI::OptionNotFound&) {
      return false;
    }
  }
}

// Whether the option names a file or directory the run reads (CLI::ExistingFile, ExistingPath):
// the configuration writes it absolute, so that a replay from another directory reads the same
// file (or refuses it) instead of one of the same name where it runs.
bool names_an_input(const CLI::Option* opt) { return has_check(opt, "FILE") || has_check(opt, "PATH(existing)"); }

// Whether the option names a file, a directory or a prefix of files, read or written: its value in a
// file is a string, never a number or a boolean.
bool names_a_path(const CLI::Option* opt) {
  return names_an_input(opt) || has_check(opt, "named output") || has_check(opt, "file prefix");
}

// The option `option` of subcommand `section`, or null where the file names none (CLI11 then
// names the key).
const CLI::Option* option_of(const CLI::App* root, const std::string& section, const std::string& option) {
  if (root == nullptr) return nullptr;
  const CLI::App* sub = nullptr;
  for (const CLI::App* s : root->get_subcommands({})) {
    if (s->get_name() == section) sub = s;
  }
  return sub != nullptr ? sub->get_option_no_throw("--" + option) : nullptr;
}

// Refuses an array of several values for an option that takes one (CLI11 would say only "At Most
// 1 required but received 3", naming no file and no key), and a TOML float for an option that
// takes an integer: 5.0 and 1e1 would reach it as the text "5" and "10", which the command line
// refuses (--nbl 1e1), so the file must not accept them either.
void check_values(const CLI::Option* opt, const toml::node& node, const std::string& option,
                  const std::vector<std::string>& values, const std::string& key) {
  if (opt == nullptr) return;
  if (values.size() > 1 && opt->get_items_expected_max() <= 1) {
    bad_value(key, "an array of " + std::to_string(values.size()) + " values, but --" + option +
                       " takes one value (one string, number or boolean, as on the command line)");
  }
  // A switch given "" in the file: CLI11 would read it as true.
  if (opt->get_expected_min() == 0) {
    for (const std::string& v : values)
      if (v.empty()) bad_value(key, "an empty string, but --" + option + " is a switch: true or false");
  }
  // A file named by a number or a boolean (out = 5, png = true) is a string in the file: TOML's own
  // type says the value was meant as something else.
  if (opt->get_expected_min() > 0 && names_a_path(opt)) {
    const auto refuse_non_string = [&](const toml::node& n) {
      if (n.is_string()) return;
      bad_value(key, std::string(n.is_boolean() ? "a boolean" : "a number") + " where --" + option +
                         " takes a path (write a file named so as a string: \"" + scalar_text(n, key) + "\")");
    };
    if (const auto* a = node.as_array()) {
      for (const toml::node& e : *a) refuse_non_string(e);
    } else {
      refuse_non_string(node);
    }
  }
  if (opt->get_type_name() != "INT") return;
  const auto refuse_float = [&](const toml::node& n) {
    if (const auto* f = n.as_floating_point()) {
      std::string text = number_text(f->get());
      if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // 5.0 and 1e1 are floats
      bad_value(key, "the float " + text + " where --" + option +
                         " takes an integer (write it without a point or an exponent)");
    }
  };
  if (const auto* a = node.as_array()) {
    for (const toml::node& e : *a) refuse_float(e);
  } else {
    refuse_float(node);
  }
}

std::string parse_error_text(const toml::parse_error& e) {
  std::ostringstream os;
  os << "line " << e.source().begin.line << ", column " << e.source().begin.column << ": " << e.description();
  return os.str();
}

}  // namespace

std::vector<CLI::ConfigItem> TomlConfig::from_config(std::istream& in) const {
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (const std::string bad = unsafe_toml(text); !bad.empty())
    throw IoError("the config file is not valid TOML (" + bad + ")");
  toml::table root;
  try {
    root = toml::parse(text);
  } catch (const toml::parse_error& e) {
    throw IoError("the config file is not valid TOML (" + parse_error_text(e) + ")");
  }
  std::vector<CLI::ConfigItem> out;
  for (auto&& [key, node] : root) {
    const std::string name(key.str());
    if (const auto* table = node.as_table()) {
      for (auto&& [option, value] : *table) {
        const std::string full = name + "." + std::string(option.str());
        std::vector<std::string> values = inputs(value, full);
        check_values(option_of(root_, name, std::string(option.str())), value, std::string(option.str()), values, full);
        out.push_back(CLI::ConfigItem{{name}, std::string(option.str()), std::move(values)});
      }
    } else {
      out.push_back(CLI::ConfigItem{{}, name, inputs(node, name)});
    }
  }
  return out;
}

std::string TomlConfig::to_config(const CLI::App* app, bool, bool, std::string) const {
  std::string text;
  for (const CLI::App* sub : app->get_subcommands()) text += effective_config_toml(*sub);
  return text;
}

void check_toml_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw IoError(path + ": is a directory, not a config file");
  if (!std::filesystem::exists(path, ec) && !ec) throw IoError(path + ": the config file does not exist");
  require_regular_file(path, path + ": the config file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw IoError(path + ": cannot open the config file");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (const std::string bad = unsafe_toml(text); !bad.empty()) throw IoError(path + ": not valid TOML (" + bad + ")");
  try {
    (void)toml::parse(text, path);
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
  return toml_string(text);
}

std::string toml_string(const std::string& text) {
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

namespace {

// An option that was not given but excludes one that was (--tn beside --observed) has no value in
// this run: writing its default would make the file refuse its own replay.
bool excluded_by_a_given_option(const CLI::Option* opt) {
  for (const CLI::Option* other : opt->get_excludes())
    if (other->count() > 0) return true;
  return false;
}

// A number typed with leading zeros (--nbl 05) reads back as the same number without them; TOML
// refuses them in a literal, so the file writes the number, not a string of it. Text options
// (a file named 007) keep their text.
std::string number_text(const CLI::Option* opt, const std::string& text) {
  const std::string type = opt->get_type_name();
  if (type != "INT" && type != "NUMBER") return text;
  static const std::regex leading_zeros(R"(^([+-]?)0+([0-9]))");
  return std::regex_replace(text, leading_zeros, "$1$2", std::regex_constants::format_first_only);
}

std::string absolute_path(const std::string& p) {
  std::error_code ec;
  const std::filesystem::path a = std::filesystem::absolute(p, ec);
  return ec ? p : a.lexically_normal().string();
}

}  // namespace

std::string effective_config_toml(const CLI::App& cmd, const std::map<std::string, std::string>& values,
                                  const std::set<std::string>& leave_out) {
  std::ostringstream os;
  os << "[" << cmd.get_name() << "]\n";
  for (const CLI::Option* opt : cmd.get_options()) {
    if (!opt->get_configurable() || opt->get_lnames().empty()) continue;
    const std::string& key = opt->get_lnames().front();
    if (key == "help" || leave_out.count(key) > 0) continue;
    if (opt->count() == 0 && excluded_by_a_given_option(opt)) continue;
    if (opt->get_expected_min() == 0) {  // a flag
      os << key << " = " << (opt->count() > 0 && opt->as<bool>() ? "true" : "false") << "\n";
      continue;
    }
    std::vector<std::string> given = opt->results();
    if (opt->count() > 0) {  // a file it reads; --epsilon 0.2 is a number, --epsilon e.npy a file
      const bool number_or_file = has_check(opt, "number or file");
      for (std::string& p : given)
        if (names_an_input(opt) || (number_or_file && !is_number_text(p))) p = absolute_path(p);
    }
    for (std::string& v : given) v = number_text(opt, v);
    if (opt->count() == 0) {
      const auto known = values.find(key);
      if (known != values.end())
        given = {known->second};
      else if (opt->get_default_str().empty())
        continue;
      else
        given = {opt->get_default_str()};
    }
    const bool path = names_a_path(opt);  // --out 7 is the file "7": a string, as the reader asks
    const auto value = [path](const std::string& v) { return path ? toml_string(v) : toml_value(v); };
    if (given.size() == 1 && opt->get_items_expected_max() <= 1) {
      os << key << " = " << value(given.front()) << "\n";
    } else {
      os << key << " = [";
      for (std::size_t i = 0; i < given.size(); ++i) os << (i ? ", " : "") << value(given[i]);
      os << "]\n";
    }
  }
  return os.str();
}

}  // namespace revwave::app
