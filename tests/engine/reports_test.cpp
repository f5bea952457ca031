#include "engine/io/chrome_trace.hpp"
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/report_file.hpp"
#include "engine/io/text_report.hpp"
#include "engine/model/series_summary.hpp"
#include "engine/model/size_parse.hpp"
#include "engine/run/plan_advice.hpp"

#include "classic_runs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <functional>
#include <sstream>

using namespace asyncscope;

namespace {

Report sampleReport()
{
    Report r;
    r.device.index = 0;
    r.device.name = "Test GPU";
    r.device.computeMajor = 9;
    r.device.multiprocessors = 132;
    r.device.totalMemoryBytes = std::size_t(140) << 30;
    r.device.uuid = "GPU-01234567-89ab-cdef-0123-456789abcdef";
    r.device.pciBusId = "0000:19:00.0";
    r.device.asyncEngineCount = 3;
    r.driverVersion = 13000;
    r.runtimeVersion = 13000;
    r.config.runs = 2;
    r.config.warmupRuns = 1;
    for (int i = 0; i < 3; ++i) {
        RunResult run;
        run.index = i;
        run.warmup = i == 0;
        run.gpuMs = 2.5 + 0.01 * i;
        run.pollIterations = 12345 + i;
        SerialDurations d;
        d.bytes = r.config.bytes();
        d.submitMs = 0.02;
        d.waitMs = 2.48;
        d.h2dMs = 1.2;
        d.kernelMs = 0.08;
        d.d2hMs = 1.22 + 0.01 * i;
        run.spans = serialSpans(0, d);
        run.spans.push_back({ SpanKind::Check, 0, 1, 0, r.config.bytes(), 2.6, 3.6 + i });
        run.expectedValue = 26 * (i + 1);
        run.verified = true;
        r.runs.push_back(run);
    }
    r.outcome.emplace();
    r.outcome->measuredRuns = 2;
    r.outcome->noisePercent = 0.28;
    r.peak = CopyPeak { 54.9, 55.0, std::size_t(256) << 20, true, 99.7 };
    return r;
}

// The report as one JSON document (writeJsonDocument), parsed: what a host record or a comparison holds.
nlohmann::json documentOf(const Report& report)
{
    std::ostringstream out;
    writeJsonDocument(out, report, assessSeries(report));
    return nlohmann::json::parse(out.str());
}

}  // namespace

TEST(TextReport, RunHasTheSamplesThreeLines)
{
    RunResult run;
    run.index = 4;
    run.gpuMs = 2.514;
    run.spans = { { SpanKind::Submit, 0, 0, 0, 0, 0.0, 0.0212 } };
    run.pollIterations = 41234;
    run.verified = true;
    const std::string text = formatRunText(run);
    EXPECT_NE(text.find("time spent executing by the GPU: 2.51\n"), std::string::npos) << text;
    EXPECT_NE(text.find("time spent by CPU in CUDA calls: 0.02\n"), std::string::npos);
    EXPECT_NE(text.find("CPU executed 41234 iterations while waiting for GPU to finish\n"), std::string::npos);
    EXPECT_EQ(text.find("WRONG"), std::string::npos);
}

TEST(TextReport, WrongElementIsNamed)
{
    RunResult run;
    run.firstWrongIndex = 513;
    run.firstWrongValue = 25;
    run.expectedValue = 52;
    EXPECT_NE(formatRunText(run).find("WRONG: element 513 is 25, expected 52"), std::string::npos);
}

TEST(TextReport, WrongElementNamesTheRunsExpectedValueNotTheConfiguredOne)
{
    RunResult run;
    run.index = 7;
    run.firstWrongIndex = 513;
    run.firstWrongValue = 25;
    run.expectedValue = 208;  // the buffer's carried value plus 26: not 26 itself
    EXPECT_EQ(formatWrongElement(run), "run 7 returned a wrong element: index 513 is 25, expected 208");
}

TEST(TextReport, SummaryHasStatisticsAndBandwidth)
{
    const Report report = sampleReport();
    const std::string text = formatSummaryText(report, assessSeries(report));
    EXPECT_NE(text.find("2 measured runs, 1 warm-up, 3 of 3 verified"), std::string::npos) << text;
    EXPECT_NE(text.find("GPU time"), std::string::npos);
    EXPECT_NE(text.find("H2D bandwidth                    55.9 GB/s"), std::string::npos) << text;
    EXPECT_NE(text.find("Host peak H2D, pinned            54.9 GB/s"), std::string::npos) << text;
    EXPECT_NE(text.find("Host peak D2H, pinned            55.0 GB/s"), std::string::npos) << text;
    EXPECT_NE(text.find("(host peak from pinned copies of 256.0 MiB, cached; serial bound and modelled time for 64.0 MiB)"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("Serial PCIe bound                2.4425 ms"), std::string::npos) << text;
    EXPECT_NE(text.find("Host check"), std::string::npos) << text;
}

TEST(TextReport, SummarySaysWhyCuptiWasNotUsed)
{
    Report report = sampleReport();
    report.config.traceSource = TraceSource::Cupti;
    report.outcome->traceNote = "CUPTI could not start recording: CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED";
    EXPECT_NE(formatSummaryText(report, assessSeries(report)).find("CUPTI not used: CUPTI could not start recording"),
        std::string::npos);
    report.outcome->traceNote.clear();
    EXPECT_NE(formatSummaryText(report, assessSeries(report)).find("traced by CUPTI"), std::string::npos);
}

TEST(CopyCalibration, SerialBoundAddsBothCopies)
{
    const CopyPeak peak { 50.0, 25.0, 0, false };
    EXPECT_DOUBLE_EQ(serialBoundMs(1000000000, peak), 20.0 + 40.0);
    EXPECT_DOUBLE_EQ(serialBoundMs(1000, CopyPeak {}), 0.0);
}

TEST(CsvReport, HeaderAndOneRowPerRunWithDeviceAndConfiguration)
{
    std::ostringstream out;
    writeCsv(out, sampleReport());
    std::istringstream in(out.str());
    std::string line;
    std::vector<std::string> lines;
    while (std::getline(in, line))
        lines.push_back(line);
    ASSERT_EQ(lines.size(), 4u);
    EXPECT_EQ(lines[0].rfind("Device Index,Device,UUID,PCI Bus Id,Compute Capability,Driver Version,Runtime Version,"
                             "Elements,Size (B),Value,Threads/Block,Chunks,Streams,Issue Order,Submission,Host Memory,Wait,Check,"
                             "Copy,Managed Migration,Managed Advice,Prefer Overlap,Host Register (ms),Host Unregister (ms),"
                             "Host Registered (B),Machine State,Program,Working Folder,Iterations Found By,Exit Code,"
                             "Signal,Stopped,Run,Warm-up,GPU Time (ms),"
                             "CPU Time (ms),Poll Iterations",
                  0),
        0u)
        << lines[0];
    const auto columns = [](const std::string& l) { return std::count(l.begin(), l.end(), ',') + 1; };
    for (const auto& l : lines)
        EXPECT_EQ(columns(l), columns(lines[0])) << l;
    EXPECT_EQ(lines[1].rfind("0,Test GPU,GPU-01234567-89ab-cdef-0123-456789abcdef,0000:19:00.0,9.0,13000,13000,16777216,"
                             "67108864,26,512,1,1,chunk,stream,pinned,spin,overlapped,ce,prefetch,none,0,,,,,,,,,,,0,1,2.5,0.02,12345,",
                  0),
        0u)
        << lines[1];
    EXPECT_NE(lines[3].find(",2,0,2.52,"), std::string::npos) << lines[3];
}

TEST(CsvReport, RoundTrips)
{
    Report original = sampleReport();
    original.device.name = "Lab GPU, \"rack 2\"";  // needs quoting
    original.config.checkMode = CheckMode::Serial;
    original.config.hostMemory = HostMemory::Pageable;
    original.config.chunks = 3;
    original.config.streams = 2;
    original.config.submission = Submission::Graph;
    original.runs.update(1, [](RunResult& run) {  // no stage events: no GPU spans
        auto& spans = run.spans;
        spans.erase(
            std::remove_if(spans.begin(), spans.end(), [](const Span& x) { return onGpu(x.kind); }), spans.end());
    });
    original.runs.update(2, [](RunResult& run) {
        run.verified = false;
        run.firstWrongIndex = 513;
        run.firstWrongValue = 25;
    });
    std::stringstream buffer;
    writeCsv(buffer, original);
    const auto read = readCsv(buffer);
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->device.name, original.device.name);
    EXPECT_EQ(read->device.uuid, original.device.uuid);
    EXPECT_EQ(read->device.pciBusId, original.device.pciBusId);
    EXPECT_EQ(read->device.computeMajor, 9);
    EXPECT_EQ(read->driverVersion, 13000);
    EXPECT_EQ(read->config.elements, original.config.elements);
    EXPECT_EQ(read->config.hostMemory, HostMemory::Pageable);
    EXPECT_EQ(read->config.checkMode, CheckMode::Serial);
    EXPECT_EQ(read->config.chunks, 3);
    EXPECT_EQ(read->config.streams, 2);
    EXPECT_EQ(read->config.submission, Submission::Graph);
    EXPECT_EQ(read->config.runs, 2);
    EXPECT_EQ(read->config.warmupRuns, 1);
    ASSERT_EQ(read->runs.size(), original.runs.size());
    for (std::size_t i = 0; i < original.runs.size(); ++i) {
        const RunResult& a = original.runs[i];
        const RunResult& b = read->runs[i];
        EXPECT_EQ(b.index, a.index);
        EXPECT_EQ(b.warmup, a.warmup);
        EXPECT_DOUBLE_EQ(b.gpuMs, a.gpuMs);
        EXPECT_DOUBLE_EQ(b.cpuSubmitMs(), a.cpuSubmitMs());
        EXPECT_DOUBLE_EQ(b.waitMs(), a.waitMs());
        EXPECT_EQ(b.pollIterations, a.pollIterations);
        EXPECT_EQ(b.stagesTimed(), a.stagesTimed()) << i;
        if (a.stagesTimed()) {
            EXPECT_DOUBLE_EQ(b.totalMs(SpanKind::D2H), a.totalMs(SpanKind::D2H));
            EXPECT_DOUBLE_EQ(b.totalMs(SpanKind::H2D), a.totalMs(SpanKind::H2D));
            EXPECT_EQ(b.totalBytes(SpanKind::Kernel), 2 * original.config.bytes());
        }
        EXPECT_EQ(b.verified, a.verified);
        EXPECT_EQ(b.firstWrongIndex, a.firstWrongIndex);
        EXPECT_EQ(b.firstWrongValue, a.firstWrongValue);
        EXPECT_EQ(b.expectedValue, a.expectedValue);
    }
}

