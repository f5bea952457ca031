// What the recorder writes, its own readers read: every recording kept under tests/data/recordings, split as the
// recorder splits it (each process a series), written as JSON (format 4, or a comparison of processes), CSV and a
// Chrome trace, and each file read back: the same runs, GPU times and program block; the trace a JSON document with
// an event for each run's spans.
#include "engine/io/chrome_trace.hpp"
#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/record_rules.hpp"
#include "engine/record/program_report.hpp"
#include "engine/record/recording.hpp"
#include "engine/run/plan_advice.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <sstream>

namespace asyncscope {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> recordings()
{
    std::vector<fs::path> found;
    for (const auto& entry : fs::directory_iterator(fs::path(ASYNCSCOPE_TEST_DATA) / "recordings"))
        if (entry.path().extension() == ".record")
            found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    return found;
}

void expectSameRuns(const Report& written, const Report& read, const std::string& what)
{
    ASSERT_EQ(read.runs.size(), written.runs.size()) << what;
    for (std::size_t i = 0; i < written.runs.size(); ++i) {
        EXPECT_EQ(read.runs.warmup(i), written.runs.warmup(i)) << what << " run " << i;
        EXPECT_NEAR(read.runs.gpuMs(i), written.runs.gpuMs(i), 1e-9 + 1e-9 * written.runs.gpuMs(i))
            << what << " run " << i;
        EXPECT_GE(read.runs.startMs(i), 0.0) << what << " run " << i;
    }
}

void expectTraceReadable(const std::string& text, const Report& report, const std::string& what)
{
    const auto trace = nlohmann::json::parse(text, nullptr, false);
    ASSERT_FALSE(trace.is_discarded()) << what << ": the trace is not JSON";
    ASSERT_TRUE(trace.contains("traceEvents")) << what;
    std::size_t complete = 0;
    for (const auto& event : trace["traceEvents"])
        complete += event.value("ph", "") == "X" ? 1 : 0;
    EXPECT_GE(complete, report.runs.size()) << what << ": fewer events than runs";
}

TEST(RecordingRoundTrip, EveryKeptRecordingsReportsReadBackAsWritten)
{
    const std::vector<fs::path> files = recordings();
    ASSERT_GE(files.size(), 4u) << "tests/data/recordings holds the recordings made on the GPU";
    for (const fs::path& path : files) {
        const std::string name = path.filename().string();
        SCOPED_TRACE(name);
        auto recording = readRecordingFile(path.string());
        ASSERT_TRUE(recording.ok()) << recording.error().message();
        ProgramInfo program;
        program.command = { name };
        programEndFrom(*recording, program);
        auto series = programSeries(*recording, {}, ProcessChoice {}, program);
        ASSERT_TRUE(series.ok()) << series.error().message();
        ASSERT_FALSE(series->empty()) << "no series";
        for (const ProgramSeries& one : *series) {
            const Report& report = one.report;
            const Assessment assessed = assessSeries(report);
            std::stringstream json;
            writeJson(json, report, assessed);
            auto fromJson = readJson(json);
            ASSERT_TRUE(fromJson.ok()) << "JSON: " << fromJson.error().message();
            expectSameRuns(report, *fromJson, name + " as JSON");
            ASSERT_TRUE(fromJson->program.has_value());
            EXPECT_EQ(fromJson->program->threads.size(), report.program->threads.size());
            EXPECT_EQ(fromJson->program->processes.size(), report.program->processes.size());
            EXPECT_EQ(fromJson->program->pids, report.program->pids);
            EXPECT_EQ(fromJson->program->notes, report.program->notes);

            std::stringstream csv;
            writeCsv(csv, report);
            auto fromCsv = readCsv(csv);
            ASSERT_TRUE(fromCsv.ok()) << "CSV: " << fromCsv.error().message();
            expectSameRuns(report, *fromCsv, name + " as CSV");

            std::stringstream trace;
            writeChromeTrace(trace, report, assessed);
            expectTraceReadable(trace.str(), report, name + " as a trace");
        }
        if (series->size() > 1) {
            const PlanReport plan = processComparison(std::move(*series));
            std::stringstream json;
            writeComparisonJson(json, plan, assessPlan(plan));
            auto back = readComparisonJson(json);
            ASSERT_TRUE(back.ok()) << "comparison: " << back.error().message();
            ASSERT_EQ(back->variants.size(), plan.variants.size());
            for (std::size_t v = 0; v < plan.variants.size(); ++v)
                expectSameRuns(plan.variants[v].report, back->variants[v].report, name + " as a comparison");
        }
    }
}

// A recording of `iterations` iterations of one thread, iteration `wideOne` launching a kernel on each of `streams`
// streams, the others on one.
std::string recordingOverStreams(int iterations, int wideOne, int streams)
{
    std::string text = "asyncscope-record 1\nprocess 100 1 /bin/prog\nclock 100 1000000000000 1000000000000\n"
                       "device 100 0 9 0 85017493504 132 3 1980000 13000 cb6fc5b3ba88f8efa907237bddf90e04 H100\n";
    std::uint64_t t = 1'000'000'100'000, correlation = 1;
    for (int i = 0; i < iterations; ++i) {
        for (int s = 0; s < (i == wideOne ? streams : 1); ++s, ++correlation, t += 1100) {
            text += "api 100 7 " + std::to_string(correlation) + " " + std::to_string(t) + " " +
                std::to_string(t + 1000) + " 0 1 cudaLaunchKernel_v7000\n";
            text += "kernel 100 0 1 " + std::to_string(10 + s) + " " + std::to_string(correlation) + " " +
                std::to_string(t + 2000) + " " + std::to_string(t + 3000) + " 0 1 1 _Z1kv\n";
        }
        text += "api 100 7 " + std::to_string(correlation++) + " " + std::to_string(t) + " " +
            std::to_string(t + 50000) + " 0 1 cudaDeviceSynchronize_v3020\n";
        t += 60000;
    }
    return text + "exit 100\n";
}

TEST(RecordingRoundTrip, ARunOverMoreStreamsThanAReportHoldsKeepsItsTotalsAndReadsBack)
{
    std::istringstream in(recordingOverStreams(3, 1, kMaxStreams + 4));
    auto recording = readRecording(in, "wide.record");
    ASSERT_TRUE(recording.ok()) << recording.error().message();
    ProgramInfo program;
    program.command = { "prog" };
    auto series = programSeries(*recording, {}, ProcessChoice {}, program);
    ASSERT_TRUE(series.ok()) << series.error().message();
    ASSERT_EQ(series->size(), 1u);
    const Report& report = series->front().report;
    ASSERT_EQ(report.runs.size(), 3u);
    EXPECT_FALSE(report.runs.has(1, SpanKind::Kernel));  // its totals alone
    EXPECT_GT(report.runs.gpuMs(1), 4.0);                  // 4100 kernels 1.1 µs apart
    EXPECT_TRUE(report.runs.has(2, SpanKind::Kernel));
    const auto& notes = report.program->notes;
    EXPECT_TRUE(std::any_of(notes.begin(), notes.end(),
        [](const std::string& n) { return n.find("1 run(s) used more than 4096 streams") != std::string::npos; }));
    std::stringstream json;
    writeJson(json, report, assessSeries(report));
    auto back = readJson(json);
    ASSERT_TRUE(back.ok()) << back.error().message();
    expectSameRuns(report, *back, "wide.record as JSON");
}

}  // namespace
}  // namespace asyncscope
