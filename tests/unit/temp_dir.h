#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

// A scratch folder for a test's files, removed again at the end of the test.
class TempDir {
 public:
  explicit TempDir(const std::string& name)
      : m_root(std::filesystem::temp_directory_path() /
               ("ohmvp_" + name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(m_root);
    std::filesystem::create_directories(m_root);
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_root, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::filesystem::path write(const std::string& name, const std::string& text) const {
    const std::filesystem::path file = m_root / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file) << text;
    return file;
  }
  const std::filesystem::path& root() const { return m_root; }

 private:
  std::filesystem::path m_root;
};