TEST(CsvReport, FindsColumnsByNameAndToleratesSpreadsheetHabits)
{
    std::ostringstream out;
    writeCsv(out, sampleReport());
    std::string text = out.str();
    // A byte-order mark and CRLF line ends, as a spreadsheet saves them.
    std::string edited = "\xEF\xBB\xBF";
    for (const char c : text)
        edited += c == '\n' ? std::string("\r\n") : std::string(1, c);
    std::istringstream in(edited);
    const auto read = readCsv(in);
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->runs.size(), 3u);
    EXPECT_EQ(read->device.name, "Test GPU");
}

TEST(CsvReport, AFileFromBeforeChunksReadsAsTheClassicPipeline)
{
    std::ostringstream out;
    writeCsv(out, sampleReport());
    std::istringstream lines(out.str());
    std::string line, old;
    while (std::getline(lines, line)) {  // drop the four workload-shape columns, as earlier versions wrote it
        const auto at = line.find(",1,1,chunk,stream,");
        old += (at == std::string::npos ? line : line.substr(0, at) + "," + line.substr(at + 18));
        old += '\n';
    }
    const auto headerAt = old.find(",Chunks,Streams,Issue Order,Submission,");
    ASSERT_NE(headerAt, std::string::npos);
    old.erase(headerAt, std::string(",Chunks,Streams,Issue Order,Submission").size());
    std::istringstream in(old);
    const auto read = readCsv(in);
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->config.chunks, 1);
    EXPECT_EQ(read->config.streams, 1);
    EXPECT_EQ(read->config.submission, Submission::Stream);
    EXPECT_EQ(read->runs.size(), 3u);
}

class CsvRejects : public ::testing::TestWithParam<std::pair<std::string, std::string>> { };

TEST_P(CsvRejects, WithAMessageNamingTheProblem)
{
    std::istringstream in(GetParam().first);
    const auto read = readCsv(in);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().kind, ErrorKind::Io);
    EXPECT_NE(read.error().message().find(GetParam().second), std::string::npos) << read.error().message();
}

namespace {

std::string sampleCsvWith(const std::string& from, const std::string& to)
{
    std::ostringstream out;
    writeCsv(out, sampleReport());
    std::string text = out.str();
    text.replace(text.find(from), from.size(), to);
    return text;
}

std::string sampleCsvHeader()
{
    std::ostringstream out;
    writeCsv(out, sampleReport());
    return out.str().substr(0, out.str().find('\n') + 1);
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Malformed, CsvRejects,
    ::testing::Values(std::pair<std::string, std::string> { "", "empty" },
        std::pair<std::string, std::string> { "a,b,c\n1,2,3\n", "no 'Device Index' column" },
        std::pair<std::string, std::string> { sampleCsvWith(",2.51,", ",fast,"), "line 3, column 'GPU Time (ms)'" },
        std::pair<std::string, std::string> { sampleCsvWith(",spin,", ",sleep,"),
            "column 'Wait': 'sleep' is not spin or blocking" },
        std::pair<std::string, std::string> { sampleCsvWith(",pinned,", ",bogus,"),
            "column 'Host Memory': 'bogus' is not pinned, pageable, write-combined, registered, mapped or managed" },
        std::pair<std::string, std::string> { sampleCsvWith("Test GPU,", "\"Test GPU,"), "unterminated quote" },
        std::pair<std::string, std::string> { sampleCsvWith(",12346,", ",12346,7,"), "line 3 has" },
        std::pair<std::string, std::string> { sampleCsvHeader(), "no runs" }));

TEST(JsonReport, HasDeviceConfigSummaryAndRuns)
{
    const nlohmann::json j = documentOf(sampleReport());
    EXPECT_EQ(j.at("device").at("name"), "Test GPU");
    EXPECT_EQ(j.at("device").at("uuid"), "GPU-01234567-89ab-cdef-0123-456789abcdef");
    EXPECT_EQ(j.at("config").at("host_memory"), "pinned");
    EXPECT_EQ(j.at("summary").at("samples"), 2);
    EXPECT_EQ(j.at("runs").size(), 3u);
    EXPECT_EQ(j.at("outcome").at("stop_reason"), "run count");
    EXPECT_EQ(j.at("format_version"), kReportFormatVersion);
    // Every run carries its spans, each run an object of named fields, its spans arrays of the fields the document
    // names once; the summary has each distribution by key and the figures.
    const auto field = [&](const char* list, const char* name) {
        const auto& names = j.at("fields").at(list);
        return std::size_t(std::find(names.begin(), names.end(), name) - names.begin());
    };
    EXPECT_EQ(j.at("fields").at("run").size(), 12u);
    // No device, chunk or call: no span has them.
    EXPECT_EQ(j.at("fields").at("span"), nlohmann::json({ "kind", "stream", "bytes", "begin_ms", "end_ms" }));
    const nlohmann::json& run = j.at("runs").at(1);
    EXPECT_EQ(run.at("run"), 1);
    EXPECT_EQ(run.size(), 11u);  // no traced spans
    EXPECT_FALSE(run.contains("traced_spans"));
    EXPECT_EQ(j.at("fields").at("run").at(field("run", "spans")), "spans");
    const nlohmann::json& spans = run.at("spans");
    ASSERT_EQ(spans.size(), 6u);
    EXPECT_EQ(spans.at(0).at(field("span", "kind")), "h2d");
    EXPECT_EQ(spans.at(0).at(field("span", "bytes")), sampleReport().config.bytes());
    EXPECT_DOUBLE_EQ(spans.at(1).at(field("span", "begin_ms")).get<double>(), 1.2);
    EXPECT_EQ(spans.at(5).at(field("span", "kind")), "check");
    EXPECT_EQ(spans.at(5).at(field("span", "stream")), 1);
    EXPECT_DOUBLE_EQ(j.at("summary").at("h2d_ms").at("median").get<double>(), 1.2);
    EXPECT_DOUBLE_EQ(j.at("summary").at("cpu_submit_time_ms").at("median").get<double>(), 0.02);
    EXPECT_TRUE(j.at("summary").contains("check_ms"));
    EXPECT_TRUE(j.at("summary").contains("gpu_time_over_serial_bound"));
}

TEST(JsonReport, ReadsAVersionOneReportWithoutSpans)
{
    // As the release before spans wrote it: stage and CPU times as fields of each run.
    const char* text = R"({"format": "asyncscope-report", "format_version": 1,
        "device": {"index": 0, "name": "Old GPU", "compute_capability": "9.0"},
        "config": {"device": 0, "elements": 16777216, "value": 26, "threads_per_block": 512, "runs": 1,
                   "warmup_runs": 0, "host_memory": "pinned", "wait": "spin", "stage_events": true},
        "runs": [{"run": 0, "warmup": false, "gpu_time_ms": 2.5, "cpu_submit_time_ms": 0.03, "poll_iterations": 9000,
                  "wait_ms": 2.47, "verified": true, "h2d_ms": 1.22, "kernel_ms": 0.06, "d2h_ms": 1.22}]})";
    std::istringstream in(text);
    const auto read = readJson(in);
    ASSERT_TRUE(read.ok()) << read.error().message();
    ASSERT_EQ(read->runs.size(), 1u);
    const RunResult& run = read->runs.front();
    EXPECT_DOUBLE_EQ(run.cpuSubmitMs(), 0.03);
    EXPECT_DOUBLE_EQ(run.waitMs(), 2.47);
    EXPECT_NEAR(run.totalMs(SpanKind::Kernel), 0.06, 1e-12);
    EXPECT_DOUBLE_EQ(run.spans.at(2).beginMs, 1.28);  // D2H after H2D and the kernel
    EXPECT_EQ(read->config.checkMode, CheckMode::Serial);
    const SeriesSummary s = summarizeSeries(*read);
    EXPECT_NEAR(s.value(keys::kH2dRate), 55.0, 0.1);
}

