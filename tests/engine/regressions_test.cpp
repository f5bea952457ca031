// The inputs that once broke the host-record, copy-peak cache, comparison, CSV and recording readers
// (tests/data/regressions: *.host.json, *.cache.json, *.comparison.json, *.csv, *.record), each read again: refused,
// or its entry left out, with the message expected_refusals.tsv gives, and never a library's text.
#include "engine/io/copy_peak_cache.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/report_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/record/recording.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

using namespace asyncscope;
namespace fs = std::filesystem;

namespace {

const fs::path kFolder = fs::path(ASYNCSCOPE_TEST_DATA) / "regressions";

bool endsWith(const std::string& text, const std::string& end)
{
    return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

bool ours(const std::string& name)
{
    return endsWith(name, ".host.json") || endsWith(name, ".cache.json") || endsWith(name, ".comparison.json") ||
        endsWith(name, ".csv") || endsWith(name, ".record");
}

std::map<std::string, std::string> expectedRefusals()
{
    std::map<std::string, std::string> expected;
    std::ifstream in(kFolder / "expected_refusals.tsv");
    for (std::string line; std::getline(in, line);) {
        const auto tab = line.find('\t');
        if (line.empty() || line[0] == '#' || tab == std::string::npos)
            continue;
        expected[line.substr(0, tab)] = line.substr(tab + 1);
    }
    return expected;
}

// What the read was refused with; empty where it read.
template <class T>
std::string messageOf(const Result<T>& read)
{
    return read.ok() ? std::string() : read.error().message();
}

void expectNoLibraryText(const std::string& message)
{
    for (const char* leak : { "json.exception", "stoi", "basic_filebuf", "what()" })
        EXPECT_EQ(message.find(leak), std::string::npos) << message;
}

}  // namespace

TEST(Regressions, EveryInputThatBrokeAReaderIsRefusedAsExpected)
{
    const auto expected = expectedRefusals();
    std::size_t read = 0;
    for (const auto& entry : fs::directory_iterator(kFolder)) {
        const std::string name = entry.path().filename().string();
        if (!ours(name))
            continue;  // series reports: the JSON readers' own regressions
        SCOPED_TRACE(name);
        const auto want = expected.find(name);
        ASSERT_NE(want, expected.end()) << "no line for it in expected_refusals.tsv";
        ++read;
        if (endsWith(name, ".cache.json")) {
            const auto cache = readCopyPeakCache(entry.path().string());
            ASSERT_TRUE(cache.ok()) << cache.error().message();
            EXPECT_TRUE(cache->entries.empty());  // absent, so measured again
            ASSERT_EQ(cache->skipped.size(), 1u);
            EXPECT_NE(cache->skipped[0].find(want->second), std::string::npos) << cache->skipped[0];
            expectNoLibraryText(cache->skipped[0]);
            continue;
        }
        const std::string path = entry.path().string();
        const std::string message = endsWith(name, ".record") ? messageOf(readRecordingFile(path))
            : endsWith(name, ".comparison.json")             ? messageOf(readComparisonFile(path))
                                                              : messageOf(readResultFile(path));
        ASSERT_FALSE(message.empty()) << "read";
        EXPECT_EQ(message.rfind(shownPath(entry.path().string()) + ": ", 0), 0u) << message;  // with its folder
        EXPECT_NE(message.find(want->second), std::string::npos) << message;
        EXPECT_LT(message.size(), 600u) << message;
        expectNoLibraryText(message);
    }
    for (const auto& [name, message] : expected)
        EXPECT_TRUE(fs::exists(kFolder / name)) << name << " is listed but missing";
    EXPECT_EQ(read, expected.size());
}
