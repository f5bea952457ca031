// A file holds one series, each of its runs once and in order, each key once: the inputs that once read as something
// else (tests/data/regressions) are refused by every path that reads a series, naming the file, the place and the
// field; and a report laid out otherwise than its writer did is held to the same.
#include "engine/io/input_file.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/report_file.hpp"
#include "engine/io/result_file.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

using namespace asyncscope;

namespace {

const std::filesystem::path kFolder = std::filesystem::path(ASYNCSCOPE_TEST_DATA) / "regressions";

bool holds(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

void expectRefused(const std::string& name, const std::string& words)
{
    SCOPED_TRACE(name);
    const std::string path = (kFolder / name).string();
    const auto read = readReportFile(path);
    ASSERT_FALSE(read.ok()) << name << " was read";
    EXPECT_EQ(read.error().message().rfind(shownPath(path) + ": ", 0), 0u) << read.error().message();
    EXPECT_TRUE(holds(read.error().message(), words)) << read.error().message();
    const auto result = readResultFile(path);
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(holds(result.error().message(), words)) << result.error().message();
    const auto series = readSeriesFile(path);
    ASSERT_FALSE(series.ok());
    EXPECT_TRUE(holds(series.error().message(), words)) << series.error().message();
}

}  // namespace

// One run line given 20 times once read as 20 measured runs; a run index given twice or out of order, or a run line
// cut out of the middle of a series its header counts, as the series it is not.
TEST(RunsGivenOnce, ARunGivenTwiceOrOutOfItsPlaceIsRefused)
{
    expectRefused("format4_run_line_repeated_20_times.json",
        "run 1 (line 3): run is 1; accepted: more than 1, the run before it: each run once, in order");
    expectRefused("format4_run_index_twice.json", "run 2 (line 4): run is 1; accepted: more than 1, the run before it");
    expectRefused("format4_runs_out_of_order.json", "run 3 (line 5): run is 2; accepted: more than 3, the run before");
    expectRefused("format3_run_line_deleted_in_the_middle.json",
        "the file ends after 1 of the 2 measured runs its header counts (its last run on line 172)");
}

// Format 3 cut where a run line ends is cut short as format 4 is: the header counts its measured runs.
TEST(RunsGivenOnce, AFormat3FileCutAfterAWholeRunIsCutShort)
{
    expectRefused("format3_last_run_line_deleted.json",
        "the file ends after 1 of the 2 measured runs its header counts (its last run on line 172): it is cut short");
}

// A key given again once took the first one's place: a second device, a format version 4 then 1, a run's time.
TEST(RunsGivenOnce, AKeyGivenTwiceIsRefusedInEveryFormat)
{
    expectRefused("format4_device_twice.json", "line 1: device is given twice; accepted: each key once in its object");
    expectRefused("format4_format_version_4_then_1.json", "line 1: format_version is given twice");
    expectRefused("format4_run_gpu_time_twice.json",
        "run 1 (line 3): gpu_time_ms is given twice; accepted: each field once");
    expectRefused("format3_device_twice.json", "line 5: device is given twice");
    expectRefused("format2_device_twice.json", ": device is given twice");
    expectRefused("format2_format_version_2_then_1.json", ": format_version is given twice");
    expectRefused("format1_device_twice.json", ": device is given twice");
}

// The bytes of a run's copies are added up: two spans of 2^63 bytes once summed to 0.
TEST(RunsGivenOnce, SpansOfMoreBytesThanAnyMemoryAreRefused)
{
    expectRefused("format4_span_bytes_2e63_twice.json",
        "run 1 (line 3): spans[0].bytes is 9223372036854775808; accepted: a whole number of bytes from 0 to "
        "70368744177664");
}

// The same files laid out otherwise (one line, as a tool that rewrites JSON leaves them) go through the document
// reader, which holds them to the same.
TEST(RunsGivenOnce, ADocumentLaidOutOtherwiseIsHeldToTheSame)
{
    const auto v3 =
        nlohmann::json::parse(std::ifstream(std::string(ASYNCSCOPE_TEST_DATA) + "/report_v3_every_field.json"));
    nlohmann::json swapped = v3;
    std::swap(swapped["runs"][1], swapped["runs"][2]);
    std::istringstream swappedIn(swapped.dump());
    const auto outOfOrder = readJson(swappedIn);
    ASSERT_FALSE(outOfOrder.ok());
    EXPECT_TRUE(holds(outOfOrder.error().message(), "run 2 (line 1): run is 1; accepted: more than 2"))
        << outOfOrder.error().message();
    // A run object giving a field twice, in a document.
    std::string text = nlohmann::json::parse(std::ifstream(std::string(ASYNCSCOPE_TEST_DATA) + "/report_v2.json")).dump();
    const std::size_t at = text.find("\"gpu_time_ms\":", text.find("\"runs\":"));
    ASSERT_NE(at, std::string::npos);
    text.insert(at, "\"gpu_time_ms\":99.0,");
    std::istringstream in(text);
    const auto read = readJson(in);
    ASSERT_FALSE(read.ok());
    EXPECT_TRUE(holds(read.error().message(), "gpu_time_ms is given twice; accepted: each field once"))
        << read.error().message();
}