class JsonRejectsAChoice : public ::testing::TestWithParam<std::pair<std::string, std::string>> { };

TEST_P(JsonRejectsAChoice, NamingTheFieldAndWhatItAccepts)
{
    nlohmann::json j = documentOf(sampleReport());
    const auto& [pointer, expected] = GetParam();
    j[nlohmann::json::json_pointer(pointer)] = "bogus";
    std::istringstream in(j.dump());
    const auto read = readJson(in);
    ASSERT_FALSE(read.ok()) << pointer;
    EXPECT_EQ(read.error().kind, ErrorKind::Io);
    EXPECT_NE(read.error().message().find(expected), std::string::npos) << read.error().message();
}

INSTANTIATE_TEST_SUITE_P(UnknownNames, JsonRejectsAChoice,
    ::testing::Values(std::pair<std::string, std::string> { "/config/host_memory",
                          "line 1: config.host_memory is 'bogus'; accepted: pinned, pageable, write-combined, registered, mapped or managed" },
        std::pair<std::string, std::string> { "/config/wait",
            "line 1: config.wait is 'bogus'; accepted: spin or blocking" },
        std::pair<std::string, std::string> { "/config/check",
            "line 1: config.check is 'bogus'; accepted: overlapped or serial" },
        std::pair<std::string, std::string> { "/config/stop_rule",
            "line 1: config.stop_rule is 'bogus'; accepted: fixed or noise" },
        std::pair<std::string, std::string> { "/outcome/stop_reason",
            "line 1: outcome.stop_reason is 'bogus'; accepted: run count" },
        std::pair<std::string, std::string> { "/runs/0/spans/0/0",
            "run 0 (line 1): span 0: kind 'bogus' is not h2d, kernel" }));

TEST(ReportFile, ErrorsNameTheFile)
{
    const std::string path = ::testing::TempDir() + "/asyncscope-bad-host-memory.csv";
    {
        std::ofstream out(path);
        std::ostringstream csv;
        writeCsv(csv, sampleReport());
        std::string text = csv.str();
        text.replace(text.find(",pinned,"), 8, ",bogus,");
        out << text;
    }
    const auto read = readReportFile(path);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().message().rfind(path + ": line 2, column 'Host Memory'", 0), 0u)
        << read.error().message();
    const auto missing = readReportFile(::testing::TempDir() + "/no-such-file.json");
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.error().message().find("no-such-file.json: cannot be opened"), std::string::npos);
}

TEST(JsonReport, RoundTrips)
{
    Report original = sampleReport();
    original.config.chunks = 16;
    original.config.streams = 4;
    original.config.order = IssueOrder::ByStage;
    original.config.submission = Submission::Graph;
    original.config.traceSource = TraceSource::Cupti;
    original.outcome->traceNote = "CUPTI could not start: (a note)";
    original.runs.update(1, [](RunResult& run) {
        run.startMs = 2.75;
        run.traced = { { SpanKind::Api, 0, 0, 0, 0, 0.001, 0.004, ApiCall::GraphLaunch },
            { SpanKind::H2D, 0, 2, 6, 4096, 0.01, 0.02, ApiCall::None } };
    });
    std::stringstream buffer;
    writeJson(buffer, original, assessSeries(original));
    const auto read = readJson(buffer);
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->device.name, original.device.name);
    EXPECT_EQ(read->device.uuid, original.device.uuid);
    EXPECT_EQ(read->device.computeMajor, 9);
    EXPECT_EQ(read->config.elements, original.config.elements);
    EXPECT_EQ(read->config.waitMode, original.config.waitMode);
    EXPECT_EQ(read->config.checkMode, original.config.checkMode);
    EXPECT_EQ(read->config.chunks, original.config.chunks);
    EXPECT_EQ(read->config.streams, original.config.streams);
    EXPECT_EQ(read->config.order, original.config.order);
    EXPECT_EQ(read->config.submission, original.config.submission);
    ASSERT_EQ(read->runs.size(), original.runs.size());
    for (std::size_t i = 0; i < original.runs.size(); ++i) {
        EXPECT_EQ(read->runs[i].warmup, original.runs[i].warmup);
        EXPECT_DOUBLE_EQ(read->runs[i].gpuMs, original.runs[i].gpuMs);
        EXPECT_DOUBLE_EQ(read->runs[i].totalMs(SpanKind::D2H), original.runs[i].totalMs(SpanKind::D2H));
        ASSERT_EQ(read->runs[i].spans.size(), original.runs[i].spans.size());
        for (std::size_t k = 0; k < original.runs[i].spans.size(); ++k) {
            const Span a = original.runs[i].spans[k];
            const Span b = read->runs[i].spans[k];
            EXPECT_EQ(b.kind, a.kind);
            EXPECT_EQ(b.stream, a.stream);
            EXPECT_EQ(b.bytes, a.bytes);
            EXPECT_DOUBLE_EQ(b.beginMs, a.beginMs);
            EXPECT_DOUBLE_EQ(b.endMs, a.endMs);
        }
        EXPECT_EQ(read->runs[i].pollIterations, original.runs[i].pollIterations);
        EXPECT_EQ(read->runs[i].expectedValue, original.runs[i].expectedValue);
    }
    EXPECT_EQ(read->config.traceSource, TraceSource::Cupti);
    EXPECT_EQ(read->outcome->traceNote, original.outcome->traceNote);
    EXPECT_DOUBLE_EQ(read->runs[1].startMs, 2.75);
    ASSERT_EQ(read->runs[1].traced.size(), 2u);
    EXPECT_EQ(read->runs[1].traced[0].call, ApiCall::GraphLaunch);
    EXPECT_EQ(read->runs[1].traced[1].chunk, 6);
    EXPECT_TRUE(read->runs[0].traced.empty());
    ASSERT_TRUE(read->peak.has_value());
    EXPECT_DOUBLE_EQ(read->peak->h2dGBps, 54.9);
    EXPECT_DOUBLE_EQ(read->peak->bidirectionalGBps, original.peak->bidirectionalGBps);
    ASSERT_TRUE(read->outcome.has_value());
    EXPECT_EQ(read->outcome->reason, StopReason::RunCount);
    EXPECT_EQ(documentOf(*read), documentOf(original));
}

