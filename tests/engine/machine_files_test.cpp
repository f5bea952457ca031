// The machine's state and the advice in every file the program writes: format-4 reports, comparisons and host records
// (the machine block read back, hostile blocks refused naming the field, findings of any shape left alone), CSV rows
// (a reading per change), the comparison CSV's Findings column, and the Chrome trace's counters, processes and
// findings.
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/host_record_json.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/report_file.hpp"
#include "engine/io/result_file.hpp"
#include "engine/run/plan_advice.hpp"
#include "engine/run/plan_summary.hpp"

#include "classic_runs.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace asyncscope;
using nlohmann::json;

namespace {

constexpr std::uint32_t kSelf = 1000;

MachineSample fullSample(double atMs)
{
    MachineSample s;
    s.atMs = atMs;
    s.smClockMHz = 1980;
    s.smClockMaxMHz = 1980;
    s.memoryClockMHz = 3201;
    s.memoryClockMaxMHz = 3201;
    s.clockReasons = 0;
    s.temperatureC = 40;
    s.powerW = 130.5;
    s.persistenceMode = true;
    s.linkGeneration = 5;
    s.linkWidth = 16;
    s.linkGenerationMax = 5;
    s.linkWidthMax = 16;
    s.processes = std::vector<GpuProcess> { { kSelf, 600u << 20, "asyncscope-cli" } };
    return s;
}

// Readings every 10 ms from 5 ms before the first run: the first full, the second with power and processes unread,
// the third with another process (PID 554, no name), the fourth with it gone and the clock held by the power cap.
MachineState machineOf(const Report& r)
{
    MachineState m;
    m.source = "NVML, driver 580.159.04";
    m.selfPid = kSelf;
    const std::size_t last = r.runs.size() - 1;
    const double end = r.runs.startMs(last) + r.runs.gpuMs(last);
    int k = 0;
    for (double t = -5.0; t < end + 10.0; t += 10.0, ++k) {
        MachineSample s = fullSample(t);
        if (k == 1) {
            s.powerW.reset();
            s.processes.reset();
            s.memoryClockMHz.reset();
        }
        if (k == 2 || k == 3)
            s.processes->push_back({ 554, 2u << 20, {} });
        if (k == 4) {
            s.smClockMHz = 1410;
            s.clockReasons = clock_reasons::kSwPowerCap;
            s.temperatureC = 71;
        }
        m.samples.push_back(s);
    }
    return m;
}

Report withMachine(std::size_t runs = 30)
{
    Report r = asyncscope::testing::classicReport(runs);
    r.machine = machineOf(r);
    return r;
}

std::string jsonOf(const Report& r)
{
    std::ostringstream out;
    writeJson(out, r, assessSeries(r));
    return out.str();
}

std::string csvOf(const Report& r)
{
    std::ostringstream out;
    writeCsv(out, r);
    return out.str();
}

Result<Report> readJsonText(const std::string& text)
{
    std::istringstream in(text);
    return readJson(in);
}

Result<Report> readCsvText(const std::string& text)
{
    std::istringstream in(text);
    return readCsv(in);
}

// What a read of `text` says went wrong; empty when it read.
std::string jsonProblem(const std::string& text)
{
    const auto r = readJsonText(text);
    return r.ok() ? std::string() : r.error().detail;
}

std::string csvProblem(const std::string& text)
{
    const auto r = readCsvText(text);
    return r.ok() ? std::string() : r.error().detail;
}

// The format-4 text of `r` with its header changed by `change`.
std::string withHeader(const Report& r, const std::function<void(json&)>& change)
{
    const std::string text = jsonOf(r);
    const std::size_t end = text.find('\n');
    json header = json::parse(text.substr(0, end));
    change(header);
    return header.dump() + text.substr(end);
}

void expectSameSample(const MachineSample& a, const MachineSample& b, std::size_t k)
{
    EXPECT_EQ(a.atMs, b.atMs) << k;
    EXPECT_EQ(a.smClockMHz, b.smClockMHz) << k;
    EXPECT_EQ(a.smClockMaxMHz, b.smClockMaxMHz) << k;
    EXPECT_EQ(a.memoryClockMHz, b.memoryClockMHz) << k;
    EXPECT_EQ(a.memoryClockMaxMHz, b.memoryClockMaxMHz) << k;
    EXPECT_EQ(a.clockReasons, b.clockReasons) << k;
    EXPECT_EQ(a.temperatureC, b.temperatureC) << k;
    EXPECT_EQ(a.powerW, b.powerW) << k;
    EXPECT_EQ(a.persistenceMode, b.persistenceMode) << k;
    EXPECT_EQ(a.linkGeneration, b.linkGeneration) << k;
    EXPECT_EQ(a.linkWidth, b.linkWidth) << k;
    EXPECT_EQ(a.linkGenerationMax, b.linkGenerationMax) << k;
    EXPECT_EQ(a.linkWidthMax, b.linkWidthMax) << k;
    ASSERT_EQ(a.processes.has_value(), b.processes.has_value()) << k;
    if (!a.processes)
        return;
    ASSERT_EQ(a.processes->size(), b.processes->size()) << k;
    for (std::size_t p = 0; p < a.processes->size(); ++p) {
        EXPECT_EQ(a.processes->at(p).pid, b.processes->at(p).pid) << k;
        EXPECT_EQ(a.processes->at(p).name, b.processes->at(p).name) << k;
    }
}

// The classic pipeline as K = 64 on S = 4 streams, its CPU submit `submitMs` per run: submit-bound when it is a good
// part of the GPU time.
Report chunkedReport(Submission submission, double submitMs)
{
    Report r = asyncscope::testing::classicReport(12);
    r.config.chunks = 64;
    r.config.streams = 4;
    r.config.submission = submission;
    RunStore runs;
    for (std::size_t i = 0; i < r.runs.size(); ++i) {
        RunResult run = r.runs[i];
        for (Span& s : run.spans) {
            if (s.kind == SpanKind::Submit)
                s.endMs = submitMs;
            if (s.kind == SpanKind::Wait)
                s.beginMs = submitMs;
        }
        runs.push_back(run);
    }
    r.runs = std::move(runs);
    return r;
}

PlanReport submissionPlan()
{
    PlanReport plan;
    plan.comparison = Comparison::Submission;
    plan.planned = 2;
    plan.variants.push_back({ "stream K=64 S=4", chunkedReport(Submission::Stream, 1.6), std::nullopt, std::nullopt });
    plan.variants.push_back({ "graph K=64 S=4", chunkedReport(Submission::Graph, 0.8), std::nullopt, std::nullopt });
    for (VariantResult& v : plan.variants)
        v.report.machine = machineOf(v.report);
    return plan;
}

}  // namespace

