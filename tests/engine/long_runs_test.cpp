// A run of any number of operations (a large model's training step issues tens of thousands of kernels): format 4
// writes its spans over lines of their own after the run's line, each well within the readers' line limit, and
// every reader takes them back as one run; a line of more spans anywhere but after its run is refused, naming it.
#include "engine/io/json/json_report.hpp"
#include "engine/io/json/report_fields.hpp"
#include "engine/io/json/run_parser.hpp"

#include "classic_runs.hpp"
#include "json_text.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace asyncscope;
using asyncscope::testing::linesOf;
using asyncscope::testing::problemOf;

namespace {

constexpr std::size_t kKernels = 70000;
constexpr std::size_t kCalls = 40000;

// classicReport(3) with run 1 holding `kernels` kernels and `calls` traced calls.
Report withLongRun(std::size_t kernels, std::size_t calls)
{
    Report report = asyncscope::testing::classicReport(3);
    RunResult run = report.runs[1];
    run.spans.clear();
    for (std::size_t k = 0; k < kernels; ++k) {
        Span s;
        s.kind = SpanKind::Kernel;
        s.bytes = 4096;
        s.beginMs = double(k) * 0.001;
        s.endMs = s.beginMs + 0.0007;
        run.spans.push_back(s);
    }
    for (std::size_t k = 0; k < calls; ++k) {
        Span s;
        s.kind = SpanKind::Api;
        s.call = ApiCall::LaunchKernel;
        s.beginMs = double(k) * 0.002;
        s.endMs = s.beginMs + 0.0015;
        run.traced.push_back(s);
    }
    run.gpuMs = double(kernels) * 0.001;
    report.runs.set(1, run);
    return report;
}


}  // namespace

TEST(LongRuns, AreWrittenOverLinesWithinTheLimitAndReadBackWhole)
{
    const Report report = withLongRun(kKernels, kCalls);
    std::ostringstream out;
    writeJson(out, report, assessSeries(report));
    const std::vector<std::string> lines = linesOf(out.str());
    // The header, run 0, run 1 over ceil(70000 / 16384) = 5 lines, run 2.
    const std::size_t parts = (kKernels + json_fields::kSpansPerLine - 1) / json_fields::kSpansPerLine;
    ASSERT_EQ(lines.size(), 1 + 1 + parts + 1);
    for (const std::string& line : lines)
        EXPECT_LT(line.size(), json_read::kMaxLineBytes / 2);
    EXPECT_EQ(lines[3].rfind("{\"run\":1,\"more_spans\":[", 0), 0u) << lines[3].substr(0, 80);

    std::istringstream in(out.str());
    const auto back = readJson(in);
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_EQ(back->runs.size(), 3u);
    EXPECT_EQ(back->runs.spans(1).size(), kKernels);
    EXPECT_EQ(back->runs.traced(1).size(), kCalls);
    EXPECT_EQ(back->runs[1].spans.back().beginMs, report.runs[1].spans.back().beginMs);
    EXPECT_EQ(back->runs[1].traced.back().beginMs, report.runs[1].traced.back().beginMs);
    for (const std::size_t i : { std::size_t(0), std::size_t(2) }) {
        const RunResult was = report.runs[i];
        const RunResult read = back->runs[i];
        ASSERT_EQ(read.spans.size(), was.spans.size());
        for (std::size_t k = 0; k < was.spans.size(); ++k)
            EXPECT_TRUE(read.spans[k].kind == was.spans[k].kind && read.spans[k].endMs == was.spans[k].endMs);
    }
}

TEST(LongRuns, AreReadBackInADocumentToo)
{
    const Report report = withLongRun(kKernels, 0);
    std::ostringstream out;
    writeJsonDocument(out, report, assessSeries(report));
    std::istringstream in(out.str());
    const auto back = readJson(in);
    ASSERT_TRUE(back.ok()) << back.error().message();
    ASSERT_EQ(back->runs.size(), 3u);
    EXPECT_EQ(back->runs.spans(1).size(), kKernels);
    EXPECT_TRUE(back->runs.traced(1).empty());
}

TEST(LongRuns, MoreSpansAnywhereButAfterTheirRunAreRefusedNamingTheLine)
{
    const Report report = withLongRun(json_fields::kSpansPerLine + 10, 0);
    std::ostringstream out;
    writeJson(out, report, assessSeries(report));
    const std::vector<std::string> lines = linesOf(out.str());
    ASSERT_EQ(lines.size(), 5u);  // header, run 0, run 1, its more spans, run 2
    const std::string more = lines[3];
    // Before any run; after another run; with a run's fields beside it; not a list.
    EXPECT_EQ(problemOf(lines[0] + "\n" + more + "\n").rfind("line 2: it goes on with the spans of run 1, but the "
                                                              "runs have not begun",
                  0),
        0u);
    EXPECT_EQ(problemOf(lines[0] + "\n" + lines[1] + "\n" + more + "\n").rfind("line 3: it goes on with the spans of "
                                                                              "run 1, but the run before it is run 0",
                  0),
        0u);
    std::string mixed = more;
    mixed.replace(0, 9, "{\"run\":1,\"gpu_time_ms\":1,");
    EXPECT_NE(problemOf(lines[0] + "\n" + lines[2] + "\n" + mixed + "\n").find("holds the run's number and nothing "
                                                                              "else"),
        std::string::npos);
    EXPECT_EQ(problemOf(lines[0] + "\n" + lines[2] + "\n{\"run\":1,\"more_spans\":7}\n"),
        "run 1 (line 3): more_spans is not a list");
    EXPECT_EQ(problemOf(lines[0] + "\n" + lines[2] + "\n{\"run\":1,\"more_spans\":[],\"more_spans\":[]}\n"),
        "run 1 (line 3): more_spans is given twice; accepted: each field once");
}