TEST(JsonReport, RejectsWhatIsNotAReport)
{
    for (const char* text : { "not json", "{\"format\": \"other\"}", "[1,2]", "{\"format\": 5}",
             "{\"format\": \"asyncscope-report\", \"device\": {}}" }) {
        std::istringstream in(text);
        const auto read = readJson(in);
        ASSERT_FALSE(read.ok()) << text;
        EXPECT_EQ(read.error().kind, ErrorKind::Io);
        EXPECT_FALSE(read.error().detail.empty());
    }
}

namespace {

std::string writtenJson(const Report& report)
{
    std::ostringstream out;
    writeJson(out, report, assessSeries(report));
    return out.str();
}

// A file of tests/data.
std::string fixture(const std::string& name)
{
    std::ifstream in(std::string(ASYNCSCOPE_TEST_DATA) + "/" + name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// A format 4 file's lines parsed one by one: the header with the run lines gathered under "runs", the same object
// writeJsonDocument writes.
nlohmann::json documentOfLines(const std::string& text)
{
    std::istringstream lines(text);
    std::string line;
    std::getline(lines, line);
    nlohmann::json document = nlohmann::json::parse(line);
    document["runs"] = nlohmann::json::array();
    while (std::getline(lines, line))
        document["runs"].push_back(nlohmann::json::parse(line));
    return document;
}

std::string tempFile(const std::string& name, const std::string& text)
{
    const std::string path = ::testing::TempDir() + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

template <class Run>
void expectSameRun(const Run& a, const Run& b)
{
    EXPECT_EQ(b.index, a.index);
    EXPECT_EQ(b.warmup, a.warmup);
    EXPECT_EQ(b.startMs, a.startMs);
    EXPECT_EQ(b.gpuMs, a.gpuMs);
    EXPECT_EQ(b.pollIterations, a.pollIterations);
    EXPECT_EQ(b.waitCpuMs, a.waitCpuMs);
    EXPECT_EQ(b.expectedValue, a.expectedValue);
    EXPECT_EQ(b.verified, a.verified);
    EXPECT_EQ(b.firstWrongIndex, a.firstWrongIndex);
    EXPECT_EQ(b.firstWrongValue, a.firstWrongValue);
    for (std::vector<Span> RunResult::*lists : { &RunResult::spans, &RunResult::traced }) {
        ASSERT_EQ((b.*lists).size(), (a.*lists).size());
        for (std::size_t k = 0; k < (a.*lists).size(); ++k) {
            const Span& x = (a.*lists)[k];
            const Span& y = (b.*lists)[k];
            EXPECT_EQ(y.kind, x.kind);
            EXPECT_EQ(y.device, x.device);
            EXPECT_EQ(y.stream, x.stream);
            EXPECT_EQ(y.chunk, x.chunk);
            EXPECT_EQ(y.bytes, x.bytes);
            EXPECT_EQ(y.beginMs, x.beginMs);
            EXPECT_EQ(y.endMs, x.endMs);
            EXPECT_EQ(y.call, x.call);
        }
    }
}

// A report whose spans use every field: two devices, streams, chunks, api calls.
Report everyFieldReport()
{
    Report r = sampleReport();
    r.config.chunks = 8;  // room for the streams and chunks its spans name
    r.config.streams = 4;
    r.runs.update(1, [](RunResult& run) { run.spans.push_back({ SpanKind::Kernel, 1, 3, 7, 4096, 0.25, 0.5 }); });
    r.runs.update(2, [](RunResult& run) {
        run.traced = { { SpanKind::Api, 0, 0, 0, 0, 0.001, 0.004, ApiCall::MemcpyAsync },
            { SpanKind::D2H, 0, 2, 6, 4096, 0.01, 0.02, ApiCall::None } };
        run.verified = false;
        run.firstWrongIndex = 513;
        run.firstWrongValue = 25;
    });
    return r;
}

}  // namespace

TEST(JsonReport, WritesTheHeaderOnLineOneThenARunALine)
{
    const Report report = everyFieldReport();
    const std::string text = writtenJson(report);
    EXPECT_EQ(text.rfind("{\"format\":\"asyncscope-report\",\"format_version\":4,\"device\":{\"", 0), 0u) << text;
    EXPECT_NE(text.find(",\"fields\":{\"run\":[\"run\",\"warmup\",\"start_ms\",\"gpu_time_ms\",\"poll_iterations\","
                        "\"wait_cpu_ms\",\"expected_value\",\"verified\",\"first_wrong_index\",\"first_wrong_value\","
                        "\"spans\",\"traced_spans\"],\"span\":[\"kind\",\"device\",\"stream\",\"chunk\",\"bytes\","
                        "\"begin_ms\",\"end_ms\",\"call\"]}}\n{\"run\":0,"),
        std::string::npos)
        << text;
    // One run a line, spans inside it, nothing after the runs.
    std::istringstream lines(text);
    std::vector<std::string> runLines;
    for (std::string line; std::getline(lines, line);)
        runLines.push_back(line);
    ASSERT_EQ(runLines.size(), 4u);
    EXPECT_EQ(text.back(), '\n');
    EXPECT_EQ(runLines[1].rfind("{\"run\":0,\"warmup\":true,\"start_ms\":0,\"gpu_time_ms\":2.5,\"poll_iterations\":12345,"
                                "\"wait_cpu_ms\":0,\"expected_value\":26,\"verified\":true,\"first_wrong_index\":-1,"
                                "\"first_wrong_value\":0,\"spans\":[[\"h2d\",0,0,0,67108864,0,1.2],",
                  0),
        0u)
        << runLines[1];
    EXPECT_EQ(runLines[2].back(), '}');
    EXPECT_NE(runLines[3].find(",\"verified\":false,\"first_wrong_index\":513,\"first_wrong_value\":25,\"spans\":[["),
        std::string::npos)
        << runLines[3];
    EXPECT_NE(runLines[3].find("]],\"traced_spans\":[[\"api\",0,0,0,0,0.001,0.004,\"cudaMemcpyAsync\"],"
                               "[\"d2h\",0,2,6,4096,0.01,0.02]]}"),
        std::string::npos)
        << runLines[3];
    // The same report writeJsonDocument gives, line by line.
    EXPECT_EQ(documentOfLines(text), documentOf(report));
}

TEST(JsonReport, LeavesOutSpanFieldsNoSpanUses)
{
    const std::string text = writtenJson(sampleReport());
    EXPECT_NE(text.find("\"span\":[\"kind\",\"stream\",\"bytes\",\"begin_ms\",\"end_ms\"]"), std::string::npos)
        << text;
    EXPECT_NE(text.find("[[\"h2d\",0,67108864,0,1.2],"), std::string::npos) << text;
}

TEST(JsonReport, EveryFieldRoundTripsInItsOwnLayoutAndInAnyOther)
{
    const Report original = everyFieldReport();
    const std::string written = writtenJson(original);
    std::ostringstream laidOut;
    writeJsonDocument(laidOut, original, assessSeries(original));
    const nlohmann::json document = documentOf(original);
    // Its own layout; as one document, laid out as records hold it; indented all through; on one line with the keys
    // sorted ("fields" before "runs"), as a tool that rewrites the file leaves it.
    for (const std::string& text :
        { written, laidOut.str(), document.dump(2), document.dump(), document.dump(-1) + "\n\n" }) {
        std::istringstream in(text);
        const auto read = readJson(in);
        ASSERT_TRUE(read.ok()) << read.error().message() << "\n" << text.substr(0, 200);
        ASSERT_EQ(read->runs.size(), original.runs.size());
        for (std::size_t i = 0; i < original.runs.size(); ++i)
            expectSameRun(original.runs[i], read->runs[i]);
        EXPECT_EQ(documentOf(*read), document);
    }
}

TEST(JsonReport, AVersionThreeFileReadsInItsLayoutAndInAnyOther)
{
    // Written by format 3's writer from everyFieldReport() (tests/data/README.md).
    const std::string v3 = fixture("report_v3_every_field.json");
    EXPECT_NE(v3.find("\n  \"runs\": [\n    [0,true,0,2.5,12345,0,26,true,-1,0,[[\"h2d\",0,0,0,67108864,0,1.2],"),
        std::string::npos);
    const Report original = everyFieldReport();
    const nlohmann::json document = nlohmann::json::parse(v3);
    EXPECT_EQ(document.at("format_version"), 3);
    for (const std::string& text : { v3, document.dump(2), document.dump(), document.dump(-1) + "\n\n" }) {
        std::istringstream in(text);
        const auto read = readJson(in);
        ASSERT_TRUE(read.ok()) << read.error().message() << "\n" << text.substr(0, 200);
        ASSERT_EQ(read->runs.size(), original.runs.size());
        for (std::size_t i = 0; i < original.runs.size(); ++i)
            expectSameRun(original.runs[i], read->runs[i]);
        EXPECT_EQ(documentOf(*read), documentOf(original));
    }
}

TEST(JsonReport, ReadsAVersionTwoReportWithSpansAndTracedSpans)
{
    // As the release before compact runs wrote it: every run and span an object, indented like the rest.
    const char* text = R"({
  "calibration": {"bidirectional_gbps": 99.7, "bytes": 268435456, "cached": true, "d2h_gbps": 55.0, "h2d_gbps": 54.9},
  "config": {
    "bytes": 67108864, "check": "overlapped", "check_threads": 0, "chunks": 2, "device": 0, "elements": 16777216,
    "host_memory": "pinned", "order": "chunk", "runs": 1, "stage_events": true, "streams": 2, "submission": "stream",
    "threads_per_block": 512, "trace_source": "cupti", "value": 26, "wait": "spin", "warmup_runs": 1
  },
  "device": {"compute_capability": "9.0", "index": 0, "name": "NVIDIA H200", "uuid": "GPU-1"},
  "format": "asyncscope-report",
  "format_version": 2,
  "outcome": {"measured_runs": 1, "noise_percent": 0.0, "stop_reason": "run count"},
  "runs": [
    {
      "expected_value": 26,
      "first_wrong_index": -1,
      "gpu_time_ms": 2.5,
      "poll_iterations": 9000,
      "run": 0,
      "spans": [
        {"begin_ms": 0.0, "bytes": 33554432, "chunk": 0, "device": 0, "end_ms": 0.61, "kind": "h2d", "stream": 0},
        {"begin_ms": 0.0, "bytes": 33554432, "chunk": 1, "device": 0, "end_ms": 1.22, "kind": "h2d", "stream": 1},
        {"begin_ms": 0.0, "bytes": 0, "chunk": 0, "device": 0, "end_ms": 0.03, "kind": "submit", "stream": 0}
      ],
      "start_ms": 0.0,
      "verified": true,
      "wait_cpu_ms": 2.4,
      "warmup": true
    },
    {
      "expected_value": 52,
      "first_wrong_index": 513,
      "first_wrong_value": 25,
      "gpu_time_ms": 2.51,
      "poll_iterations": 9100,
      "run": 1,
      "spans": [
        {"begin_ms": 0.0, "bytes": 33554432, "chunk": 0, "device": 0, "end_ms": 0.62, "kind": "h2d", "stream": 0}
      ],
      "start_ms": 2.75,
      "traced_spans": [
        {"begin_ms": 0.001, "bytes": 0, "call": "cudaMemcpyAsync", "chunk": 0, "device": 0, "end_ms": 0.004,
         "kind": "api", "stream": 0},
        {"begin_ms": 0.01, "bytes": 33554432, "chunk": 1, "device": 0, "end_ms": 0.6, "kind": "h2d", "stream": 1}
      ],
      "verified": false,
      "wait_cpu_ms": 2.41,
      "warmup": false
    }
  ],
  "summary": {"samples": 1}
})";
    std::istringstream in(text);
    const auto read = readJson(in);
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->device.name, "NVIDIA H200");
    EXPECT_EQ(read->config.chunks, 2);
    EXPECT_EQ(read->config.traceSource, TraceSource::Cupti);
    ASSERT_TRUE(read->peak.has_value());
    EXPECT_DOUBLE_EQ(read->peak->bidirectionalGBps, 99.7);
    ASSERT_EQ(read->runs.size(), 2u);
    const RunResult& first = read->runs[0];
    EXPECT_TRUE(first.warmup);
    ASSERT_EQ(first.spans.size(), 3u);
    EXPECT_EQ(first.spans[1].chunk, 1);
    EXPECT_EQ(first.spans[1].stream, 1);
    EXPECT_DOUBLE_EQ(first.spans[1].endMs, 1.22);
    EXPECT_EQ(first.spans[2].kind, SpanKind::Submit);
    EXPECT_TRUE(first.traced.empty());
    const RunResult& second = read->runs[1];
    EXPECT_FALSE(second.verified);
    EXPECT_EQ(second.firstWrongIndex, 513);
    EXPECT_EQ(second.firstWrongValue, 25);
    EXPECT_DOUBLE_EQ(second.startMs, 2.75);
    ASSERT_EQ(second.traced.size(), 2u);
    EXPECT_EQ(second.traced[0].kind, SpanKind::Api);
    EXPECT_EQ(second.traced[0].call, ApiCall::MemcpyAsync);
    EXPECT_EQ(second.traced[1].bytes, 33554432u);
    EXPECT_DOUBLE_EQ(second.traced[1].endMs, 0.6);
}