TEST(MachineFiles, FormatFourKeepsEveryReadingAndLeavesOutWhatWasNotRead)
{
    const Report original = withMachine();
    const std::string text = jsonOf(original);
    const nlohmann::ordered_json header = nlohmann::ordered_json::parse(text.substr(0, text.find('\n')));
    const auto& m = header.at("machine");
    EXPECT_EQ(m.at("source"), "NVML, driver 580.159.04");
    EXPECT_FALSE(m.contains("unavailable"));
    EXPECT_EQ(m.at("self_pid"), kSelf);
    const json& second = m.at("samples").at(1);
    EXPECT_FALSE(second.contains("power_w"));
    EXPECT_FALSE(second.contains("processes"));
    EXPECT_FALSE(second.contains("memory_clock_mhz"));
    EXPECT_EQ(m.at("samples").at(4).at("clock_reasons"), clock_reasons::kSwPowerCap);
    EXPECT_EQ(m.at("samples").at(4).at("clock_reasons_text"), "power cap");
    EXPECT_EQ(m.at("samples").at(2).at("processes").at(1).dump(), R"({"pid":554,"used_bytes":2097152})");
    // The header's keys in the order the file shows them: the machine and the advice after the calibration.
    std::vector<std::string> keys;
    for (const auto& [key, value] : header.items())
        keys.push_back(key);
    const auto at = [&keys](const char* key) { return std::find(keys.begin(), keys.end(), key) - keys.begin(); };
    EXPECT_LT(at("summary"), at("machine"));
    EXPECT_LT(at("machine"), at("findings"));
    EXPECT_LT(at("findings"), at("not_checked"));
    EXPECT_LT(at("not_checked"), at("fields"));
    for (const auto& f : header.at("findings")) {
        for (const char* key : { "rule", "title", "severity", "evidence", "action", "run_ranges", "stages" })
            EXPECT_TRUE(f.contains(key)) << key << " in " << f.dump();
    }

    const auto back = readJsonText(text);
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_TRUE(back->machine.has_value());
    EXPECT_EQ(back->machine->source, original.machine->source);
    EXPECT_EQ(back->machine->selfPid, kSelf);
    ASSERT_EQ(back->machine->samples.size(), original.machine->samples.size());
    for (std::size_t k = 0; k < original.machine->samples.size(); ++k)
        expectSameSample(back->machine->samples[k], original.machine->samples[k], k);
    EXPECT_EQ(jsonOf(*back), text);

    // A state that could not be read keeps why, and no readings.
    Report unread = asyncscope::testing::classicReport(5);
    unread.machine.emplace();
    unread.machine->unavailable = "libnvidia-ml.so.1 did not load";
    const auto none = readJsonText(jsonOf(unread));
    ASSERT_TRUE(none.ok()) << none.error().message();
    ASSERT_TRUE(none->machine.has_value());
    EXPECT_EQ(none->machine->unavailable, "libnvidia-ml.so.1 did not load");
    EXPECT_TRUE(none->machine->samples.empty());
}

