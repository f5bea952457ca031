// A million runs of the classic pipeline, written as the CLI writes them (JSON format 4 and CSV, spans included)
// and read back as the window opens them: every run there, a few of them compared whole. Each step's seconds are
// printed; the test asserts what is read, not how fast (a loaded machine is slower; asyncscope_bench_report_load
// measures).
// Its own executable and label (bigfiles), so it can be run alone: ctest -L bigfiles.
#include "classic_runs.hpp"

#include "engine/io/csv/csv_report.hpp"
#include "engine/io/json/json_report.hpp"
#include "engine/io/report_file.hpp"
#include "engine/model/advice.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace asyncscope;
using asyncscope::testing::classicReport;
using asyncscope::testing::classicRun;

namespace {

constexpr std::size_t kRuns = 1000000;

double secondsSince(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The stage and CPU times a run's spans give: what a CSV keeps of them.
double msOf(const RunResult& run, SpanKind kind)
{
    return run.has(kind) ? run.totalMs(kind) : -1.0;
}

}  // namespace

class BigFiles : public ::testing::TestWithParam<ReportFormat> { };

TEST_P(BigFiles, AMillionClassicRunsReadBack)
{
    const ReportFormat format = GetParam();
    const std::string path = ::testing::TempDir() + "/asyncscope-million-runs." + nameOf(format);
    PipelineConfig config;
    {
        const Report report = classicReport(kRuns);
        config = report.config;
        const auto start = std::chrono::steady_clock::now();
        std::ofstream out(path, std::ios::binary);
        format == ReportFormat::Csv ? writeCsv(out, report) : writeJson(out, report, assessSeries(report));
        out.close();
        ASSERT_TRUE(out) << path;
        std::printf("[ seconds  ] %s: %zu runs written in %.2f s (%.0f MB)\n", nameOf(format), kRuns,
            secondsSince(start), double(std::filesystem::file_size(path)) / 1e6);
    }
    if (format == ReportFormat::Json) {
        // Format 4: the header on line 1, then a run a line.
        std::ifstream in(path, std::ios::binary);
        std::string header, firstRun;
        std::getline(in, header);
        std::getline(in, firstRun);
        EXPECT_EQ(header.rfind("{\"format\":\"asyncscope-report\",\"format_version\":4,", 0), 0u);
        EXPECT_EQ(firstRun.rfind("{\"run\":0,\"warmup\":true,", 0), 0u) << firstRun;
    }

    int progressCalls = 0;
    const auto start = std::chrono::steady_clock::now();
    const auto read = readReportFile(path, [&](double) { ++progressCalls; });
    const double seconds = secondsSince(start);
    std::filesystem::remove(path);
    ASSERT_TRUE(read.ok()) << read.error().message();
    std::printf("[ seconds  ] %s: %zu runs read in %.2f s\n", nameOf(format), read->runs.size(), seconds);
    RecordProperty("read_seconds", std::to_string(seconds));
    EXPECT_LE(progressCalls, 101);

    ASSERT_EQ(read->runs.size(), kRuns);
    EXPECT_EQ(read->device.name, "NVIDIA H200");
    EXPECT_EQ(read->config.elements, config.elements);
    EXPECT_EQ(read->config.runs, int(kRuns) - 1);
    EXPECT_EQ(read->config.warmupRuns, 1);
    for (const int i : { 0, 1, 51234, 777777, int(kRuns) - 1 }) {
        SCOPED_TRACE(i);
        const RunResult expected = classicRun(i, config);
        const RunResult& run = read->runs[std::size_t(i)];
        EXPECT_EQ(run.index, expected.index);
        EXPECT_EQ(run.warmup, expected.warmup);
        EXPECT_EQ(run.gpuMs, expected.gpuMs);
        EXPECT_EQ(run.pollIterations, expected.pollIterations);
        EXPECT_EQ(run.waitCpuMs, expected.waitCpuMs);
        EXPECT_EQ(run.expectedValue, expected.expectedValue);
        EXPECT_EQ(run.verified, expected.verified);
        EXPECT_EQ(run.firstWrongIndex, expected.firstWrongIndex);
        if (format == ReportFormat::Json) {
            // JSON keeps the spans as they were.
            EXPECT_EQ(run.startMs, expected.startMs);
            ASSERT_EQ(run.spans.size(), expected.spans.size());
            for (std::size_t k = 0; k < expected.spans.size(); ++k) {
                const Span& a = expected.spans[k];
                const Span& b = run.spans[k];
                EXPECT_EQ(b.kind, a.kind) << k;
                EXPECT_EQ(b.device, a.device) << k;
                EXPECT_EQ(b.stream, a.stream) << k;
                EXPECT_EQ(b.bytes, a.bytes) << k;
                EXPECT_EQ(b.beginMs, a.beginMs) << k;
                EXPECT_EQ(b.endMs, a.endMs) << k;
            }
            continue;
        }
        // CSV keeps durations; the spans are laid end to end again (the check has no column).
        ASSERT_EQ(run.spans.size(), 5u);
        for (const SpanKind kind : { SpanKind::H2D, SpanKind::Kernel, SpanKind::D2H, SpanKind::Submit, SpanKind::Wait })
            EXPECT_NEAR(msOf(run, kind), msOf(expected, kind), 1e-12) << nameOf(kind);
        EXPECT_EQ(run.totalBytes(SpanKind::Kernel), 2 * config.bytes());
    }
}

INSTANTIATE_TEST_SUITE_P(BothFormats, BigFiles, ::testing::Values(ReportFormat::Json, ReportFormat::Csv),
    [](const ::testing::TestParamInfo<ReportFormat>& info) { return std::string(nameOf(info.param)); });
