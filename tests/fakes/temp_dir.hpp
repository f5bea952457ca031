// A folder of its own for one GoogleTest test, under the system's temporary folder, named for the test and emptied
// before and after it.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace asyncscope::testing {

class TempDir {
public:
    explicit TempDir(const std::string& prefix)
        : m_path(std::filesystem::temp_directory_path() /
              ("asyncscope-" + prefix + "-" +
                  std::string(::testing::UnitTest::GetInstance()->current_test_info()->name())))
    {
        std::filesystem::remove_all(m_path);
        std::filesystem::create_directories(m_path);
    }
    ~TempDir() { std::filesystem::remove_all(m_path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    // The path of `name` in the folder.
    std::string file(const std::string& name) const { return (m_path / name).string(); }

private:
    std::filesystem::path m_path;
};

}  // namespace asyncscope::testing
