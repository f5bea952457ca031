// Saved reports that are hostile: files that are not regular, nesting without end, values no run has, files cut
// short. Each is refused with a message that names the place (line or run) and the field, quotes what was found (cut)
// and says what is accepted; none crashes, hangs or takes memory by a number it reads. And every file kept in
// tests/data/regressions (inputs that once broke a reader) is refused cleanly.
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/input_file.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/json/run_lines.hpp"
#include "engine/io/report_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/model/advice.hpp"

#include "classic_runs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace asyncscope;

namespace {

constexpr std::size_t kDeep = 70000;  // far deeper than a stack holds frames for

std::string fixture(const std::string& name)
{
    std::ifstream in(std::string(ASYNCSCOPE_TEST_DATA) + "/" + name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string deepList()
{
    return std::string(kDeep, '[') + std::string(kDeep, ']');
}

// A report of three runs in format 4: the header on line 1, runs 0 to 2 on lines 2 to 4.
std::vector<std::string> formatFourLines()
{
    std::ostringstream out;
    const Report report = asyncscope::testing::classicReport(3);
    writeJson(out, report, assessSeries(report));
    std::istringstream in(out.str());
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

std::string joined(const std::vector<std::string>& lines)
{
    std::string text;
    for (const std::string& line : lines)
        text += line + "\n";
    return text;
}

// The format 4 report with `from` replaced by `to` in line `line` (counted from 0).
std::string spoilt(std::size_t line, const std::string& from, const std::string& to)
{
    std::vector<std::string> lines = formatFourLines();
    const std::size_t at = lines[line].find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos)
        lines[line].replace(at, from.size(), to);
    return joined(lines);
}

// What a read of `text` says went wrong; empty when it read.
std::string problemOf(const std::string& text)
{
    std::istringstream in(text);
    const auto report = readJson(in);
    if (report.ok())
        return {};
    EXPECT_EQ(report.error().kind, ErrorKind::Io) << report.error().message();
    EXPECT_EQ(report.error().detail.find("json.exception"), std::string::npos) << report.error().detail;
    EXPECT_LT(report.error().detail.size(), 600u) << report.error().detail.substr(0, 600);
    return report.error().detail;
}

// A run line of format 4 with spans given as objects, `span` the first span's fields.
std::string runLine(int run, const std::string& gpuMs, const std::string& span)
{
    return "{\"run\":" + std::to_string(run) + ",\"warmup\":false,\"gpu_time_ms\":" + gpuMs +
        ",\"poll_iterations\":1,\"verified\":true,\"spans\":[{" + span + "}]}";
}

std::string withRun(const std::string& line)
{
    std::vector<std::string> lines = formatFourLines();
    lines[2] = line;
    return joined(lines);
}

bool startsWith(const std::string& text, const std::string& prefix)
{
    return text.rfind(prefix, 0) == 0;
}

bool holds(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

class HostileFiles : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = std::filesystem::temp_directory_path() /
            ("asyncscope-hostile-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(m_dir);
    }
    void TearDown() override { std::filesystem::remove_all(m_dir); }
    std::filesystem::path m_dir;
};

}  // namespace

TEST_F(HostileFiles, ADirectoryIsRefusedAsOne)
{
    const std::filesystem::path dir = m_dir / "results.json";
    std::filesystem::create_directories(dir);
    const auto read = readReportFile(dir.string());
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().kind, ErrorKind::Io);
    EXPECT_TRUE(holds(read.error().message(), "results.json is a directory")) << read.error().message();
}

TEST_F(HostileFiles, AFifoIsRefusedBeforeItIsOpened)
{
    // Opening a FIFO for reading blocks until a writer comes: none does, so the check must come first.
    const std::filesystem::path fifo = m_dir / "series.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto read = readReportFile(fifo.string());
    ASSERT_FALSE(read.ok());
    EXPECT_TRUE(holds(read.error().message(), "series.json is not a regular file (a FIFO)")) << read.error().message();
    const auto device = readReportFile("/dev/zero");
    ASSERT_FALSE(device.ok());
    EXPECT_TRUE(holds(device.error().message(), "/dev/zero is not a regular file")) << device.error().message();
}

TEST(HostileReports, NestingWithoutEndIsRefusedNamingTheField)
{
    const std::vector<std::string> lines = formatFourLines();
    // In the header of format 4, as a block and as the format version.
    std::string header = lines[0];
    header.replace(header.find("\"device\":"), 9, "\"device\":" + deepList() + ",\"x\":");
    std::string detail = problemOf(header + "\n" + lines[1] + "\n");
    EXPECT_TRUE(startsWith(detail, "line 1: device is lists and objects nested deeper than 64")) << detail;
    header = lines[0];
    header.replace(header.find("\"format_version\":4"), 18, "\"format_version\":" + deepList());
    detail = problemOf(header + "\n" + lines[1] + "\n");
    EXPECT_TRUE(startsWith(detail, "line 1: format_version is lists and objects nested deeper than 64")) << detail;
    // In a run line of format 4.
    detail = problemOf(withRun("{\"run\":1,\"spans\":" + deepList() + "}"));
    EXPECT_TRUE(startsWith(detail, "run 1 (line 3): it nests lists and objects deeper than a run does")) << detail;
    // In a document (formats 1 and 2, or any report laid out otherwise): the format version, a run.
    detail = problemOf("{\"format\": \"asyncscope-report\",\n\"format_version\": " + deepList() + ",\n\"runs\": []}");
    EXPECT_TRUE(startsWith(detail, "line 2: format_version is lists and objects nested deeper than 64")) << detail;
    std::string v2 = fixture("report_v2.json");
    v2.replace(v2.find("\"gpu_time_ms\": 2.5,"), 19, "\"gpu_time_ms\": 2.5, \"x\": " + deepList() + ",");
    detail = problemOf(v2);
    EXPECT_TRUE(startsWith(detail, "run 0 (line ")) << detail;
    EXPECT_TRUE(holds(detail, "): x is lists and objects nested deeper than 64")) << detail;
    // In the header of format 3 as its writer lays it out (once a recursive dump() when quoting the bad value).
    std::string v3 = fixture("report_v3_every_field.json");
    v3.replace(v3.find("\"host_memory\": \"pinned\""), 23, "\"host_memory\": " + deepList());
    detail = problemOf(v3);
    EXPECT_TRUE(startsWith(detail, "line ")) << detail;
    EXPECT_TRUE(holds(detail, ": config is lists and objects nested deeper than 64")) << detail;
}

TEST(HostileReports, TheConfigurationIsCheckedAsTheCliWouldTakeIt)
{
    struct Case {
        std::string from, to, expected;
    };
    const Case cases[] = {
        { "\"streams\":1", "\"streams\":1000000000",
            "line 1: config is one the CLI refuses (streams must be between 1 and the chunk count" },
        { "\"streams\":1", "\"streams\":0", "line 1: config is one the CLI refuses (streams must be between 1" },
        { "\"streams\":1", "\"streams\":-1", "line 1: config is one the CLI refuses (streams must be between 1" },
        { "\"chunks\":1", "\"chunks\":0",
            "line 1: config is one the CLI refuses (chunks must be between 1 and 4096, not 0" },
        { "\"chunks\":1", "\"chunks\":-4",
            "line 1: config is one the CLI refuses (chunks must be between 1 and 4096, not -4" },
        { "\"chunks\":1", "\"chunks\":5000",
            "line 1: config is one the CLI refuses (chunks must be between 1 and 4096, not 5000" },
        { "\"elements\":16777216", "\"elements\":-1",
            "line 1: config.elements is -1; accepted: a whole number from 0" },
        { "\"elements\":16777216", "\"elements\":0",
            "line 1: config is one the CLI refuses (size must be at least one element" },
        { "\"runs\":2", "\"runs\":1e12", "line 1: config.runs is 1e+12; accepted: a whole number" },
        { "\"runs\":2", "\"runs\":1000000000000", "line 1: config.runs is 1000000000000; accepted: a whole number" },
        { "\"runs\":2", "\"runs\":0", "line 1: config is one the CLI refuses (runs must be at least 1, not 0" },
        { "\"timeout_s\":", "\"timeout_s\":-5,\"x\":", "line 1: config.timeout_s is -5; accepted:" },
    };
    for (const Case& c : cases) {
        const std::string detail = problemOf(spoilt(0, c.from, c.to));
        EXPECT_TRUE(startsWith(detail, c.expected)) << c.to << ": " << detail;
    }
}

TEST(HostileReports, TheDeviceIsCheckedByTheSharedRules)
{
    const std::string detail = problemOf(spoilt(0, "\"name\":\"NVIDIA H200\"",
        "\"name\":\"" + std::string(100000, 'N') + "\""));
    EXPECT_TRUE(startsWith(detail, "line 1: device.name is NNNN")) << detail.substr(0, 200);
    EXPECT_TRUE(holds(detail, "; accepted: at most 256 bytes")) << detail.substr(0, 400);
    for (const char* cc : { "9", "x", "9.x", "-1.0", "999.0", "" }) {
        const std::string bad = problemOf(spoilt(0, "\"compute_capability\":\"9.0\"",
            std::string("\"compute_capability\":\"") + cc + "\""));
        EXPECT_TRUE(startsWith(bad, std::string("line 1: device.compute_capability is ") + (*cc ? cc : "empty") +
                        "; accepted: a compute capability such as \"9.0\""))
            << cc << ": " << bad;
    }
    const std::string note = problemOf(spoilt(0, "\"topology\":{", "\"topology\":{\"note\":\"" +
        std::string(5000, 'n') + "\","));
    EXPECT_TRUE(startsWith(note, "line 1: device.topology.note is nnnn")) << note.substr(0, 200);
    EXPECT_TRUE(holds(note, "; accepted: at most 4096 bytes")) << note.substr(0, 400);
    const std::string index = problemOf(spoilt(0, "\"index\":0", "\"index\":-3"));
    EXPECT_TRUE(startsWith(index, "line 1: device.index is -3; accepted: 0 or more")) << index;
    const std::string text = problemOf(spoilt(0, "\"uuid\":\"", "\"uuid\":7,\"x\":\""));
    EXPECT_TRUE(startsWith(text, "line 1: device.uuid is 7; accepted: a text")) << text;
    // The binding's fields by the same rows as a host record's (device_json.cpp): its text, derived, is a text too.
    const std::string binding =
        problemOf(spoilt(0, "\"config\":", "\"binding\":{\"bound\":true,\"text\":5},\"config\":"));
    EXPECT_TRUE(startsWith(binding, "line 1: binding.text is 5; accepted: a text")) << binding;
}

TEST(HostileReports, TheFormatVersionIsAWholeNumberFromOneToFour)
{
    std::string detail = problemOf(spoilt(0, "\"format_version\":4", "\"format_version\":4294967297"));
    EXPECT_TRUE(startsWith(detail, "line 1: format_version is 4294967297; accepted: a whole number from 1 to 4"))
        << detail;
    detail = problemOf(spoilt(0, "\"format_version\":4", "\"format_version\":-1"));
    EXPECT_EQ(detail, "line 1: format_version is -1; accepted: a whole number from 1 to 4");
    detail = problemOf(spoilt(0, "\"format_version\":4", "\"format_version\":2.5"));
    EXPECT_EQ(detail, "line 1: format_version is 2.5; accepted: a whole number from 1 to 4");
    detail = problemOf(spoilt(0, "\"format_version\":4", "\"format_version\":\"4\""));
    EXPECT_EQ(detail, "line 1: format_version is \"4\"; accepted: a whole number from 1 to 4");
    // In a document too.
    std::string v2 = fixture("report_v2.json");
    v2.replace(v2.find("\"format_version\": 2"), 19, "\"format_version\": -1");
    detail = problemOf(v2);
    EXPECT_TRUE(startsWith(detail, "line ")) << detail;
    EXPECT_TRUE(holds(detail, ": format_version is -1; accepted: a whole number from 1 to 4")) << detail;
    EXPECT_FALSE(holds(detail, "2147483647")) << detail;
    EXPECT_FALSE(holds(detail, "newer")) << detail;
}

TEST(HostileReports, EveryRunIsCheckedNamingTheRunTheLineAndTheField)
{
    const std::string span = "\"kind\":\"h2d\",\"begin_ms\":0,\"end_ms\":1";
    struct Case {
        std::string line, expected;
    };
    const Case cases[] = {
        { runLine(1, "null", span), "run 1 (line 3): gpu_time_ms is nan; accepted: a finite number of ms, 0 or more" },
        { runLine(1, "-1", span), "run 1 (line 3): gpu_time_ms is -1; accepted: a finite number of ms, 0 or more" },
        { runLine(1, "1e999", span), "run 1 (line 3): not valid JSON: a number is malformed or out of range" },
        { runLine(1, "2", "\"kind\":\"h2d\",\"begin_ms\":0,\"end_ms\":null"),
            "run 1 (line 3): spans[0] is from 0 to nan" },
        { runLine(1, "2", "\"kind\":\"h2d\",\"begin_ms\":0,\"end_ms\":-1"),
            "run 1 (line 3): spans[0] is from 0 to -1" },
        { runLine(1, "2", "\"kind\":\"h2d\",\"begin_ms\":2,\"end_ms\":1"), "run 1 (line 3): spans[0] is from 2 to 1" },
        { runLine(1, "2", span + ",\"stream\":50000000"),
            "run 1 (line 3): spans[0].stream is 50000000; accepted: a stream from 0 to 0" },
        { runLine(1, "2", span + ",\"stream\":-1"), "run 1 (line 3): spans[0].stream is -1; accepted: a stream" },
        { runLine(1, "2", span + ",\"chunk\":3"),
            "run 1 (line 3): spans[0].chunk is 3; accepted: a chunk from 0 to 0" },
        { runLine(-1, "2", span), "run 1 (line 3): run is -1; accepted: a run index, 0 or more" },
        { runLine(1, "2", span + ",\"name\":65537"),
            "run 1 (line 3): span 0: name is not 0 (none) or a place from 1 to 65536 in program.names" },
        { runLine(1, "2", span + ",\"name\":1"),
            "runs: spans' name is 1; accepted: a place in program.names, which holds 0 names" },
        { runLine(1, "2", "\"kind\":\"" + std::string(5000, 'k') + "\",\"begin_ms\":0,\"end_ms\":1"),
            "run 1 (line 3): span 0: kind 'kkkk" },
    };
    for (const Case& c : cases) {
        const std::string detail = problemOf(withRun(c.line));
        EXPECT_TRUE(startsWith(detail, c.expected)) << c.line.substr(0, 200) << "\n" << detail;
    }
    // In a document (the SAX reader): infinity as JSON cannot write it, and an end before its begin.
    std::string v2 = fixture("report_v2.json");
    v2.replace(v2.find("\"gpu_time_ms\": 2.5,"), 19, "\"gpu_time_ms\": 1e999,");
    std::string detail = problemOf(v2);
    EXPECT_TRUE(startsWith(detail, "run 0 (line 16, column ")) << detail;
    EXPECT_TRUE(holds(detail, "): not valid JSON at '1e999'")) << detail;
    v2 = fixture("report_v2.json");
    v2.replace(v2.find("\"stream\": 1"), 11, "\"stream\": 50000000");
    detail = problemOf(v2);
    EXPECT_TRUE(holds(detail, ".stream is 50000000; accepted: a stream from 0 to 1")) << detail;
    // Format 1's durations.
    std::string v1 = fixture("report_v1.json");
    v1.replace(v1.find("\"h2d_ms\": 1.22"), 14, "\"h2d_ms\": -1.22");
    detail = problemOf(v1);
    EXPECT_EQ(detail, "run 0 (line 6): h2d_ms is -1.22; accepted: a finite number of ms, 0 or more");
    // Format 3.
    std::string v3 = fixture("report_v3_every_field.json");
    v3.replace(v3.find("[1,false,0,2.51,"), 16, "[1,false,0,-2.51,");
    detail = problemOf(v3);
    EXPECT_EQ(detail, "run 1 (line 172): gpu_time_ms is -2.51; accepted: a finite number of ms, 0 or more");
}

TEST(HostileReports, ACutShortFileSaysSoNamingTheLineInEveryFormat)
{
    // Format 1: inside the run, and inside the header.
    const std::string v1 = fixture("report_v1.json");
    EXPECT_EQ(problemOf(v1.substr(0, v1.find("\"wait_ms\""))), "the file ends inside run 0 (line 6): it is cut short");
    EXPECT_EQ(problemOf(v1.substr(0, v1.find("\"threads_per_block\""))),
        "the file ends early, at line 3: it is cut short");
    // Format 2, inside a text: "cut short", not "invalid string".
    const std::string v2 = fixture("report_v2.json");
    const std::string cut2 = v2.substr(0, v2.find("\"kind\": \"h2d\"") + 11);
    EXPECT_TRUE(startsWith(problemOf(cut2), "the file ends inside run 0 (line ")) << problemOf(cut2);
    EXPECT_TRUE(holds(problemOf(cut2), "): it is cut short")) << problemOf(cut2);
    EXPECT_EQ(problemOf(v2.substr(0, 300)), "the file ends early, at line 5: it is cut short");
    // Format 3: inside a run line, after a run line, after the list.
    const std::string v3 = fixture("report_v3_every_field.json");
    const std::size_t run1 = v3.find("\n    [1,") + 1;
    EXPECT_EQ(problemOf(v3.substr(0, run1 + 40)), "the file ends inside run 1 (line 172): it is cut short");
    EXPECT_EQ(problemOf(v3.substr(0, v3.find("\n  ]") + 1)),
        "the file ends after run 2 (line 173), before the list of runs is closed: it is cut short");
    EXPECT_EQ(problemOf(v3.substr(0, v3.rfind('}'))),
        "the file ends after the runs (line 174), before the closing brace: it is cut short");
    // Format 4: inside a run line, inside the header line.
    const std::string v4 = joined(formatFourLines());
    const std::size_t line3 = v4.find('\n', v4.find('\n') + 1) + 1;
    EXPECT_EQ(problemOf(v4.substr(0, line3 + 30)), "the file ends inside run 1 (line 3): it is cut short");
    EXPECT_EQ(problemOf(v4.substr(0, 300)), "the file ends early, at line 1: it is cut short");
}

// A file of any format cut at any byte before its end says it is cut short, with the line; a CSV cut at the end of a
// row, or inside its last number, is a shorter CSV and reads. The parser's words come second, if at all.
TEST(HostileReports, AFileCutAnywhereSaysItIsCutShort)
{
    for (const char* name : { "report_v1.json", "report_v2.json", "report_v3_every_field.json",
             "report_v4_machine.json", "h200/h200-series.json" }) {
        const std::string whole = fixture(name);
        ASSERT_FALSE(whole.empty()) << name;
        const std::size_t end = whole.find_last_not_of(" \t\r\n");  // the closing brace (or a run line's)
        int wrong = 0;
        const bool lines = whole.find("\"format_version\":4") < whole.find('\n');  // JSON Lines: a run a line
        for (std::size_t cut = 1; cut < end && wrong < 5; cut += 1 + cut / 4000) {
            if (lines && (whole[cut - 1] == '\n' || whole[cut] == '\n'))
                continue;  // format 4 at a line's end: a shorter series, as `split` leaves it
            const std::string detail = problemOf(whole.substr(0, cut));
            if (detail.find("cut short") == std::string::npos || detail.find("line ") == std::string::npos ||
                detail.find("cut short") > detail.find("; "))
                ++wrong, ADD_FAILURE() << name << " cut after " << cut << " bytes: " << detail;
        }
    }
    for (const char* name : { "report_machine.csv", "h200/h200-series.csv", "h200/h200-machine.csv" }) {
        const std::string whole = fixture(name);
        ASSERT_FALSE(whole.empty()) << name;
        int wrong = 0;
        for (std::size_t cut = 1; cut + 1 < whole.size() && wrong < 5; cut += 1 + cut / 2000) {
            if (whole[cut - 1] == '\n')
                continue;  // a whole row's end: a shorter series
            std::istringstream in(whole.substr(0, cut));
            const auto report = readCsv(in);
            if (report.ok()) {
                const std::size_t rowStart = whole.rfind('\n', cut - 1) + 1;
                const std::size_t lastComma = whole.rfind(',', whole.find('\n', cut) - 1);
                if (rowStart > 0 && cut > lastComma)
                    continue;  // inside the last field of a row: a shorter value, which no reader can tell
                ++wrong, ADD_FAILURE() << name << " cut after " << cut << " bytes reads";
                continue;
            }
            const std::string detail = report.error().detail;
            if (detail.find("cut short") == std::string::npos || detail.find("line ") != 0)
                ++wrong, ADD_FAILURE() << name << " cut after " << cut << " bytes: " << detail;
        }
    }
}

// A file is named as it was given, with its folder: two files of one name in two folders are told apart.
TEST_F(HostileFiles, AFileIsNamedWithItsFolder)
{
    const std::string v2 = fixture("report_v2.json");
    std::filesystem::create_directories(m_dir / "old");
    const std::filesystem::path file = m_dir / "old" / "series.json";
    std::ofstream(file, std::ios::binary) << v2.substr(0, v2.size() / 2);
    const auto read = readReportFile(file.string());
    ASSERT_FALSE(read.ok());
    EXPECT_TRUE(startsWith(read.error().detail, file.string() + ": the file ends")) << read.error().detail;
    // Within the working folder, relative to it.
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(m_dir);
    const auto relative = readReportFile(file.string());
    std::filesystem::current_path(before);
    ASSERT_FALSE(relative.ok());
    EXPECT_TRUE(startsWith(relative.error().detail, "old/series.json: the file ends")) << relative.error().detail;
}

TEST(HostileReports, WhatIsNotAReportIsSaidWithTheLineAndTheField)
{
    EXPECT_EQ(problemOf("[1,2]"), "line 1: the document is a list; accepted: an object: an AsyncScope report");
    EXPECT_EQ(problemOf("\n\n7"), "line 3: the document is 7; accepted: an object: an AsyncScope report");
    EXPECT_EQ(problemOf("{\"a\": 1,\n \"format\": \"other\"}"),
        "line 2: format is \"other\"; accepted: \"asyncscope-report\": an AsyncScope report");
    EXPECT_EQ(problemOf("{\"a\": 1}"),
        "line 1: format is missing; accepted: \"asyncscope-report\": an AsyncScope report");
    EXPECT_EQ(problemOf("{\"format\": \"x\", \"runs\": []}\n"),
        "line 1: format is \"x\"; accepted: \"asyncscope-report\": an AsyncScope report");
    EXPECT_EQ(problemOf("{\n\"format\": \"asyncscope-report\",\n\"runs\": [tru]}"),
        "line 3, column 13: not valid JSON at '\"runs\": [tru]'");
    EXPECT_EQ(problemOf("{\"format\": \"asyncscope-report\",\n  \"x\": nul}"),
        "line 2, column 11: not valid JSON at '\"x\": nul}'");
}

TEST(HostileReports, RoomForTheRunsIsBoundedByTheFile)
{
    // A first run line of a few bytes must not size the room for the runs by the file's length over it: a GiB
    // file whose first line is "{}" once reserved room for 2^28 runs (about 20 GiB of columns).
    EXPECT_EQ(json_read::runsToReserve(std::uintmax_t(1) << 30, 3), (std::size_t(1) << 30) / 128 + 16);
    EXPECT_EQ(json_read::runsToReserve(std::uintmax_t(1) << 30, 512), (std::size_t(1) << 30) / 512 + 16);
    EXPECT_EQ(json_read::runsToReserve(std::uintmax_t(1) << 50, 512), std::size_t(1) << 28);
}

TEST(HostileReports, EveryKeptRegressionIsRefusedNamingTheFile)
{
    const std::filesystem::path dir = std::filesystem::path(ASYNCSCOPE_TEST_DATA) / "regressions";
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (!entry.is_regular_file() || entry.path().filename() == "README.md")
            continue;
        ++files;
        const std::string name = entry.path().filename().string();
        const auto read = readReportFile(entry.path().string());
        ASSERT_FALSE(read.ok()) << name << " was read";
        const std::string message = read.error().message();
        EXPECT_NE(read.error().kind, ErrorKind::Cancelled) << message;
        EXPECT_TRUE(startsWith(message, shownPath(entry.path().string()) + ": ")) << message.substr(0, 300);
        EXPECT_TRUE(holds(message, "regressions/" + name + ": ")) << message.substr(0, 300);  // with its folder
        EXPECT_LT(message.size(), 700u) << message.substr(0, 700);
        EXPECT_FALSE(holds(message, "json.exception")) << message;
        EXPECT_FALSE(holds(message, "stoi")) << message;
    }
    EXPECT_GT(files, 0u);
}