class JsonFileRejects : public ::testing::TestWithParam<std::pair<std::string, std::string>> { };

// Each case: how the file is spoiled (a text to find, then what to put in its place, or "cut N" to keep the first N
// bytes after `  "runs": [` (format 3) or after line 1 (format 4), or "cut line N" to keep its first N lines), and
// what the message says after the file's name. Format 3's cases spoil tests/data/report_v3_every_field.json, format
// 4's (those that begin "v4 ") what writeJson writes of the same report.
TEST_P(JsonFileRejects, NamingTheFileAndThePlace)
{
    std::string spoil = GetParam().first;
    const std::string& expected = GetParam().second;
    const bool v4 = spoil.rfind("v4 ", 0) == 0;
    if (v4)
        spoil.erase(0, 3);
    std::string text = v4 ? writtenJson(everyFieldReport()) : fixture("report_v3_every_field.json");
    if (spoil.rfind("cut line ", 0) == 0) {
        std::size_t at = 0;
        for (int n = std::stoi(spoil.substr(9)); n > 0; --n)
            at = text.find('\n', at) + 1;
        text.resize(at);
    } else if (spoil.rfind("cut ", 0) == 0) {
        text.resize(std::size_t(std::stoi(spoil.substr(4))) + (v4 ? text.find('\n') + 1 : text.find("\"runs\": [")));
    } else {
        const std::size_t bar = spoil.find('|');
        const std::string from = spoil.substr(0, bar);
        ASSERT_NE(text.find(from), std::string::npos) << from;
        text.replace(text.find(from), from.size(), spoil.substr(bar + 1));
    }
    // A file per case: ctest runs the cases as processes of their own, side by side.
    const std::string name = "spoilt-" + std::to_string(std::hash<std::string> {}(GetParam().first) % 1000000) + ".json";
    const std::string path = tempFile(name, text);
    const auto read = readReportFile(path);
    ASSERT_FALSE(read.ok()) << spoil;
    EXPECT_EQ(read.error().kind, ErrorKind::Io);
    EXPECT_EQ(read.error().message().rfind(path + ": " + expected, 0), 0u) << read.error().message();
}