TEST(MachineFiles, EarlierFilesReadWithoutAMachine)
{
    for (const char* name : { "report_v1.json", "report_v2.json", "report_v3_every_field.json", "h200/h200-series.json",
             "h200/h200-cupti.json", "h200/h200-series.csv" }) {
        const auto report = readReportFile(std::string(ASYNCSCOPE_TEST_DATA) + "/" + name);
        ASSERT_TRUE(report.ok()) << name << ": " << report.error().message();
        EXPECT_FALSE(report->machine.has_value()) << name;
        EXPECT_FALSE(report->pinnedPeak.has_value()) << name;
    }
    // A format-4 header without the keys (an earlier version's file) reads as well.
    const std::string old = withHeader(asyncscope::testing::classicReport(5), [](json& h) {
        h.erase("findings");
        h.erase("not_checked");
    });
    const auto report = readJsonText(old);
    ASSERT_TRUE(report.ok()) << report.error().message();
    EXPECT_FALSE(report->machine.has_value());
}

TEST(MachineFiles, TheSeedFilesReadWithTheirReadings)
{
    const std::string data = ASYNCSCOPE_TEST_DATA;
    for (const char* name : { "report_v4_machine.json", "report_machine.csv" }) {
        const auto report = readReportFile(data + "/" + name);
        ASSERT_TRUE(report.ok()) << name << ": " << report.error().message();
        ASSERT_TRUE(report->machine.has_value()) << name;
        EXPECT_GE(report->machine->samples.size(), 3u) << name;
        EXPECT_EQ(report->machine->selfPid, kSelf) << name;
    }
    const auto record = readResultFile(data + "/machine_record.host.json");
    ASSERT_TRUE(record.ok()) << record.error().message();
    ASSERT_EQ(record->devices.size(), 1u);
    for (const VariantResult& v : record->devices[0].plan.variants)
        EXPECT_TRUE(v.report.machine.has_value()) << v.label;
}

