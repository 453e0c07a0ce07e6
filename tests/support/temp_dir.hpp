// Scratch directories for tests that write files: an owner that removes the directory with
// everything in it, a fixture that gives each test a fresh one, and the two ways tests look at
// what they wrote (a file's bytes, a directory's names).
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace revwave::testing {

// A file's whole content, bytes as they are (empty when it cannot be read).
inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The names in a directory, sorted (the order a listing gives is the file system's).
inline std::vector<std::string> entries_of(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// A new directory under the system's temporary directory, named `stem`_XXXXXX by mkdtemp (so
// that test processes running at once never share one), removed with its contents at the end.
class TempDir {
 public:
  explicit TempDir(const std::string& stem) {
    std::string tmpl = (std::filesystem::temp_directory_path() / (stem + "_XXXXXX")).string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed for " + tmpl);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ignored;  // a destructor must not throw; a leftover directory is harmless
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// A fixture whose every test starts in an empty directory of its own: dir_, path(name) for a
// file in it, entries() for what is there.
class TempDirTest : public ::testing::Test {
 protected:
  explicit TempDirTest(const std::string& stem) : tmp_(stem), dir_(tmp_.path()) {}
  std::string path(const std::string& name) const { return tmp_.file(name); }
  std::vector<std::string> entries() const { return entries_of(dir_); }

 private:
  TempDir tmp_;

 protected:
  const std::filesystem::path dir_;
};

}  // namespace revwave::testing