INSTANTIATE_TEST_SUITE_P(Malformed, JsonFileRejects,
    ::testing::Values(std::pair<std::string, std::string> { "cut 400",
                          "the file ends inside run 1 (line 172): it is cut short" },
        std::pair<std::string, std::string> { "cut line 2", "the file ends early, at line 2: it is cut short" },
        std::pair<std::string, std::string> { "\"asyncscope-report\"|\"something-else\"",
            "line 2: format is \"something-else\"; accepted: \"asyncscope-report\": an AsyncScope report" },
        std::pair<std::string, std::string> { "\"format_version\": 3|\"format_version\": 5",
            "line 3: format_version is 5; accepted: a whole number from 1 to 4" },
        std::pair<std::string, std::string> { "[1,false,0,2.51,|[1,false,0,\"fast\",",
            "run 1 (line 172): gpu_time_ms is not a number" },
        std::pair<std::string, std::string> { "[1,false,0,2.51,|[1,false,0,2.51.1,",
            "run 1 (line 172): not valid JSON" },
        std::pair<std::string, std::string> { "[\"check\",0,1,0,67108864,2.6,4.6]|[\"check\",0,1,0,67108864,2.6]",
            "run 1 (line 172): end_ms missing in span 5" },
        std::pair<std::string, std::string> { "[\"d2h\",0,2,6,4096,0.01,0.02]|[\"d2x\",0,2,6,4096,0.01,0.02]",
            "run 2 (line 173): traced span 1: kind 'd2x' is not h2d, kernel" },
        std::pair<std::string, std::string> { "\"host_memory\": \"pinned\"|\"host_memory\": \"bogus\"",
            "line 32: config.host_memory is 'bogus'; accepted: pinned, pageable, write-combined, registered, mapped or managed" },
        std::pair<std::string, std::string> { "v4 cut 500", "the file ends inside run 1 (line 3): it is cut short" },
        std::pair<std::string, std::string> { "v4 cut 100", "the file ends inside run 0 (line 2): it is cut short" },
        std::pair<std::string, std::string> { "v4 cut -300", "the file ends early, at line 1: it is cut short" },
        std::pair<std::string, std::string> { "v4 \"asyncscope-report\"|\"something-else\"",
            "line 1: format is \"something-else\"; accepted: \"asyncscope-report\": an AsyncScope report" },
        std::pair<std::string, std::string> { "v4 \"format_version\":4|\"format_version\":5",
            "line 1: format_version is 5; accepted: a whole number from 1 to 4" },
        std::pair<std::string, std::string> { "v4 \"run\":1,\"warmup\":false,\"start_ms\":0,\"gpu_time_ms\":2.51,|"
                                              "\"run\":1,\"warmup\":false,\"start_ms\":0,\"gpu_time_ms\":\"fast\",",
            "run 1 (line 3): gpu_time_ms is not a number" },
        std::pair<std::string, std::string> { "v4 \"gpu_time_ms\":2.51,|\"gpu_time_ms\":2.51.1,",
            "run 1 (line 3): not valid JSON" },
        std::pair<std::string, std::string> {
            "v4 [\"check\",0,1,0,67108864,2.6,4.6]|[\"check\",0,1,0,67108864,2.6]",
            "run 1 (line 3): end_ms missing in span 5" },
        std::pair<std::string, std::string> { "v4 [\"d2h\",0,2,6,4096,0.01,0.02]|[\"d2x\",0,2,6,4096,0.01,0.02]",
            "run 2 (line 4): traced span 1: kind 'd2x' is not h2d, kernel" },
        std::pair<std::string, std::string> { "v4 \"host_memory\":\"pinned\"|\"host_memory\":\"bogus\"",
            "line 1: config.host_memory is 'bogus'; accepted: pinned, pageable, write-combined, registered, mapped or managed" }));

TEST(JsonReport, AFileCutAfterARunLineSaysSo)
{
    std::string text = fixture("report_v3_every_field.json");
    text.resize(text.find("\n  ]") + 1);
    std::istringstream in(text);
    const auto read = readJson(in);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().detail,
        "the file ends after run 2 (line 173), before the list of runs is closed: it is cut short");
    // And an indented one (the document reader): the run it ends in.
    const std::string indented = documentOf(sampleReport()).dump(2);
    const std::string cutText = indented.substr(0, indented.find("\"runs\": [") + 40);
    std::istringstream cut(cutText);
    const auto early = readJson(cut);
    ASSERT_FALSE(early.ok());
    // The line it ends on, inside run 0's object (whatever the header blocks before it hold).
    const auto lastLine = std::count(cutText.begin(), cutText.end(), '\n') + 1;
    ASSERT_GT(cutText.rfind('\n'), cutText.find("\"runs\": [")) << "the cut ends on the list's own line";
    EXPECT_EQ(early.error().detail,
        "the file ends inside run 0 (line " + std::to_string(lastLine) + "): it is cut short");
    // Format 4 has no end of its list: a file cut where a line ends is told by the header's count of runs.
    const std::string lines = writtenJson(sampleReport());
    std::istringstream shorter(lines.substr(0, lines.rfind('\n', lines.size() - 2) + 1));
    const auto fewer = readJson(shorter);
    ASSERT_FALSE(fewer.ok());
    EXPECT_EQ(fewer.error().detail,
        "the file ends after 1 of the 2 measured runs its header counts (its last run on line 3): it is cut short");
}

TEST(ReportFile, ProgressIsAFractionThatGrowsToOneAtMostAHundredAndOneTimes)
{
    const Report report = asyncscope::testing::classicReport(60000);
    for (const std::string suffix : { "json", "csv" }) {
        std::ostringstream text;
        suffix == "csv" ? writeCsv(text, report) : writeJson(text, report, assessSeries(report));
        const std::string path = tempFile("progress." + suffix, text.str());
        std::vector<double> seen;
        const auto read = readReportFile(path, [&seen](double f) { seen.push_back(f); });
        ASSERT_TRUE(read.ok()) << read.error().message();
        EXPECT_EQ(read->runs.size(), report.runs.size());
        ASSERT_GE(seen.size(), 3u) << suffix;
        EXPECT_LE(seen.size(), 101u);
        EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
        EXPECT_EQ(seen.front(), 0.0);
        EXPECT_EQ(seen.back(), 1.0);
    }
}

TEST(ReportFile, ACancelFromTheProgressCallbackStopsTheRead)
{
    const Report report = asyncscope::testing::classicReport(60000);
    for (const std::string suffix : { "json", "csv" }) {
        std::ostringstream text;
        suffix == "csv" ? writeCsv(text, report) : writeJson(text, report, assessSeries(report));
        const std::string path = tempFile("cancelled." + suffix, text.str());
        std::atomic<bool> cancel { false };
        double last = 0.0;
        const auto read = readReportFile(path,
            [&](double f) {
                last = f;
                if (f > 0.0)
                    cancel = true;
            },
            &cancel);
        ASSERT_FALSE(read.ok()) << suffix;
        EXPECT_EQ(read.error().kind, ErrorKind::Cancelled);
        EXPECT_EQ(read.error().message().rfind(path + ": ", 0), 0u) << read.error().message();
        EXPECT_LT(last, 1.0);  // stopped before the end
    }
}