TEST(MachineFiles, HostileReadingsAreRefusedNamingTheField)
{
    const Report r = withMachine(8);
    const auto problem = [&r](const std::function<void(json&)>& change) { return jsonProblem(withHeader(r, change)); };
    EXPECT_EQ(problem([](json& h) { h["machine"]["samples"][3]["sm_clock_mhz"] = -5; }),
        "line 1: machine.samples[3].sm_clock_mhz is -5; accepted: a whole number from 0 to 100000");
    EXPECT_EQ(problem([](json& h) { h["machine"]["samples"][0]["memory_clock_mhz"] = 1e9; }).rfind(
                  "line 1: machine.samples[0].memory_clock_mhz is ", 0),
        0u);
    EXPECT_EQ(problem([](json& h) { h["machine"]["samples"] = { { "at_ms", 0 } }; }).rfind("line 1: machine.samples", 0),
        0u);
    EXPECT_EQ(problem([](json& h) { h["machine"]["samples"] = 12; }),
        "line 1: machine.samples is 12; accepted: a list of readings");
    EXPECT_EQ(problem([](json& h) { h["machine"]["samples"][1] = "hot"; }).rfind("line 1: machine.samples[1]", 0), 0u);
    EXPECT_NE(problem([](json& h) { h["machine"]["samples"][2]["temperature_c"] = "warm"; })
                  .find("machine.samples[2].temperature_c"),
        std::string::npos);
    EXPECT_NE(problem([](json& h) { h["machine"]["samples"][2]["power_w"] = -1.0; }).find("machine.samples[2].power_w"),
        std::string::npos);
    EXPECT_NE(problem([](json& h) { h["machine"]["samples"][2]["clock_reasons"] = -1; })
                  .find("machine.samples[2].clock_reasons"),
        std::string::npos);
    EXPECT_NE(problem([](json& h) { h["machine"]["samples"][2]["persistence_mode"] = 2; })
                  .find("machine.samples[2].persistence_mode"),
        std::string::npos);
    EXPECT_NE(problem([](json& h) { h["machine"]["samples"][2]["pcie_width"] = 4096; }).find("machine.samples[2].pcie_width"),
        std::string::npos);
    EXPECT_NE(problem([](json& h) { h["machine"]["samples"][2]["processes"] = { { "pid", 1 } }; })
                  .find("machine.samples[2].processes"),
        std::string::npos);
    EXPECT_NE(problem([](json& h) { h["machine"]["samples"][2]["processes"][1]["used_bytes"] = -3; })
                  .find("machine.samples[2].processes[1].used_bytes"),
        std::string::npos);
    EXPECT_NE(problem([](json& h) { h["machine"]["self_pid"] = -1; }).find("machine.self_pid"), std::string::npos);
    EXPECT_NE(problem([](json& h) { h["machine"]["source"] = 3; }).find("machine.source"), std::string::npos);
    EXPECT_NE(problem([](json& h) { h["machine"] = json::array(); }).find("machine"), std::string::npos);
    EXPECT_NE(problem([](json& h) { h["pinned_peak"] = "fast"; }).find("pinned_peak"), std::string::npos);

    // A process name of 1 MB: refused, its text cut in the message.
    const std::string longName = problem(
        [](json& h) { h["machine"]["samples"][0]["processes"][0]["name"] = std::string(std::size_t(1) << 20, 'n'); });
    EXPECT_EQ(longName.rfind("line 1: machine.samples[0].processes[0].name", 0), 0u) << longName.substr(0, 200);
    EXPECT_LT(longName.size(), 1000u);
    // 1025 processes in one reading.
    const std::string crowd = problem([](json& h) {
        json list = json::array();
        for (int p = 0; p <= 1024; ++p)
            list.push_back({ { "pid", p } });
        h["machine"]["samples"][0]["processes"] = list;
    });
    EXPECT_EQ(crowd.rfind("line 1: machine.samples[0].processes is a list of 1025; accepted: at most 1024", 0), 0u)
        << crowd;
}

