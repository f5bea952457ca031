// Every JSON format version behind readJson: format 4 (JSON Lines) written and read, line by line too; formats 1 to
// 3 from tests/data; and hostile files, each refused with the line or run and the field at fault.
#include "engine/io/json/json_report.hpp"
#include "engine/io/report_file.hpp"
#include "engine/run/plan_advice.hpp"

#include "classic_runs.hpp"
#include "json_text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using namespace asyncscope;
using asyncscope::testing::linesOf;
using asyncscope::testing::problemOf;

namespace {

std::string fixture(const std::string& name)
{
    std::ifstream in(std::string(ASYNCSCOPE_TEST_DATA) + "/" + name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::string written(const Report& report)
{
    std::ostringstream out;
    writeJson(out, report, assessSeries(report));
    return out.str();
}

Result<Report> read(const std::string& text)
{
    return asyncscope::testing::readJsonText(text);
}

Report classicWithTrace(std::size_t runs)
{
    Report report = asyncscope::testing::classicReport(runs);
    RunResult run = report.runs[1];
    run.traced = { { SpanKind::Api, 0, 0, 0, 0, 0.001, 0.004, ApiCall::MemcpyAsync } };
    std::vector<RunResult> all;
    Report out = report;
    out.runs.clear();
    for (std::size_t i = 0; i < report.runs.size(); ++i)
        out.runs.push_back(i == 1 ? run : report.runs[i]);
    return out;
}

}  // namespace

TEST(JsonFormats, FormatFourRoundTrips)
{
    const Report original = classicWithTrace(50);
    const auto back = read(written(original));
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_EQ(back->runs.size(), original.runs.size());
    for (std::size_t i = 0; i < original.runs.size(); ++i) {
        const RunResult a = original.runs[i];
        const RunResult b = back->runs[i];
        EXPECT_EQ(b.index, a.index);
        EXPECT_EQ(b.warmup, a.warmup);
        EXPECT_EQ(b.gpuMs, a.gpuMs);  // the shortest text that reads back as the same double
        EXPECT_EQ(b.pollIterations, a.pollIterations);
        ASSERT_EQ(b.spans.size(), a.spans.size());
        for (std::size_t k = 0; k < a.spans.size(); ++k) {
            EXPECT_EQ(b.spans[k].kind, a.spans[k].kind);
            EXPECT_EQ(b.spans[k].bytes, a.spans[k].bytes);
            EXPECT_EQ(b.spans[k].beginMs, a.spans[k].beginMs);
            EXPECT_EQ(b.spans[k].endMs, a.spans[k].endMs);
        }
        EXPECT_EQ(b.traced.size(), a.traced.size());
    }
    EXPECT_EQ(back->runs[1].traced.at(0).call, ApiCall::MemcpyAsync);
    EXPECT_EQ(back->config.bytes(), original.config.bytes());
    EXPECT_EQ(back->device.name, original.device.name);
    // Written again, the same text.
    EXPECT_EQ(written(*back), written(original));
}

TEST(JsonFormats, FormatFourWorksLineByLine)
{
    const Report report = classicWithTrace(20);
    const std::vector<std::string> lines = linesOf(written(report));
    ASSERT_EQ(lines.size(), report.runs.size() + 1);
    const nlohmann::json header = nlohmann::json::parse(lines[0]);
    EXPECT_EQ(header.at("format"), "asyncscope-report");
    EXPECT_EQ(header.at("format_version"), 4);
    EXPECT_EQ(header.at("format_version"), kReportFormatVersion);
    for (const char* block : { "device", "config", "summary" })
        EXPECT_TRUE(header.at(block).is_object()) << block;
    EXPECT_FALSE(header.contains("runs"));
    // Each run line stands alone: an object with the run's fields by name.
    for (std::size_t i = 1; i < lines.size(); ++i) {
        const nlohmann::json run = nlohmann::json::parse(lines[i]);
        ASSERT_TRUE(run.is_object()) << lines[i];
        EXPECT_EQ(run.at("run"), report.runs[i - 1].index);
        EXPECT_EQ(run.at("warmup"), report.runs[i - 1].warmup);
        EXPECT_EQ(run.at("gpu_time_ms").get<double>(), report.runs[i - 1].gpuMs);
        EXPECT_EQ(run.at("spans").size(), report.runs[i - 1].spans.size());
        EXPECT_EQ(run.contains("traced_spans"), i == 2);
    }
    // As `split` and `cat` leave it: the header and any run lines, in any grouping, read as a report once the header
    // no longer counts the runs (its outcome); while it does, fewer lines are a file cut short.
    std::string firstAndLast = lines[0] + "\n" + lines[1] + "\n" + lines.back() + "\n";
    const auto counted = read(firstAndLast);
    ASSERT_FALSE(counted.ok());
    EXPECT_NE(counted.error().message().find("measured runs its header counts"), std::string::npos)
        << counted.error().message();
    nlohmann::json uncounted = nlohmann::json::parse(lines[0]);
    uncounted.erase("outcome");
    firstAndLast = uncounted.dump() + "\n" + lines[1] + "\n" + lines.back() + "\n";
    const auto some = read(firstAndLast);
    ASSERT_TRUE(some.ok()) << some.error().message();
    ASSERT_EQ(some->runs.size(), 2u);
    EXPECT_EQ(some->runs[1].index, report.runs.back().index);
    // Blank lines and Windows line ends are passed over.
    std::string crlf;
    for (const std::string& line : lines)
        crlf += line + "\r\n\r\n";
    const auto windows = read(crlf);
    ASSERT_TRUE(windows.ok()) << windows.error().message();
    EXPECT_EQ(windows->runs.size(), report.runs.size());
}

TEST(JsonFormats, EarlierFormatsStillRead)
{
    const auto v1 = read(fixture("report_v1.json"));
    ASSERT_TRUE(v1.ok()) << v1.error().message();
    ASSERT_EQ(v1->runs.size(), 1u);
    EXPECT_EQ(v1->device.name, "Old GPU");
    EXPECT_EQ(v1->runs[0].spans.size(), 5u);  // laid out from its durations

    const auto v2 = read(fixture("report_v2.json"));
    ASSERT_TRUE(v2.ok()) << v2.error().message();
    ASSERT_EQ(v2->runs.size(), 2u);
    EXPECT_EQ(v2->runs[1].traced.size(), 2u);
    EXPECT_EQ(v2->runs[1].traced[0].call, ApiCall::MemcpyAsync);

    const auto v3 = read(fixture("report_v3_every_field.json"));
    ASSERT_TRUE(v3.ok()) << v3.error().message();
    ASSERT_EQ(v3->runs.size(), 3u);
    EXPECT_EQ(v3->runs[1].spans.back().chunk, 7);
    EXPECT_EQ(v3->runs[2].firstWrongIndex, 513);
    EXPECT_EQ(v3->runs[2].traced.at(0).call, ApiCall::MemcpyAsync);
    // Written again, format 4, the same runs.
    const auto again = read(written(*v3));
    ASSERT_TRUE(again.ok()) << again.error().message();
    EXPECT_EQ(written(*again), written(*v3));
}

TEST(JsonFormats, AComparisonHoldsEachVariantsReportAsADocument)
{
    PlanReport plan;
    plan.planned = 2;
    VariantResult v;
    v.label = "64 MiB";
    v.report = asyncscope::testing::classicReport(4);
    plan.variants.push_back(v);
    v.label = "huge";
    v.report = Report {};
    v.notRun = makeError(ErrorKind::TooLarge, "does not fit");
    plan.variants.push_back(v);
    std::ostringstream out;
    writeComparisonJson(out, plan, assessPlan(plan));
    const nlohmann::json j = nlohmann::json::parse(out.str());
    EXPECT_EQ(j.at("format"), "asyncscope-comparison");
    EXPECT_EQ(j.at("format_version"), 4);
    ASSERT_EQ(j.at("variants").size(), 2u);
    const nlohmann::json& first = j.at("variants")[0];
    EXPECT_EQ(first.at("variant"), "64 MiB");
    EXPECT_EQ(first.at("format"), "asyncscope-report");
    EXPECT_EQ(first.at("runs").size(), 4u);
    EXPECT_EQ(j.at("variants")[1].at("not_run").get<std::string>().find("does not fit") != std::string::npos, true);
    // A variant's report reads back as a report.
    const auto report = read(first.dump());
    ASSERT_TRUE(report.ok()) << report.error().message();
    EXPECT_EQ(report->runs.size(), 4u);
}

TEST(JsonFormats, HostileLinesAreRefusedNamingTheLineAndTheField)
{
    const std::vector<std::string> lines = linesOf(written(asyncscope::testing::classicReport(3)));
    const std::string header = lines[0] + "\n";
    const std::string goodRun = lines[1] + "\n";
    // A line cut short, the last of the file.
    EXPECT_EQ(problemOf(header + goodRun + lines[2].substr(0, 40)),
        "the file ends inside run 1 (line 3): it is cut short");
    // A line cut short, followed by another.
    EXPECT_EQ(problemOf(header + lines[1].substr(0, 40) + "\n" + goodRun).rfind("run 0 (line 2): not valid JSON", 0),
        0u);
    // A field of the wrong type; a field missing.
    std::string wrong = lines[1];
    wrong.replace(wrong.find("\"warmup\":true"), 13, "\"warmup\":\"yes\"");
    EXPECT_EQ(problemOf(header + goodRun + wrong + "\n"), "run 1 (line 3): warmup is not true or false");
    std::string missing = lines[1];
    missing.replace(missing.find("\"poll_iterations\":"), 18, "\"polls\":");
    EXPECT_EQ(problemOf(header + missing + "\n"), "run 0 (line 2): poll_iterations missing");
    std::string badSpan = lines[1];
    badSpan.replace(badSpan.find("[\"h2d\","), 7, "[\"h2d\",\"x\",");
    EXPECT_EQ(problemOf(header + badSpan + "\n"), "run 0 (line 2): span 0: bytes is not a whole number");
    std::string tooBig = lines[1];
    tooBig.replace(tooBig.find("\"run\":0"), 7, "\"run\":4294967296");
    EXPECT_EQ(problemOf(header + tooBig + "\n"), "run 0 (line 2): run is not a whole number");
    std::string huge = lines[1];
    huge.replace(huge.find("\"run\":0"), 7, "\"run\":99999999999999999999");
    EXPECT_EQ(problemOf(header + huge + "\n").rfind("run 0 (line 2): not valid JSON: ", 0), 0u);
    // Not a run at all; nested garbage.
    EXPECT_EQ(problemOf(header + "[1,2,3]\n").rfind("run 0 (line 2): ", 0), 0u);
    EXPECT_EQ(problemOf(header + "\"text\"\n"), "run 0 (line 2): not an object");
    EXPECT_EQ(problemOf(header + goodRun + std::string(100000, '[') + "\n").rfind("run 1 (line 3): not valid JSON", 0),
        0u);
    EXPECT_EQ(problemOf(header + goodRun + std::string(100, '[') + std::string(100, ']') + "\n"),
        "run 1 (line 3): it nests lists and objects deeper than a run does (8)");
    EXPECT_EQ(problemOf(header + "{\"run\":0,\"spans\":[[[[[[[[[[1]]]]]]]]]]}\n"),
        "run 0 (line 2): it nests lists and objects deeper than a run does (8)");
    // A line longer than any run.
    // (Refused before it is parsed, as the reader finds it: while reading, or as the parser is handed it.)
    const std::string longLine = problemOf(header + std::string(std::size_t(5) << 20, 'x') + "\n");
    EXPECT_TRUE(longLine == "line 2 is longer than 4 MiB: it is not a run" ||
        longLine == "run 0 (line 2): the line is longer than 4 MiB: it is not a run")
        << longLine;
    // More spans than a run has.
    std::string spans;
    for (int i = 0; i <= (1 << 17); ++i)
        spans += i ? ",[\"h2d\",0,0,0,1]" : "[\"h2d\",0,0,0,1]";
    EXPECT_EQ(problemOf(header + "{\"run\":0,\"warmup\":false,\"gpu_time_ms\":1,\"poll_iterations\":0,"
                                 "\"verified\":true,\"spans\":[" + spans + "]}\n"),
        "run 0 (line 2): spans holds more than 131072 spans: more than a run has");
}

TEST(JsonFormats, HostileHeadersAreRefusedNamingTheField)
{
    const std::vector<std::string> lines = linesOf(written(asyncscope::testing::classicReport(2)));
    const auto withHeader = [&](const std::string& from, const std::string& to) {
        std::string header = lines[0];
        EXPECT_NE(header.find(from), std::string::npos) << from;
        header.replace(header.find(from), from.size(), to);
        return header + "\n" + lines[1] + "\n";
    };
    // The format version, quoted as the file gives it, however big.
    const std::string newer = " (a newer AsyncScope wrote it: update to read it)";
    EXPECT_EQ(problemOf(withHeader("\"format_version\":4", "\"format_version\":99999999999999999999")),
        "line 1: format_version is 1e+20; accepted: a whole number from 1 to 4" + newer);
    EXPECT_EQ(problemOf(withHeader("\"format_version\":4", "\"format_version\":18446744073709551615")),
        "line 1: format_version is 18446744073709551615; accepted: a whole number from 1 to 4" + newer);
    EXPECT_EQ(problemOf(withHeader("\"format_version\":4", "\"format_version\":4294967297")),
        "line 1: format_version is 4294967297; accepted: a whole number from 1 to 4" + newer);
    EXPECT_EQ(problemOf(withHeader("\"format_version\":4", "\"format_version\":-1")),
        "line 1: format_version is -1; accepted: a whole number from 1 to 4");
    EXPECT_EQ(problemOf(withHeader("\"format_version\":4", "\"format_version\":\"4\"")),
        "line 1: format_version is \"4\"; accepted: a whole number from 1 to 4");
    // A field of the wrong type, a field missing, a block that is not one.
    EXPECT_EQ(problemOf(withHeader("\"runs\":", "\"runs\":\"many\",\"x\":")),
        "line 1: config.runs is \"many\"; accepted: a whole number from -2147483648 to 2147483647");
    EXPECT_EQ(problemOf(withHeader("\"elements\":", "\"elementz\":")),
        "line 1: config.elements is missing; accepted: a whole number from 0 to 18446744073709551615");
    EXPECT_EQ(problemOf(withHeader("\"config\":{", "\"config\":[{")).rfind("line 1: ", 0), std::string::npos);
    EXPECT_EQ(problemOf(withHeader("\"wait\":\"spin\"", "\"wait\":\"nap\"")),
        "line 1: config.wait is 'nap'; accepted: spin or blocking");
    EXPECT_EQ(problemOf(withHeader("\"fields\":{\"run\":", "\"fields\":{\"run\":7,\"x\":")),
        "line 1: fields.run is 7; accepted: a list of names");
    // Nested garbage in the header, on a line of its own or in a document: the field it is in named.
    const std::string deep = std::string(100, '[') + std::string(100, ']');
    const std::string tooDeep = " is lists and objects nested deeper than 64; accepted: at most 64 lists and objects "
                                "within each other";
    EXPECT_EQ(problemOf("{\"format\":\"asyncscope-report\",\"x\":" + deep + "}\n" + lines[1] + "\n"),
        "line 1: x" + tooDeep);
    EXPECT_EQ(problemOf("{\"format\":\"asyncscope-report\",\n\"x\":" + deep + ",\n\"runs\": []}"),
        "line 2: x" + tooDeep);
}

namespace {

Report withMachine()
{
    Report report = asyncscope::testing::classicReport(30);
    CopyPeak pinned;
    pinned.h2dGBps = 55.0;
    pinned.d2hGBps = 55.1;
    pinned.bytes = std::size_t(256) << 20;
    report.pinnedPeak = pinned;
    MachineState m;
    m.source = "NVML, driver 580.159.04";
    m.selfPid = 4242;
    for (int i = 0; i < 4; ++i) {
        MachineSample s;
        s.atMs = -1.5 + 25.0 * i;
        s.smClockMHz = 1980;
        s.smClockMaxMHz = 1980;
        s.clockReasons = i == 0 ? clock_reasons::kGpuIdle : 0;
        s.temperatureC = 40 + i;
        s.powerW = 120.5 + i;
        s.persistenceMode = true;
        s.linkGeneration = 5;
        s.linkWidth = 16;
        s.linkGenerationMax = 5;
        s.linkWidthMax = 16;
        if (i > 0)  // the first reading did not list processes: left out, not empty
            s.processes = std::vector<GpuProcess> { { 4242, 600u << 20, "asyncscope-cli" }, { 4243, 0, {} } };
        m.samples.push_back(s);
    }
    report.machine = m;
    return report;
}

}  // namespace

TEST(JsonFormats, TheMachinesStateAndThePinnedPeakRoundTrip_TheAdviceIsWrittenForPeople)
{
    const Report original = withMachine();
    const std::string text = written(original);
    const auto back = read(text);
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_TRUE(back->machine && back->pinnedPeak);
    EXPECT_EQ(back->pinnedPeak->h2dGBps, 55.0);
    const MachineState& m = *back->machine;
    EXPECT_EQ(m.source, "NVML, driver 580.159.04");
    EXPECT_EQ(m.selfPid, 4242u);
    ASSERT_EQ(m.samples.size(), 4u);
    EXPECT_EQ(m.samples[0].atMs, -1.5);
    EXPECT_FALSE(m.samples[0].processes.has_value());
    ASSERT_TRUE(m.samples[1].processes.has_value());
    EXPECT_EQ(m.samples[1].processes->at(0).name, "asyncscope-cli");
    EXPECT_EQ(m.samples[1].processes->at(1).pid, 4243u);
    EXPECT_EQ(m.samples[3].temperatureC, 43);
    EXPECT_EQ(m.samples[2].powerW, 122.5);
    EXPECT_FALSE(m.samples[0].memoryClockMHz.has_value());
    EXPECT_EQ(written(*back), text);

    const nlohmann::json header = nlohmann::json::parse(linesOf(text).at(0));
    ASSERT_TRUE(header.at("findings").is_array());
    bool interference = false;
    for (const auto& f : header.at("findings"))
        interference = interference || (f.at("rule") == "interference" && f.at("severity") == "warning");
    EXPECT_TRUE(interference) << header.at("findings").dump(2);
    EXPECT_EQ(header.at("machine").at("samples").at(0).at("clock_reasons_text"), "idle");
    // Older files have neither: the state is unknown, not empty.
    const auto plain = read(written(asyncscope::testing::classicReport(5)));
    ASSERT_TRUE(plain.ok());
    EXPECT_FALSE(plain->machine.has_value());
}

TEST(JsonFormats, HostileMachineBlocksAreRefusedNamingTheField_FindingsOfAnyShapeAreLeftAlone)
{
    const std::vector<std::string> lines = linesOf(written(withMachine()));
    const std::string runs = [&] {
        std::string rest;
        for (std::size_t i = 1; i < lines.size(); ++i)
            rest += lines[i] + "\n";
        return rest;
    }();
    auto withHeader = [&](const std::function<void(nlohmann::json&)>& change) {
        nlohmann::json header = nlohmann::json::parse(lines[0]);
        change(header);
        return header.dump() + "\n" + runs;
    };
    EXPECT_EQ(problemOf(withHeader([](auto& h) { h["machine"]["samples"][1]["sm_clock_mhz"] = -5; })),
        "line 1: machine.samples[1].sm_clock_mhz is -5; accepted: a whole number from 0 to 100000");
    EXPECT_EQ(problemOf(withHeader([](auto& h) { h["machine"]["samples"] = "many"; })),
        "line 1: machine.samples is \"many\"; accepted: a list of readings");
    EXPECT_EQ(problemOf(withHeader([](auto& h) { h["machine"]["samples"][2]["processes"][0]["pid"] = "me"; })),
        "line 1: machine.samples[2].processes[0].pid is \"me\"; accepted: a whole number from 0 to 4294967295");
    EXPECT_EQ(problemOf(withHeader([](auto& h) { h["machine"]["samples"][0]["at_ms"] = nullptr; })),
        "line 1: machine.samples[0].at_ms is null; accepted: a number");
    const std::string longName = problemOf(withHeader([](auto& h) {
        h["machine"]["samples"][1]["processes"][0]["name"] = std::string(std::size_t(1) << 20, 'x');
    }));
    EXPECT_NE(longName.find("machine.samples[1].processes[0].name"), std::string::npos) << longName.substr(0, 300);
    const std::string tooMany = problemOf(withHeader([](auto& h) {
        h["machine"]["samples"] = nlohmann::json::array();
        for (std::size_t i = 0; i <= kMaxMachineSamplesRead; ++i)
            h["machine"]["samples"].push_back({ { "at_ms", 0 } });
    }));
    EXPECT_NE(tooMany.find("at most 100000 readings"), std::string::npos) << tooMany.substr(0, 300);
    EXPECT_NE(problemOf(withHeader([](auto& h) { h["pinned_peak"]["h2d_gbps"] = -1; })).find("pinned_peak.h2d_gbps"),
        std::string::npos);
    // The advice is judged again on reading: whatever the file says of it is not read.
    EXPECT_EQ(problemOf(withHeader([](auto& h) { h["findings"] = 7; })), "");
    EXPECT_EQ(problemOf(withHeader([](auto& h) { h["findings"] = { { { "rule", nullptr } } }; })), "");
    EXPECT_EQ(problemOf(withHeader([](auto& h) { h["not_checked"] = "x"; })), "");
}

TEST(JsonFormats, ARecordedSeriesBesideAnotherProcessIsJudgedSoAgainWhenRead)
{
    for (const char* name : { "h200/h200-machine.json", "h200/h200-machine.csv" }) {
        const auto report = readReportFile(std::string(ASYNCSCOPE_TEST_DATA) + "/" + name);
        ASSERT_TRUE(report.ok()) << name << ": " << report.error().message();
        ASSERT_TRUE(report->machine.has_value()) << name;
        const Advice advice = judgeSeries(*report, summarizeSeries(*report));
        ASSERT_FALSE(advice.findings.empty()) << name;
        EXPECT_EQ(advice.findings.front().rule, rules::kInterference) << name;
        // Severe against the model where the calibration is kept (JSON); a CSV has none: a warning.
        EXPECT_EQ(advice.findings.front().severity,
            std::string(name).find(".json") != std::string::npos ? Severity::Severe : Severity::Warning)
            << name;
    }
}