TEST(ReportFile, AFileTooBigForTheMemoryIsRefusedBeforeItIsRead)
{
    const auto refused = checkFitsMemory("big.json", std::uintmax_t(12) << 30, std::uintmax_t(8) << 30);
    ASSERT_TRUE(refused.has_value());
    EXPECT_EQ(refused->kind, ErrorKind::TooLarge);
    EXPECT_EQ(refused->message(),
        "big.json: too big to open here: its 12.0 GiB need about 18.1 GiB of memory once read, and 8.0 GiB are "
        "available. Close other programs, or open a shorter series.");
    EXPECT_FALSE(checkFitsMemory("small.json", std::uintmax_t(300) << 20, std::uintmax_t(8) << 30).has_value());
    EXPECT_GT(memoryToRead(std::uintmax_t(330) << 20), std::uintmax_t(420) << 20);  // a million classic runs
}

TEST(CsvReport, RowsWithQuotesSplitAsTheHeaderDoes)
{
    Report original = sampleReport();
    original.device.name = "Lab \"big\" GPU, rack 2";
    original.device.uuid = "plain";
    std::ostringstream out;
    writeCsv(out, original);
    std::string text = out.str();
    // A quote in the middle of an unquoted field opens quoting there, as a spreadsheet may write it.
    for (std::size_t at; (at = text.find(",plain,")) != std::string::npos;)
        text.replace(at, 7, ",pl\"ai,\"n,");
    std::istringstream in(text);
    const auto read = readCsv(in);
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->device.name, original.device.name);
    EXPECT_EQ(read->device.uuid, "plai,n");
}

namespace {

// A registered-memory series with the memory lab's every option set away from its default.
Report memoryLabReport()
{
    Report r = sampleReport();
    r.config.hostMemory = HostMemory::Registered;
    r.config.copy = CopyMechanism::Sm;
    r.config.managedMigration = ManagedMigration::OnDemand;
    r.config.managedAdvice = ManagedAdvice::ReadMostly;
    r.config.preferOverlap = true;
    r.outcome->hostRegisterMs = 6.8;
    r.outcome->hostUnregisterMs = 1.25;
    r.outcome->hostRegisteredBytes = 2 * r.config.bytes();
    return r;
}

void expectMemoryLabFields(const Report& read)
{
    EXPECT_EQ(read.config.hostMemory, HostMemory::Registered);
    EXPECT_EQ(read.config.copy, CopyMechanism::Sm);
    EXPECT_EQ(read.config.managedMigration, ManagedMigration::OnDemand);
    EXPECT_EQ(read.config.managedAdvice, ManagedAdvice::ReadMostly);
    EXPECT_TRUE(read.config.preferOverlap);
    ASSERT_TRUE(read.outcome.has_value());
    ASSERT_TRUE(read.outcome->hostRegisterMs.has_value());
    EXPECT_DOUBLE_EQ(*read.outcome->hostRegisterMs, 6.8);
    ASSERT_TRUE(read.outcome->hostUnregisterMs.has_value());
    EXPECT_DOUBLE_EQ(*read.outcome->hostUnregisterMs, 1.25);
    EXPECT_EQ(read.outcome->hostRegisteredBytes, 2 * read.config.bytes());
}

}  // namespace

TEST(MemoryLabFiles, EveryNewFieldRoundTripsInJsonLinesDocumentAndCsv)
{
    const Report original = memoryLabReport();
    std::stringstream lines;
    writeJson(lines, original, assessSeries(original));
    const auto fromLines = readJson(lines);
    ASSERT_TRUE(fromLines.ok()) << fromLines.error().message();
    expectMemoryLabFields(*fromLines);

    std::stringstream document;
    writeJsonDocument(document, original, assessSeries(original));
    const auto fromDocument = readJson(document);
    ASSERT_TRUE(fromDocument.ok()) << fromDocument.error().message();
    expectMemoryLabFields(*fromDocument);
    EXPECT_EQ(documentOf(*fromDocument), documentOf(original));

    std::stringstream csv;
    writeCsv(csv, original);
    const auto fromCsv = readCsv(csv);
    ASSERT_TRUE(fromCsv.ok()) << fromCsv.error().message();
    expectMemoryLabFields(*fromCsv);
    EXPECT_EQ(fromCsv->outcome->measuredRuns, 2);
}

TEST(MemoryLabFiles, AReportWithoutTheNewFieldsReadsAsTodaysDefaults)
{
    nlohmann::json document = documentOf(sampleReport());
    for (const char* key : { "copy", "managed_migration", "managed_advice", "prefer_overlap" })
        EXPECT_EQ(document.at("config").erase(key), 1u) << key;
    EXPECT_FALSE(document.at("outcome").contains("host_register_ms"));  // written only where there is one
    std::istringstream in(document.dump(2));
    const auto read = readJson(in);
    ASSERT_TRUE(read.ok()) << read.error().message();
    EXPECT_EQ(read->config.copy, CopyMechanism::CopyEngine);
    EXPECT_EQ(read->config.managedMigration, ManagedMigration::Prefetch);
    EXPECT_EQ(read->config.managedAdvice, ManagedAdvice::None);
    EXPECT_FALSE(read->config.preferOverlap);
    ASSERT_TRUE(read->outcome.has_value());
    EXPECT_FALSE(read->outcome->hostRegisterMs.has_value());
    EXPECT_FALSE(read->outcome->hostUnregisterMs.has_value());
    EXPECT_EQ(read->outcome->hostRegisteredBytes, 0u);

    // A CSV without the registration's figures has no outcome made up for it.
    std::stringstream csv;
    writeCsv(csv, sampleReport());
    const auto fromCsv = readCsv(csv);
    ASSERT_TRUE(fromCsv.ok()) << fromCsv.error().message();
    EXPECT_FALSE(fromCsv->outcome.has_value());
    EXPECT_EQ(fromCsv->config.copy, CopyMechanism::CopyEngine);
}

class MemoryLabRejects : public ::testing::TestWithParam<std::tuple<const char*, nlohmann::json, const char*>> { };

TEST_P(MemoryLabRejects, NamingTheField)
{
    const auto& [pointer, value, expected] = GetParam();
    nlohmann::json document = documentOf(memoryLabReport());
    document[nlohmann::json::json_pointer(pointer)] = value;
    std::istringstream in(document.dump());
    const auto read = readJson(in);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().kind, ErrorKind::Io);
    EXPECT_EQ(read.error().detail, expected);
}

INSTANTIATE_TEST_SUITE_P(HostileValues, MemoryLabRejects,
    ::testing::Values(std::tuple { "/config/copy", nlohmann::json("dma"),
                          "line 1: config.copy is 'dma'; accepted: ce or sm" },
        std::tuple { "/config/managed_migration", nlohmann::json(""),
            "line 1: config.managed_migration is ''; accepted: prefetch or on-demand" },
        std::tuple { "/config/managed_advice", nlohmann::json(2),
            "line 1: config.managed_advice is 2; accepted: none, prefer-device, prefer-host or read-mostly" },
        std::tuple { "/config/prefer_overlap", nlohmann::json("yes"),
            "line 1: config.prefer_overlap is \"yes\"; accepted: true or false" },
        std::tuple { "/outcome/host_register_ms", nlohmann::json(-3.4),
            "line 1: outcome.host_register_ms is -3.4; accepted: a finite number of ms, 0 or more" },
        std::tuple { "/outcome/host_unregister_ms", nlohmann::json("fast"),
            "line 1: outcome.host_unregister_ms is \"fast\"; accepted: a number" },
        std::tuple { "/outcome/host_registered_bytes", nlohmann::json(std::uint64_t(1) << 60),
            "line 1: outcome.host_registered_bytes is 1152921504606846976; accepted: a whole number of bytes from 0 to "
            "1125899906842624" },
        std::tuple { "/outcome/host_registered_bytes", nlohmann::json(-1),
            "line 1: outcome.host_registered_bytes is -1; accepted: a whole number from 0 to 18446744073709551615" }));