TEST(MachineFiles, AMillionReadingsAreRefusedNamingTheField)
{
    const Report r = withMachine(4);
    const std::string text = withHeader(r, [](json& h) {
        json samples = json::array();
        for (int k = 0; k < 1000000; ++k)
            samples.push_back(json::object({ { "at_ms", k } }));
        h["machine"]["samples"] = std::move(samples);
    });
    const std::string problem = jsonProblem(text);
    // Refused before the readings are counted: a tree of a million of them takes more than their text allows.
    EXPECT_EQ(problem.rfind("line 1: machine.samples is larger than AsyncScope writes", 0), 0u)
        << problem.substr(0, 300);
}

TEST(MachineFiles, FindingsOfAnyShapeAreLeftAlone)
{
    const Report r = withMachine(8);
    std::string deep = "1";
    for (int d = 0; d < 40; ++d)
        deep = "[" + deep + "]";
    const std::vector<std::function<void(json&)>> changes = {
        [](json& h) { h["findings"] = nullptr; },
        [](json& h) { h["findings"] = "none"; },
        [](json& h) { h["findings"] = { 1, "x", nullptr, json::object() }; },
        [](json& h) { h["findings"] = { { { "rule", 7 }, { "severity", "apocalyptic" }, { "run_ranges", "all" } } }; },
        [](json& h) { h["findings"] = { { { "run_ranges", { { -1, 1e300 } } }, { "stages", "maybe" } } }; },
        [](json& h) { h["findings"] = { { { "evidence", std::string(std::size_t(1) << 20, 'e') } } }; },
        [&deep](json& h) { h["findings"] = json::parse(deep); },
        [](json& h) { h["not_checked"] = { { { "rule", json::array() }, { "why", 3 } } }; },
        [](json& h) { h["not_checked"] = 1.5; },
        [](json& h) { h["machine"]["samples"][0]["clock_reasons_text"] = 42; },  // for people: not read
    };
    for (std::size_t k = 0; k < changes.size(); ++k) {
        const auto back = readJsonText(withHeader(r, changes[k]));
        ASSERT_TRUE(back.ok()) << k << ": " << back.error().message();
        EXPECT_EQ(back->runs.size(), r.runs.size()) << k;
        EXPECT_TRUE(back->machine.has_value()) << k;
    }
}

TEST(MachineFiles, AComparisonsVariantsAreJudgedBesideOneAnother)
{
    const PlanReport plan = submissionPlan();
    const std::vector<Advice> advice = advisePlan(plan, summarizePlan(plan));
    const auto submitBound = [](const Advice& a) {
        return std::find_if(a.findings.begin(), a.findings.end(), [](const Finding& f) { return f.rule == "submit-bound"; });
    };
    ASSERT_NE(submitBound(advice[0]), advice[0].findings.end());
    ASSERT_NE(submitBound(advice[0])->evidence.find("graph K=64 S=4 submits in"), std::string::npos);

    std::ostringstream out;
    writeComparisonJson(out, plan, assessPlan(plan));
    const json doc = json::parse(out.str());
    const json& first = doc.at("variants").at(0);
    ASSERT_TRUE(first.contains("machine"));
    bool learned = false;
    for (const json& f : first.at("findings"))
        learned = learned || f.at("evidence").get<std::string>().find("graph K=64 S=4 submits in") != std::string::npos;
    EXPECT_TRUE(learned) << first.at("findings").dump(2);

    // The comparison CSV: a Findings column naming each variant's findings and their severity.
    std::ostringstream csv;
    writeComparisonCsv(csv, plan, assessPlan(plan));
    std::istringstream lines(csv.str());
    std::string header, row;
    std::getline(lines, header);
    std::getline(lines, row);
    EXPECT_EQ(header.substr(header.rfind(',') + 1), "Findings");
    std::string expected;
    for (const Finding& f : advice[0].findings)
        expected += (expected.empty() ? "" : "; ") + f.rule + " (" + std::string(nameOf(f.severity)) + ")";
    EXPECT_NE(expected.find("submit-bound (suggestion)"), std::string::npos) << expected;
    EXPECT_NE(expected.find("interference ("), std::string::npos) << expected;
    EXPECT_EQ(row.substr(row.size() - expected.size() - 2), "\"" + expected + "\"") << row;
}

