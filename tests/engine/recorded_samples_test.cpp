// Recordings made on the GPU machines and kept as test data (tests/data/recordings; its README says how each was
// made), read and split as the recorder does: the samples' own printed event times are recorded runs' GPU times
// within 1 %, async.cu's streamed versions overlap copies with kernels and its sequential one does not, the built-in
// pipeline's runs are its NVTX ranges and agree with its own report, work on the legacy default stream beside a
// blocking stream is found where a program does it, and a recording without event lines (an earlier recorder's) times
// its operations alone.
#include "engine/io/report_file.hpp"
#include "engine/model/advice.hpp"
#include "engine/model/statistics.hpp"
#include "engine/record/iterations.hpp"
#include "engine/record/program_report.hpp"
#include "engine/record/recording.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

namespace asyncscope {
namespace {

std::string dataFile(const std::string& name)
{
    return std::string(ASYNCSCOPE_TEST_DATA) + "/recordings/" + name;
}

std::string textOf(const std::string& name)
{
    std::ifstream in(dataFile(name));
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

RecordedRuns splitOf(const std::string& name, const char* rule = "auto")
{
    auto recording = readRecordingFile(dataFile(name));
    EXPECT_TRUE(recording.ok()) << (recording ? "" : recording.error().message());
    return recording ? splitIterations(*recording, *parseIterationRule(rule)) : RecordedRuns {};
}

// Each "LABEL … NUMBER" the sample printed, in order.
std::vector<std::pair<std::string, double>> printed(const std::string& output, const std::string& pattern)
{
    std::vector<std::pair<std::string, double>> found;
    const std::regex line(pattern);
    for (auto it = std::sregex_iterator(output.begin(), output.end(), line); it != std::sregex_iterator(); ++it)
        found.emplace_back((*it)[1].str(), std::stod((*it)[2].str()));
    return found;
}

int streamsOf(const RunResult& run)
{
    int most = 0;
    for (const Span& s : run.spans)
        if (onGpu(s.kind))
            most = std::max(most, s.stream + 1);
    return most;
}

TEST(RecordedSamples, AsyncApisPrintedGpuTimeAndPollCountAreItsRecordedRuns)
{
    const RecordedRuns split = splitOf("asyncAPI.record");
    EXPECT_EQ(split.how, "host synchronizations");
    ASSERT_EQ(split.runs.size(), 2u);  // its set-up (a memset, then cudaDeviceSynchronize), then the pipeline
    EXPECT_TRUE(split.runs[0].warmup) << "the set-up runs no kernel: a warm-up run";
    EXPECT_FALSE(split.runs[1].warmup);
    const RunResult& run = split.runs[1];
    const std::string output = textOf("asyncAPI.stdout.txt");
    const auto gpu = printed(output, "(time spent executing by the GPU): ([0-9.]+)");
    ASSERT_EQ(gpu.size(), 1u) << output;
    // Printed to two decimals: within 1 % or half its last digit.
    EXPECT_NEAR(run.gpuMs, gpu[0].second, std::max(0.01 * gpu[0].second, 0.005));
    const auto polls = printed(output, "(CPU executed) ([0-9]+) iterations while waiting");
    ASSERT_EQ(polls.size(), 1u);
    EXPECT_EQ(double(run.pollIterations), polls[0].second);  // its loop counts the polls that found the GPU busy
    EXPECT_TRUE(run.has(SpanKind::H2D) && run.has(SpanKind::Kernel) && run.has(SpanKind::D2H));
    EXPECT_EQ(run.totalBytes(SpanKind::H2D), 64u << 20);
    EXPECT_EQ(streamsOf(run), 1);
}

TEST(RecordedSamples, AsyncCusThreeVersionsAreItsRunsAndTheStreamedOnesOverlap)
{
    const RecordedRuns split = splitOf("async.record");
    ASSERT_EQ(split.runs.size(), 3u);
    EXPECT_FALSE(split.runs[0].warmup) << "its sequential version runs a kernel: measured, not set-up";
    const auto times = printed(textOf("async.stdout.txt"), "(Time for [A-Za-z0-9 ]+ transfer and execute) \\(ms\\): "
                                                           "([0-9.]+)");
    ASSERT_EQ(times.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_NEAR(split.runs[i].gpuMs / times[i].second, 1.0, 0.01) << times[i].first;
    EXPECT_FALSE(split.runs[0].copiesOverlapKernels()) << "sequential: cudaMemcpy, kernel, cudaMemcpy";
    // Its first version begins at its start event: the context's creation and the allocations before it (over
    // 100 ms) are not the iteration's CPU submit time.
    EXPECT_LT(split.runs[0].cpuSubmitMs(), 5.0);
    EXPECT_EQ(streamsOf(split.runs[0]), 1);
    for (std::size_t i = 1; i < 3; ++i) {
        EXPECT_TRUE(split.runs[i].copiesOverlapKernels()) << times[i].first;
        EXPECT_EQ(streamsOf(split.runs[i]), 4) << times[i].first;
        EXPECT_LT(split.runs[i].gpuMs, 0.6 * split.runs[0].gpuMs) << "the overlap its article describes";
    }

    // The advice: its sequential version's blocking copies are named; its median iteration already overlaps.
    auto recording = readRecordingFile(dataFile("async.record"));
    ASSERT_TRUE(recording.ok());
    ProgramInfo program;
    program.command = { "./async" };
    const Report report = programReport(*recording, split, program);
    const Advice advice = assessSeries(report).advice;
    const auto has = [&](std::string_view rule) {
        return std::any_of(advice.findings.begin(), advice.findings.end(),
            [rule](const Finding& f) { return f.rule == rule; });
    };
    EXPECT_TRUE(has(rules::kSynchronousCopies));
    EXPECT_FALSE(has(rules::kSerializedCopies));
    EXPECT_FALSE(has(rules::kPageableCopies));  // its host buffer is pinned (cudaMallocHost)
    // Its sequential version works on the legacy default stream alone, its streamed ones on streams of their own:
    // no iteration mixes the two, so none waits on the other.
    ASSERT_TRUE(split.copies.defaultStream.has_value()) << "the recording has the program's stream lines";
    EXPECT_EQ(*split.copies.defaultStream, 0u);
    EXPECT_FALSE(has(rules::kDefaultStream));
    // Its versions differ on purpose: their spread is said to be the program's work, not the measurement's noise.
    const auto noisy = std::find_if(advice.findings.begin(), advice.findings.end(),
        [](const Finding& f) { return f.rule == rules::kNoisy; });
    ASSERT_NE(noisy, advice.findings.end());
    EXPECT_EQ(noisy->severity, Severity::Info);
    EXPECT_NE(noisy->evidence.find("different work (2 kinds among 3 iterations"), std::string::npos)
        << noisy->evidence;
}

TEST(RecordedSamples, AKernelOnTheDefaultStreamBesideABlockingStreamIsFoundInEachIteration)
{
    // tests/gpu/default_stream_app.cu: each of 20 iterations copies on a blocking stream of its own and runs its
    // kernel on the legacy default stream.
    auto recording = readRecordingFile(dataFile("default_stream.record"));
    ASSERT_TRUE(recording.ok()) << recording.error().message();
    EXPECT_TRUE(std::any_of(recording->streams.begin(), recording->streams.end(),
        [](const RecordedStream& st) { return st.flag == kNullStreamFlag; }))
        << "CUPTI names the legacy default stream";
    const RecordedRuns split = splitOf("default_stream.record");
    ASSERT_EQ(split.runs.size(), 20u);
    const auto printedCount = printed(textOf("default_stream.stdout.txt"), "(default_stream_app): ([0-9]+) iterations");
    ASSERT_EQ(printedCount.size(), 1u);
    EXPECT_EQ(double(split.runs.size()), printedCount[0].second);
    ASSERT_TRUE(split.copies.defaultStream.has_value());
    EXPECT_EQ(*split.copies.defaultStream, 20u) << "one kernel an iteration";
    EXPECT_EQ(split.copies.defaultStreamIterations, 20u);
    for (const RunResult& run : split.runs)
        EXPECT_EQ(streamsOf(run), 2) << "its own stream and the default stream";

    ProgramInfo program;
    program.command = { "./default_stream" };
    const Advice advice = assessSeries(programReport(*recording, split, program)).advice;
    const auto finding = std::find_if(advice.findings.begin(), advice.findings.end(),
        [](const Finding& f) { return f.rule == rules::kDefaultStream; });
    ASSERT_NE(finding, advice.findings.end());
    EXPECT_NE(finding->evidence.find("20 of 20 iterations"), std::string::npos) << finding->evidence;
    for (const Finding& f : advice.findings)  // its iterations are alike: any spread is not put down to their work
        EXPECT_EQ(f.evidence.find("different work"), std::string::npos) << f.evidence;

    // The report the recorder wrote of it (`record --from default_stream.record --format json`) reads back with the
    // same counts.
    auto kept = readReportFile(dataFile("default_stream.json"));
    ASSERT_TRUE(kept.ok()) << kept.error().message();
    ASSERT_TRUE(kept->program.has_value());
    EXPECT_EQ(kept->program->copies.defaultStream, std::optional<std::uint64_t>(20));
    EXPECT_EQ(kept->program->copies.defaultStreamIterations, 20u);
    EXPECT_EQ(kept->runs.size(), 20u);
}

TEST(RecordedSamples, TheBuiltInPipelinesRunsAreItsNvtxRangesAndAgreeWithItsOwnReport)
{
    const RecordedRuns split = splitOf("builtin50.record");
    EXPECT_EQ(split.how, "NVTX range 'AsyncScope run'");
    auto own = readReportFile(dataFile("builtin50.json"));
    ASSERT_TRUE(own.ok()) << own.error().message();
    ASSERT_EQ(split.runs.size(), own->runs.size());  // its warm-up is a range too
    std::vector<double> ratios;
    for (std::size_t i = 0; i < split.runs.size(); ++i)
        ratios.push_back(split.runs[i].gpuMs / own->runs.gpuMs(i));
    // Run by run: the recorded GPU time spans the engine's own start and stop events.
    for (std::size_t i = 0; i < ratios.size(); ++i)
        EXPECT_NEAR(ratios[i], 1.0, 0.01) << "run " << i;
    EXPECT_NEAR(summarize(ratios).median, 1.0, 0.001);
}

TEST(RecordedSamples, WithoutEventLinesARunSpansItsOperationsOnly)
{
    // Recorded on the H200 before the recorder sent the program's events: each version's GPU time is its first
    // copy's start to its last copy's end, which misses the sample's gap between its start event and its first
    // copy (a few percent of these short versions).
    const RecordedRuns split = splitOf("h200-async-no-events.record");
    ASSERT_EQ(split.runs.size(), 3u);
    const auto times = printed(textOf("h200-async-no-events.stdout.txt"),
        "(Time for [A-Za-z0-9 ]+ transfer and execute) \\(ms\\): ([0-9.]+)");
    ASSERT_EQ(times.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_LT(split.runs[i].gpuMs, times[i].second) << times[i].first;
        EXPECT_GT(split.runs[i].gpuMs, 0.95 * times[i].second) << times[i].first;
    }
}

}  // namespace
}  // namespace asyncscope