// The files found to get through: a format-4 file cut where a line ends or holding its header alone, span begins and
// times no run has, and text after a NUL byte (where nlohmann's parser takes the input to end). Each is refused by
// every path that reads a series: the report reader (the window and --baseline) and the merge's.
TEST(HostileReports, FilesThatOnceGotThroughAreRefused)
{
    const std::filesystem::path dir = std::filesystem::path(ASYNCSCOPE_TEST_DATA) / "regressions";
    const std::pair<const char*, const char*> cases[] = {
        { "format4_cut_at_a_line_break.json",
            "the file ends after 4 of the 20 measured runs its header counts (its last run on line 6): it is cut short" },
        { "format4_header_without_runs.json", "the file ends after its header (line 1) and holds no runs" },
        { "format4_span_begin_minus_5.json", "run 2 (line 4): spans[0] is from -5 to" },
        { "format4_span_begin_minus_1e308.json", "run 2 (line 4): spans[0] is from -1e+308 to" },
        { "format4_gpu_time_1e308.json", "run 2 (line 4): gpu_time_ms is 1e+308; accepted: at most 1e9 ms" },
        { "format4_text_after_a_nul_byte.json", "run 0 (line 2): column 1: a NUL byte, which no JSON text holds" },
        { "format2_text_after_a_nul_byte.json", ": a NUL byte, which no JSON text holds" },
        { "cut_inside_the_last_field.csv", "line 9 is cut short: the file ends inside the row" },
    };
    for (const auto& [name, words] : cases) {
        SCOPED_TRACE(name);
        const std::string path = (dir / name).string();
        const auto read = readReportFile(path);
        ASSERT_FALSE(read.ok());
        EXPECT_TRUE(startsWith(read.error().message(), shownPath(path) + ": ")) << read.error().message();
        EXPECT_TRUE(holds(read.error().message(), words)) << read.error().message();
        const auto merged = readResultFile(path);
        ASSERT_FALSE(merged.ok());
        EXPECT_TRUE(holds(merged.error().message(), words)) << merged.error().message();
        const auto series = readSeriesFile(path);
        ASSERT_FALSE(series.ok());
        EXPECT_TRUE(holds(series.error().message(), words)) << series.error().message();
    }
}

// A series whose header says it stopped early reads whole: the count is the outcome's, not the configuration's.
TEST(HostileReports, AWholeFormat4FileReadsWithItsOutcomesCount)
{
    const std::string path = std::string(ASYNCSCOPE_TEST_DATA) + "/h200/h200-series.json";
    const auto read = readReportFile(path);
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->runs.size(), 21u);
}