TEST(MachineFiles, AHostRecordKeepsEachVariantsMachineAndItsPlansAdvice)
{
    HostReport host;
    host.host = "node1";
    host.driverVersion = 13000;
    host.runtimeVersion = 13000;
    host.comparison = Comparison::Submission;
    DeviceResult device;
    device.device = asyncscope::testing::classicReport(1).device;
    device.plan = submissionPlan();
    host.devices.push_back(device);

    std::ostringstream out;
    writeHostRecordJson(out, host, assessHost(host));
    const json doc = json::parse(out.str());
    const json& report = doc.at("devices").at(0).at("variants").at(0).at("report");
    ASSERT_TRUE(report.contains("machine"));
    bool learned = false;
    for (const json& f : report.at("findings"))
        learned = learned || f.at("evidence").get<std::string>().find("graph K=64 S=4 submits in") != std::string::npos;
    EXPECT_TRUE(learned) << report.at("findings").dump(2);

    std::istringstream in(out.str());
    const auto back = readHostRecordJson(in);
    ASSERT_TRUE(back.ok()) << back.error().message();
    const Report& variant = back->devices.at(0).plan.variants.at(1).report;
    ASSERT_TRUE(variant.machine.has_value());
    const MachineState& original = *host.devices[0].plan.variants[1].report.machine;
    ASSERT_EQ(variant.machine->samples.size(), original.samples.size());
    for (std::size_t k = 0; k < original.samples.size(); ++k)
        expectSameSample(variant.machine->samples[k], original.samples[k], k);

    // A hostile reading inside a record is refused with its place in the record.
    std::string text = out.str();
    const std::string clock = "\"sm_clock_mhz\": 1410";
    ASSERT_NE(text.find(clock), std::string::npos);
    text.replace(text.find(clock), clock.size(), "\"sm_clock_mhz\": -5");
    std::istringstream bad(text);
    const auto refused = readHostRecordJson(bad);
    ASSERT_FALSE(refused.ok());
    EXPECT_NE(refused.error().detail.find("devices[0].variants[0].report"), std::string::npos)
        << refused.error().detail;
    EXPECT_NE(refused.error().detail.find("machine.samples[4].sm_clock_mhz is -5"), std::string::npos)
        << refused.error().detail;
}

TEST(MachineFiles, CsvRowsRoundTripAReadingPerChange)
{
    const Report original = withMachine();
    const std::string text = csvOf(original);
    std::istringstream lines(text);
    std::string header;
    std::getline(lines, header);
    for (const char* column : { "Machine State", "SM Clock (MHz)", "Memory Clock (MHz)", "Clock Reasons",
             "GPU Temperature (C)", "GPU Power (W)", "PCIe Generation", "PCIe Width", "GPU Processes" })
        EXPECT_NE(header.find(column), std::string::npos) << column;
    const auto back = readCsvText(text);
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_TRUE(back->machine.has_value());
    EXPECT_EQ(back->machine->selfPid, kSelf);
    // Each reading in force at a run's start comes back once, at the first run that saw it; readings alike in every
    // column but their time, one after the other, as one.
    const auto csvText = [](const MachineSample& s) {
        std::string text = std::to_string(s.smClockMHz.value_or(-1)) + "/" + std::to_string(s.memoryClockMHz.value_or(-1))
            + "/" + std::to_string(s.clockReasons.value_or(99)) + "/" + std::to_string(s.temperatureC.value_or(-1)) + "/"
            + std::to_string(s.powerW.value_or(-1.0)) + "/" + (s.processes ? "" : "unread");
        for (const GpuProcess& p : s.processes ? *s.processes : std::vector<GpuProcess>())
            text += std::to_string(p.pid) + p.name + ";";
        return text;
    };
    std::vector<const MachineSample*> seen;
    for (std::size_t i = 0; i < original.runs.size(); ++i) {
        const double start = original.runs.startMs(i);
        const MachineSample* in = &original.machine->samples.front();
        for (const MachineSample& s : original.machine->samples)
            in = s.atMs <= start ? &s : in;
        if (seen.empty() || csvText(*seen.back()) != csvText(*in))
            seen.push_back(in);
    }
    ASSERT_GE(seen.size(), 4u);
    ASSERT_EQ(back->machine->samples.size(), seen.size());
    for (std::size_t k = 0; k < seen.size(); ++k) {
        MachineSample expected = *seen[k];
        expected.atMs = back->machine->samples[k].atMs;
        expected.persistenceMode.reset();  // not a column
        if (expected.processes) {
            for (GpuProcess& p : *expected.processes)
                p.usedBytes = 0;  // not a column
        }
        expectSameSample(back->machine->samples[k], expected, k);
    }
    // The second reading left power and the processes unread: empty cells, read back as unknown.
    EXPECT_FALSE(back->machine->samples[1].powerW.has_value());
    EXPECT_FALSE(back->machine->samples[1].processes.has_value());
    EXPECT_EQ(back->machine->samples[2].processes->at(1).pid, 554u);

    // Written again, the rows are the same.
    EXPECT_EQ(csvOf(*back), text);
}