TEST(MemoryLabFiles, TheSummaryShowsTheRegistrationInEveryPrinter)
{
    const Report report = memoryLabReport();
    const SeriesSummary s = summarizeSeries(report);
    ASSERT_NE(s.figure("host_register_ms"), nullptr);
    EXPECT_EQ(s.figure("host_register_ms")->name, "Host registration");
    EXPECT_DOUBLE_EQ(s.value("host_register_ms"), 6.8);
    ASSERT_NE(s.figure("host_register_gbps"), nullptr);
    EXPECT_EQ(s.figure("host_register_gbps")->name, "Host registration rate");
    EXPECT_EQ(s.figure("host_register_gbps")->kind, ValueKind::Rate);
    EXPECT_DOUBLE_EQ(s.value("host_register_gbps"), 2.0 * double(report.config.bytes()) / 6.8e6);
    EXPECT_DOUBLE_EQ(s.value("host_unregister_ms"), 1.25);
    EXPECT_EQ(s.figure("host_unregister_ms")->name, "Host unregistration");
    // Pinned memory registers nothing: no figures.
    const SeriesSummary pinned = summarizeSeries(sampleReport());
    EXPECT_EQ(pinned.figure("host_register_ms"), nullptr);
    EXPECT_EQ(pinned.figure("host_register_gbps"), nullptr);
    EXPECT_EQ(pinned.figure("host_unregister_ms"), nullptr);

    const std::string text = formatSummaryText(report, assessSeries(report));
    EXPECT_NE(text.find("Host registration "), std::string::npos) << text;
    EXPECT_NE(text.find("Host registration rate"), std::string::npos) << text;
    EXPECT_NE(text.find("Host unregistration"), std::string::npos) << text;
    EXPECT_NE(text.find("cudaHostRegister of 128.0 MiB"), std::string::npos) << text;
    std::stringstream json;
    writeJson(json, report, assessSeries(report));
    const auto header = nlohmann::json::parse(json.str().substr(0, json.str().find('\n')));
    EXPECT_DOUBLE_EQ(header.at("summary").at("host_register_ms").get<double>(), 6.8);
    EXPECT_DOUBLE_EQ(header.at("summary").at("host_unregister_ms").get<double>(), 1.25);
    EXPECT_TRUE(header.at("summary").contains("host_register_gbps"));
}

TEST(MemoryLabFiles, TheConfigLineNamesTheCopyMechanismAndTheManagedOptions)
{
    PipelineConfig c;
    EXPECT_NE(formatConfigText(c).find("pinned host memory, spin wait"), std::string::npos) << formatConfigText(c);
    c.hostMemory = HostMemory::Registered;
    c.copy = CopyMechanism::Sm;
    EXPECT_NE(formatConfigText(c).find("registered host memory, SM copies"), std::string::npos) << formatConfigText(c);
    c.hostMemory = HostMemory::Managed;
    c.managedMigration = ManagedMigration::OnDemand;
    c.managedAdvice = ManagedAdvice::PreferHost;
    EXPECT_NE(formatConfigText(c).find("managed host memory (on-demand migration, advice prefer-host)"),
        std::string::npos)
        << formatConfigText(c);
    c = PipelineConfig();
    c.submission = Submission::Batch;
    c.preferOverlap = true;
    EXPECT_NE(formatConfigText(c).find("batch copies prefer overlap"), std::string::npos) << formatConfigText(c);
}

TEST(MemoryLabFiles, TheTraceNamesTheConfigAndTheRegistration)
{
    Report report = memoryLabReport();
    report.config.submission = Submission::Batch;
    std::stringstream out;
    writeChromeTrace(out, report, assessSeries(report));
    const nlohmann::json other = nlohmann::json::parse(out.str()).at("otherData");
    EXPECT_EQ(other.at("host_memory"), "registered");
    EXPECT_EQ(other.at("copy"), "sm");
    EXPECT_EQ(other.at("prefer_overlap"), true);
    EXPECT_FALSE(other.contains("managed_migration"));  // registered memory: the managed options do not apply
    EXPECT_DOUBLE_EQ(other.at("host_register_ms").get<double>(), 6.8);
    EXPECT_DOUBLE_EQ(other.at("host_unregister_ms").get<double>(), 1.25);
    EXPECT_EQ(other.at("host_registered_bytes"), 2 * report.config.bytes());
    EXPECT_NE(other.at("config").get<std::string>().find("cudaMemcpyBatchAsync, registered host memory, copies: SM copy kernel"),
        std::string::npos)
        << other.at("config");
}

TEST(MemoryLabFiles, TheComparisonShowsTheRegistrationInTextCsvAndJson)
{
    PlanReport plan;
    plan.comparison = Comparison::Memory;
    plan.variants.push_back({ "pinned", sampleReport(), std::nullopt, std::nullopt });
    plan.variants.push_back({ "registered, SM copies", memoryLabReport(), std::nullopt, std::nullopt });
    Report mapped = sampleReport();
    mapped.config.hostMemory = HostMemory::Mapped;
    plan.variants.push_back({ "mapped", mapped,
        makeError(ErrorKind::Unsupported, "mapped host memory is not available on this device"), std::nullopt });
    plan.planned = plan.variants.size();

    const std::string text = formatComparisonText(plan, assessPlan(plan));
    EXPECT_NE(text.find("Host registration (ms)"), std::string::npos) << text;
    EXPECT_NE(text.find("Host registration rate (GB/s)"), std::string::npos) << text;
    EXPECT_NE(text.find("not run: mapped host memory is not available"), std::string::npos) << text;
    // The variant column is as wide as the longest label: the columns line up.
    std::vector<std::string> rows;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        rows.push_back(line);
    ASSERT_GE(rows.size(), 4u);
    const std::string size = formatBytes(sampleReport().config.bytes());
    ASSERT_NE(rows[2].find(size), std::string::npos) << text;
    EXPECT_EQ(rows[2].find(size), rows[3].find(size)) << text;
    EXPECT_EQ(rows[1].find("size") + 4, rows[2].find(size) + size.size()) << text;  // right-aligned under its header

    std::stringstream csv;
    writeComparisonCsv(csv, plan, assessPlan(plan));
    const std::string table = csv.str();
    EXPECT_NE(table.find(",Host registration (ms),"), std::string::npos) << table;
    EXPECT_NE(table.find(",6.8,"), std::string::npos) << table;

    std::stringstream json;
    writeComparisonJson(json, plan, assessPlan(plan));
    const auto document = nlohmann::json::parse(json.str());
    const nlohmann::json& registered = document.at("variants").at(1);
    EXPECT_DOUBLE_EQ(registered.at("summary").at("host_register_ms").get<double>(), 6.8);
    EXPECT_DOUBLE_EQ(registered.at("outcome").at("host_unregister_ms").get<double>(), 1.25);
    EXPECT_EQ(registered.at("config").at("copy"), "sm");
    EXPECT_FALSE(document.at("variants").at(0).at("summary").contains("host_register_ms"));
}

TEST(MemoryLabFiles, EarlierFilesStillReadAsCopyEngineCopiesWithoutRegistration)
{
    const std::string data = ASYNCSCOPE_TEST_DATA;
    for (const char* name : { "report_v1.json", "report_v2.json", "report_v3_every_field.json", "h200/h200-series.json",
             "h200/h200-series.csv", "h200/h200-chunked.json", "h200/h200-chunked.csv", "h200/h200-cupti.json",
             "h200/h200-graph-by-stage.json", "h200/h200-noise.json" }) {
        SCOPED_TRACE(name);
        const auto read = readReportFile(data + "/" + name);
        ASSERT_TRUE(read.ok()) << read.error().message();
        EXPECT_EQ(read->config.hostMemory, HostMemory::Pinned);
        EXPECT_EQ(read->config.copy, CopyMechanism::CopyEngine);
        EXPECT_EQ(read->config.managedMigration, ManagedMigration::Prefetch);
        EXPECT_EQ(read->config.managedAdvice, ManagedAdvice::None);
        EXPECT_FALSE(read->config.preferOverlap);
        EXPECT_FALSE(read->outcome && read->outcome->hostRegisterMs);
        EXPECT_EQ(summarizeSeries(*read).figure("host_register_ms"), nullptr);
    }
}