TEST(MachineFiles, HostileCsvCellsAreRefusedNamingTheColumn)
{
    const std::string text = csvOf(withMachine(6));
    std::istringstream lines(text);
    std::string header, row;
    std::getline(lines, header);
    std::getline(lines, row);
    const auto cells = [](const std::string& line) {
        std::vector<std::string> out(1);
        bool quoted = false;
        for (char c : line) {
            if (c == '"')
                quoted = !quoted;
            if (c == ',' && !quoted)
                out.emplace_back();
            else
                out.back() += c;
        }
        return out;
    };
    const std::vector<std::string> names = cells(header);
    const auto withCell = [&](const std::string& column, const std::string& value) {
        std::vector<std::string> values = cells(row);
        const auto at = std::find(names.begin(), names.end(), column) - names.begin();
        EXPECT_LT(std::size_t(at), names.size()) << column;
        values[std::size_t(at)] = value;
        std::string line;
        for (std::size_t i = 0; i < values.size(); ++i)
            line += (i ? "," : "") + values[i];
        return header + "\n" + line + "\n";
    };
    EXPECT_NE(csvProblem(withCell("SM Clock (MHz)", "-5")).find("column 'SM Clock (MHz)': '-5' is not empty or a whole"),
        std::string::npos);
    EXPECT_NE(csvProblem(withCell("GPU Temperature (C)", "hot")).find("column 'GPU Temperature (C)'"), std::string::npos);
    EXPECT_NE(csvProblem(withCell("GPU Power (W)", "nan")).find("column 'GPU Power (W)'"), std::string::npos);
    EXPECT_NE(csvProblem(withCell("Clock Reasons", "-1")).find("column 'Clock Reasons'"), std::string::npos);
    EXPECT_NE(csvProblem(withCell("PCIe Width", "99999")).find("column 'PCIe Width'"), std::string::npos);
    EXPECT_NE(csvProblem(withCell("GPU Processes", "12; x")).find("column 'GPU Processes'"), std::string::npos);
    EXPECT_NE(csvProblem(withCell("GPU Processes", "12 " + std::string(300, 'n'))).find("column 'GPU Processes'"),
        std::string::npos);
    std::string many;
    for (int p = 0; p <= 1024; ++p)
        many += (p ? "; " : "") + std::to_string(p);
    EXPECT_NE(csvProblem(withCell("GPU Processes", many)).find("column 'GPU Processes'"), std::string::npos);
    // A name of 1 MB makes a row no export writes.
    EXPECT_NE(csvProblem(withCell("GPU Processes", "12 " + std::string(std::size_t(1) << 20, 'n'))).find("longer than"),
        std::string::npos);
    EXPECT_EQ(csvProblem(withCell("GPU Processes", "none")), "");
    EXPECT_EQ(csvProblem(withCell("GPU Processes", "")), "");
}
